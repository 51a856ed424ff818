import type { Kysely } from 'kysely';
import { SECTION_IDS } from '../../../schema/constants';
import { MOVE_SECTION_IDS } from '../../../schema/element';
import { ERROR_CODES } from '../../../schema/errors';
import type { Database, PageRow } from '../../db/types';
import { AppError, forbidden, invalidField } from '../../errors';
import { assertNotInTrash, assertNotSyncedContent, authorizePage } from '../../policies/page';
import { mayBePrivateRootOf } from '../../../schema/policies/page';
import { canCreateInSection } from '../../../schema/policies/workspace';
import { listPagesAt, loadPage, pagePath, type PagePlace, placePage } from '../../repositories/pages';
import { sortKeyAfter } from '../../repositories/pageOrder';
import { findMembership } from '../../repositories/workspaces';
import { changeAtPage, siblingToPlaceAfter } from './tree';
import { assertNoRowTemplate } from './trash';
import type { WithEvents } from '../../events/events';

/**
 * Moves a page (with its subtree) under another page of its workspace or to the root of its
 * private or shared section, after `placeAfter` among the siblings there (null: first). Needs
 * full access on the page and edit on the new parent (or the role for the section; a private
 * section root is its creator's). Everything is checked on the pages as they are inside the tree
 * lock: two moves that would each be fine alone (p1 under p2, p2 under p1) are judged one after
 * the other, so the second sees the first and answers 422 page.move_cycle. Answers the page
 * before and after.
 */
export async function movePage(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  move: { dst: string; placeAfter: string | null },
): Promise<WithEvents<{ before: PageRow; moved: PageRow }>> {
  const { dst, placeAfter } = move;
  const done = await changeAtPage(db, pageId, async (trx, current) => {
    await authorizePage(trx, userId, current, 'manage');
    assertNotInTrash(current);
    // A database's row template stays with its database (docs/api/databases.md «Row templates»).
    assertNoRowTemplate(current);
    // A synced block's content stays under the page it was made on, and takes no pages under it.
    assertNotSyncedContent(current);
    let place: PagePlace;
    if ((MOVE_SECTION_IDS as readonly string[]).includes(dst)) {
      const section = dst as 'private' | 'all';
      const membership = await findMembership(trx, current.workspace_id, userId);
      if (!membership || !canCreateInSection(membership.role, section, membership.is_private === 1)) throw forbidden('this section');
      // A private section root is its creator's: nobody moves someone else's page into their own.
      if (section === 'private' && !mayBePrivateRootOf({ createdBy: current.created_by }, userId))
        throw forbidden('moving a page you did not create to private');
      place = { workspaceId: current.workspace_id, section };
    } else if ((SECTION_IDS as readonly string[]).includes(dst)) {
      throw invalidField('pages cannot be moved into favorite or shared', 'body.dst');
    } else {
      const target = await loadPage(trx, dst);
      await authorizePage(trx, userId, target, 'edit');
      if (target.workspace_id !== current.workspace_id) throw invalidField('dst is in another workspace; clone the page instead', 'body.dst');
      assertNotInTrash(target);
      assertNotSyncedContent(target);
      if (target.id === current.id || pagePath(target).includes(current.id)) {
        throw new AppError(422, ERROR_CODES.pageMoveCycle, 'a page cannot be moved into itself or its own subtree');
      }
      place = { parent: target };
    }
    const siblings = (await listPagesAt(trx, place)).filter((p) => p.id !== current.id);
    const after = await siblingToPlaceAfter(trx, userId, siblings, placeAfter);
    return { before: current, moved: await placePage(trx, current, place, sortKeyAfter(siblings, after)) };
  });
  return { ...done, events: [{ kind: 'treeChanged', page: done.moved, before: done.before }] };
}
