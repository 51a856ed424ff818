import type { Kysely } from 'kysely';
import { newId } from '../../../schema/ids';
import type { WireBlock } from '../../../schema/block';
import type { Database } from '../../db/types';
import type { DomainEvent } from '../../events/events';
import { cloneBlockTree, findBlock, listSubtree } from '../../repositories/blocks';
import { authorizedBlock, blockChange, blockExists, reloadLive, takenId } from './blockChange';

/** Deep-copies a block and its children right after it (`id`: the copy's, a fresh one by default; a taken one is 409). Answers the copy's blocks. */
export async function cloneBlock(
  db: Kysely<Database>,
  userId: string,
  sourceId: string,
  id: string = newId(),
): Promise<{ blocks: WireBlock[]; events: DomainEvent[] }> {
  const block = await authorizedBlock(db, userId, sourceId, 'edit');
  const root = await blockChange(db, block.page_id, async (trx) => {
    const existing = await findBlock(trx, id);
    if (existing) throw await blockExists(trx, existing, block.page_id);
    return cloneBlockTree(trx, await reloadLive(trx, block.id), id, userId);
  }).catch(takenId(db, id, block.page_id));
  const blocks = await listSubtree(db, root);
  return { blocks, events: [{ kind: 'blocksAdded', pageId: block.page_id, blocks, at: root.updated_at }] };
}
