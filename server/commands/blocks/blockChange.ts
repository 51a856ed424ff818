import type { Kysely, Transaction } from 'kysely';
import type { BlockData } from '../../../schema/block';
import { definitionForWireType, type BlockWireType } from '../../../schema/blocks';
import { ERROR_CODES } from '../../../schema/errors';
import { lockBlocks } from '../../db/locks';
import type { BlockRow, Database, PageRow } from '../../db/types';
import { AppError, invalid, isUniqueViolation, notFound } from '../../errors';
import type { PageAction } from '../../../schema/policies/page';
import { assertWritable, authorizePage, writablePage } from '../../policies/page';
import { findBlock, findLiveBlock, presentBlock } from '../../repositories/blocks';
import { loadPage } from '../../repositories/pages';

/** Stores data in canonical form, so every reader sees what Slate would keep. */
export function canonicalData(type: BlockWireType, data: BlockData): BlockData {
  const definition = definitionForWireType(type);
  return definition ? (definition.canonicalize(data) as BlockData) : data;
}

/**
 * Rows of a database are pages now (docs/api/databases.md): a `databaseRow` block is not made
 * any more, and a database block holds no blocks.
 */
export function checkPlacement(type: string, parent: BlockRow | null): void {
  if (type === 'databaseRow') throw invalid('rows of a database are made with POST database/{id}/rows (docs/api/databases.md)');
  if (parent?.type === 'database') throw invalid('a database holds no blocks: its rows are made with POST database/{id}/rows');
}

/**
 * A block, authorized on its page for the action. A write into a page in the trash (or held by a
 * page in the trash: `assertWritable`) is 409 page.in_trash. A deleted block answers 404 (after the access check, so an outsider learns
 * nothing about it) unless `allowDeleted`.
 */
export async function authorizedBlock(db: Kysely<Database>, userId: string, id: string, action: PageAction, allowDeleted = false): Promise<BlockRow> {
  const block = await findBlock(db, id);
  if (!block) throw notFound('block');
  const page = await loadPage(db, block.page_id);
  await authorizePage(db, userId, page, action);
  if (action !== 'read') await assertWritable(db, page);
  if (block.deleted_at !== null && !allowDeleted) throw notFound('block');
  return block;
}

/**
 * Runs a change of a page's blocks in one transaction holding the page's block lock, with the
 * page read again there (404 when gone, 409 page.in_trash when in the trash; `work` gets it). Every position,
 * cycle and database check is made inside, on the blocks as they are then (see
 * docs/adr/0003-concurrency.md). Only `trx` may be used inside: on SQLite the transaction holds
 * the one connection.
 */
export function blockChange<T>(db: Kysely<Database>, pageId: string, work: (trx: Transaction<Database>, page: PageRow) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockBlocks(trx, pageId);
    return work(trx, await writablePage(trx, pageId));
  });
}

/** A live block read again inside a block change: it may have been deleted meanwhile (404). */
export async function reloadLive(trx: Transaction<Database>, id: string): Promise<BlockRow> {
  const block = await findLiveBlock(trx, id);
  if (!block) throw notFound('block');
  return block;
}

/** A block id named in a body must be a live block of the same page. */
async function blockInPage(db: Kysely<Database>, id: string, pageId: string, what: string): Promise<BlockRow> {
  const block = await findLiveBlock(db, id);
  if (!block || block.page_id !== pageId) throw invalid(`${what} is not a block of this page`);
  return block;
}

/** The parent and the previous sibling named in a body, checked against each other. */
export async function position(db: Kysely<Database>, pageId: string, parentId: string | null, placeAfter: string | null | undefined) {
  const parent = parentId ? await blockInPage(db, parentId, pageId, 'parentId') : null;
  const after = placeAfter ? await blockInPage(db, placeAfter, pageId, 'placeAfter') : null;
  if (after && after.parent_id !== parentId) throw invalid('placeAfter is not a child of parentId');
  return { parent, after };
}

/** A taken id: 409 with the server's block when the caller may see it (same page, live). */
export async function blockExists(db: Kysely<Database>, existing: BlockRow, pageId: string): Promise<AppError> {
  const visible = existing.page_id === pageId && existing.deleted_at === null;
  return new AppError(409, ERROR_CODES.blockExists, 'a block with this id exists', undefined, visible ? await presentBlock(db, existing) : null);
}

/** A parallel create with the same id (on another page, outside this page's lock) got there first. */
export function takenId(db: Kysely<Database>, id: string, pageId: string) {
  return async (error: unknown): Promise<never> => {
    const winner = isUniqueViolation(error) ? await findBlock(db, id) : undefined;
    throw winner ? await blockExists(db, winner, pageId) : error;
  };
}
