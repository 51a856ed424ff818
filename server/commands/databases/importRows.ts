import type { Kysely } from 'kysely';
import Papa from 'papaparse';
import {
  COMPUTED_FIELD_TYPES,
  MAIN_FIELD_ID,
  cellProblem,
  hasOptions,
  uniqueIdText,
  withNewOptions,
  type DatabaseConfig,
  type DatabaseField,
  type RowValue,
  type SelectOption,
} from '../../../schema/blocks/database';
import { unescapeFormula } from '../../../schema/csvColumns';
import {
  CELLS_PER_REQUEST,
  ROWS_PER_REQUEST,
  foldText,
  textToValue,
  valueToText,
  type ImportReport,
  type ImportRowsBody,
  type WireRow,
} from '../../../schema/database';
import { newId } from '../../../schema/ids';
import { inChunks } from '../../db/inChunks';
import type { Database } from '../../db/types';
import { AppError, invalid } from '../../errors';
import { ERROR_CODES } from '../../../schema/errors';
import type { DomainEvent } from '../../events/events';
import { readRows } from '../../repositories/databases';
import { listMembers } from '../../repositories/workspaces';
import { writeCells } from './cells';
import { authorizedDatabase } from './database';
import { relationValues, withReadableRelations } from './relations';
import { createRows } from './rows';
import { updateField, type Changer } from './structure';

/*
 * Rows into an existing database over the API (docs/api/databases.md «Import»): CSV text or JSON
 * objects, columns matched to fields by id or name, values read as the web app's paste and CSV
 * import read them (`textToValue`; JSON may also give values as the wire has them). With a key
 * field a row whose key matches one existing row updates it (only the cells that differ), else
 * it is made. A row with a problem is not written at all, and said. A dry run reads everything
 * and writes nothing. Rows are made and cells written through the ordinary commands (checks,
 * versions, two-way relations, formulas, events), in requests' worth at a time.
 */

/** Updated rows whose changes a report lists. */
const CHANGES_SHOWN = 20;

interface Column {
  name: string;
  fieldId: string | null;
}

