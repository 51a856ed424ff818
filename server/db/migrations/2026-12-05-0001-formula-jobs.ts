import type { Kysely } from 'kysely';

/**
 * Formulas computed again in the background (issue 38, docs/formulas.md «A changed formula over
 * many rows»): one job per database whose formulas must be computed again for every row, taken by
 * one server process at a time (`heartbeat_at`), its progress (`done` of `total` rows) read by
 * the rows' answers; `token` changes with each new request, so a job under way starts over when
 * the formulas changed again; `reason`: `change` (a change of fields: the views show the progress)
 * or `clock` (formulas reading now() or today(), kept current: quietly). Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('formula_jobs')
    .addColumn('database_id', 'text', (col) => col.primaryKey())
    .addColumn('holder_id', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('field_ids', 'text', (col) => col.notNull())
    .addColumn('done', 'integer', (col) => col.notNull())
    .addColumn('total', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('heartbeat_at', 'text')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('formula_jobs').execute();
}
