import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { type DatabaseConfig, type RowValue } from '../../../schema/blocks/database';
import { cellIndex } from '../../../schema/database';
import { inChunks } from '../../db/inChunks';
import type { Database, DatabaseCellTable } from '../../db/types';
import { bumpRevisions } from '../../repositories/databaseRevisions';
import { ROW_TEMPLATE, cellsOfField, rewriteCells, upsertCells, type CellChange, type WrittenCell } from '../../repositories/databases';
import { recomputeFormulas } from './formulas';
import { recomputeRowReaders } from './formulaJobs';
import { nowIso } from '../../time';

/*
 * Unique IDs (issue 38, docs/api/databases.md «Unique ID»): each row of a database gets a number
 * in a unique ID field once, in the order rows are made, from a counter that only goes up — a
 * number is never given again, not even after its row is deleted. The counter is a row of
 * `database_revisions` (`seq:<field id>`), raised in the transaction that gives the numbers and
 * locked until it ends: two writes making rows at once take numbers one after the other.
 */

/** The counter of a unique ID field among the database's revisions (a field id has no ':'). */
export const sequenceKey = (fieldId: string) => `seq:${fieldId}`;

/** The first of `count` numbers never given before in this field (they are first … first + count − 1). */
async function takeNumbers(trx: Kysely<Database>, databaseId: string, fieldId: string, count: number): Promise<number> {
  const { rev } = await trx
    .insertInto('database_revisions')
    .values({ database_id: databaseId, field_id: sequenceKey(fieldId), rev: count })
    .onConflict((oc) => oc.columns(['database_id', 'field_id']).doUpdateSet({ rev: sql<number>`database_revisions.rev + ${count}` }))
    .returning('rev')
    .executeTakeFirstOrThrow();
  return Number(rev) - count + 1;
}

/** The counter past every number a field holds (a database copied or imported with its numbers): the next row gets the one after the highest. */
export async function raiseSequence(trx: Kysely<Database>, databaseId: string, fieldId: string): Promise<void> {
  const { hi } = await trx
    .selectFrom('database_cells')
    .select((eb) => eb.fn.max('num').as('hi'))
    .where('database_id', '=', databaseId)
    .where('field_id', '=', fieldId)
    .executeTakeFirstOrThrow();
  const highest = hi === null ? 0 : Number(hi);
  await trx
    .insertInto('database_revisions')
    .values({ database_id: databaseId, field_id: sequenceKey(fieldId), rev: highest })
    .onConflict((oc) =>
      oc
        .columns(['database_id', 'field_id'])
        .doUpdateSet({ rev: sql<number>`case when database_revisions.rev < ${highest} then ${highest} else database_revisions.rev end` }),
    )
    .execute();
}

/**
 * Gives the rows that have none a number in each unique ID field of the database: `rowIds` in
 * the order given (rows just made), or every row in the order they were made (a field added).
 * Answers the cells written and adds their changes (for the views' caches).
 */
export async function numberRows(
  trx: Transaction<Database>,
  databaseId: string,
  config: DatabaseConfig,
  rowIds: readonly string[] | 'all',
  userId: string,
  changes?: CellChange[],
  onlyFieldId?: string,
): Promise<WrittenCell[]> {
  const fields = Object.entries(config.fields).filter(([id, f]) => f.type === 'uniqueId' && (onlyFieldId === undefined || id === onlyFieldId));
  if (fields.length === 0 || rowIds.length === 0) return [];
  const ordered =
    rowIds === 'all'
      ? // Made at once (one request): in their order among the rows.
        (
          await trx
            .selectFrom('pages')
            .select('id')
            .where('database_id', '=', databaseId)
            // Templates take no number: a row made from one does.
            .where('in_trash', '!=', ROW_TEMPLATE)
            .orderBy('created_at')
            .orderBy('sort_key')
            .orderBy('id')
            .execute()
        ).map((r) => r.id)
      : rowIds;
  const written: WrittenCell[] = [];
  const at = nowIso();
  for (const [fieldId, field] of fields) {
    // Those that have a number keep it; a cell there without one (cleared by a retype) goes on from its version.
    const numbered = new Set<string>();
    const versions = new Map<string, number>();
    for (const ids of inChunks([...ordered])) {
      const rows = await trx
        .selectFrom('database_cells')
        .select(['row_id', 'num', 'version'])
        .where('field_id', '=', fieldId)
        .where('row_id', 'in', ids)
        .execute();
      for (const row of rows) {
        if (row.num !== null) numbered.add(row.row_id);
        versions.set(row.row_id, row.version);
      }
    }
    const waiting = ordered.filter((id) => !numbered.has(id));
    if (waiting.length === 0) continue;
    const first = await takeNumbers(trx, databaseId, fieldId, waiting.length);
    const cells: Insertable<DatabaseCellTable>[] = waiting.map((rowId, i) => {
      const value = first + i;
      const index = cellIndex(field, value);
      return {
        row_id: rowId,
        field_id: fieldId,
        database_id: databaseId,
        value: JSON.stringify(value),
        num: index.num,
        txt: index.txt,
        num_end: null,
        version: (versions.get(rowId) ?? 0) + 1,
        updated_at: at,
        updated_by: userId,
      };
    });
    await upsertCells(trx, cells);
    for (const cell of cells)
      written.push({ rowId: cell.row_id, fieldId, value: JSON.parse(cell.value) as RowValue, version: cell.version!, updatedAt: at, updatedBy: userId });
  }
  if (written.length > 0) {
    const revs = await bumpRevisions(trx, databaseId, [...new Set(written.map((c) => c.fieldId))]);
    for (const cell of written) changes?.push({ fieldId: cell.fieldId, rev: revs.get(cell.fieldId)!, rowId: cell.rowId });
  }
  return written;
}

/**
 * A unique ID's prefix changed: each cell's text (what search and text keys read) follows, the
 * numbers stay — written again as a retype rewrites cells (their `value` written: the search
 * index's triggers queue them again).
 */
export async function reprefix(trx: Transaction<Database>, databaseId: string, config: DatabaseConfig, fieldId: string, userId: string): Promise<void> {
  const field = config.fields[fieldId];
  if (field?.type !== 'uniqueId') return;
  for await (const cells of cellsOfField(trx, databaseId, fieldId))
    await rewriteCells(
      trx,
      field,
      cells.map((cell) => ({ cell, value: JSON.parse(cell.value) as RowValue })),
      userId,
    );
}

/** Rows just made (a request, an import): their unique IDs in the order given, then their formulas (which may read them). */
export async function computeNewRows(
  trx: Transaction<Database>,
  databaseId: string,
  config: DatabaseConfig,
  rowIds: readonly string[],
  userId: string,
): Promise<void> {
  await numberRows(trx, databaseId, config, rowIds, userId);
  await recomputeFormulas(trx, databaseId, config, rowIds, userId);
  // Rows already naming these (an import brings both sides, the naming side first): their rollups.
  await recomputeRowReaders(trx, rowIds, userId);
}
