import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Page history (issue 18, docs/history.md).
 *
 *  - `page_versions`: a version of a page as it stood at `created_at` — its title, who had changed
 *    it since the version before, and whether it was a restore.
 *  - `page_version_blocks`: the blocks a version changed since the one before (cheap in space: a
 *    page of 20,000 blocks where one paragraph changed keeps one row): the block's type, data,
 *    parent and sort key as JSON, or null when it was deleted. A page at a version is, for each
 *    block, its row of the latest version at or before it.
 *  - `history_queue`: pages being edited, since when and when last (filled by the search indexer
 *    as it takes changes, server/search/indexer.ts); the historian (server/history/historian.ts)
 *    records a version after a pause, or while editing goes on, every few minutes. Every page there
 *    is now is queued, so it gets a first version as it stands.
 * Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('page_versions')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('page_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('authors', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('restored_from', postgres ? 'bigint' : 'integer')
    .addColumn('changed', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('page_versions_page').on('page_versions').columns(['page_id', 'id']).execute();
  await db.schema.createIndex('page_versions_created').on('page_versions').column('created_at').execute();
  await db.schema
    .createTable('page_version_blocks')
    .addColumn('page_id', 'text', (col) => col.notNull())
    .addColumn('block_id', 'text', (col) => col.notNull())
    .addColumn('version_id', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .addColumn('block_version', 'integer', (col) => col.notNull())
    .addColumn('place', 'text')
    .addColumn('state', 'text')
    .addPrimaryKeyConstraint('page_version_blocks_pk', ['page_id', 'block_id', 'version_id'])
    .execute();
  await db.schema.createIndex('page_version_blocks_version').on('page_version_blocks').columns(['version_id']).execute();
  await db.schema
    .createTable('history_queue')
    .addColumn('page_id', 'text', (col) => col.primaryKey())
    .addColumn('first_at', 'text', (col) => col.notNull())
    .addColumn('last_at', 'text', (col) => col.notNull())
    .execute();
  // Every page there is gets a first version, as it stands now, in the background.
  // (Database rows only once their own blocks are edited: a table of 50,000 rows makes no 50,000 versions.)
  await db
    .insertInto('history_queue')
    .columns(['page_id', 'first_at', 'last_at'])
    .expression((eb) =>
      eb
        .selectFrom('pages')
        .select(['id', eb.val('1970-01-01T00:00:00.000Z').as('first_at'), eb.val('1970-01-01T00:00:00.000Z').as('last_at')])
        .where('database_id', 'is', null),
    )
    .execute();
}
