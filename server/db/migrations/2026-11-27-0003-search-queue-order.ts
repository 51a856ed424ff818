import { type Kysely } from 'kysely';

/**
 * The search queue in the order it is taken (issue 20, docs/search.md «Keeping up»): the indexer
 * takes the oldest targets first (`order by queued_at limit n`) and asks how long the oldest has
 * waited, and without an index each of those read the whole queue: 60 ms for the 8 oldest of a
 * backlog of 600,000 targets (an import of 50,000 rows), which on SQLite every request waited
 * for; 0.01 ms with it. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('search_queue_order').on('search_queue').columns(['queued_at', 'target']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('search_queue_order').execute();
}
