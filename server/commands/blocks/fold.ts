import type { Kysely } from 'kysely';
import { isFoldingWireType, type WireBlockFold } from '../../../schema/blockFolds';
import { ERROR_CODES } from '../../../schema/errors';
import type { Database } from '../../db/types';
import { AppError, notFound } from '../../errors';
import { saveFold } from '../../repositories/blockFolds';
import { findPageForWrite } from '../../repositories/pages';
import { nowIso } from '../../time';
import { authorizedBlock } from './blockChange';

/**
 * Opens or folds a toggle block for the caller alone (docs/api/blocks.md «Toggle folds (per
 * person)»). Reading the page is enough — it changes nothing others see — so a page in the trash
 * is no obstacle either. A missing or deleted block is 404 (an outsider gets 403 first); a block
 * that is no toggle is 422 block.not_a_toggle. The page is read again under a key-share lock
 * where the fold is written, so a page deleted for good meanwhile answers 404 rather than failing
 * the row's foreign key. No event: nobody else sees it.
 */
export async function setBlockFold(db: Kysely<Database>, userId: string, blockId: string, open: boolean): Promise<WireBlockFold> {
  const block = await authorizedBlock(db, userId, blockId, 'read');
  if (!isFoldingWireType(block.type)) throw new AppError(422, ERROR_CODES.blockNotAToggle, `a ${block.type} block does not fold: only toggles do`);
  await db.transaction().execute(async (trx) => {
    if (!(await findPageForWrite(trx, block.page_id))) throw notFound('block');
    await saveFold(trx, { userId, pageId: block.page_id, blockId: block.id, open, at: nowIso() });
  });
  return { blockId: block.id, open };
}
