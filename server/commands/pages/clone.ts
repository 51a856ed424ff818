import type { Kysely } from 'kysely';
import { newId } from '../../../schema/ids';
import type { Database, PageRow } from '../../db/types';
import { forbidden, invalidField, isUniqueViolation } from '../../errors';
import { allows } from '../../../schema/policies/page';
import { assertNotInTrash, authorizePage, pageAccessLevels } from '../../policies/page';
import { canCreateInSection } from '../../../schema/policies/workspace';
import { findPage, listDescendants, loadPage, pagePath } from '../../repositories/pages';
import { clonePageTree } from '../../repositories/clonePages';
import { findMembership } from '../../repositories/workspaces';
import { pageExists, treeChange } from './tree';
import { ROW_TEMPLATE } from '../../db/types';
import { assertNoRowTemplate } from './trash';
import type { WithEvents } from '../../events/events';

/**
 * Deep-copies a page the caller may read, with what below it they may read (live pages under
 * copied parents) and their blocks, into a workspace of theirs: under `toElement` (editable, not
 * in the trash) or, without it, at the root of their private section. The copy is made under the
 * target workspace's tree lock: its parent is read (and checked) there, so the copy never lands
 * under a page that went to the trash or moved meanwhile. A taken `id` is 409 page.already_exists.
 * Answers the copy's root and how many pages were copied.
 */
export async function clonePage(
  db: Kysely<Database>,
  userId: string,
  sourceId: string,
  to: { workspaceId: string; toElement?: string | null; id?: string },
): Promise<WithEvents<{ clone: PageRow; count: number }>> {
  const source = await loadPage(db, sourceId);
  await authorizePage(db, userId, source, 'read');
  assertNotInTrash(source);
  assertNoRowTemplate(source);
  const workspace = await findMembership(db, to.workspaceId, userId);
  if (!workspace) throw forbidden('this workspace');
  const newRootId = to.id ?? newId();
  const done = await treeChange(db, workspace.id, async (trx) => {
    let parent: PageRow | null = null;
    if (to.toElement) {
      parent = await loadPage(trx, to.toElement);
      await authorizePage(trx, userId, parent, 'edit');
      if (parent.workspace_id !== workspace.id) throw invalidField('toElement is not in workspaceId', 'body.toElement');
      assertNotInTrash(parent);
    } else if (!canCreateInSection(workspace.role, 'private', workspace.is_private === 1)) {
      throw forbidden('creating pages in this workspace');
    }
    if (await findPage(trx, newRootId)) throw pageExists();
    const root = await loadPage(trx, source.id);
    assertNotInTrash(root);

    // The copy holds what the caller can see: live descendants they may read, under copied parents
    // (a database's row templates too: docs/api/databases.md «Row templates»).
    const descendants = (await listDescendants(trx, root)).filter((p) => p.in_trash === 0 || p.in_trash === ROW_TEMPLATE);
    const levels = await pageAccessLevels(trx, userId, descendants);
    const copied = new Set([root.id]);
    const pages = [root];
    for (const page of descendants.sort((a, b) => pagePath(a).length - pagePath(b).length)) {
      if (page.parent_id !== null && copied.has(page.parent_id) && allows(levels.get(page.id) ?? 'none', 'read')) {
        copied.add(page.id);
        pages.push(page);
      }
    }
    return { clone: await clonePageTree(trx, { pages, newRootId, workspaceId: workspace.id, parent, userId }), count: pages.length };
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? pageExists() : error;
  });
  return { ...done, events: [{ kind: 'treeChanged', page: done.clone }] };
}
