import type { Insertable, Kysely, Transaction } from 'kysely';
import { type DatabaseConfig, type DatabaseField, type RowValue } from '../../../schema/blocks/database';
import { rowValue, type WireRow } from '../../../schema/database';
import { formulaValueOfCell } from '../../../schema/formula/cells';
import { evaluateRow, formulaCell, formulaPlanOf } from '../../../schema/formula/field';
import type { FormulaValue } from '../../../schema/formula/values';
import type { Database, DatabaseCellTable } from '../../db/types';
import { inChunks } from '../../db/inChunks';
import { invalid } from '../../errors';
import { bumpRevisions } from '../../repositories/databaseRevisions';
import { findRowPages, presentRows, upsertCells, type CellChange, type WrittenCell } from '../../repositories/databases';
import { foreignOriginals, relinkRows, rollupFieldsOf, rollupValues } from './rollups';

/*
 * Formula fields on the server (docs/formulas.md «The formula field»): a database's formulas
 * planned from its fields, checked when a field changes, and each row's values computed and kept
 * as cells in the transaction that changed the row, so views sort, filter and group by them in
 * SQL like any field, and a second viewer hears of them with the cells that changed.
 */

let timeZone = 'Europe/Moscow';
/** The zone formulas run in on the server (config `formulaTimeZone`: FORMULA_TIME_ZONE; Moscow by default, as the product's people are). */
export function setFormulaTimeZone(zone: string): void {
  timeZone = zone;
}
/** The zone formulas run in (and a view's groups by date count days in). */
export const formulaTimeZone = () => timeZone;

/** What a formula reads for a related row of another database: one row, not its title. */
export const RELATED_ROW = 'Строка';

/** The database's formulas, planned (remembered by the fields as they are). */
export const formulaPlan = (config: DatabaseConfig) => formulaPlanOf(config.fields);

/**
 * A change of fields checked against the formulas (422): the changed formula's own mistake at
 * `field.expression` (with where it is), or a formula another change breaks (a field it reads
 * deleted or retyped) named in the message. Formulas broken before the change do not stop it.
 */
export function assertFormulasHold(before: DatabaseConfig, after: DatabaseConfig, changedFieldId: string): void {
  const was = new Set(formulaPlan(before).problems.map((p) => p.fieldId));
  const problems = formulaPlan(after).problems.filter((p) => p.fieldId === changedFieldId || !was.has(p.fieldId));
  if (problems.length === 0) return;
  const own = problems.find((p) => p.fieldId === changedFieldId);
  if (own) throw invalid(own.message, [{ path: 'field.expression', message: `${own.message} [${own.start}, ${own.end})` }]);
  const names = problems.map((p) => `«${after.fields[p.fieldId].name}»`).join(', ');
  throw invalid(`formulas read this field: ${names}`, [
    { path: 'field', message: `Поле читают формулы: ${names} (${problems.map((p) => p.message).join('; ')})` },
  ]);
}

/** What `prop("…")` of a field gives in a row (a row's created/edited time and people come from the row itself). */
function fieldValue(field: DatabaseField, fieldId: string, row: WireRow, names: Map<string, string>, titles: Map<string, string>): FormulaValue {
  return formulaValueOfCell(field, rowValue(row, fieldId, field), { personName: (id) => names.get(id), rowTitle: (id) => titles.get(id) });
}

/**
 * Computes the formulas of these rows and writes the cells whose value changed (version + 1, no
 * history entry: nobody wrote them). Runs in the transaction that changed the rows, after the
 * change. Answers the cells written (for the events) and adds their changes (for the views' caches).
 */
