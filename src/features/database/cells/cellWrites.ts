import { MAIN_FIELD_ID, type DatabaseField, type RowValue } from '../../../../schema/blocks/database';
import { mergeTokens } from '../../../../schema/merge';
import { ApiRequestError } from '../../../app/api';
import type { WireCell } from '../api';
import { cellOf, type RowStore } from '../rows/rowStore';

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
  const { store, rowId, fieldId } = job;
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
        const again = afterConflict(job, base, value, theirs);
        if (again === undefined) {
          store.settleLocal(rowId, fieldId, theirs);
          return { ok: true, cell: theirs };
        }
        base = theirs.value;
        value = again;
        version = theirs.version;
        store.setLocal(rowId, fieldId, value);
        continue;
      }
      store.settleLocal(rowId, fieldId, { value: previous, version: previousVersion });
      job.onError(error);
      return { ok: false, error };
    }
  }
}

/** Two cell values alike (as JSON: a list of options or of people compares by content). */
export const sameValue = (a: RowValue | undefined, b: RowValue | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * An edit made while a write of ours to the same cell was not answered yet was made over our own
 * value: once that write is answered, the edit goes on from the version it made — if the cell
 * still holds what the edit saw. Else (our write conflicted, someone's value shows) the edit's own
 * base stands and it conflicts as any edit would. Without this, our own write reads as someone
 * else's change: a clear right after a redo was refused for a number cell («изменили»).
 */
export function onOwnWrite(job: CellWrite): CellWrite {
  const row = job.store.rowById(job.rowId);
  if (!row || job.store.hasLocal(job.rowId, job.fieldId) || !sameValue(cellOf(row, job.fieldId), job.base.value)) return job;
  const version = row.versions[job.fieldId];
  return version === undefined || version === job.base.version ? job : { ...job, base: { value: job.base.value, version } };
}

/** Sends several cells in one call (`POST database/{id}/cells`). */
export type SendCells = (
  cells: Array<{ rowId: string; fieldId: string; value: RowValue; version: number }>,
) => Promise<{ written: WireCell[]; conflicts: WireCell[] }>;

/**
 * Writes several cells at once (a paste, a clear of a range): all shown at once and sent in one
 * call, each on the version its edit saw. A cell that conflicted goes on as `writeCell` would
 * after its 422: text merged three-way and written again alone, any other type showing the
 * server's value. A failed call puts every old value back and says so once.
 */
export async function writeCells(jobs: readonly CellWrite[], send: SendCells): Promise<void> {
  if (jobs.length === 0) return;
  if (jobs.length === 1) {
    await writeCell(jobs[0]);
    return;
  }
  const previous = jobs.map((job) => {
    const row = job.store.rowById(job.rowId);
    return { value: row ? (cellOf(row, job.fieldId) ?? null) : job.base.value, version: row?.versions[job.fieldId] ?? job.base.version };
  });
  for (const job of jobs) job.store.setLocal(job.rowId, job.fieldId, job.value);
  let answer: Awaited<ReturnType<SendCells>>;
  try {
    answer = await send(jobs.map((job) => ({ rowId: job.rowId, fieldId: job.fieldId, value: job.value, version: job.base.version })));
  } catch (error) {
    jobs.forEach((job, i) => job.store.settleLocal(job.rowId, job.fieldId, previous[i]));
    jobs[0].onError(error);
    return;
  }
  const key = (cell: { rowId: string; fieldId: string }) => `${cell.rowId} ${cell.fieldId}`;
  const byKey = new Map(jobs.map((job) => [key(job), job]));
  for (const cell of answer.written) {
    const job = byKey.get(key(cell));
    job?.store.settleLocal(cell.rowId, cell.fieldId, cell);
  }
  await Promise.all(
    answer.conflicts.map(async (theirs) => {
      const job = byKey.get(key(theirs));
      if (!job) return;
      const again = afterConflict(job, job.base.value, job.value, theirs);
      job.store.settleLocal(job.rowId, job.fieldId, theirs);
      // A merge of text goes out alone, on their version.
      if (again !== undefined) await writeCell({ ...job, value: again, base: { value: theirs.value, version: theirs.version } });
    }),
  );
}

/**
 * What a conflict leaves to do: for text, the three-way merge of `value` with theirs (from
 * `base`) to write again on their version; undefined when their value stands — the merge adds
 * nothing, or the cell is of another type (then `onTheirs` says so).
 */
function afterConflict(job: CellWrite, base: RowValue, value: RowValue, theirs: WireCell): RowValue | undefined {
  if (!(isTextField(job.field) || job.fieldId === MAIN_FIELD_ID)) {
    job.onTheirs?.(theirs);
    return undefined;
  }
  const merged = mergeText(asText(base), asText(value), asText(theirs.value));
  if (merged === asText(theirs.value)) return undefined;
  return merged === '' && job.fieldId !== MAIN_FIELD_ID ? null : merged;
}

function asText(value: RowValue): string {
  return typeof value === 'string' ? value : '';
}

/** The server's cell carried by a 422 cell_conflict, or null for any other failure. */
export function conflictCell(error: unknown): WireCell | null {
  if (!(error instanceof ApiRequestError) || error.code !== CONFLICT) return null;
  const data = error.data as Partial<WireCell> | null;
  if (!data || typeof data !== 'object' || typeof data.version !== 'number') return null;
  return {
    rowId: data.rowId ?? '',
    fieldId: data.fieldId ?? '',
    value: (data.value ?? null) as RowValue,
    version: data.version,
    updatedAt: data.updatedAt ?? '',
    updatedBy: data.updatedBy ?? null,
  };
}

/** A cell to write on the version it was read at. */
export interface CellAtVersion {
  rowId: string;
  fieldId: string;
  value: RowValue;
  version: number;
}

/**
 * A deliberate write (a calendar's or a timeline's drag: the value meant whatever the cell holds
 * now): one cell by its own call, several in one call (`POST …/cells`); a cell in conflict is
 * written again on the server's version, a few times. Answers the cells as written; throws when
 * the call fails or a cell stays in conflict.
 */
export async function writeOver(
  api: { writeCell(rowId: string, fieldId: string, value: RowValue, version: number): Promise<WireCell>; writeCells: SendCellsOf },
  databaseId: string,
  cells: readonly CellAtVersion[],
): Promise<WireCell[]> {
  const written: WireCell[] = [];
  let pending = [...cells];
  for (let attempt = 0; attempt < MAX_ATTEMPTS && pending.length > 0; attempt += 1) {
    if (pending.length === 1) {
      const [cell] = pending;
      try {
        written.push(await api.writeCell(cell.rowId, cell.fieldId, cell.value, cell.version));
        pending = [];
      } catch (error) {
        const theirs = conflictCell(error);
        if (!theirs) throw error;
        pending = [{ ...cell, version: theirs.version }];
      }
      continue;
    }
    const answer = await api.writeCells(databaseId, pending);
    written.push(...answer.written);
    pending = answer.conflicts.flatMap((theirs) =>
      pending.filter((c) => c.rowId === theirs.rowId && c.fieldId === theirs.fieldId).map((c) => ({ ...c, version: theirs.version })),
    );
  }
  if (pending.length > 0) throw new Error('the cells stayed in conflict');
  return written;
}
type SendCellsOf = (databaseId: string, cells: CellAtVersion[]) => Promise<{ written: WireCell[]; conflicts: WireCell[] }>;
