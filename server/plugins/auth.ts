import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { findAccessTokenUser } from '../auth/accessTokens';
import { SESSION_COOKIE, findSessionUser } from '../auth/sessions';
import type { UserRow } from '../db/types';
import { unauthorized } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route serves anonymous callers too (see PUBLIC_ROUTE); every other /api route needs a user. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user, or null for an anonymous request. */
    user: UserRow | null;
    /** The id (hash) of the bearer token that signed this request in, if one did. */
    accessTokenId: string | null;
  }
}

const BEARER_SCHEME = /^Bearer(?:[ \t]|$)/i;
const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i;

/**
 * Signs every API request in: `Authorization: Bearer <token>` (an access token) when such a header
 * is there, else the session cookie. A request that sends a bearer token is judged by that token
 * alone: a bad token makes it anonymous even if a cookie rides along. Other schemes (Basic auth of
 * a reverse proxy) are left alone and the cookie counts.
 */
export const authPlugin = fp(async (app) => {
  app.decorateRequest('user', null);
  app.decorateRequest('accessTokenId', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const authorization = request.headers.authorization;
    if (authorization !== undefined && BEARER_SCHEME.test(authorization)) {
      const token = BEARER.exec(authorization)?.[1];
      const found = token ? await findAccessTokenUser(app.db, token) : undefined;
      if (found) {
        request.user = found.user;
        request.accessTokenId = found.tokenId;
      }
      return;
    }
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.user = (await findSessionUser(app.db, token)) ?? null;
  });
  // Before the body is checked: an anonymous call to a route that needs a user is 401, never 422.
  app.addHook('preValidation', async (request) => {
    if (request.user || request.is404 || !request.url.startsWith('/api/') || request.routeOptions.config.public) return;
    throw unauthorized();
  });
});

/** Route options for a route that anonymous callers may use: `app.get(path, { ...PUBLIC_ROUTE, schema }, …)`. */
export const PUBLIC_ROUTE = { config: { public: true } } as const;

/** The signed-in user, or a 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}
