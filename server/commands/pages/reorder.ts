import type { Kysely } from 'kysely';
import type { AccessLevel } from '../../../schema/constants';
import type { Database, PageRow } from '../../db/types';
import { authorizePage } from '../../policies/page';
import { assertNotInTrash, setSortKey } from '../../repositories/pages';
import { sortKeyAfter } from '../../repositories/pageOrder';
import { changeAtPage, siblingsOf, siblingToPlaceAfter } from './tree';

/** Puts an editable page after `placeAfter` among its current siblings (null: first). Answers it and the caller's level. */
export async function reorderPage(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  placeAfter: string | null,
): Promise<{ placed: PageRow; level: AccessLevel }> {
  return changeAtPage(db, pageId, async (trx, current) => {
    const level = await authorizePage(trx, userId, current, 'edit');
    assertNotInTrash(current);
    const siblings = await siblingsOf(trx, current);
    const after = await siblingToPlaceAfter(trx, userId, siblings, placeAfter);
    return { level, placed: await setSortKey(trx, current, sortKeyAfter(siblings, after)) };
  });
}
