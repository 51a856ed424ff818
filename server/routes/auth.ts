import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { LOGIN_CODE_TTL_MS } from '../../schema/constants';
import { ERROR_CODES } from '../../schema/errors';
import {
  accessTokenBodySchema,
  emailSchema,
  loginBodySchema,
  oauthCodeBodySchema,
  oauthStartBodySchema,
  registerBodySchema,
  sendCodeBodySchema,
} from '../../schema/user';
import { createAccessToken, deleteAccessToken } from '../auth/accessTokens';
import { consumeLoginCode, issueLoginCode } from '../auth/loginCodes';
import { OAUTH_STATE_TTL_MS, createOidcClient } from '../auth/oauth';
import { SESSION_COOKIE, createSession, deleteSession } from '../auth/sessions';
import { hashSecret, sameDigest } from '../auth/tokens';
import type { Config } from '../config';
import type { UserRow } from '../db/types';
import { AppError, rateLimited } from '../errors';
import type { Mailer } from '../mail';
import { PUBLIC_ROUTE, requireUser } from '../plugins/auth';
import { createLimit } from '../plugins/rateLimit';
import { envelope, presentSelf } from '../presenters';
import { findOrCreateUserByEmail, findUserByEmail, signingInUser, updateUserProfile } from '../repositories/users';

/** Binds an OAuth sign-in to the browser that started it (against login CSRF). */
export const OAUTH_STATE_COOKIE = 'oauth_state';
const OAUTH_COOKIE_PATH = '/api/auth/oauth';

/**
 * Sign-in: by e-mail code (send_code, login → session cookie; accesstoken/get → bearer token),
 * by an OpenID Connect provider (oauth, oauth/code), logout, token removal, and register (an
 * account for an e-mail, used when inviting). Bodies are form-data (JSON works too).
 */
