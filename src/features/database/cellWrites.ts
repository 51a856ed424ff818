import { MAIN_FIELD_ID, type DatabaseField, type RowValue } from '../../../schema/blocks/database';
import { mergeTokens } from '../../../schema/merge';
import { ApiRequestError } from '../../app/api';
import type { WireCell } from './api';
import { cellOf, type RowStore } from './rowStore';

/** Field types whose value is plain text: a conflict is merged three-way instead of taking theirs. */
const TEXT_TYPES = new Set(['text', 'url', 'email', 'phone']);

export function isTextField(field: DatabaseField): boolean {
  return TEXT_TYPES.has(field.type);
}

/** Three-way merge of a cell's text (schema/merge.ts, the blocks' merge): both sides' edits kept. */
export function mergeText(base: string, local: string, remote: string): string {
  const tokens = (text: string) => (text === '' ? [] : [{ text }]);
  return mergeTokens(tokens(base), tokens(local), tokens(remote))
    .map((token) => token.text)
    .join('');
}

export interface CellWrite {
  store: RowStore;
  write(rowId: string, fieldId: string, value: RowValue, version: number): Promise<WireCell>;
  rowId: string;
  fieldId: string;
  field: DatabaseField;
  value: RowValue;
  /** The cell's value and version when the edit started. */
  base: { value: RowValue; version: number };
  /** A failed write (not a conflict): the toast. */
  onError(error: unknown): void;
  /** A conflict ended with their value shown (a non-text cell): the note. */
  onTheirs?(cell: WireCell): void;
}

export type CellWriteResult = { ok: true; cell: WireCell } | { ok: false; error: unknown };

const CONFLICT = 'database.cell_conflict';
/** Conflicts in a row on one cell before giving up (someone typing in it as fast as we write). */
const MAX_ATTEMPTS = 4;

/**
 * Writes one cell (docs/api/databases.md, «Cell writes»): shown at once; sent with the version
 * the edit started from. A 422 `database.cell_conflict` brings the server's cell: text is merged
 * three-way (base: the value when editing started) and written again on the new version; any
 * other type shows the server's value. Any other failure puts the old value back and says so.
 */
export async function writeCell(job: CellWrite): Promise<CellWriteResult> {
  const { store, rowId, fieldId, field } = job;
  const before = store.rowById(rowId);
  const previous = before ? (cellOf(before, fieldId) ?? null) : job.base.value;
  const previousVersion = before?.versions[fieldId] ?? job.base.version;
  let value = job.value;
  let version = job.base.version;
  let base = job.base.value;
  store.setLocal(rowId, fieldId, value);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const cell = await job.write(rowId, fieldId, value, version);
      store.settleLocal(rowId, fieldId, cell);
      return { ok: true, cell };
    } catch (error) {
      const theirs = conflictCell(error);
      if (theirs && attempt < MAX_ATTEMPTS) {
        const textual = isTextField(field) || fieldId === MAIN_FIELD_ID;
        if (textual) {
          const merged = mergeText(asText(base), asText(value), asText(theirs.value));
          if (merged === asText(theirs.value)) {
            store.settleLocal(rowId, fieldId, theirs);
            return { ok: true, cell: theirs };
          }
          base = theirs.value;
          value = merged === '' && fieldId !== MAIN_FIELD_ID ? null : merged;
          version = theirs.version;
          store.setLocal(rowId, fieldId, value);
          continue;
        }
        store.settleLocal(rowId, fieldId, theirs);
        job.onTheirs?.(theirs);
        return { ok: true, cell: theirs };
      }
      store.settleLocal(rowId, fieldId, { value: previous, version: previousVersion });
      job.onError(error);
      return { ok: false, error };
    }
  }
}

function asText(value: RowValue): string {
  return typeof value === 'string' ? value : '';
}

/** The server's cell carried by a 422 cell_conflict, or null for any other failure. */
export function conflictCell(error: unknown): WireCell | null {
  if (!(error instanceof ApiRequestError) || error.code !== CONFLICT) return null;
  const data = error.data as Partial<WireCell> | null;
  if (!data || typeof data !== 'object' || typeof data.version !== 'number') return null;
  return { rowId: data.rowId ?? '', fieldId: data.fieldId ?? '', value: (data.value ?? null) as RowValue, version: data.version, updatedAt: data.updatedAt ?? '', updatedBy: data.updatedBy ?? null };
}
