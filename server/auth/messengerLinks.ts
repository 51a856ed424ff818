import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/types';
import { isoIn, nowIso } from '../time';
import { hashSecret, newSecret } from './tokens';

/** A link token works this long after it is issued. */
export const MESSENGER_LINK_TTL_MS = 15 * 60 * 1000;

/**
 * A one-time token the user sends to the bot (`/start <token>`) to link their messenger account.
 * 43 url-safe characters: fits the bot platform's start parameter (at most 64 of A-Z a-z 0-9 _ -).
 */
export async function issueMessengerLinkToken(db: Kysely<Database>, userId: string): Promise<{ token: string; expiresAt: string }> {
  const token = newSecret();
  const now = nowIso();
  const expiresAt = isoIn(MESSENGER_LINK_TTL_MS);
  await db.deleteFrom('messenger_link_tokens').where('expires_at', '<', now).execute();
  await db
    .insertInto('messenger_link_tokens')
    .values({ id: hashSecret(token), user_id: userId, expires_at: expiresAt, used_at: null, created_at: now })
    .execute();
  return { token, expiresAt };
}

/**
 * Uses a link token up and links the messenger account to its user; a messenger account is linked
 * to one user at a time, so whoever had it before loses it. Undefined for an unknown, used or
 * expired token.
 */
export async function linkMessengerAccount(db: Kysely<Database>, token: string, messengerId: string): Promise<UserRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const used = await trx
      .updateTable('messenger_link_tokens')
      .set({ used_at: now })
      .where('id', '=', hashSecret(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!used) return undefined;
    await trx.updateTable('users').set({ telegram_id: null }).where('telegram_id', '=', messengerId).where('id', '!=', used.user_id).execute();
    return trx.updateTable('users').set({ telegram_id: messengerId }).where('id', '=', used.user_id).returningAll().executeTakeFirst();
  });
}
