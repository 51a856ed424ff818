import type { Kysely } from 'kysely';
import { newId } from '../../../schema/ids';
import type { Database } from '../../db/types';
import { cloneBlockTree, findBlock, listSubtree } from '../../repositories/blocks';
import { authorizedBlock, blockChange, blockExists, reloadLive, takenId } from './blockChange';

/** Deep-copies a block and its children right after it (`id`: the copy's, a fresh one by default; a taken one is 409). Answers the copy's blocks. */
export async function cloneBlock(db: Kysely<Database>, userId: string, sourceId: string, id: string = newId()) {
  const block = await authorizedBlock(db, userId, sourceId, 'edit');
  const root = await blockChange(db, block.page_id, async (trx) => {
    const existing = await findBlock(trx, id);
    if (existing) throw await blockExists(trx, existing, block.page_id);
    return cloneBlockTree(trx, await reloadLive(trx, block.id), id, userId);
  }).catch(takenId(db, id, block.page_id));
  return { pageId: block.page_id, root, blocks: await listSubtree(db, root) };
}
