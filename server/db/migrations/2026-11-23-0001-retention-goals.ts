import type { Kysely } from 'kysely';

/**
 * Retention goals (spec: returning after more than 1, 7 and 30 days), stored first-party: one
 * row per user and goal, the first time it was reached. Frozen once shipped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('retention_goals')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('goal', 'text', (c) => c.notNull())
    .addColumn('reached_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('retention_goals_pk', ['user_id', 'goal'])
    .execute();
  await db.schema.createIndex('retention_goals_goal').on('retention_goals').columns(['goal', 'reached_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('retention_goals').execute();
}
