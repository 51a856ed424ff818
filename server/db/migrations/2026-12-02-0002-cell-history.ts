import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * A row's property changes (issue 34 §2, docs/history.md «A row's property changes»): one entry per
 * change of a cell by a person — the field, its type then, the value before and after (JSON), who
 * and when (`started_at`: the first change of a burst the entry gathers, `at`: the last), and the
 * entry it brought back when it was a restore (`restored_from`). Written
 * by the cell writes (server/repositories/databases.ts), listed newest first per row, forgotten
 * after HISTORY_DAYS and beyond a per-row cap. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('cell_history')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('row_id', 'text', (col) => col.notNull())
    .addColumn('database_id', 'text', (col) => col.notNull())
    .addColumn('field_id', 'text', (col) => col.notNull())
    .addColumn('field_type', 'text', (col) => col.notNull())
    .addColumn('old_value', 'text', (col) => col.notNull())
    .addColumn('new_value', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('restored_from', postgres ? 'bigint' : 'integer')
    .execute();
  await db.schema.createIndex('cell_history_row').on('cell_history').columns(['row_id', 'id']).execute();
  await db.schema.createIndex('cell_history_cell').on('cell_history').columns(['row_id', 'field_id', 'id']).execute();
  await db.schema.createIndex('cell_history_at').on('cell_history').column('at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cell_history').execute();
}
