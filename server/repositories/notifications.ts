import { scopedWorkspace } from '../auth/tokenScope';
import type { Kysely, Selectable } from 'kysely';
import { newId } from '../../schema/ids';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  NOTIFICATION_NAMES,
  notificationSettingsSchema,
  type NotificationName,
  type NotificationSettings,
  type WireNotification,
} from '../../schema/notification';
import type { Database, NotificationTable, PageRow } from '../db/types';
import { pageAccessLevel } from '../policies/page';
import { nowAfter, nowIso } from '../time';
import { findPage, pagePath } from './pages';

export { NOTIFICATION_NAMES, type NotificationName };

export type NotificationRow = Selectable<NotificationTable>;

export interface NewNotification {
  userId: string;
  workspaceId: string | null;
  pageId: string | null;
  name: NotificationName;
  /** The context fields for this name (see the contract's table). */
  context: Record<string, unknown>;
}

/**
 * Stores a notification for one recipient. Callers decide who is notified (never the actor,
 * never someone without access); per-page settings are applied by the caller too (see
 * `pickNotification`). Its time is strictly after the recipient's newest notification, so
 * "newest first" is the order they were made in.
 */
export async function createNotification(db: Kysely<Database>, input: NewNotification): Promise<string> {
  const id = newId();
  const last = await db
    .selectFrom('notifications')
    .select('created_at')
    .where('user_id', '=', input.userId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  await db
    .insertInto('notifications')
    .values({
      id,
      user_id: input.userId,
      workspace_id: input.workspaceId,
      page_id: input.pageId,
      name: input.name,
      context: JSON.stringify(input.context),
      is_read: 0,
      created_at: nowAfter(last?.created_at),
    })
    .execute();
  return id;
}

export function presentNotification(row: NotificationRow): WireNotification {
  return {
    id: row.id,
    name: row.name,
    is_read: row.is_read === 1,
    created_at: row.created_at,
    workspace_id: row.workspace_id,
    context: JSON.parse(row.context),
  } as WireNotification;
}

export function findNotification(db: Kysely<Database>, id: string): Promise<NotificationRow | undefined> {
  return db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user's notifications, newest first, optionally only read or unread ones, or one workspace's. */
export function listUserNotifications(
  db: Kysely<Database>,
  userId: string,
  filter: { isRead?: boolean; workspaceId?: string } = {},
): Promise<NotificationRow[]> {
  let query = db.selectFrom('notifications').selectAll().where('user_id', '=', userId);
  if (filter.isRead !== undefined) query = query.where('is_read', '=', filter.isRead ? 1 : 0);
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  // A workspace token: that workspace's notifications only (server/auth/tokenScope.ts).
  const only = scopedWorkspace(userId);
  if (only !== null) query = query.where('workspace_id', '=', only);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/**
 * Only the notifications the user may still see: one about a page is shown while the page
 * exists and the user has access to it; one about no page always.
 */
export async function visibleNotifications(db: Kysely<Database>, userId: string, rows: readonly NotificationRow[]): Promise<NotificationRow[]> {
  const visible = new Map<string, boolean>();
  const out: NotificationRow[] = [];
  for (const row of rows) {
    if (row.page_id !== null) {
      let seen = visible.get(row.page_id);
      if (seen === undefined) {
        const page = await findPage(db, row.page_id);
        seen = page !== undefined && (await pageAccessLevel(db, userId, page)) !== 'none';
        visible.set(row.page_id, seen);
      }
      if (!seen) continue;
    }
    out.push(row);
  }
  return out;
}

export async function setNotificationRead(db: Kysely<Database>, id: string, isRead: boolean): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ is_read: isRead ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

/** Marks all of a user's notifications read (optionally one workspace's); answers how many changed. */
export async function markAllRead(db: Kysely<Database>, userId: string, workspaceId?: string): Promise<number> {
  let query = db.updateTable('notifications').set({ is_read: 1 }).where('user_id', '=', userId).where('is_read', '=', 0);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const only = scopedWorkspace(userId);
  if (only !== null) query = query.where('workspace_id', '=', only);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteNotification(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('notifications').where('id', '=', id).execute();
}

/** Deletes all of a user's notifications (optionally one workspace's); answers how many went. */
export async function deleteAllNotifications(db: Kysely<Database>, userId: string, workspaceId?: string): Promise<number> {
  let query = db.deleteFrom('notifications').where('user_id', '=', userId);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const only = scopedWorkspace(userId);
  if (only !== null) query = query.where('workspace_id', '=', only);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Drops every notification about these comments (their content is gone). Ids are uuids: no LIKE wildcards. */
export async function deleteCommentNotifications(db: Kysely<Database>, commentIds: readonly string[]): Promise<void> {
  for (const id of commentIds) {
    await db
      .deleteFrom('notifications')
      .where('name', 'like', 'comments.%')
      .where('context', 'like', `%"commentId":${JSON.stringify(id)}%`)
      .execute();
  }
}

/** A user's settings for a page: the stored keys over the defaults. */
export async function getNotificationSettings(db: Kysely<Database>, userId: string, pageId: string): Promise<NotificationSettings> {
  const row = await db.selectFrom('notification_settings').select('settings').where('user_id', '=', userId).where('page_id', '=', pageId).executeTakeFirst();
  if (!row) return { ...DEFAULT_NOTIFICATION_SETTINGS };
  const stored = notificationSettingsSchema.partial().safeParse(JSON.parse(row.settings));
  return { ...DEFAULT_NOTIFICATION_SETTINGS, ...(stored.success ? stored.data : {}) };
}

export async function saveNotificationSettings(db: Kysely<Database>, userId: string, pageId: string, settings: NotificationSettings): Promise<void> {
  const values = { user_id: userId, page_id: pageId, settings: JSON.stringify(settings), updated_at: nowIso() };
  await db
    .insertInto('notification_settings')
    .values(values)
    .onConflict((oc) => oc.columns(['user_id', 'page_id']).doUpdateSet({ settings: values.settings, updated_at: values.updated_at }))
    .execute();
}

/** The setting that silences each comment notification. */
const SETTING_OF: Partial<Record<NotificationName, keyof NotificationSettings>> = {
  'comments.create': 'comments',
  'comments.replied': 'replies',
  'comments.mention_user': 'mentions',
  'comments.reaction': 'reactions',
};

/**
 * The people who follow a page's comments: everyone with an explicit grant on the page or one of
 * its ancestors, and the page's creator (their access is checked separately).
 */
export async function pageFollowers(db: Kysely<Database>, page: PageRow): Promise<string[]> {
  const grants = await db
    .selectFrom('page_members')
    .select('user_id')
    .distinct()
    .where('page_id', 'in', [page.id, ...pagePath(page)])
    .execute();
  return [...new Set([page.created_by, ...grants.map((g) => g.user_id)])];
}

/**
 * Who gets which notification about one event on a page. `candidates` lists, per user, the
 * notifications that apply to them, most specific first (mention, reply, new comment). Each
 * user gets at most one: the first their settings for the page allow. The actor and anyone
 * without access to the page get nothing.
 */
export async function pickNotifications(
  db: Kysely<Database>,
  page: PageRow,
  actorId: string,
  candidates: ReadonlyMap<string, readonly NotificationName[]>,
): Promise<{ userId: string; name: NotificationName }[]> {
  const out: { userId: string; name: NotificationName }[] = [];
  for (const [userId, names] of candidates) {
    if (userId === actorId) continue;
    if ((await pageAccessLevel(db, userId, page)) === 'none') continue;
    const settings = await getNotificationSettings(db, userId, page.id);
    const name = names.find((n) => {
      const key = SETTING_OF[n];
      return key === undefined || settings[key];
    });
    if (name) out.push({ userId, name });
  }
  return out;
}
