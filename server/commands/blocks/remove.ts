import type { Kysely } from 'kysely';
import type { DeleteBlockOutcome, WireBlock } from '../../../schema/block';
import { ERROR_CODES } from '../../../schema/errors';
import type { BlockRow, Database } from '../../db/types';
import type { DomainEvent } from '../../events/events';
import { AppError, invalid, notFound } from '../../errors';
import { findBlock, listSubtree, presentBlock, restoreBlockTree, softDeleteBlockTree, softDeleteBlockTrees } from '../../repositories/blocks';
import { loadPage } from '../../repositories/pages';
import { assertWritable, authorizePage } from '../../policies/page';
import { nowIso } from '../../time';
import { authorizedBlock, blockChange, checkPlacement, reloadLive } from './blockChange';

/**
 * Deletes a block and its children (restorable). With `base`, only while the block is still at
 * that version: someone changed it since the deleter saw it (typed into a paragraph being merged
 * away) and their text is not thrown away unseen — 422 block.version_conflict with the block, as
 * for an update. A retry of the deleter's own later write (`origin`) is not a conflict
 * (docs/realtime.md). Answers the block and the ids removed.
 */
export async function deleteBlock(
  db: Kysely<Database>,
  userId: string,
  id: string,
  base: number | undefined,
  origin: string | null,
): Promise<{ block: BlockRow; events: DomainEvent[] }> {
  const block = await authorizedBlock(db, userId, id, 'edit');
  const removed = await blockChange(db, block.page_id, async (trx) => {
    const current = await reloadLive(trx, block.id);
    const deleted = await softDeleteBlockTree(trx, current, base === undefined ? undefined : { base, origin });
    if (deleted) return deleted;
    const now = await reloadLive(trx, block.id);
    throw new AppError(422, ERROR_CODES.blockVersionConflict, 'the block changed since it was deleted here', undefined, await presentBlock(trx, now));
  });
  return { block, events: [{ kind: 'blocksRemoved', pageId: block.page_id, removed, at: nowIso() }] };
}

/**
 * Deletes several blocks of one page in one transaction, each as `deleteBlock` would (with its
 * children, only while still at its `version` when one is given), and answers each one's
 * outcome: deleted, gone (not a live block of the page: deleted already, or elsewhere), or
 * conflict with the block as it is now. One refused block does not hold up the rest.
 */
export async function deleteBlocks(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  items: ReadonlyArray<{ id: string; version?: number }>,
  origin: string | null,
): Promise<{ outcomes: DeleteBlockOutcome[]; events: DomainEvent[] }> {
  const page = await loadPage(db, pageId);
  await authorizePage(db, userId, page, 'edit');
  await assertWritable(db, page);
  const removed: Array<{ id: string; version: number }> = [];
  const outcomes = await blockChange(db, pageId, async (trx) => {
    const results = await softDeleteBlockTrees(
      trx,
      pageId,
      items.map(({ id, version }) => ({ id, guard: version === undefined ? undefined : { base: version, origin } })),
    );
    const out: DeleteBlockOutcome[] = [];
    for (const [i, result] of results.entries()) {
      const { id } = items[i];
      if (result === 'gone') out.push({ id, status: 'gone' });
      else if (result === 'conflict') out.push({ id, status: 'conflict', block: await presentBlock(trx, await reloadLive(trx, id)) });
      else {
        removed.push(...result);
        out.push({ id, status: 'deleted' });
      }
    }
    return out;
  });
  return { outcomes, events: removed.length > 0 ? [{ kind: 'blocksRemoved', pageId, removed, at: nowIso() }] : [] };
}

/** Restores a deleted block and its children in place, once its parent is live again (422 before). Answers the blocks back. */
export async function restoreBlock(db: Kysely<Database>, userId: string, id: string): Promise<{ blocks: WireBlock[]; events: DomainEvent[] }> {
  const block = await authorizedBlock(db, userId, id, 'edit', true);
  await blockChange(db, block.page_id, async (trx) => {
    const current = await findBlock(trx, block.id);
    if (!current) throw notFound('block');
    const parent = current.parent_id ? await findBlock(trx, current.parent_id) : null;
    if (parent === undefined || (parent && parent.deleted_at !== null)) throw invalid('the parent block is deleted: restore it first');
    // The parent may have changed type since (a revived id): the block must still fit under it.
    checkPlacement(current.type, parent);
    await restoreBlockTree(trx, current);
  });
  const blocks = await listSubtree(db, { ...block, deleted_at: null });
  return { blocks, events: [{ kind: 'blocksAdded', pageId: block.page_id, blocks, at: nowIso() }] };
}
