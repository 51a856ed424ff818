import type { Kysely } from 'kysely';

/**
 * Export jobs (issue 18, docs/import-export.md «A whole workspace»): an export that runs in the
 * background — queued by a person, taken by one server process (`status` queued → running → done
 * or failed, `heartbeat_at` while it runs, so a job whose process died is taken again), its
 * progress in pages, and the zip it wrote (`storage_key`, under the files directory) until it
 * expires. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('export_jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('workspace_id', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('root_id', 'text')
    .addColumn('format', 'text', (col) => col.notNull())
    .addColumn('subpages', 'integer', (col) => col.notNull())
    .addColumn('comments', 'integer', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('pages_done', 'integer', (col) => col.notNull())
    .addColumn('pages_total', 'integer', (col) => col.notNull())
    .addColumn('size', 'bigint')
    .addColumn('storage_key', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('heartbeat_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('export_jobs_user').on('export_jobs').columns(['user_id', 'workspace_id', 'created_at']).execute();
  await db.schema.createIndex('export_jobs_status').on('export_jobs').columns(['status', 'created_at']).execute();
}
