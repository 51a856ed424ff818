import type { Kysely } from 'kysely';
import { newId } from '../../../schema/ids';
import type { Database, PageRow } from '../../db/types';
import { forbidden, invalidField, isUniqueViolation } from '../../errors';
import { allows } from '../../../schema/policies/page';
import { assertNotInTrash, assertNotSyncedContent, authorizePage, pageAccessLevels } from '../../policies/page';
import { canCreateInSection } from '../../../schema/policies/workspace';
import { findPage, listDescendants, loadPage, pagePath } from '../../repositories/pages';
import { clonePageTree } from '../../repositories/clonePages';
import { findMembership } from '../../repositories/workspaces';
import { pageExists, treeChange } from './tree';
import { ROW_TEMPLATE, SYNCED_CONTENT } from '../../db/types';
import { syncedContentNamedBy } from '../../repositories/syncedContent';
import { assertNoRowTemplate } from './trash';
import type { WithEvents } from '../../events/events';

/**
 * Deep-copies a page the caller may read, with what below it they may read (live pages under
 * copied parents) and their blocks, into a workspace of theirs: under `toElement` (editable, not
 * in the trash) or, without it, at the root of their private section. The copy is made under the
 * target workspace's tree lock: its parent is read (and checked) there, so the copy never lands
 * under a page that went to the trash or moved meanwhile. A taken `id` is 409 page.already_exists.
 * Synced blocks (docs/api/blocks.md «Synced blocks»): in the same workspace the copy's go on
 * naming the same content (they stay synced with the original); into another workspace the
 * content they show that the caller may read is copied along, hidden as its original, under the
 * copied page holding it (or, held outside the copy, under the first copied page showing it) — the
 * copy's synced blocks name that — and a synced block whose content the caller may not read is left
 * out. Answers the copy's root and how many pages were copied (synced content not counted).
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
  assertNotSyncedContent(source);
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
      assertNotSyncedContent(parent);
    } else if (!canCreateInSection(workspace.role, 'private', workspace.is_private === 1)) {
      throw forbidden('creating pages in this workspace');
    }
    if (await findPage(trx, newRootId)) throw pageExists();
    const root = await loadPage(trx, source.id);
    assertNotInTrash(root);

    // The copy holds what the caller can see: live descendants they may read, under copied parents
    // (a database's row templates too: docs/api/databases.md «Row templates»).
    const crossWorkspace = root.workspace_id !== workspace.id;
    const descendants = (await listDescendants(trx, root)).filter(
      (p) => p.in_trash === 0 || p.in_trash === ROW_TEMPLATE || (crossWorkspace && p.in_trash === SYNCED_CONTENT),
    );
    const levels = await pageAccessLevels(trx, userId, descendants);
    const copied = new Set([root.id]);
    const pages = [root];
    for (const page of descendants.sort((a, b) => pagePath(a).length - pagePath(b).length)) {
      if (page.parent_id !== null && copied.has(page.parent_id) && allows(levels.get(page.id) ?? 'none', 'read')) {
        copied.add(page.id);
        pages.push(page);
      }
    }
    if (crossWorkspace) pages.push(...(await syncedContentToCopy(trx, userId, pages)));
    const count = pages.filter((page) => page.in_trash !== SYNCED_CONTENT).length;
    return { clone: await clonePageTree(trx, { pages, newRootId, workspaceId: workspace.id, parent, userId }), count };
  }).catch((error: unknown) => {
    throw isUniqueViolation(error) ? pageExists() : error;
  });
  return { ...done, events: [{ kind: 'treeChanged', page: done.clone }] };
}

/**
 * Into another workspace: the synced content the copied pages show that is held outside them and
 * the caller may read, each as a page under the first copied page showing it (its place in the copy).
 */
async function syncedContentToCopy(trx: Kysely<Database>, userId: string, pages: readonly PageRow[]): Promise<PageRow[]> {
  const copied = new Set(pages.map((page) => page.id));
  const named = (await syncedContentNamedBy(trx, [...copied])).filter(({ content }) => !copied.has(content.id));
  const levels = await pageAccessLevels(
    trx,
    userId,
    named.map(({ content }) => content),
  );
  const byId = new Map(pages.map((page) => [page.id, page]));
  return named
    .filter(({ content }) => allows(levels.get(content.id) ?? 'none', 'read'))
    .map(({ content, namedOn }) => {
      const holder = byId.get(namedOn)!;
      return { ...content, parent_id: holder.id, path: JSON.stringify([...pagePath(holder), holder.id]) };
    });
}
