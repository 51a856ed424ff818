import {
  COMPUTED_FIELD_TYPES,
  DATABASE_LIMITS,
  MAIN_FIELD_ID,
  hasOptions,
  optionColor,
  type DatabaseData,
  type DatabaseField,
} from '../../../../schema/blocks/database';
import type { WireBlock } from '../../../../schema/block';
import { ROWS_PER_REQUEST, foldText } from '../../../../schema/database';
import { newId } from '../../../../schema/ids';
import { api } from '../../../app/api';
import { retryAfterOf } from '../../../app/errors';
import { asDatabase, databaseUrl, type DatabaseRef } from './databaseCalls';
import { convertRows, fieldFor, type CellProblem, type ColumnTarget, type ImportType } from '../../../../schema/csvColumns';

/*
 * Writing a parsed CSV into a database through the data-table API (docs/api/databases.md): the
 * fields first (POST database/{id}/fields, or new options of existing ones), then the rows in
 * batches of ROWS_PER_REQUEST (POST database/{id}/rows), each batch converted just before it is
 * sent, with progress and a way to stop between batches.
 */

/** Field types an existing database's column may receive from text (computed, files and people are not typed in). */
export function importableField(field: DatabaseField): boolean {
  return !COMPUTED_FIELD_TYPES.has(field.type) && field.type !== 'files' && field.type !== 'person';
}

/**
 * Which field each column goes to in an existing database: the field of the same name (case and
 * ё ignored), else nothing; the title field takes the first column when no column is named like it.
 */
export function matchColumns(names: readonly string[], data: DatabaseData): Array<string | null> {
  const byName = new Map<string, string>();
  for (const [id, field] of Object.entries(data.config.fields))
    if (importableField(field) && !byName.has(foldText(field.name))) byName.set(foldText(field.name), id);
  const taken = new Set<string>();
  const matched = names.map((name) => {
    const id = byName.get(foldText(name.trim()));
    if (!id || taken.has(id)) return null;
    taken.add(id);
    return id;
  });
  if (!taken.has(MAIN_FIELD_ID) && names.length > 0 && matched[0] === null) matched[0] = MAIN_FIELD_ID;
  return matched;
}

export interface ImportProgress {
  stage: 'fields' | 'rows';
  done: number;
  total: number;
  /** The server asked to wait (429, a request limit): the seconds until the same batch is sent again. */
  waitSeconds?: number;
}

/** How often one batch is sent again after a 429 before the import stops with it, and the longest wait taken. */
const LIMIT_RETRIES = 5;
const LONGEST_WAIT_S = 120;

/** Waits `seconds`, or less when `signal` aborts. */
function pause(seconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, seconds * 1000);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Sends one batch; refused by a request limit (429 with the seconds to wait: docs/security.md
 * «Request limits» — the server allows ROWS_LIMIT_PER_MINUTE batches a minute), waits them out and
 * sends the same batch again, so a big import is slowed, never stopped half-way. Any other failure,
 * or a wait longer than LONGEST_WAIT_S, is thrown. False: stopped (`signal`) while waiting, not sent.
 */
async function sendBatch(send: () => Promise<unknown>, signal: AbortSignal | undefined, waiting: (seconds: number) => void): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await send();
      return true;
    } catch (error) {
      const seconds = retryAfterOf(error);
      if (seconds === undefined || seconds > LONGEST_WAIT_S || attempt >= LIMIT_RETRIES) throw error;
      waiting(seconds);
      await pause(seconds, signal);
      if (signal?.aborted) return false;
    }
  }
}

export interface ImportResult {
  pageId: string;
  databaseId: string;
  imported: number;
  total: number;
  problems: CellProblem[];
  cancelled: boolean;
  /** The call that failed and stopped the import (the rows before it are in). */
  failed?: unknown;
}

/** What the dialog decided: the rows, each column's name, and its type (new) or field id (existing); null skips it. */
export interface ImportPlan {
  rows: readonly string[][];
  names: readonly string[];
  /** The first line of `rows` in the file (2 with a header row). */
  firstLine: number;
}

const shortId = () => `f${newId().replace(/-/g, '').slice(0, 10)}`;

/** Adds a field; answers the database as it is after. */
async function addField(databaseId: string, id: string, field: DatabaseField): Promise<DatabaseRef> {
  return asDatabase((await api<WireBlock>(databaseUrl(databaseId, '/fields'), { method: 'POST', body: { id, field } })).data);
}

async function updateField(databaseId: string, id: string, field: DatabaseField): Promise<DatabaseRef> {
  return asDatabase((await api<WireBlock>(databaseUrl(databaseId, `/fields/${encodeURIComponent(id)}`), { method: 'POST', body: { field } })).data);
}