/** The import as a table: its columns and, per record, each column's raw value. */
function tableOf(body: ImportRowsBody): { columns: string[]; records: Array<Array<RowValue | string | undefined>> } {
  if (body.csv !== undefined) {
    const parsed = Papa.parse<string[]>(body.csv.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
    const [header = [], ...lines] = parsed.data;
    return {
      columns: header.map((name) => name.trim()),
      records: lines.map((line) => header.map((_, i) => (line[i] === undefined ? undefined : unescapeFormula(line[i])))),
    };
  }
  const rows = body.rows ?? [];
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return { columns, records: rows.map((row) => columns.map((name) => (Object.hasOwn(row, name) ? row[name] : undefined))) };
}

/** A column's field: by id, else by name (folded); the title field also as «title». */
function fieldIdOf(config: DatabaseConfig, name: string): string | null {
  if (Object.hasOwn(config.fields, name)) return name;
  const folded = foldText(name);
  if (folded === 'title') return MAIN_FIELD_ID;
  return Object.entries(config.fields).find(([, field]) => foldText(field.name) === folded)?.[0] ?? null;
}

/** A key's text as rows are matched by it (folded). */
const keyText = (field: DatabaseField, value: RowValue, names: (id: string) => string | undefined) =>
  foldText(field.type === 'uniqueId' && typeof value === 'number' ? uniqueIdText(field.prefix, value) : valueToText(field, value, { userName: names }));

export interface ImportOutcome {
  report: ImportReport;
  events: DomainEvent[];
}

export async function importRows(db: Kysely<Database>, changer: Changer, databaseId: string, body: ImportRowsBody): Promise<ImportOutcome> {
  const { userId } = changer;
  const { block, holder, data } = await authorizedDatabase(db, userId, databaseId, 'edit');
  let config = data.config;
  const { columns: names, records } = tableOf(body);
  const columns: Column[] = names.map((name) => {
    const fieldId = fieldIdOf(config, name);
    const field = fieldId === null ? undefined : config.fields[fieldId];
    return { name, fieldId: field && !COMPUTED_FIELD_TYPES.has(field.type) ? fieldId : null };
  });
  // A CSV names each field once; JSON objects may name one by its id in some and by its name in others (not both in one).
  if (body.csv !== undefined && new Set(columns.flatMap((c) => (c.fieldId ? [c.fieldId] : []))).size !== columns.filter((c) => c.fieldId).length)
    throw invalid('two columns name the same field', [{ path: 'columns', message: 'two columns name the same field' }]);
  // The key: a field of the database the import has a column of (a unique ID too: matched by its text).
  const keyId = body.key === undefined ? null : fieldIdOf(config, body.key);
  const keyColumn = keyId === null ? -1 : names.findIndex((name) => fieldIdOf(config, name) === keyId);
  if (body.key !== undefined && (keyId === null || keyColumn < 0))
    throw invalid('the key is no field the import has a column of', [{ path: 'key', message: 'no field of this database with a column in the import' }]);

  // People by e-mail or name (a CSV names them so), the members of the database's workspace.
  const members = await listMembers(db, holder.workspace_id);
  const userByName = new Map<string, string>();
  for (const { user } of members) for (const name of [user.email, user.name]) if (name) userByName.set(foldText(name), user.id);
  const nameOf = new Map(members.map(({ user }) => [user.id, user.name || user.email]));
  // Options made for names none has yet: one id per field and name.
  const made = new Map<string, SelectOption[]>();
  const addOption = (fieldId: string) => (name: string) => {
    const list = made.get(fieldId) ?? [];
    const known = list.find((o) => foldText(o.name) === foldText(name));
    if (known) return known.id;
    const option = { id: newId().slice(0, 8), name: name.trim() };
    made.set(fieldId, [...list, option]);
    return option.id;
  };

  const report: ImportReport = {
    dryRun: body.dryRun === true,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    refused: 0,
    problems: [],
    ignoredColumns: columns.filter((c) => c.fieldId === null).map((c) => c.name),
    newOptions: [],
    changes: [],
  };

  // A computed key (a unique ID: ЗАДАЧА-42) is read from its column as text; it is not written.
  const keyComputed = keyId !== null && COMPUTED_FIELD_TYPES.has(config.fields[keyId].type);
  if (keyComputed) report.ignoredColumns = report.ignoredColumns.filter((name) => name !== names[keyColumn]);
  // Each record's values, or its problems.
  const parsed = records.map((record, index) => {
    const values: Record<string, RowValue> = {};
    const problems: ImportReport['problems'] = [];
    columns.forEach((column, i) => {
      const raw = record[i];
      if (column.fieldId === null || raw === undefined) return;
      if (Object.hasOwn(values, column.fieldId)) {
        problems.push({ row: index + 1, column: column.name, message: 'this field is given twice' });
        return;
      }
      const field = config.fields[column.fieldId];
      let value: RowValue;
      // CSV is text, read as a paste is; JSON gives values as the wire has them, or text (an option's name, a person's e-mail).
      if (typeof raw === 'string' && (body.csv !== undefined || cellProblem(column.fieldId, field, raw) !== null)) {
        const read = textToValue(field, raw, {
          addOption: hasOptions(field) ? addOption(column.fieldId) : undefined,
          userId: (name) => userByName.get(foldText(name)),
        });
        if ('problem' in read) {
          problems.push({ row: index + 1, column: column.name, message: read.problem });
          return;
        }
        value = read.value;
      } else value = raw as RowValue;
      const problem = cellProblem(
        column.fieldId,
        hasOptions(field) && made.has(column.fieldId) ? withNewOptions(field, made.get(column.fieldId)!) : field,
        value,
      );
      // People are members of the workspace (as a cell write checks: database.person_unknown).
      const stranger = field.type === 'person' && Array.isArray(value) && (value as string[]).some((id) => !nameOf.has(id));
      if (problem || stranger) problems.push({ row: index + 1, column: column.name, message: problem ?? 'names someone who is no member of this workspace' });
      else values[column.fieldId] = value;
    });
    const raw = keyComputed ? record[keyColumn] : undefined;
    return { row: index + 1, values, problems, computedKey: raw === undefined || raw === null ? '' : foldText(String(raw)) };
  });

  // The rows an import's key names: folded key text → existing rows (live ones).
  const existing = new Map<string, string[]>();
  if (keyId !== null) {
    const keyField = config.fields[keyId];
    const rows =
      keyId === MAIN_FIELD_ID
        ? (await db.selectFrom('pages').select(['id', 'title']).where('database_id', '=', block.id).where('in_trash', '=', 0).execute()).map((p) => ({
            id: p.id,
            value: p.title as RowValue,
          }))
        : (
            await db
              .selectFrom('database_cells as c')
              .innerJoin('pages as p', 'p.id', 'c.row_id')
              .select(['c.row_id', 'c.value'])
              .where('c.database_id', '=', block.id)
              .where('c.field_id', '=', keyId)
              .where('p.in_trash', '=', 0)
              .execute()
          ).map((c) => ({ id: c.row_id, value: JSON.parse(c.value) as RowValue }));
    for (const row of rows) {
      const text = keyText(keyField, row.value, (id) => nameOf.get(id));
      if (text !== '') existing.set(text, [...(existing.get(text) ?? []), row.id]);
    }
  }

  // Made or matched: a key repeated in the import, or naming several rows, is a problem of that row.
  const creates: Array<{ row: number; values: Record<string, RowValue> }> = [];
  // A row whose computed key names no row: made (it gets the next number, not the one named).
  const matches: Array<{ row: number; rowId: string; values: Record<string, RowValue> }> = [];
  const seen = new Set<string>();
  for (const record of parsed) {
    if (record.problems.length > 0) {
      report.problems.push(...record.problems);
      report.skipped++;
      continue;
    }
    const key = keyId === null ? '' : keyComputed ? record.computedKey : keyText(config.fields[keyId], record.values[keyId] ?? null, (id) => nameOf.get(id));
    if (key !== '' && seen.has(key)) {
      report.problems.push({ row: record.row, column: names[keyColumn], message: 'this key is in the import twice' });
      report.skipped++;
      continue;
    }
    if (key !== '') seen.add(key);
    const found = key === '' ? [] : (existing.get(key) ?? []);
    if (found.length > 1) {
      report.problems.push({ row: record.row, column: names[keyColumn], message: `${found.length} rows have this key` });
      report.skipped++;
    } else if (found.length === 1) matches.push({ row: record.row, rowId: found[0], values: record.values });
    else creates.push(record);
  }

  // Relations to another database name rows the importer may read (as a cell write checks; rows a
  // matched row's cell names already stay): one naming others is a problem of its row, found here
  // so that a dry run says it too.
  const relationWrites = [...creates, ...matches].flatMap((record) =>
    Object.entries(record.values).map(([fieldId, value]) => ({
      path: `${record.row} ${fieldId}`,
      fieldId,
      value,
      rowId: 'rowId' in record ? (record.rowId as string) : undefined,
    })),
  );
  const refusedRows = new Set<number>();
  try {
    await relationValues(db, userId, block.id, config, relationWrites);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== ERROR_CODES.databaseRelationUnknown) throw error;
    for (const { path } of (error.details ?? []) as Array<{ path: string }>) {
      const [row, fieldId] = path.split(' ');
      refusedRows.add(Number(row));
      report.problems.push({
        row: Number(row),
        column: columns.find((c) => c.fieldId === fieldId)?.name ?? fieldId,
        message: 'names a row that is no row of the related database you can read',
      });
    }
  }
  if (refusedRows.size > 0) {
    report.skipped += refusedRows.size;
    report.problems.sort((a, b) => a.row - b.row);
    for (const list of [creates, matches] as Array<Array<{ row: number }>>)
      list.splice(0, list.length, ...list.filter((record) => !refusedRows.has(record.row)));
  }

  // What a match changes: the cells that differ from the row as it is (their versions kept for the write).
  const current = new Map<string, WireRow>();
  for (const chunk of inChunks(
    matches.map((m) => m.rowId),
    500,
  ))
    for (const row of await withReadableRelations(db, userId, block.id, config, await readRows(db, block.id, chunk))) current.set(row.id, row);
  const cells: Array<{ rowId: string; fieldId: string; value: RowValue; version: number }> = [];
  for (const match of matches) {
    const row = current.get(match.rowId)!;
    const changed: ImportReport['changes'][number]['cells'] = {};
    for (const [fieldId, value] of Object.entries(match.values)) {
      const before = fieldId === MAIN_FIELD_ID ? row.data.title : (row.data.values[fieldId] ?? null);
      const same = JSON.stringify(before ?? null) === JSON.stringify(fieldId === MAIN_FIELD_ID && value === null ? '' : value);
      if (same) continue;
      changed[fieldId] = { from: before ?? null, to: value };
      cells.push({ rowId: match.rowId, fieldId, value, version: row.versions[fieldId] ?? 0 });
    }
    if (Object.keys(changed).length === 0) report.unchanged++;
    else {
      report.updated++;
      if (report.changes.length < CHANGES_SHOWN) report.changes.push({ row: match.row, rowId: match.rowId, cells: changed });
    }
  }
  report.created = creates.length;
  report.newOptions = [...made].map(([fieldId, options]) => ({ fieldId, names: options.map((o) => o.name) }));
  if (report.dryRun) return { report, events: [] };

  const events: DomainEvent[] = [];
  // New options first: the values naming them are checked against the fields as stored.
  for (const [fieldId, options] of made) {
    const field = config.fields[fieldId];
    if (!hasOptions(field)) continue;
    const outcome = await updateField(db, changer, block.id, fieldId, withNewOptions(field, options));
    events.push(...outcome.events);
    config = { fields: { ...config.fields, [fieldId]: withNewOptions(field, options) } };
  }
  for (const chunk of inChunks(creates, ROWS_PER_REQUEST)) {
    const outcome = await createRows(db, userId, block.id, { rows: chunk.map((record) => ({ values: record.values })) });
    events.push(...outcome.events);
  }
  for (const chunk of inChunks(cells, CELLS_PER_REQUEST)) {
    const outcome = await writeCells(db, userId, block.id, chunk);
    report.refused += outcome.refused.length;
    events.push(...outcome.events);
  }
  return { report, events };
}
