import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * A page's last change as a number in its search copy (docs/search.md «Speed»): `updated_days`,
 * days since 1970 (fractional), beside the text `updated_at`. Ranking adds a little for a recent
 * change to every page a query finds — thousands for a common word — and reading each one's
 * date from text took PostgreSQL ≈ 1.7 ms per 3,000 pages. Kept by the indexer with the rest of
 * the copy. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table search_pages add column updated_days double precision not null default 0`.execute(db);
    await sql`update search_pages set updated_days = extract(epoch from updated_at::timestamptz) / 86400 where updated_at <> ''`.execute(db);
  } else {
    await sql`alter table search_pages add column updated_days real not null default 0`.execute(db);
    await sql`update search_pages set updated_days = julianday(updated_at) - 2440587.5 where updated_at <> ''`.execute(db);
  }
}