export async function recomputeFormulas(
  trx: Transaction<Database> | Kysely<Database>,
  databaseId: string,
  config: DatabaseConfig,
  /** The rows (their ids), or every row of the database. */
  rowIds: readonly string[] | 'all',
  userId: string,
  changes?: CellChange[],
  {
    now = Date.now(),
    relink = true,
  }: {
    now?: number;
    /** Rewrite the rows' links (`row_links`) from their relation cells: false when only what they read changed. */
    relink?: boolean;
  } = {},
): Promise<WrittenCell[]> {
  const { order, problems } = formulaPlan(config);
  // Formulas that give nothing: not written yet (empty: no value) or with a mistake (each row says it).
  const idle = Object.entries(config.fields)
    .filter(([id, field]) => field.type === 'formula' && !order.some((p) => p.fieldId === id))
    .map(([id]) => ({ fieldId: id, message: problems.find((p) => p.fieldId === id)?.message }));
  const rollups = rollupFieldsOf(config);
  const guarded = foreignOriginals(databaseId, config);
  const linking = relink && Object.values(config.fields).some((field) => field.type === 'relation');
  if ((order.length === 0 && idle.length === 0 && rollups.length === 0 && !linking) || rowIds.length === 0) return [];
  // Read again here: the change just made (a title, «edited») is what the formulas see.
  const pages =
    rowIds === 'all' ? await trx.selectFrom('pages').selectAll().where('database_id', '=', databaseId).execute() : await findRowPages(trx, databaseId, rowIds);
  const written: WrittenCell[] = [];
  const at = new Date(now).toISOString();
  const touched = new Set<string>();
  const pending: Insertable<DatabaseCellTable>[] = [];
  for (const chunk of inChunks([...pages], 500)) {
    const rows = await presentRows(trx, chunk);
    if (linking) await relinkRows(trx, databaseId, config, rows);
    if (order.length === 0 && idle.length === 0 && rollups.length === 0) continue;
    const rolled = await rollupValues(trx, databaseId, config, rows, timeZone);
    const people = new Set<string>();
    const related = new Set<string>();
    for (const row of rows) {
      if (row.createdBy) people.add(row.createdBy);
      if (row.updatedBy) people.add(row.updatedBy);
      for (const [fieldId, value] of Object.entries(row.data.values)) {
        const type = config.fields[fieldId]?.type;
        if ((type === 'person' || type === 'relation') && Array.isArray(value))
          for (const id of value as string[]) (type === 'person' ? people : related).add(id);
      }
    }
    const names = new Map<string, string>();
    for (const ids of inChunks([...people].filter(Boolean))) {
      for (const user of await trx.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', ids).execute())
        names.set(user.id, user.name || user.email);
    }
    // Related rows' titles. A row of another database is counted but not named (RELATED_ROW): a
    // formula's value goes to every reader of this database, who may not read that one (docs/relations.md).
    const targets = [...new Set(Object.values(config.fields).flatMap((field) => (field.type === 'relation' ? [field.databaseId ?? databaseId] : [])))];
    const titles = new Map<string, string>();
    for (const ids of inChunks([...related])) {
      for (const page of await trx
        .selectFrom('pages')
        .select(['id', 'title', 'database_id'])
        .where('database_id', 'in', targets)
        .where('id', 'in', ids)
        .where('in_trash', '=', 0)
        .execute())
        titles.set(page.id, page.database_id === databaseId ? page.title : RELATED_ROW);
    }
    for (const row of rows) {
      // Rollups first: a formula reading one reads the value just computed — originals of another
      // database as rows counted but not named, as its relations (RELATED_ROW).
      const rolledUp = rolled.get(row.id) ?? new Map<string, FormulaValue>();
      const readAs = (id: string) => {
        const value = rolledUp.get(id)!;
        return guarded.has(id) && Array.isArray(value) ? value.map(() => RELATED_ROW) : value;
      };
      const outcomes = evaluateRow(order, (id) => (rolledUp.has(id) ? readAs(id) : fieldValue(config.fields[id], id, row, names, titles)), { now, timeZone });
      for (const [fieldId, value] of rolledUp) outcomes.set(fieldId, { ok: true, value });
      // Formulas that give nothing: not written yet (empty: no value) or with a mistake (each row says it).
      for (const { fieldId, message } of idle)
        outcomes.set(fieldId, message === undefined ? { ok: true, value: null } : { ok: false, error: { message, start: 0, end: 0 } });
      for (const [fieldId, outcome] of outcomes) {
        const cell = formulaCell(outcome, timeZone);
        const json = JSON.stringify(cell.value);
        const stored = row.data.values[fieldId];
        if (JSON.stringify(stored ?? null) === json && (stored !== undefined || cell.value === null)) continue;
        const version = (row.versions[fieldId] ?? 0) + 1;
        pending.push({
          row_id: row.id,
          field_id: fieldId,
          database_id: databaseId,
          value: json,
          num: cell.num,
          txt: cell.txt,
          num_end: cell.end,
          version,
          updated_at: at,
          updated_by: userId,
        });
        touched.add(fieldId);
        written.push({ rowId: row.id, fieldId, value: cell.value as RowValue, version, updatedAt: at, updatedBy: userId });
      }
    }
    // Many cells a statement (a whole column computed again is 50,000 of them).
    await upsertCells(trx, pending.splice(0));
  }
  if (touched.size > 0) {
    const revs = await bumpRevisions(trx, databaseId, [...touched]);
    for (const cell of written) changes?.push({ fieldId: cell.fieldId, rev: revs.get(cell.fieldId)!, rowId: cell.rowId });
  }
  return written;
}