/**
 * A new database's fields from the columns: the title column renames the title field, the others
 * are added with their types (select options from their values). Answers the column targets.
 */
export async function createFields(
  database: DatabaseRef,
  plan: ImportPlan,
  types: ReadonlyArray<ImportType | null>,
  titleColumn: number,
  onProgress?: (p: ImportProgress) => void,
): Promise<ColumnTarget[]> {
  const targets: ColumnTarget[] = [];
  const main = database.data.config.fields[MAIN_FIELD_ID];
  const titleName = plan.names[titleColumn]?.trim();
  if (titleName && main && main.name !== titleName)
    await updateField(database.id, MAIN_FIELD_ID, { name: titleName.slice(0, DATABASE_LIMITS.nameLength), type: 'text' });
  targets.push({ index: titleColumn, fieldId: MAIN_FIELD_ID, field: { name: titleName ?? '', type: 'text' } });
  const columns = types
    .map((type, index) => ({ type, index }))
    .filter((c): c is { type: ImportType; index: number } => c.type !== null && c.index !== titleColumn);
  let done = 0;
  for (const { type, index } of columns) {
    const field = fieldFor(
      plan.names[index],
      type,
      plan.rows.map((r) => r[index] ?? ''),
    );
    const id = shortId();
    await addField(database.id, id, field);
    targets.push({ index, fieldId: id, field });
    onProgress?.({ stage: 'fields', done: (done += 1), total: columns.length });
  }
  return targets;
}

/** Existing fields as targets of the columns mapped to them. */
export function existingTargets(database: DatabaseRef, mapping: ReadonlyArray<string | null>): ColumnTarget[] {
  return mapping.flatMap((fieldId, index) => {
    const field = fieldId ? database.data.config.fields[fieldId] : undefined;
    return fieldId && field ? [{ index, fieldId, field }] : [];
  });
}

/**
 * Sends the rows in batches. Names that are no option of a select field yet become options (the
 * field is updated before the batch that uses them); past the option limit a cell is a problem.
 */
export async function sendRows(
  database: DatabaseRef,
  plan: ImportPlan,
  targets: ColumnTarget[],
  options: { pageId: string; signal?: AbortSignal; onProgress?(p: ImportProgress): void; columnName(index: number): string },
): Promise<ImportResult> {
  const result: ImportResult = { pageId: options.pageId, databaseId: database.id, imported: 0, total: plan.rows.length, problems: [], cancelled: false };
  // The targets' own copies of the option fields: options added as the rows are read go there.
  const ownTargets = targets.map((t) => ({ ...t, field: hasOptions(t.field) ? ({ ...t.field, options: [...t.field.options] } as DatabaseField) : t.field }));
  const fields = new Map(ownTargets.map((t) => [t.fieldId, t.field]));
  const added = new Set<string>();
  const addOption = (fieldId: string, name: string): string | undefined => {
    const field = fields.get(fieldId);
    if (!field || (field.type !== 'select' && field.type !== 'multiSelect') || field.options.length >= DATABASE_LIMITS.selectOptions) return undefined;
    const option = { id: shortId(), name: name.slice(0, DATABASE_LIMITS.nameLength), color: optionColor(field.options.length) };
    field.options = [...field.options, option];
    added.add(fieldId);
    return option.id;
  };
  try {
    for (let start = 0; start < plan.rows.length; start += ROWS_PER_REQUEST) {
      if (options.signal?.aborted) {
        result.cancelled = true;
        break;
      }
      const batch = plan.rows.slice(start, start + ROWS_PER_REQUEST);
      const converted = convertRows(batch, ownTargets, { firstLine: plan.firstLine + start, columnName: options.columnName, addOption });
      result.problems.push(...converted.problems);
      for (const fieldId of added.keys()) await updateField(database.id, fieldId, fields.get(fieldId)!);
      added.clear();
      const body = { rows: converted.rows.map((row) => ({ title: row.title, values: row.values })) };
      const sent = await sendBatch(
        () => api(databaseUrl(database.id, '/rows'), { method: 'POST', body }),
        options.signal,
        (waitSeconds) => options.onProgress?.({ stage: 'rows', done: result.imported, total: result.total, waitSeconds }),
      );
      if (!sent) {
        result.cancelled = true;
        break;
      }
      result.imported += batch.length;
      options.onProgress?.({ stage: 'rows', done: result.imported, total: result.total });
    }
  } catch (error) {
    result.failed = error;
  }
  return result;
}
