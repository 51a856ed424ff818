import type { Kysely } from 'kysely';
import { canCreateInSection } from '../../../schema/policies/workspace';
import type { Database, PageRow } from '../../db/types';
import { forbidden, notFound } from '../../errors';
import { findMembership } from '../../repositories/workspaces';
import { findTemplate } from '../../templates';
import { copyTemplate } from '../../templates/copy';
import { treeChange } from '../pages/tree';
import type { WithEvents } from '../../events/events';

/**
 * Copies a template (server/templates/) into a section of a workspace as a new page tree
 * (docs/api/templates.md): 404 for no such template; the caller's role is read inside the
 * workspace's tree lock, as a page create in that section checks it (403 outside the workspace,
 * or where they may not create). Answers the copy's root and how many pages it holds.
 */
export async function copyTemplateInto(
  db: Kysely<Database>,
  userId: string,
  templateId: string,
  to: { workspaceId: string; section: 'private' | 'all' },
): Promise<WithEvents<{ root: PageRow; count: number }>> {
  const template = findTemplate(templateId);
  if (!template) throw notFound('template');
  const done = await treeChange(db, to.workspaceId, async (trx) => {
    const workspace = await findMembership(trx, to.workspaceId, userId);
    if (!workspace) throw forbidden('this workspace');
    if (!canCreateInSection(workspace.role, to.section, workspace.is_private === 1)) throw forbidden('creating pages in this section');
    const copy = await copyTemplate(trx, { template, workspaceId: workspace.id, section: to.section, userId });
    return { root: copy.root, count: copy.pages.length };
  });
  return { ...done, events: [{ kind: 'treeChanged', page: done.root }] };
}
