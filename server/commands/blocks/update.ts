import { scopeKey } from '../../auth/tokenScope';
import type { Kysely } from 'kysely';
import type { BlockData, UpdateBlockBody, WireBlock } from '../../../schema/block';
import type { DatabaseData } from '../../../schema/blocks';
import { ERROR_CODES } from '../../../schema/errors';
import { EpochCache, type ChangeWatch } from '../../db/changeWatch';
import type { Database } from '../../db/types';
import type { DomainEvent } from '../../events/events';
import { AppError, invalid, notFound } from '../../errors';
import { allows } from '../../../schema/policies/page';
import { isWritable, pageAccessLevel } from '../../policies/page';
import {
  FIXED_BLOCK_TYPES,
  findBlock,
  findLiveBlock,
  presentBlock,
  pruneRowValues,
  updateBlockIfVersion,
  updateContentIfVersion,
} from '../../repositories/blocks';
import { findPage } from '../../repositories/pages';
import { nowIso } from '../../time';
import { assertRelationsKept } from '../databases/relations';
import { authorizedBlock, blockChange, canonicalData, checkPlacement } from './blockChange';

const FIXED_TYPES: ReadonlySet<string> = new Set(FIXED_BLOCK_TYPES);

/** What an update did: the block as the wire shows it, and its events (a database's change may also have cleared cells of its rows: its views read them again). */
export interface BlockUpdate {
  block: WireBlock;
  events: DomainEvent[];
}

function updated(block: WireBlock, at: string, databaseChanged: boolean): BlockUpdate {
  const events: DomainEvent[] = [{ kind: 'blockChanged', block, at }];
  if (databaseChanged) events.push({ kind: 'rowsChanged', holderId: block.pageId, databaseId: block.id, change: { kind: 'reset' }, at });
  return { block, events };
}

export type UpdateBlock = (userId: string, id: string, body: UpdateBlockBody, origin: string | null) => Promise<BlockUpdate>;

/**
 * The block update (optimistic concurrency on `version`), with its hot-path caches: a debounced
 * keystroke answers from memory who may edit what (docs/adr/0004-hot-path-caches.md; a block
 * stays on the page it was made on for life) and writes in one statement. Anything else (gone,
 * no access, trash, a database, a stale version) takes the full path, which checks everything
 * against the database and answers exactly: 404, 403, 409 page.in_trash, 422 for a type a block
 * cannot take, 422 block.version_conflict with the server's block.
 */
export function blockUpdater(db: Kysely<Database>, changes: ChangeWatch, cacheTtlMs: number): UpdateBlock {
  const pageOfBlock = new EpochCache<string, string | undefined>(changes, cacheTtlMs);
  const editablePage = new EpochCache<string, boolean>(changes, cacheTtlMs);
  const mayEditPage = (userId: string, pageId: string): boolean | Promise<boolean> => {
    // A workspace token's request must not take what a sign-in without one worked out (server/auth/tokenScope.ts).
    const key = `${scopeKey()}\n${userId}\n${pageId}`;
    return (
      editablePage.peek(key) ??
      editablePage.get(key, async () => {
        const page = await findPage(db, pageId);
        return page !== undefined && (await isWritable(db, page)) && allows(await pageAccessLevel(db, userId, page), 'edit');
      })
    );
  };

  return async (userId, id, body, origin) => {
    if (!FIXED_TYPES.has(body.type)) {
      // Typing: one statement when the caller may edit and the version is current.
      const pageId =
        pageOfBlock.peek(id) ??
        (await pageOfBlock.get(
          id,
          async () => (await findBlock(db, id))?.page_id,
          (found) => found !== undefined,
        ));
      const may = pageId === undefined ? false : mayEditPage(userId, pageId);
      if (may === true || (may !== false && (await may))) {
        const at = nowIso();
        const written = await updateContentIfVersion(db, id, body.version, body.type, canonicalData(body.type, body.data as BlockData), userId, origin, at);
        if (written) return updated(written, at, false);
      }
    }
    const block = await authorizedBlock(db, userId, id, 'edit');
    if (body.type !== block.type && (FIXED_TYPES.has(body.type) || FIXED_TYPES.has(block.type))) {
      throw invalid(`a ${block.type} block cannot become ${body.type}: databases and rows keep their type`);
    }
    const data = canonicalData(body.type, body.data as BlockData);
    const at = nowIso();
    let version: number | null;
    if (FIXED_TYPES.has(body.type)) {
      // A row's values are checked against its database's fields, and a database's change prunes
      // its rows: both under the page's block lock, so neither judges by a stale copy of the other.
      version = await blockChange(db, block.page_id, async (trx) => {
        const current = await findBlock(trx, block.id);
        // Which database a relation names, and its pair, change through the fields' calls (docs/relations.md).
        if (body.type === 'database') assertRelationsKept(current ? (JSON.parse(current.data) as DatabaseData).config : null, (data as DatabaseData).config);
        const parentId = current?.parent_id ?? block.parent_id;
        const parent = parentId ? ((await findBlock(trx, parentId)) ?? null) : null;
        checkPlacement(body.type, parent);
        const next = await updateBlockIfVersion(trx, block.id, body.version, body.type, data, userId, origin, at);
        if (next !== null && body.type === 'database') await pruneRowValues(trx, block.id, (data as DatabaseData).config, userId);
        return next;
      });
    } else {
      // One statement is atomic on its own: the hot path (every debounced keystroke) takes no lock.
      const parent = block.parent_id ? ((await findBlock(db, block.parent_id)) ?? null) : null;
      checkPlacement(body.type, parent);
      version = await updateBlockIfVersion(db, block.id, body.version, body.type, data, userId, origin, at);
    }
    if (version === null) {
      const current = await findLiveBlock(db, block.id);
      if (!current) throw notFound('block');
      throw new AppError(422, ERROR_CODES.blockVersionConflict, 'the block changed since this edit was made', undefined, await presentBlock(db, current));
    }
    return updated(await presentBlock(db, { ...block, type: body.type, data: JSON.stringify(data), version }), at, body.type === 'database');
  };
}
