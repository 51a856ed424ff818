import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Manual order per view (issue 34 §2, docs/api/databases.md «Order per view»): a row moved in one
 * view (a card dragged on a board) gets a key of that view only, and keeps its place in the
 * others. `database_view_order` holds those keys, one per view and row moved there; a view's key
 * of any other row is the row's own `pages.sort_key` (the same fractional key space), so a view
 * nobody dragged in has no records at all. On PostgreSQL the key compares byte by byte (COLLATE
 * "C"), as `pages.sort_key` does. Indexed for a view's neighbours by key
 * (`database_id, view_uid, sort_key`); a row deleted for good or its database takes its keys with
 * it (cascade; `row_id` indexed for that). Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('database_view_order')
    .addColumn('database_id', 'text', (c) => c.notNull().references('blocks.id').onDelete('cascade'))
    .addColumn('view_uid', 'text', (c) => c.notNull())
    .addColumn('row_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('sort_key', postgres ? sql`text COLLATE "C"` : 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('database_view_order_pk', ['view_uid', 'row_id'])
    .execute();
  await db.schema.createIndex('database_view_order_key').on('database_view_order').columns(['database_id', 'view_uid', 'sort_key']).execute();
  await db.schema.createIndex('database_view_order_row').on('database_view_order').columns(['row_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('database_view_order').execute();
}
