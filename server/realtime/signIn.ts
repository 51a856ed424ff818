import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { BEARER, existingAccessTokens, findAccessTokenUser } from '../auth/accessTokens';
import { SESSION_COOKIE, findSessionUser, liveSessions } from '../auth/sessions';
import { hashSecret } from '../auth/tokens';
import type { Database } from '../db/types';
import { nowIso } from '../time';
import type { AppSocket, SocketData } from './sockets';

/**
 * A connection signs in with the session cookie (from this site only) or a Bearer access token
 * (the handshake's auth.token or the Authorization header). Null: not signed in.
 */
export async function signIn(app: FastifyInstance, socket: AppSocket): Promise<Pick<SocketData, 'user' | 'credential'> | null> {
  const headers = socket.request.headers;
  const auth = (socket.handshake.auth ?? {}) as { token?: unknown };
  const bearer = typeof auth.token === 'string' ? auth.token : BEARER.exec(headers.authorization ?? '')?.[1];
  if (bearer) {
    const found = await findAccessTokenUser(app.db, bearer, app.log);
    // A workspace token does not connect (docs/api/auth.md «Workspace tokens»: its integrations hear changes by webhooks).
    if (found && (found.workspaceId !== null || found.readOnly)) return null;
    return found ? { user: found.user, credential: { kind: 'token', token: bearer } } : null;
  }
  // A cookie rides along with connections other sites open: only this site's pages count.
  const origin = headers.origin;
  if (origin) {
    try {
      if (new URL(origin).host !== headers.host) return null;
    } catch {
      return null;
    }
  }
  const token = app.parseCookie(headers.cookie ?? '')[SESSION_COOKIE];
  if (!token) return null;
  const user = await findSessionUser(app.db, token);
  return user ? { user, credential: { kind: 'session', token } } : null;
}

/**
 * Which of these connections are still signed in: their session (not expired) or access token
 * still exists for the same user. One query per 500 credentials, not one per connection.
 */
export async function stillSignedIn(db: Kysely<Database>, list: readonly SocketData[]): Promise<Set<SocketData>> {
  const valid = new Set<string>();
  const now = nowIso();
  for (const kind of ['session', 'token'] as const) {
    const hashes = [...new Set(list.filter((d) => d.credential.kind === kind).map((d) => `${hashSecret(d.credential.token)}\n${d.user.id}`))];
    for (let i = 0; i < hashes.length; i += 500) {
      const ids = hashes.slice(i, i + 500).map((key) => key.split('\n')[0]);
      const rows = kind === 'session' ? await liveSessions(db, ids, now) : await existingAccessTokens(db, ids);
      for (const row of rows) valid.add(`${row.id}\n${row.user_id}`);
    }
  }
  return new Set(list.filter((d) => valid.has(`${hashSecret(d.credential.token)}\n${d.user.id}`)));
}
