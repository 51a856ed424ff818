import type { Kysely } from 'kysely';
import { ACCESS_LEVELS, type AccessLevel } from '../../schema/constants';
import { canEdit } from '../../schema/element';
import type { Database, PageRow } from '../db/types';
import { forbidden } from '../errors';
import { pagePath } from '../repositories/pages';
import { findMembership } from '../repositories/workspaces';

export type PageAction = 'read' | 'edit' | 'share';

/**
 * The access level a user has on a page: an explicit grant on the page or its nearest
 * ancestor wins; otherwise pages of the shared "all" section give admins full and
 * participants edit; otherwise none. Only workspace members ever get anything.
 */
export async function pageAccessLevel(db: Kysely<Database>, userId: string, page: PageRow): Promise<AccessLevel> {
  const membership = await findMembership(db, page.workspace_id, userId);
  if (!membership) return 'none';
  const chain = [page.id, ...pagePath(page).reverse()];
  const grants = await db
    .selectFrom('page_members')
    .select(['page_id', 'level'])
    .where('user_id', '=', userId)
    .where('page_id', 'in', chain)
    .execute();
  for (const id of chain) {
    const grant = grants.find((g) => g.page_id === id);
    if (grant && (ACCESS_LEVELS as readonly string[]).includes(grant.level)) return grant.level as AccessLevel;
  }
  const rootSection = page.parent_id === null ? page.section : await rootSectionOf(db, page);
  if (rootSection === 'all') {
    if (membership.role === 'admin') return 'full';
    if (membership.role === 'participant') return 'edit';
  }
  return 'none';
}

async function rootSectionOf(db: Kysely<Database>, page: PageRow): Promise<string | null> {
  const rootId = pagePath(page)[0];
  if (!rootId) return page.section;
  const root = await db.selectFrom('pages').select('section').where('id', '=', rootId).executeTakeFirst();
  return root?.section ?? null;
}

/** May a user with this level do this action? */
export function allows(level: AccessLevel, action: PageAction): boolean {
  if (action === 'read') return level !== 'none';
  if (action === 'edit') return canEdit(level);
  return level === 'full';
}

/** Throws 403 unless the user may do the action on the page; returns their level. */
export async function authorizePage(
  db: Kysely<Database>,
  userId: string,
  page: PageRow,
  action: PageAction,
): Promise<AccessLevel> {
  const level = await pageAccessLevel(db, userId, page);
  if (!allows(level, action)) throw forbidden('this page');
  return level;
}
