import type { Kysely } from 'kysely';

/**
 * Toggle folds per person (issue 39, docs/api/blocks.md «Toggle folds (per person)»): whether a
 * toggle block is open is each person's own state, kept here so it follows them to another
 * browser. One row per person and toggle they folded or unfolded (`open` 0/1; no row: folded);
 * `page_id` to list a page's open toggles at once and to go with the page when it is deleted for
 * good. `block_id` has no foreign key: a deleted block's row is harmless. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('block_folds')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('open', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('block_folds_pk', ['user_id', 'block_id'])
    .execute();
  await db.schema.createIndex('block_folds_page').on('block_folds').columns(['user_id', 'page_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('block_folds').execute();
}
