import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES } from '../../schema/errors';
import { isSafeHref } from '../../schema/token';
import {
  USER_SETTINGS,
  anonymousUser,
  emailSchema,
  isUserSettingKey,
  updateUserBodySchema,
  userListBodySchema,
  userSettingBodySchema,
  type WireUser,
} from '../../schema/user';
import { issueMessengerLinkToken } from '../auth/messengerLinks';
import { botUsername, messengerDeepLink } from '../auth/messengerBot';
import type { Config } from '../config';
import type { UserRow } from '../db/types';
import { AppError, forbidden, invalid, invalidField, notFound, parseWith } from '../errors';
import { PUBLIC_ROUTE, requireUser } from '../plugins/auth';
import { envelope, presentSelf, presentUser } from '../presenters';
import { findFile, fileIdFromOurUrl } from '../repositories/files';
import { findMembership, isWireRole } from '../repositories/workspaces';
import { findUserByEmail, findVisibleUsers, readUserSettings, saveUserSetting, updateUserProfile } from '../repositories/users';

const emailParams = z.object({ email: z.string().min(1).max(1000) });

/** A user as the caller sees them: their own record in full, anyone else's without the messenger link. */
function presentUserTo(viewer: UserRow | null, user: UserRow): WireUser {
  return viewer?.id === user.id ? presentSelf(user) : presentUser(user);
}

/**
 * Users: who am I, who are they (only people who share a workspace with the caller are shown),
 * profile changes, settings, and the messenger link code.
 */
export async function userRoutes(server: FastifyInstance, { config }: { config: Config }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // The messenger bot's name, for the deep link that carries a link token (asked of the Bot API once).
  const botName = config.telegramBotToken ? botUsername({ apiUrl: config.telegramApiUrl, botToken: config.telegramBotToken, log: app.log }) : null;

  /** An avatar is an http(s) link or one of the caller's public images on this server. */
  async function checkAvatarUrl(url: string, user: UserRow): Promise<string> {
    const fileId = fileIdFromOurUrl(url, config.publicUrl);
    if (fileId !== undefined) {
      const file = await findFile(app.db, fileId);
      if (!file || file.owner_id !== user.id || file.is_public !== 1 || file.status !== 'ready') {
        throw invalid('the avatar must be a public image you uploaded', [{ path: 'body.avatar_url', message: 'not your public file' }]);
      }
      return url;
    }
    if (!isSafeHref(url)) {
      throw invalidField('only http and https links are allowed', 'body.avatar_url');
    }
    return url;
  }

  app.get('/api/user/current', { schema: { tags: ['users'], summary: 'The signed-in user' } }, async (request) => envelope(presentSelf(requireUser(request))));

  app.post(
    '/api/user/list',
    {
      ...PUBLIC_ROUTE,
      schema: { tags: ['users'], summary: 'Users by id; strangers and unknown ids come back as anonymous placeholders', body: userListBodySchema },
    },
    async (request) => {
      const ids = [...new Set(request.body.users_id)];
      const viewer = request.user;
      const visible = viewer ? await findVisibleUsers(app.db, viewer.id, ids) : [];
      const byId = new Map(visible.map((u) => [u.id, u]));
      const users = ids.map((id) => {
        const user = byId.get(id);
        return user ? presentUserTo(viewer, user) : anonymousUser(id);
      });
      return envelope(users, { count: users.length, hasMoreNext: false });
    },
  );

  /** Whether the user is (still) a member of the workspace, in a role the app knows. */
  async function isMemberOf(workspaceId: string, userId: string): Promise<boolean> {
    const membership = await findMembership(app.db, workspaceId, userId);
    return membership !== undefined && isWireRole(membership.role);
  }

  app.get('/api/user/settings', { schema: { tags: ['users'], summary: 'Your settings (every known key, defaults filled in)' } }, async (request) => {
    const user = requireUser(request);
    const settings = await readUserSettings(app.db, user.id);
    // A workspace left, removed from or deleted since is not restored: the app falls back to the first one.
    if (settings.activeWorkspace !== null && !(await isMemberOf(settings.activeWorkspace, user.id))) settings.activeWorkspace = null;
    return envelope(settings);
  });

  app.post('/api/user/settings', { schema: { tags: ['users'], summary: 'Change one of your settings', body: userSettingBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { key, value } = request.body;
    if (!isUserSettingKey(key)) {
      throw new AppError(422, ERROR_CODES.unknownSetting, `no setting named "${key}"`, { known: Object.keys(USER_SETTINGS) });
    }
    const checked = parseWith(USER_SETTINGS[key].schema, value);
    if (key === 'activeWorkspace' && checked !== null && !(await isMemberOf(checked as string, user.id))) {
      throw invalidField('not a workspace of yours', 'body.value');
    }
    await saveUserSetting(app.db, user.id, key, JSON.stringify(checked));
    return envelope({ status: 'success' });
  });

  app.get(
    '/api/user/telegram/code',
    {
      schema: {
        tags: ['users'],
        summary: 'A one-time token to link your messenger account (send it to the bot as /start <token>), and the link that sends it in one tap',
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (!botName) throw new AppError(404, ERROR_CODES.messengerDisabled, 'the messenger bot is not set up on this server');
      const issued = await issueMessengerLinkToken(app.db, user.id);
      const username = await botName();
      return envelope({ ...issued, link: username ? messengerDeepLink(username, issued.token) : null });
    },
  );

  app.get(
    '/api/user/:email',
    { schema: { tags: ['users'], summary: 'A user by e-mail (only someone who shares a workspace with you)', params: emailParams } },
    async (request) => {
      const viewer = requireUser(request);
      const parsed = emailSchema.safeParse(request.params.email);
      if (!parsed.success) throw notFound('user');
      const user = await findUserByEmail(app.db, parsed.data);
      const visible = user ? await findVisibleUsers(app.db, viewer.id, [user.id]) : [];
      if (!user || visible.length === 0) throw notFound('user');
      return envelope(presentUserTo(viewer, user));
    },
  );

  app.post('/api/user', { schema: { tags: ['users'], summary: 'Change your name or avatar', body: updateUserBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { id, name, avatar_url: avatarUrl } = request.body;
    if (id !== user.id) throw forbidden('another user');
    const avatar = avatarUrl === undefined || avatarUrl === null ? avatarUrl : await checkAvatarUrl(avatarUrl, user);
    const updated = await updateUserProfile(app.db, user.id, { name, avatar_url: avatar });
    if (!updated) throw notFound('user');
    return envelope(presentSelf(updated));
  });
}
