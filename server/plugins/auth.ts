import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { BEARER, findAccessTokenUser } from '../auth/accessTokens';
import { SESSION_COOKIE, findSessionUser } from '../auth/sessions';
import { runInTokenScope } from '../auth/tokenScope';
import { EpochCache } from '../db/changeWatch';
import type { UserRow } from '../db/types';
import { AI_ACTIONS } from '../../schema/ai';
import { ERROR_CODES } from '../../schema/errors';
import { AppError, unauthorized } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route serves anonymous callers too (see PUBLIC_ROUTE); every other /api route needs a user. */
    public?: boolean;
  }
  interface FastifyInstance {
    /** Who a session cookie's token belongs to (cached as the API's sign-in is): the server-drawn page top asks (server/web/serverTop.ts). */
    sessionUser(token: string): Promise<UserRow | null>;
  }
  interface FastifyRequest {
    /** The signed-in user, or null for an anonymous request. */
    user: UserRow | null;
    /** The id (hash) of the bearer token that signed this request in, if one did. */
    accessTokenId: string | null;
    /** What a workspace token that signed this request in limits it to (docs/api/auth.md «Workspace tokens»). */
    tokenLimits: { workspaceId: string | null; readOnly: boolean } | null;
  }
}

const BEARER_SCHEME = /^Bearer(?:[ \t]|$)/i;
/**
 * The account's own calls, beyond any one workspace: a workspace token makes none of them (403
 * auth.token_not_allowed; docs/api/auth.md «Workspace tokens») — the profile and settings, people
 * registered, a messenger link, retention goals, the AI assistant (whose answers go to the
 * person's browser sessions).
 */
const ACCOUNT_CALLS = new Set([
  'POST /api/user',
  'POST /api/user/settings',
  'GET /api/user/telegram/code',
  'POST /api/auth/register',
  'POST /api/goals',
  ...AI_ACTIONS.map((action) => `POST /api/ai/${action}`),
]);

/** The calls a read-only token may make with another method than GET: removing itself, and reading users by id. */
const READ_ONLY_WRITES = new Set(['/api/auth/accesstoken/remove', '/api/user/list']);

/**
 * Signs every API request in: `Authorization: Bearer <token>` (an access token) when such a header
 * is there, else the session cookie. A request that sends a bearer token is judged by that token
 * alone: a bad token makes it anonymous even if a cookie rides along. Other schemes (Basic auth of
 * a reverse proxy) are left alone and the cookie counts.
 */
export const authPlugin = fp<{ authCacheTtlMs: number }>(async (app, { authCacheTtlMs }) => {
  // Who a session token belongs to, kept until a session or user changes (or the TTL passes).
  const sessionUsers = new EpochCache<string, UserRow | null>(app.dbChanges, authCacheTtlMs);
  app.decorateRequest('user', null);
  app.decorate('sessionUser', (token: string) => sessionUsers.get(token, async () => (await findSessionUser(app.db, token)) ?? null));
  app.decorateRequest('accessTokenId', null);
  app.decorateRequest('tokenLimits', null);

  /** A bearer token's user (access tokens are not cached: they are rare and can be revoked). */
  async function signInWithToken(request: FastifyRequest, authorization: string): Promise<void> {
    const token = BEARER.exec(authorization)?.[1];
    const found = token ? await findAccessTokenUser(app.db, token, request.log) : undefined;
    if (found) {
      request.user = found.user;
      request.accessTokenId = found.tokenId;
      if (found.workspaceId !== null || found.readOnly) request.tokenLimits = { workspaceId: found.workspaceId, readOnly: found.readOnly };
    }
  }

  // Callback-style hooks: a request whose session is in memory passes without a promise (this
  // runs before every API call, including every debounced keystroke's block update).
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isApiRequest(request)) return done();
    const authorization = request.headers.authorization;
    if (authorization !== undefined && BEARER_SCHEME.test(authorization)) {
      signInWithToken(request, authorization).then(() => done(), done);
      return;
    }
    // Cookies ride along on requests other sites make; state changes must come from our own pages.
    if (isCrossSiteWrite(request)) return done(new AppError(403, ERROR_CODES.crossSiteRequest, 'requests from other sites may not change anything'));
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return done();
    const kept = sessionUsers.peek(token);
    if (kept !== undefined) {
      request.user = kept;
      return done();
    }
    app.sessionUser(token).then((user) => {
      request.user = user;
      done();
    }, done);
  });
  // Before the body is checked: an anonymous call to a route that needs a user is 401, never 422;
  // a read-only token's write is 403 (removing the token itself excepted).
  app.addHook('preValidation', (request, _reply, done) => {
    const limits = request.tokenLimits;
    if (limits?.workspaceId && ACCOUNT_CALLS.has(`${request.method} ${request.routeOptions.url ?? ''}`))
      return done(new AppError(403, ERROR_CODES.tokenNotAllowed, 'a workspace token reaches its workspace, not the account'));
    if (limits?.readOnly && !SAFE_METHODS.has(request.method) && !READ_ONLY_WRITES.has(request.routeOptions.url ?? '') && isApiRequest(request))
      return done(new AppError(403, ERROR_CODES.tokenReadOnly, 'this access token reads only'));
    if (request.user || request.is404 || !isApiRequest(request) || request.routeOptions.config.public) return done();
    done(unauthorized());
  });
  // A workspace token's request runs in its scope: its user's memberships count that workspace alone (server/auth/tokenScope.ts).
  app.addHook('preHandler', (request, _reply, done) => {
    const workspaceId = request.tokenLimits?.workspaceId;
    if (!request.user || !workspaceId) return done();
    runInTokenScope({ userId: request.user.id, workspaceId }, () => done());
  });
});

/** Judged by the route the request reached (a percent-encoded path reaches the same route). */
function isApiRequest(request: FastifyRequest): boolean {
  return (request.routeOptions.url ?? request.url).startsWith('/api/');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request a browser sent from another site: Sec-Fetch-Site says so, or (older
 * browsers) the Origin is not this host. Requests without either header (curl, server-to-server
 * like the messenger webhook) and Bearer-token calls are not browser-cookie requests and pass.
 */
function isCrossSiteWrite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === '') return false;
  try {
    // Hosts compared as URLs, so a default port written out (":80") still matches.
    return new URL(origin).host !== new URL(`http://${request.headers.host ?? ''}`).host;
  } catch {
    return true;
  }
}

/** Route options for a route that anonymous callers may use: `app.get(path, { ...PUBLIC_ROUTE, schema }, …)`. */
export const PUBLIC_ROUTE = { config: { public: true } } as const;

/** The signed-in user, or a 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}
