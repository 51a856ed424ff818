/* The pages a user opened (recents). */
import type { Kysely } from 'kysely';
import type { Database, PageRow } from '../db/types';
import { nowAfter } from '../time';

/**
 * Notes that the user opened the page now (one row per user and page). The time is made later
 * than the user's newest visit, so pages opened within one millisecond still list in order.
 */
export async function recordVisit(db: Kysely<Database>, userId: string, pageId: string): Promise<void> {
  const last = await db.selectFrom('page_visits').select('visited_at').where('user_id', '=', userId).orderBy('visited_at', 'desc').limit(1).executeTakeFirst();
  const visited_at = nowAfter(last?.visited_at);
  await db
    .insertInto('page_visits')
    .values({ user_id: userId, page_id: pageId, visited_at })
    .onConflict((oc) => oc.columns(['user_id', 'page_id']).doUpdateSet({ visited_at }))
    .execute();
}

/** How many of the newest visits the recents list looks at. */
export const RECENTS_LIMIT = 500;

/** Pages the user visited, newest visit first, not in trash (optionally of one workspace). */
export async function listVisitedPages(db: Kysely<Database>, userId: string, workspaceId?: string): Promise<PageRow[]> {
  let query = db
    .selectFrom('page_visits as v')
    .innerJoin('pages as p', 'p.id', 'v.page_id')
    .selectAll('p')
    .select('v.visited_at')
    .where('v.user_id', '=', userId)
    .where('p.in_trash', '=', 0);
  if (workspaceId !== undefined) query = query.where('p.workspace_id', '=', workspaceId);
  const rows = await query.orderBy('v.visited_at', 'desc').limit(RECENTS_LIMIT).execute();
  rows.sort((a, b) => (a.visited_at !== b.visited_at ? (a.visited_at > b.visited_at ? -1 : 1) : a.id < b.id ? -1 : 1));
  return rows.map(({ visited_at: _visitedAt, ...page }) => page);
}
