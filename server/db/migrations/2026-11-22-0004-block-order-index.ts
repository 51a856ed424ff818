import type { Kysely } from 'kysely';

/**
 * Siblings are ordered by (sort_key, id); with id in the index, "the block before this one" walks
 * the index backwards and stops at the first live row instead of sorting every earlier sibling
 * (it was the slowest statement of a block update). Frozen once shipped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('blocks_page').execute();
  await db.schema.createIndex('blocks_page_order').on('blocks').columns(['page_id', 'parent_id', 'sort_key', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('blocks_page_order').execute();
  await db.schema.createIndex('blocks_page').on('blocks').columns(['page_id', 'parent_id', 'sort_key']).execute();
}
