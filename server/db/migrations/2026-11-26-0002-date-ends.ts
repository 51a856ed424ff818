import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Where a date value's time ends, beside where it starts (issue 17, ADR 8 «Calendar»):
 * `num_end` of a date cell is the end, exclusive, in ms — a day (alone or a range's last) runs to
 * the next UTC midnight, a range with a time to its end; null for a moment alone and for anything
 * else. A calendar reads the rows whose dates meet the days on screen — those starting in them
 * (`num`, indexed) and those that started before and end after their start (`num_end`, indexed
 * here). Existing dates are filled from their JSON. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('database_cells')
    .addColumn('num_end', postgres ? 'double precision' : 'real')
    .execute();
  await db.schema.createIndex('database_cells_end').on('database_cells').columns(['database_id', 'field_id', 'num_end', 'row_id']).execute();
  await fillDateEnds(db);
}

/** Sets `num_end` of the cells holding a date (a day, a range); exported for its test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function fillDateEnds(db: Kysely<any>): Promise<void> {
  let after = { row: '', field: '' };
  for (;;) {
    const cells = (await db
      .selectFrom('database_cells')
      .select(['row_id', 'field_id', 'value'])
      .where('num', 'is not', null)
      .where((eb) => eb.or([eb('value', 'like', '"____-__-__"'), eb('value', 'like', '%"start":"%')]))
      .where((eb) => eb.or([eb('row_id', '>', after.row), eb.and([eb('row_id', '=', after.row), eb('field_id', '>', after.field)])]))
      .orderBy('row_id')
      .orderBy('field_id')
      .limit(500)
      .execute()) as Array<{ row_id: string; field_id: string; value: string }>;
    if (cells.length === 0) return;
    for (const cell of cells) {
      const end = dateEndMs(cell.value);
      if (end !== null)
        await db.updateTable('database_cells').set({ num_end: end }).where('row_id', '=', cell.row_id).where('field_id', '=', cell.field_id).execute();
    }
    after = { row: cells[cells.length - 1].row_id, field: cells[cells.length - 1].field_id };
  }
}

/** Where a date value (as JSON text) ends, exclusive, in ms (schema/database.ts `dateEndMs` as it was); null when it is no day or range. */
function dateEndMs(json: string): number | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const range = value && typeof value === 'object' && !Array.isArray(value) ? (value as { start?: unknown; end?: unknown }) : null;
  const last = typeof value === 'string' ? value : typeof range?.end === 'string' ? range.end : range?.start;
  if (typeof last !== 'string') return null;
  const ms = Date.parse(last.length === 10 ? `${last}T00:00:00Z` : last);
  if (!Number.isFinite(ms)) return null;
  return last.length === 10 ? ms + 86_400_000 : typeof range?.end === 'string' ? ms : null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('database_cells_end').execute();
  await db.schema.alterTable('database_cells').dropColumn('num_end').execute();
}
