import type { Kysely } from 'kysely';
import type { Database } from '../db/types';

/**
 * Counts one hit of `key` in its fixed window and answers the hits so far and when the window ends
 * (ms since the epoch). No row, or a window that ended by `now`: a new window of `windowMs` with
 * this one hit. One `insert … on conflict do update … returning`: parallel hits from any number of
 * processes on the same database each get their own count, none lost.
 */
export async function hitRateLimit(db: Kysely<Database>, key: string, windowMs: number, now = Date.now()): Promise<{ hits: number; resetAt: number }> {
  const nowIso = new Date(now).toISOString();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, reset_at: new Date(now + windowMs).toISOString() })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet((eb) => {
        // Both read the row as it was before this update.
        const ended = eb('rate_limits.reset_at', '<=', nowIso);
        return {
          hits: eb
            .case()
            .when(ended)
            .then(eb.lit(1))
            .else(eb('rate_limits.hits', '+', eb.lit(1)))
            .end(),
          reset_at: eb.case().when(ended).then(eb.ref('excluded.reset_at')).else(eb.ref('rate_limits.reset_at')).end(),
        };
      }),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAt: Date.parse(row.reset_at) };
}

/** Deletes the rows whose window ended by `now` (a later hit would start a new window anyway). */
export async function deleteEndedRateLimits(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('reset_at', '<=', new Date(now).toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
