import type { Kysely } from 'kysely';

/**
 * Reminders (issue 39 §2; server/reminders/reminders.ts): one row per block and instant a date
 * mention with a reminder names, its author the writer of the version that first held it.
 * `sent_at` is set when a worker takes it (then it is checked and told, or dropped). Gone with
 * the person, or with the page deleted for good; a block has no foreign key (its row is checked
 * when due). Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reminders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('remind_at', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addUniqueConstraint('reminders_block_instant', ['block_id', 'remind_at'])
    .execute();
  await db.schema.createIndex('reminders_due').on('reminders').columns(['sent_at', 'remind_at']).execute();
  await db.schema.createIndex('reminders_user').on('reminders').columns(['user_id', 'remind_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reminders').execute();
}