export async function authRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  await app.register(formbody, { bodyLimit: 4096 });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 10, fieldSize: 4096, files: 0, parts: 10 },
  });

  const secure = config.publicUrl.startsWith('https://');
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure };
  const oauthCookieOptions = { path: OAUTH_COOKIE_PATH, httpOnly: true, sameSite: 'lax' as const, secure };
  // Counted per client address, like send_code's per-address limit (shared by every process: docs/security.md).
  const perAddress = { max: config.sendCodeLimitPerIp, windowMs: LOGIN_CODE_TTL_MS, key: (request: FastifyRequest) => request.ip };
  const registerLimit = createLimit(app, {
    name: 'register',
    ...perAddress,
    refusal: () => rateLimited('too many accounts asked for from this address, try again in a few minutes'),
  });
  const oauthStartLimit = createLimit(app, { name: 'oauth-start', ...perAddress, refusal: () => rateLimited() });
  const oidc = config.oauth ? createOidcClient(config.oauth, `${config.publicUrl.replace(/\/+$/, '')}/oauth/callback`) : undefined;

  async function startSession(reply: FastifyReply, user: UserRow) {
    const token = await createSession(app.db, user.id, config.sessionTtlDays);
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: config.sessionTtlDays * 86_400 });
  }

  function requireOidc(service?: string) {
    if (!oidc || !config.oauth) throw new AppError(404, ERROR_CODES.oauthDisabled, 'sign-in with an external provider is not set up on this server');
    if (service !== undefined && service !== config.oauth.serviceName) {
      throw new AppError(404, ERROR_CODES.oauthUnknownService, `no sign-in provider named "${service}"`);
    }
    return oidc;
  }

  app.post(
    '/api/auth/send_code',
    { ...PUBLIC_ROUTE, schema: { tags: ['auth'], summary: 'E-mail a sign-in code (form-data)', body: sendCodeBodySchema } },
    async (request) => {
      const { email } = request.body;
      const code = await issueLoginCode(app.db, email, request.ip, {
        perEmail: config.sendCodeLimitPerEmail,
        perIpEmail: config.sendCodeLimitPerIpEmail,
        perIp: config.sendCodeLimitPerIp,
      });
      await mailer.sendLoginCode(email, code);
      return envelope({ status: 'success' });
    },
  );

  app.post(
    '/api/auth/login',
    { ...PUBLIC_ROUTE, schema: { tags: ['auth'], summary: 'Sign in with the code; sets the session cookie (form-data)', body: loginBodySchema } },
    async (request, reply) => {
      const { email, pin } = request.body;
      await consumeLoginCode(app.db, email.toLowerCase(), pin);
      const user = await signingInUser(app.db, email);
      await startSession(reply, user);
      return envelope(presentSelf(user));
    },
  );

  app.post(
    '/api/auth/accesstoken/get',
    {
      ...PUBLIC_ROUTE,
      schema: { tags: ['auth'], summary: 'Sign in with the code; answers a bearer access token instead of a cookie (form-data)', body: accessTokenBodySchema },
    },
    async (request) => {
      const { email, pin } = request.body;
      await consumeLoginCode(app.db, email.toLowerCase(), pin);
      const user = await signingInUser(app.db, email);
      const { token } = await createAccessToken(app.db, user.id);
      return envelope({ access_token: token, token_type: 'Bearer' as const, user: presentSelf(user) });
    },
  );

  app.post('/api/auth/accesstoken/remove', { schema: { tags: ['auth'], summary: 'Revoke the bearer token this request is signed with' } }, async (request) => {
    requireUser(request);
    if (!request.accessTokenId) throw new AppError(401, ERROR_CODES.unauthorized, 'this request carries no access token (Authorization: Bearer …)');
    await deleteAccessToken(app.db, request.accessTokenId);
    return envelope({ status: 'success' });
  });

  app.get('/api/auth/logout', { ...PUBLIC_ROUTE, schema: { tags: ['auth'], summary: 'End the session' } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(app.db, token);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return envelope({ status: 'success' });
  });

  app.post(
    '/api/auth/register',
    {
      schema: { tags: ['auth'], summary: 'The user id for an e-mail, creating the account if needed (signed-in callers; form-data)', body: registerBodySchema },
    },
    async (request, reply) => {
      requireUser(request);
      const parsed = emailSchema.safeParse(request.body.email);
      // The client reads a 400 as "no user id for this person" (spec: invites).
      if (!parsed.success) throw new AppError(400, ERROR_CODES.invalidEmail, 'not an e-mail address');
      await registerLimit(request, reply);
      const user = await findOrCreateUserByEmail(app.db, parsed.data);
      return envelope({ user_id: user.id });
    },
  );

  app.get(
    '/api/auth/oauth',
    {
      ...PUBLIC_ROUTE,
      schema: { tags: ['auth'], summary: 'Whether an external provider is configured, its service name and display name (for the sign-in button)' },
    },
    async () => {
      const oauth = config.oauth;
      return envelope(oauth ? { enabled: true, service: oauth.serviceName, name: oauth.displayName ?? null } : { enabled: false, service: null, name: null });
    },
  );

  app.post(
    '/api/auth/oauth',
    {
      ...PUBLIC_ROUTE,
      schema: { tags: ['auth'], summary: 'Start signing in with an external provider: answers the provider URL (form-data)', body: oauthStartBodySchema },
    },
    async (request, reply) => {
      const client = requireOidc(request.body.service);
      await oauthStartLimit(request, reply);
      const { url, state } = await client.start(app.db);
      reply.setCookie(OAUTH_STATE_COOKIE, state, { ...oauthCookieOptions, maxAge: OAUTH_STATE_TTL_MS / 1000 });
      return envelope({ url });
    },
  );

  app.post(
    '/api/auth/oauth/code',
    {
      ...PUBLIC_ROUTE,
      schema: { tags: ['auth'], summary: 'Finish signing in with an external provider; sets the session cookie (form-data)', body: oauthCodeBodySchema },
    },
    async (request, reply) => {
      const client = requireOidc();
      const { state, code } = request.body;
      reply.clearCookie(OAUTH_STATE_COOKIE, oauthCookieOptions);
      if (!startedInThisBrowser(request, state)) {
        throw new AppError(401, ERROR_CODES.oauthStateInvalid, 'this sign-in was started in another browser; start again');
      }
      const identity = await client.finish(app.db, state, code);
      const existing = await findUserByEmail(app.db, identity.email);
      let user = existing ?? (await findOrCreateUserByEmail(app.db, identity.email));
      if (!existing && identity.name) user = (await updateUserProfile(app.db, user.id, { name: identity.name })) ?? user;
      await startSession(reply, user);
      return envelope(presentSelf(user));
    },
  );
}

function startedInThisBrowser(request: FastifyRequest, state: string): boolean {
  const cookie = request.cookies[OAUTH_STATE_COOKIE];
  if (!cookie) return false;
  return sameDigest(hashSecret(cookie), hashSecret(state));
}
