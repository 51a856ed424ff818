import type { Kysely } from 'kysely';
import type { BlockData, CreateBlockBody, WireBlock } from '../../../schema/block';
import { newId } from '../../../schema/ids';
import type { Database } from '../../db/types';
import type { DomainEvent } from '../../events/events';
import { assertNotInTrash, authorizePage } from '../../policies/page';
import { findBlock, insertBlock, isInSubtree, presentBlock, reviveBlock, sortKeyAfter } from '../../repositories/blocks';
import { loadPage } from '../../repositories/pages';
import { blockChange, blockExists, canonicalData, checkPlacement, position, takenId } from './blockChange';
import { invalid } from '../../errors';

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
  const page = await loadPage(db, body.pageId);
  await authorizePage(db, userId, page, 'edit');
  assertNotInTrash(page);
  const parentId = body.parentId ?? null;
  const data = canonicalData(body.type, body.data as BlockData);
  const id = body.id ?? newId();
  const row = await blockChange(db, page.id, async (trx) => {
    const { parent, after } = await position(trx, page.id, parentId, body.placeAfter);
    checkPlacement(body.type, parent);
    const existing = await findBlock(trx, id);
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
  const block = await presentBlock(db, row);
  return { block, events: [{ kind: 'blocksAdded', pageId: row.page_id, blocks: [block], at: row.updated_at }] };
}
