/* A user's favourite pages. */
import type { Kysely } from 'kysely';
import { ROW_TEMPLATE, type Database, type PageRow } from '../db/types';
import { nowAfter } from '../time';
import { inChunks } from '../db/inChunks';

/** The subset of page ids the user has favourited. */
export async function favoritePageIds(db: Kysely<Database>, userId: string, pageIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const chunk of inChunks([...new Set(pageIds)])) {
    const rows = await db.selectFrom('favorites').select('page_id').where('user_id', '=', userId).where('page_id', 'in', chunk).execute();
    for (const row of rows) out.add(row.page_id);
  }
  return out;
}

/** Adds a favourite (a second add changes nothing); it sorts after the user's earlier ones. */
export async function addFavorite(db: Kysely<Database>, userId: string, pageId: string): Promise<void> {
  const last = await db.selectFrom('favorites').select('created_at').where('user_id', '=', userId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  await db
    .insertInto('favorites')
    .values({ user_id: userId, page_id: pageId, created_at: nowAfter(last?.created_at) })
    .onConflict((oc) => oc.columns(['user_id', 'page_id']).doNothing())
    .execute();
}

export async function removeFavorite(db: Kysely<Database>, userId: string, pageId: string): Promise<void> {
  await db.deleteFrom('favorites').where('user_id', '=', userId).where('page_id', '=', pageId).execute();
}

/**
 * The user's favourite pages of a workspace, not in trash, in the order they were added — a row
 * template too (its page opens as the template), while its database is there and its page not in the trash.
 */
export async function listFavoritePages(db: Kysely<Database>, userId: string, workspaceId: string): Promise<PageRow[]> {
  const rows = await db
    .selectFrom('favorites as f')
    .innerJoin('pages as p', 'p.id', 'f.page_id')
    .leftJoin('pages as holder', 'holder.id', 'p.parent_id')
    .leftJoin('blocks as db', 'db.id', 'p.database_id')
    .selectAll('p')
    .select('f.created_at as favorited_at')
    .where('f.user_id', '=', userId)
    .where('p.workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        eb('p.in_trash', '=', 0),
        eb.and([eb('p.in_trash', '=', ROW_TEMPLATE), eb('holder.in_trash', '=', 0), eb('db.id', 'is not', null), eb('db.deleted_at', 'is', null)]),
      ]),
    )
    .execute();
  rows.sort((a, b) => (a.favorited_at !== b.favorited_at ? (a.favorited_at < b.favorited_at ? -1 : 1) : a.id < b.id ? -1 : 1));
  return rows.map(({ favorited_at: _favoritedAt, ...page }) => page);
}
