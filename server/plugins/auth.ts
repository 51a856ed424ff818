import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE, findSessionUser } from '../auth/sessions';
import type { UserRow } from '../db/types';
import { unauthorized } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for an anonymous request. */
    user: UserRow | null;
  }
}

/** Reads the session cookie on every API request and attaches the user. */
export const authPlugin = fp(async (app) => {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.user = (await findSessionUser(app.db, token)) ?? null;
  });
});

/** The signed-in user, or a 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}
