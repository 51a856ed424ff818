import type { Kysely, Transaction } from 'kysely';
import type { AccessLevel } from '../../../schema/constants';
import type { Database, PageRow } from '../../db/types';
import { assertNotInTrash, assertNotSyncedContent, authorizePage } from '../../policies/page';
import { findPage, listPagesAt, setSortKey, type PagePlace } from '../../repositories/pages';
import { sortKeyAfter } from '../../repositories/pageOrder';
import { changeAtPage, siblingToPlaceAfter } from './tree';
import type { WithEvents } from '../../events/events';

/** Puts an editable page after `placeAfter` among its current siblings (null: first). Answers it and the caller's level. */
export async function reorderPage(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  placeAfter: string | null,
): Promise<WithEvents<{ placed: PageRow; level: AccessLevel }>> {
  const done = await changeAtPage(db, pageId, async (trx, current) => {
    const level = await authorizePage(trx, userId, current, 'edit');
    assertNotInTrash(current);
    assertNotSyncedContent(current);
    const siblings = await siblingsOf(trx, current);
    const after = await siblingToPlaceAfter(trx, userId, siblings, placeAfter);
    return { level, placed: await setSortKey(trx, current, sortKeyAfter(siblings, after)) };
  });
  return { ...done, events: [{ kind: 'treeChanged', page: done.placed }] };
}

/** The ordered pages at a page's current place, itself left out. */
async function siblingsOf(trx: Transaction<Database>, page: PageRow): Promise<PageRow[]> {
  const place: PagePlace | null =
    page.parent_id === null
      ? { workspaceId: page.workspace_id, section: page.section === 'all' ? 'all' : 'private' }
      : await findPage(trx, page.parent_id).then((parent) => (parent ? { parent } : null));
  if (!place) return [];
  return (await listPagesAt(trx, place)).filter((p) => p.id !== page.id);
}
