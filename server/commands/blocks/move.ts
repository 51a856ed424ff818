import type { Kysely } from 'kysely';
import type { WireBlock } from '../../../schema/block';
import type { Database } from '../../db/types';
import type { DomainEvent } from '../../events/events';
import { invalid } from '../../errors';
import { isInSubtree, moveBlockRow, presentBlock, sortKeyAfter } from '../../repositories/blocks';
import { authorizedBlock, blockChange, checkPlacement, position, reloadLive } from './blockChange';

/**
 * Moves a block (and its children) under `parentId` (null: the top level), after `placeAfter`
 * (null: first). Judged on the blocks as they are inside the page's block lock: of two moves
 * that would each be fine alone (b1 under b2, b2 under b1) the second sees the first and is
 * refused. Answers the block as moved.
 */
export async function moveBlock(
  db: Kysely<Database>,
  userId: string,
  id: string,
  to: { parentId?: string | null; placeAfter?: string | null },
): Promise<{ block: WireBlock; events: DomainEvent[] }> {
  const block = await authorizedBlock(db, userId, id, 'edit');
  const parentId = to.parentId ?? null;
  // The block as the move left it, read before the commit: a delete of its new parent that comes
  // right after takes it too, yet the move was made (200, not a 404 read after the fact).
  const moved = await blockChange(db, block.page_id, async (trx) => {
    const current = await reloadLive(trx, block.id);
    const { parent, after } = await position(trx, current.page_id, parentId, to.placeAfter);
    if (parentId !== null && (await isInSubtree(trx, current, parentId))) {
      throw invalid('a block cannot move under itself or its own descendant');
    }
    if (after?.id === current.id) throw invalid('a block cannot be placed after itself');
    checkPlacement(current.type, parent);
    const sortKey = await sortKeyAfter(trx, current.page_id, parentId, after);
    await moveBlockRow(trx, current.id, parentId, sortKey, userId);
    return reloadLive(trx, current.id);
  });
  const present = await presentBlock(db, moved);
  return { block: present, events: [{ kind: 'blockChanged', block: present, at: moved.updated_at }] };
}
