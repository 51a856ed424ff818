/* Pages in the trash: trashing and restoring a subtree, deleting it for good, the trash's list. */
import type { Kysely, Transaction } from 'kysely';
import { scopedWorkspace } from '../auth/tokenScope';
import { lockPageRows } from '../db/locks';
import type { Database, PageRow } from '../db/types';
import { nowIso, timeAfter } from '../time';
import { bumpRowsOfPages } from './databaseRevisions';
import { listDescendants } from './pages';
import { inChunks } from '../db/inChunks';

/**
 * Moves a page and everything below it that is not in the trash yet into the trash, as one batch.
 * `trashed_at` names the batch: it is made later than any batch already in the subtree, so a
 * restore never takes along pages that were trashed on their own (even within one millisecond).
 */
export async function trashSubtree(trx: Transaction<Database>, page: PageRow, userId: string): Promise<PageRow> {
  let trashed_at = nowIso();
  const descendants = await listDescendants(trx, page);
  for (const earlier of descendants) {
    if (earlier.in_trash === 1) trashed_at = timeAfter(trashed_at, earlier.trashed_at);
  }
  const ids = [page.id, ...descendants.filter((p) => p.in_trash === 0).map((p) => p.id)];
  await lockPageRows(trx, ids);
  for (const chunk of inChunks(ids)) {
    await trx.updateTable('pages').set({ in_trash: 1, trashed_at, trashed_by: userId }).where('id', 'in', chunk).where('in_trash', '=', 0).execute();
  }
  await bumpRowsOfPages(trx, ids);
  return { ...page, in_trash: 1, trashed_at, trashed_by: userId };
}

/**
 * Takes a page out of the trash with the pages that went there with it (same batch); pages
 * below it that were trashed on their own earlier stay in the trash.
 */
export async function restoreSubtree(trx: Transaction<Database>, page: PageRow): Promise<PageRow> {
  const batch = (await listDescendants(trx, page)).filter((p) => p.in_trash === 1 && p.trashed_at === page.trashed_at);
  const ids = [page.id, ...batch.map((p) => p.id)];
  await lockPageRows(trx, ids);
  for (const chunk of inChunks(ids)) {
    await trx.updateTable('pages').set({ in_trash: 0, trashed_at: null, trashed_by: null }).where('id', 'in', chunk).execute();
  }
  await bumpRowsOfPages(trx, ids);
  return { ...page, in_trash: 0, trashed_at: null, trashed_by: null };
}

/**
 * Deletes a page and everything below it for good: blocks, comments and their reactions,
 * favourites, visits, notification settings and notifications, members, file rows. Returns the
 * storage keys of the deleted files, for the caller to remove from the file store.
 */
export async function removeSubtreeForever(trx: Transaction<Database>, page: PageRow): Promise<{ pageIds: string[]; storageKeys: string[] }> {
  const pageIds = [page.id, ...(await listDescendants(trx, page)).map((p) => p.id)];
  // Writes into these pages (blocks, comments) hold their rows key-shared (writablePage): wait
  // for them before deleting anything, rather than meet them half-way (a deadlock); and take the
  // pages before their databases' counters, as every write of rows does.
  await lockPageRows(trx, pageIds, 'update');
  await bumpRowsOfPages(trx, pageIds);
  const storageKeys: string[] = [];
  for (const chunk of inChunks(pageIds)) {
    const files = await trx.selectFrom('files').select('storage_key').where('page_id', 'in', chunk).execute();
    storageKeys.push(...files.map((f) => f.storage_key));
    const comments = await trx.selectFrom('comments').select('id').where('page_id', 'in', chunk).execute();
    for (const commentChunk of inChunks(comments.map((c) => c.id))) {
      await trx.deleteFrom('comment_reactions').where('comment_id', 'in', commentChunk).execute();
    }
    await trx.deleteFrom('comments').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('blocks').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('favorites').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('page_visits').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('notification_settings').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('notifications').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('page_members').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('files').where('page_id', 'in', chunk).execute();
    await trx.deleteFrom('pages').where('id', 'in', chunk).execute();
  }
  return { pageIds, storageKeys };
}

/**
 * The pages that head a trash batch in the user's workspaces (optionally one): trashed pages
 * whose parent is not in the trash or went there separately. Newest first.
 */
export async function listTrashHeads(db: Kysely<Database>, userId: string, workspaceId?: string): Promise<PageRow[]> {
  let query = db
    .selectFrom('pages as p')
    .innerJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'p.workspace_id').on('m.user_id', '=', userId))
    .selectAll('p')
    .where('p.in_trash', '=', 1)
    // Rows that went with their database block come back with it (undo, block restore): they are not listed one by one.
    .where((eb) =>
      eb.or([
        eb('p.database_id', 'is', null),
        eb.not(eb.exists(eb.selectFrom('blocks as b').select('b.id').whereRef('b.id', '=', 'p.database_id').where('b.deleted_at', 'is not', null))),
      ]),
    );
  if (workspaceId !== undefined) query = query.where('p.workspace_id', '=', workspaceId);
  // A workspace token's user: that workspace's trash only.
  const only = scopedWorkspace(userId);
  if (only !== null) query = query.where('p.workspace_id', '=', only);
  const trashed = await query.execute();
  const byId = new Map(trashed.map((p) => [p.id, p]));
  const heads = trashed.filter((page) => {
    const parent = page.parent_id === null ? undefined : byId.get(page.parent_id);
    return parent === undefined || parent.trashed_at !== page.trashed_at;
  });
  return heads.sort((a, b) => {
    const at = a.trashed_at ?? '';
    const bt = b.trashed_at ?? '';
    if (at !== bt) return at > bt ? -1 : 1;
    return a.id < b.id ? -1 : 1;
  });
}
