import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/types';
import { isoIn, nowIso } from '../time';
import { hashSecret, newSecret } from './tokens';

export const SESSION_COOKIE = 'sid';

/** Starts a session; returns the token for the cookie (only its hash is stored). */
export async function createSession(db: Kysely<Database>, userId: string, ttlDays: number): Promise<string> {
  const token = newSecret();
  await db
    .insertInto('sessions')
    .values({ id: hashSecret(token), user_id: userId, created_at: nowIso(), expires_at: isoIn(ttlDays * 86_400_000) })
    .execute();
  return token;
}

/** The signed-in user of a session token, if the session is alive. */
export function findSessionUser(db: Kysely<Database>, token: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .where('s.id', '=', hashSecret(token))
    .where('s.expires_at', '>', nowIso())
    .executeTakeFirst();
}

export async function deleteSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', hashSecret(token)).execute();
}

/** The sessions among these ids (hashes) that have not expired, with their users. */
export function liveSessions(db: Kysely<Database>, ids: readonly string[], now: string): Promise<Array<{ id: string; user_id: string }>> {
  return db.selectFrom('sessions').select(['id', 'user_id']).where('id', 'in', ids).where('expires_at', '>', now).execute();
}
