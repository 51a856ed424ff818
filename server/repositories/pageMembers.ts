import type { Kysely } from 'kysely';
import { ACCESS_LEVELS, type AccessLevel } from '../../schema/constants';
import type { Database, PageRow, UserRow } from '../db/types';
import { inChunks } from '../db/inChunks';
import { nowIso } from '../time';
import { pagePath } from './pages';

/** An explicit grant of a level on a page to a user. */
export interface PageGrant {
  pageId: string;
  userId: string;
  level: AccessLevel;
  createdAt: string;
}

/** A grant that reaches a page, with the user it is for. */
export interface EffectiveMember {
  user: UserRow;
  level: AccessLevel;
  /** The page the grant is set on: the page itself or the nearest ancestor with one for this user. */
  grantedOn: string;
  createdAt: string;
}

export async function findGrant(db: Kysely<Database>, pageId: string, userId: string): Promise<PageGrant | undefined> {
  const row = await db.selectFrom('page_members').selectAll().where('page_id', '=', pageId).where('user_id', '=', userId).executeTakeFirst();
  return row && { pageId: row.page_id, userId: row.user_id, level: row.level as AccessLevel, createdAt: row.created_at };
}

/**
 * Everyone with an explicit grant that reaches the page: the grant on the page itself, else on
 * its nearest ancestor (the same rule as the access policy), without `none` grants. Oldest first.
 */
export async function listEffectiveMembers(db: Kysely<Database>, page: PageRow): Promise<EffectiveMember[]> {
  const chain = [page.id, ...pagePath(page).reverse()];
  const rows = await db
    .selectFrom('page_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('u')
    .select(['m.page_id', 'm.level', 'm.created_at as granted_at'])
    .where('m.page_id', 'in', chain)
    .execute();
  const nearest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const current = nearest.get(row.id);
    if (!current || chain.indexOf(row.page_id) < chain.indexOf(current.page_id)) nearest.set(row.id, row);
  }
  return [...nearest.values()]
    .filter((row) => (ACCESS_LEVELS as readonly string[]).includes(row.level) && row.level !== 'none')
    .sort((a, b) => (a.granted_at !== b.granted_at ? (a.granted_at < b.granted_at ? -1 : 1) : a.id < b.id ? -1 : 1))
    .map(({ page_id, level, granted_at, ...user }) => ({ user, level: level as AccessLevel, grantedOn: page_id, createdAt: granted_at }));
}

/** Sets a user's level on a page; answers whether the user had no grant on it before. */
export async function upsertGrant(db: Kysely<Database>, pageId: string, userId: string, level: AccessLevel): Promise<boolean> {
  const existing = await findGrant(db, pageId, userId);
  if (existing) {
    await setGrantLevel(db, pageId, userId, level);
    return false;
  }
  // A concurrent add of the same person may have inserted meanwhile: then this sets the level.
  await db
    .insertInto('page_members')
    .values({ page_id: pageId, user_id: userId, level, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['page_id', 'user_id']).doUpdateSet({ level }))
    .execute();
  return true;
}

export async function setGrantLevel(db: Kysely<Database>, pageId: string, userId: string, level: AccessLevel): Promise<void> {
  await db.updateTable('page_members').set({ level }).where('page_id', '=', pageId).where('user_id', '=', userId).execute();
}

export async function removeGrant(db: Kysely<Database>, pageId: string, userId: string): Promise<void> {
  await db.deleteFrom('page_members').where('page_id', '=', pageId).where('user_id', '=', userId).execute();
}

/**
 * Pages of a workspace shared with the user by an explicit grant on the page, that the user did
 * not create, not in trash; newest grant first.
 */
export async function listPagesGrantedTo(db: Kysely<Database>, userId: string, workspaceId: string | readonly string[]): Promise<PageRow[]> {
  const workspaceIds = typeof workspaceId === 'string' ? [workspaceId] : workspaceId;
  if (workspaceIds.length === 0) return [];
  const rows = await db
    .selectFrom('page_members as m')
    .innerJoin('pages as p', 'p.id', 'm.page_id')
    .selectAll('p')
    .select('m.created_at as granted_at')
    .where('m.user_id', '=', userId)
    .where('m.level', 'in', ['read', 'edit', 'full'])
    .where('p.workspace_id', 'in', workspaceIds)
    .where('p.created_by', '<>', userId)
    .where('p.in_trash', '=', 0)
    .execute();
  rows.sort((a, b) => (a.granted_at !== b.granted_at ? (a.granted_at > b.granted_at ? -1 : 1) : a.id < b.id ? -1 : 1));
  return rows.map(({ granted_at: _grantedAt, ...page }) => page);
}

/** A user's grants on any of these pages, by page (levels that are no access level are left out). */
export async function grantsOfUser(db: Kysely<Database>, userId: string, pageIds: readonly string[]): Promise<Map<string, AccessLevel>> {
  const grants = new Map<string, AccessLevel>();
  for (const chunk of inChunks([...pageIds])) {
    const rows = await db.selectFrom('page_members').select(['page_id', 'level']).where('user_id', '=', userId).where('page_id', 'in', chunk).execute();
    for (const row of rows) if ((ACCESS_LEVELS as readonly string[]).includes(row.level)) grants.set(row.page_id, row.level as AccessLevel);
  }
  return grants;
}

/** The people a page is shared with directly (a grant on it). */
export async function listGranteeIds(db: Kysely<Database>, pageId: string): Promise<string[]> {
  return (await db.selectFrom('page_members').select('user_id').where('page_id', '=', pageId).execute()).map((row) => row.user_id);
}
