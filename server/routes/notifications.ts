import { workspaceInScope } from '../auth/tokenScope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  notificationListQuerySchema,
  notificationScopeBodySchema,
  notificationScopeQuerySchema,
  notificationSettingsBodySchema,
  type WireNotificationSettings,
} from '../../schema/notification';
import { idParams } from '../../schema/params';
import type { UserRow } from '../db/types';
import { forbidden, notFound } from '../errors';
import { pageOf } from '../pagination';
import { requireUser } from '../plugins/auth';
import { authorizePage } from '../policies/page';
import { envelope } from '../presenters';
import {
  deleteAllNotifications,
  deleteNotification,
  findNotification,
  getNotificationSettings,
  listUserNotifications,
  markAllRead,
  presentNotification,
  saveNotificationSettings,
  setNotificationRead,
  visibleNotifications,
  type NotificationRow,
} from '../repositories/notifications';
import { loadPage } from '../repositories/pages';
import { findMembership, listUserWorkspaces } from '../repositories/workspaces';

export async function notificationsRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  /** A workspace named in a request must be one of the caller's. */
  async function checkWorkspace(user: UserRow, workspaceId: string | undefined) {
    if (workspaceId !== undefined && !(await findMembership(app.db, workspaceId, user.id))) throw forbidden('this workspace');
  }

  /** One of the caller's own notifications that they may still see; anything else is 404. */
  async function ownNotification(user: UserRow, id: string): Promise<NotificationRow> {
    const row = await findNotification(app.db, id);
    if (
      !row ||
      row.user_id !== user.id ||
      (row.workspace_id !== null && !workspaceInScope(user.id, row.workspace_id)) ||
      (await visibleNotifications(app.db, user.id, [row])).length === 0
    ) {
      throw notFound('notification');
    }
    return row;
  }

  async function settingsPage(user: UserRow, id: string) {
    const page = await loadPage(app.db, id);
    await authorizePage(app.db, user.id, page, 'read');
    return page;
  }

  app.get(
    '/api/notifications',
    { schema: { tags: ['notifications'], summary: 'Your notifications, newest first', querystring: notificationListQuerySchema } },
    async (request) => {
      const user = requireUser(request);
      const { filter = 'all', isRead, workspaceId, cursor, limit } = request.query;
      await checkWorkspace(user, workspaceId);
      const byFilter = filter === 'all' ? undefined : filter === 'read';
      // filter and isRead both apply: filter=read with isRead=false asks for nothing.
      if (byFilter !== undefined && isRead !== undefined && byFilter !== isRead) {
        return envelope([], { count: 0, hasMoreNext: false, nextCursor: null });
      }
      const rows = await listUserNotifications(app.db, user.id, { isRead: byFilter ?? isRead, workspaceId });
      const slice = pageOf(await visibleNotifications(app.db, user.id, rows), 'Notification', cursor, limit);
      return envelope(slice.data.map(presentNotification), slice.meta);
    },
  );

  app.get('/api/notifications/counts', { schema: { tags: ['notifications'], summary: 'Unread notifications per workspace' } }, async (request) => {
    const user = requireUser(request);
    const counts = new Map((await listUserWorkspaces(app.db, user.id)).map((w) => [w.id, 0]));
    const unread = await visibleNotifications(app.db, user.id, await listUserNotifications(app.db, user.id, { isRead: false }));
    for (const row of unread) {
      const count = row.workspace_id === null ? undefined : counts.get(row.workspace_id);
      if (count !== undefined) counts.set(row.workspace_id as string, count + 1);
    }
    return envelope(Object.fromEntries(counts), { total: unread.length });
  });

  app.post(
    '/api/notifications/markIsRead',
    {
      schema: { tags: ['notifications'], summary: 'Mark all your notifications read (optionally one workspace)', body: notificationScopeBodySchema.nullish() },
    },
    async (request) => {
      const user = requireUser(request);
      const workspaceId = request.body?.workspaceId;
      await checkWorkspace(user, workspaceId);
      const count = await markAllRead(app.db, user.id, workspaceId);
      return envelope({ status: 'success', count });
    },
  );

  app.post(
    '/api/notifications/:id/markIsRead',
    { schema: { tags: ['notifications'], summary: 'Mark one notification read', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const row = await ownNotification(user, request.params.id);
      await setNotificationRead(app.db, row.id, true);
      return envelope(presentNotification({ ...row, is_read: 1 }));
    },
  );

  app.post(
    '/api/notifications/:id/markIsNotRead',
    { schema: { tags: ['notifications'], summary: 'Mark one notification unread', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const row = await ownNotification(user, request.params.id);
      await setNotificationRead(app.db, row.id, false);
      return envelope(presentNotification({ ...row, is_read: 0 }));
    },
  );

  app.delete(
    '/api/notifications/all',
    { schema: { tags: ['notifications'], summary: 'Delete all your notifications (optionally one workspace)', querystring: notificationScopeQuerySchema } },
    async (request) => {
      const user = requireUser(request);
      const { workspaceId } = request.query;
      await checkWorkspace(user, workspaceId);
      const count = await deleteAllNotifications(app.db, user.id, workspaceId);
      return envelope({ status: 'success', count });
    },
  );

  app.delete('/api/notifications/:id', { schema: { tags: ['notifications'], summary: 'Delete one notification', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const row = await ownNotification(user, request.params.id);
    await deleteNotification(app.db, row.id);
    return envelope({ id: row.id, status: 'success' });
  });

  app.get(
    '/api/v3/spaces/notifications/:id/settings',
    { schema: { tags: ['notifications'], summary: 'Your notification settings for a page', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const page = await settingsPage(user, request.params.id);
      const answer: WireNotificationSettings = {
        contentType: 'ElementNotificationSettings',
        elementId: page.id,
        settings: await getNotificationSettings(app.db, user.id, page.id),
      };
      return envelope(answer);
    },
  );

  app.post(
    '/api/v3/spaces/notifications/:id/settings',
    { schema: { tags: ['notifications'], summary: 'Change your notification settings for a page', params: idParams, body: notificationSettingsBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const page = await settingsPage(user, request.params.id);
      const settings = { ...(await getNotificationSettings(app.db, user.id, page.id)), ...request.body.settings };
      await saveNotificationSettings(app.db, user.id, page.id, settings);
      const answer: WireNotificationSettings = { contentType: 'ElementNotificationSettings', elementId: page.id, settings };
      return envelope(answer);
    },
  );
}
