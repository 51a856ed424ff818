import type { Kysely } from 'kysely';
import type { BlockData, CreateBlockBody, CreateBlockOutcome, WireBlock } from '../../../schema/block';
import { newId } from '../../../schema/ids';
import type { Database, PageRow } from '../../db/types';
import type { DomainEvent } from '../../events/events';
import { assertWritable, authorizePage } from '../../policies/page';
import { findBlock, insertBlock, isInSubtree, presentBlock, reviveBlock, sortKeyAfter } from '../../repositories/blocks';
import { loadPage } from '../../repositories/pages';
import { blockChange, blockExists, canonicalData, checkPlacement, position, takenId } from './blockChange';
import { AppError, invalid } from '../../errors';
import { assertRelationsKept } from '../databases/relations';
import type { DatabaseData } from '../../../schema/blocks/database';

/**
 * Makes a block on a page the caller may edit, under `parentId` after `placeAfter` (checked
 * inside the page's block lock). A deleted block of the same page may be made again with its id
 * (an undone delete, revived in place); any other taken id is 409 block.already_exists, with the
 * server's block when the caller may see it. Answers the block made, and its event.
 */
export async function createBlock(
  db: Kysely<Database>,
  userId: string,
  body: CreateBlockBody,
  origin: string | null,
): Promise<{ block: WireBlock; events: DomainEvent[] }> {
  const page = await editablePage(db, userId, body.pageId);
  const { block, at } = await createOnPage(db, page, userId, body, origin);
  return { block, events: [{ kind: 'blocksAdded', pageId: page.id, blocks: [block], at }] };
}

/**
 * Makes several blocks of one page, in order, each as `createBlock` would (one may follow one made
 * before it here): a block refused is answered with its error and the others are made. One event
 * for all of them. An unexpected failure (a 5xx) stops there: `failure`, with the event of the
 * blocks made before it, which the caller sends before answering the error.
 */
export async function createBlocks(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  items: ReadonlyArray<Omit<CreateBlockBody, 'pageId'> & { id: string }>,
  origin: string | null,
): Promise<{ outcomes: CreateBlockOutcome[]; events: DomainEvent[]; failure?: unknown }> {
  const page = await editablePage(db, userId, pageId);
  const outcomes: CreateBlockOutcome[] = [];
  const made: WireBlock[] = [];
  let first = '';
  let failure: unknown;
  for (const item of items) {
    try {
      const { block, at } = await createOnPage(db, page, userId, { ...item, pageId }, origin);
      made.push(block);
      // The add is as old as its first block (a move of it made meanwhile is newer).
      if (!first) first = at;
      outcomes.push({ id: item.id, status: 'created', block });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) {
        // The blocks made before it are stored: their event still goes (the caller sends it, then the error).
        failure = error;
        break;
      }
      // A taken id: the server's block, as POST block answers it.
      const block = error.statusCode === 409 && error.data ? (error.data as WireBlock) : undefined;
      outcomes.push({
        id: item.id,
        status: 'refused',
        error: { status: error.statusCode, code: error.code, message: error.message },
        ...(block ? { block } : {}),
      });
    }
  }
  const events: DomainEvent[] = made.length > 0 ? [{ kind: 'blocksAdded', pageId, blocks: made, at: first }] : [];
  return failure === undefined ? { outcomes, events } : { outcomes, events, failure };
}

/** The page, when the caller may edit it and it is not in the trash (`assertWritable`). */
async function editablePage(db: Kysely<Database>, userId: string, pageId: string): Promise<PageRow> {
  const page = await loadPage(db, pageId);
  await authorizePage(db, userId, page, 'edit');
  await assertWritable(db, page);
  return page;
}

/** One block made on a page the caller may edit (`createBlock`), and when it was stored. */
async function createOnPage(
  db: Kysely<Database>,
  page: PageRow,
  userId: string,
  body: CreateBlockBody,
  origin: string | null,
): Promise<{ block: WireBlock; at: string }> {
  const parentId = body.parentId ?? null;
  const data = canonicalData(body.type, body.data as BlockData);
  const id = body.id ?? newId();
  const row = await blockChange(db, page.id, async (trx) => {
    const { parent, after } = await position(trx, page.id, parentId, body.placeAfter);
    checkPlacement(body.type, parent);
    const existing = await findBlock(trx, id);
    // A relation to another database is made through the fields' calls; one brought back (an undo) keeps what it had.
    if (body.type === 'database')
      assertRelationsKept(
        existing && existing.page_id === page.id && existing.type === 'database' ? (JSON.parse(existing.data) as DatabaseData).config : null,
        (data as DatabaseData).config,
      );
    if (existing && existing.page_id === page.id && existing.deleted_at !== null) {
      if (parentId !== null && (await isInSubtree(trx, existing, parentId))) throw invalid('a block cannot sit under its own descendant');
      const sortKey = await sortKeyAfter(trx, page.id, parentId, after);
      const revived = await reviveBlock(trx, existing, { parentId, sortKey, type: body.type, data, userId, origin });
      if (!revived) throw await blockExists(trx, (await findBlock(trx, id)) ?? existing, page.id);
      return revived;
    }
    if (existing) throw await blockExists(trx, existing, page.id);
    return insertBlock(trx, {
      id,
      pageId: page.id,
      parentId,
      sortKey: await sortKeyAfter(trx, page.id, parentId, after),
      type: body.type,
      data,
      userId,
      origin,
    });
  }).catch(takenId(db, id, page.id));
  return { block: await presentBlock(db, row), at: row.updated_at };
}
