import type { Kysely } from 'kysely';

/**
 * Which database block holds a view (layout) uid (ADR 7, «Linked views»): a page of type
 * `WidgetView` names a layout by its uid only (`defaultLayoutId`), and `database_layouts` finds
 * the database from it. One record per layout of every database block, deleted blocks too (a
 * restore brings them back; the lookup reads the block's state), kept in the transaction of
 * every write of a database block's data (server/repositories/databaseLayouts.ts). `since`: when
 * the uid came into that database; a uid held by several databases (a client may choose one that
 * is taken) belongs to the one that has held it longest. Removed with its block (cascade).
 * Existing databases are entered here with their blocks' creation time.
 * Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('database_layouts')
    .addColumn('database_id', 'text', (c) => c.notNull().references('blocks.id').onDelete('cascade'))
    .addColumn('layout_id', 'text', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('database_layouts_pk', ['database_id', 'layout_id'])
    .execute();
  await db.schema.createIndex('database_layouts_layout').on('database_layouts').columns(['layout_id', 'since', 'database_id']).execute();
  await fillDatabaseLayouts(db);
}

/** Enters the layouts of the database blocks there are (deleted ones too); exported for its test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function fillDatabaseLayouts(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const blocks = (await db
      .selectFrom('blocks')
      .select(['id', 'data', 'created_at'])
      .where('type', '=', 'database')
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute()) as Array<{ id: string; data: string; created_at: string }>;
    if (blocks.length === 0) return;
    const records = blocks.flatMap((block) => {
      let layouts: unknown;
      try {
        layouts = (JSON.parse(block.data) as { view?: { layouts?: unknown } }).view?.layouts;
      } catch {
        return [];
      }
      const uids = Array.isArray(layouts)
        ? layouts.map((l) => (l as { uid?: unknown } | null)?.uid).filter((uid): uid is string => typeof uid === 'string')
        : [];
      return [...new Set(uids)].map((uid) => ({ database_id: block.id, layout_id: uid, since: block.created_at }));
    });
    for (let at = 0; at < records.length; at += 200)
      await db
        .insertInto('database_layouts')
        .values(records.slice(at, at + 200))
        .execute();
    after = blocks[blocks.length - 1].id;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('database_layouts').execute();
}
