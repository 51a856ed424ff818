import type { Kysely } from 'kysely';

/**
 * Link previews read by the server (the bookmark block, issue 39; docs/api/blocks.md «Link
 * previews»): one row per address asked for, so a link pasted by many people, or again, is
 * fetched once a day (a failure is kept for minutes: `failure` is its code, `preview` null).
 * Nothing here belongs to a person or a page; rows past their day are replaced when asked again
 * and cleared by the background sweep. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('link_previews')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('preview', 'text')
    .addColumn('failure', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_previews_fetched').on('link_previews').column('fetched_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('link_previews').execute();
}
