import type { Kysely } from 'kysely';

/**
 * Row links (issue 38, docs/relations.md «Rollups»): one record per row a relation cell names —
 * `from_row` (of `database_id`, its cell in `field_id`) names `to_row` (of `to_database_id`).
 * The cells keep their lists (what reads, filters and exports use); this is their index the other
 * way: which rows name a row (`to_row`), so a change of a row computes again the rollups that read
 * it, and which databases read a database (`to_database_id`), so a change of its fields computes
 * theirs. Filled here from the relation cells there are. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('row_links')
    .addColumn('field_id', 'text', (c) => c.notNull())
    .addColumn('from_row', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('to_row', 'text', (c) => c.notNull())
    .addColumn('database_id', 'text', (c) => c.notNull())
    .addColumn('to_database_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('row_links_pk', ['from_row', 'field_id', 'to_row'])
    .execute();
  await db.schema.createIndex('row_links_to').on('row_links').columns(['to_row', 'database_id', 'field_id']).execute();
  await db.schema.createIndex('row_links_databases').on('row_links').columns(['to_database_id', 'database_id', 'field_id']).execute();
  await fillRowLinks(db);
}

/** The links of every relation cell there is (those there are already stay); exported for its test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function fillRowLinks(db: Kysely<any>): Promise<void> {
  const databases = await db.selectFrom('blocks').select(['id', 'data']).where('type', '=', 'database').execute();
  for (const database of databases as Array<{ id: string; data: string }>) {
    let fields: Record<string, { type?: string; databaseId?: string }> = {};
    try {
      fields = (JSON.parse(database.data) as { config?: { fields?: typeof fields } }).config?.fields ?? {};
    } catch {
      continue;
    }
    for (const [fieldId, field] of Object.entries(fields)) {
      if (field?.type !== 'relation') continue;
      const target = field.databaseId ?? database.id;
      let after = '';
      for (;;) {
        const cells = (await db
          .selectFrom('database_cells')
          .select(['row_id', 'value'])
          .where('database_id', '=', database.id)
          .where('field_id', '=', fieldId)
          .where('row_id', '>', after)
          .orderBy('row_id')
          .limit(1000)
          .execute()) as Array<{ row_id: string; value: string }>;
        if (cells.length === 0) break;
        const links: Array<Record<string, string>> = [];
        for (const cell of cells) {
          let ids: unknown;
          try {
            ids = JSON.parse(cell.value);
          } catch {
            continue;
          }
          if (!Array.isArray(ids)) continue;
          for (const id of new Set(ids.filter((x): x is string => typeof x === 'string')))
            links.push({ field_id: fieldId, from_row: cell.row_id, to_row: id, database_id: database.id, to_database_id: target });
        }
        for (let i = 0; i < links.length; i += 100)
          await db
            .insertInto('row_links')
            .values(links.slice(i, i + 100))
            .onConflict((oc) => oc.doNothing())
            .execute();
        after = cells[cells.length - 1].row_id;
      }
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('row_links').execute();
}
