import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { databaseDataSchema, fieldOf, type DatabaseRowData } from '../../../schema/blocks/database';
import { cellIndex } from '../../../schema/database';

/**
 * Data tables (ADR 7, docs/api/databases.md):
 * - A row is a page: `pages.database_id` is the database block it belongs to (null for every
 *   other page), its `sort_key` orders it among the database's rows. `pages.updated_by` is who
 *   last changed a page (a row's «edited by»).
 * - `pages_parent` gains `database_id`, so a page's children (database_id IS NULL) are read
 *   without walking the rows of a database on it; `pages_database` orders a database's rows.
 * - `database_cells`: one record per written cell with its own version; `num` and `txt` are the
 *   value's sort and filter projection (schema/database.ts `cellIndex`), indexed per field.
 *   On PostgreSQL `txt` compares byte by byte (COLLATE "C"), as SQLite and JavaScript do.
 * - Rows that were blocks (`databaseRow`, children of a database block) become row pages with the
 *   same ids, their values cells at version 1; the row blocks are removed.
 * Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('pages').addColumn('database_id', 'text').execute();
  await db.schema.alterTable('pages').addColumn('updated_by', 'text').execute();
  await db.schema.dropIndex('pages_parent').execute();
  await db.schema.createIndex('pages_parent').on('pages').columns(['parent_id', 'database_id', 'sort_key']).execute();
  await db.schema.createIndex('pages_database').on('pages').columns(['database_id', 'in_trash', 'sort_key', 'id']).execute();

  await db.schema
    .createTable('database_cells')
    .addColumn('row_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('field_id', 'text', (c) => c.notNull())
    .addColumn('database_id', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('num', postgres ? 'double precision' : 'real')
    .addColumn('txt', postgres ? sql`text COLLATE "C"` : 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('database_cells_pk', ['row_id', 'field_id'])
    .execute();
  await db.schema.createIndex('database_cells_num').on('database_cells').columns(['database_id', 'field_id', 'num', 'row_id']).execute();
  await db.schema.createIndex('database_cells_txt').on('database_cells').columns(['database_id', 'field_id', 'txt', 'row_id']).execute();

  // A counter per database and field (field '' for the rows themselves: made, moved, trashed),
  // raised in the transaction of every write: a view's ordered ids are reused while the counters
  // it depends on stay (server/repositories/databaseViews.ts).
  await db.schema
    .createTable('database_revisions')
    .addColumn('database_id', 'text', (c) => c.notNull())
    .addColumn('field_id', 'text', (c) => c.notNull())
    .addColumn('rev', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('database_revisions_pk', ['database_id', 'field_id'])
    .execute();
  await convertRowBlocks(db);
}

/** Rows that were blocks (children of a database block) become row pages with the same ids; exported for its test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function convertRowBlocks(db: Kysely<any>): Promise<void> {
  const databases = await db.selectFrom('blocks').select(['id', 'page_id', 'data']).where('type', '=', 'database').execute();
  for (const database of databases as Array<{ id: string; page_id: string; data: string }>) {
    const parsed = databaseDataSchema.safeParse(JSON.parse(database.data));
    const holder = (await db.selectFrom('pages').selectAll().where('id', '=', database.page_id).executeTakeFirst()) as
      { id: string; workspace_id: string; path: string; in_trash: number; trashed_at: string | null; trashed_by: string | null } | undefined;
    if (!holder) continue;
    const rows = (await db.selectFrom('blocks').selectAll().where('parent_id', '=', database.id).where('type', '=', 'databaseRow').execute()) as Array<{
      id: string;
      sort_key: string;
      data: string;
      version: number;
      created_at: string;
      updated_at: string;
      updated_by: string;
      deleted_at: string | null;
    }>;
    const path = JSON.stringify([...(JSON.parse(holder.path) as string[]), holder.id]);
    for (const row of rows) {
      const data = JSON.parse(row.data) as DatabaseRowData;
      const trashed = row.deleted_at !== null || holder.in_trash === 1;
      await db
        .insertInto('pages')
        .values({
          id: row.id,
          workspace_id: holder.workspace_id,
          parent_id: holder.id,
          section: null,
          path,
          type: 'Note',
          title: data.title,
          icon: data.icon,
          cover: null,
          is_public: 0,
          in_trash: trashed ? 1 : 0,
          default_layout_id: null,
          sort_key: row.sort_key,
          created_by: row.updated_by,
          created_at: row.created_at,
          updated_at: row.updated_at,
          updated_by: row.updated_by,
          alias: null,
          published_by: null,
          published_at: null,
          trashed_at: row.deleted_at ?? (holder.in_trash === 1 ? holder.trashed_at : null),
          trashed_by: trashed ? (holder.trashed_by ?? row.updated_by) : null,
          database_id: database.id,
        })
        .execute();
      const cells = [
        { fieldId: 'MAIN_FIELD', value: data.title as unknown },
        ...Object.entries(data.values).map(([fieldId, value]) => ({ fieldId, value: value as unknown })),
      ];
      for (const { fieldId, value } of cells) {
        const field = parsed.success ? fieldOf(parsed.data.config, fieldId) : undefined;
        if (!field || value === null || (fieldId === 'MAIN_FIELD' && value === '')) continue;
        const index = cellIndex(field, value as never);
        await db
          .insertInto('database_cells')
          .values({
            row_id: row.id,
            field_id: fieldId,
            database_id: database.id,
            value: JSON.stringify(value),
            num: index.num,
            txt: index.txt,
            version: 1,
            updated_at: row.updated_at,
            updated_by: row.updated_by,
          })
          .onConflict((oc) => oc.columns(['row_id', 'field_id']).doNothing())
          .execute();
      }
    }
    await db.deleteFrom('blocks').where('parent_id', '=', database.id).where('type', '=', 'databaseRow').execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('database_revisions').execute();
  await db.schema.dropTable('database_cells').execute();
  await db.deleteFrom('pages').where('database_id', 'is not', null).execute();
  await db.schema.dropIndex('pages_database').execute();
  await db.schema.dropIndex('pages_parent').execute();
  await db.schema.createIndex('pages_parent').on('pages').columns(['parent_id', 'sort_key']).execute();
  await db.schema.alterTable('pages').dropColumn('updated_by').execute();
  await db.schema.alterTable('pages').dropColumn('database_id').execute();
}
