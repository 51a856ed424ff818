import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Request limits shared by every server process (issue 19, docs/security.md «Request limits»):
 * one row per limit and key (`register:203.0.113.5`, `ai:<user id>`), the hits counted in the
 * current fixed window and when that window ends. A hit is one `insert … on conflict do update …
 * returning`; rows whose window ended are deleted now and then. SQLite: a `without rowid` table
 * (one b-tree, keyed by `key`). Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = !(db.getExecutor().adapter instanceof PostgresAdapter);
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('hits', 'integer', (col) => col.notNull())
    .addColumn('reset_at', 'text', (col) => col.notNull())
    .$call((table) => (sqlite ? table.modifyEnd(sql`without rowid`) : table))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
