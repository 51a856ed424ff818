import type { DatabaseField, RowValue } from '../../../../schema/blocks/database';
import type { WireRow } from '../../../../schema/database';
import { sameValue } from './cellWrites';
import { cellOf, type RowStore } from '../rows/rowStore';

/** One cell's edit: what it held and what it was given. */
export interface CellChange {
  rowId: string;
  fieldId: string;
  field: DatabaseField;
  before: RowValue;
  after: RowValue;
}

/** Steps kept to undo. */
export const HISTORY_STEPS = 100;

/**
 * One step of the history: the cells it changed, and the rows it made or deleted (a paste past the
 * last row does both). Applying a step restores the rows in `added` from the trash, deletes those
 * in `deleted` (to the trash) and writes the cells' `after`.
 */
export interface HistoryStep {
  cells: CellChange[];
  added: string[];
  deleted: string[];
  /**
   * The rows of the view the cells were in when the step was made (first, last): a range cleared
   * or pasted over, thousands of rows of which most are not in memory when it is undone — those
   * are read again from there.
   */
  span?: [number, number];
}

/**
 * Undo and redo in one view (Ctrl/⌘+Z; Ctrl/⌘+Shift+Z or Ctrl+Y): a step is one edit, a whole
 * paste or clear, a row added, or rows deleted. The grid writes a step's cells back through the
 * same cell writes as any edit (`stepWrites`), so they conflict and merge like one; an added row
 * is undone by deleting it (to the trash) and redone by restoring it, deleted rows the other way.
 */
export class CellHistory {
  private undos: HistoryStep[] = [];
  private redos: HistoryStep[] = [];

  /** Records a step (nothing when it changed nothing); answers it, for `undo(step)`. */
  record(step: Partial<HistoryStep>): HistoryStep | null {
    const full: HistoryStep = { cells: [...(step.cells ?? [])], added: [...(step.added ?? [])], deleted: [...(step.deleted ?? [])], span: step.span };
    if (full.cells.length === 0 && full.added.length === 0 && full.deleted.length === 0) return null;
    this.undos.push(full);
    if (this.undos.length > HISTORY_STEPS) this.undos.shift();
    this.redos = [];
    return full;
  }

  /**
   * The step that undoes the last one (each cell reversed, rows made deleted and rows deleted
   * restored), or null when there is none — or when `only` is given and the last step is not it
   * (a toast's «Отменить» after Ctrl/⌘+Z has undone its step, or after a later step).
   */
  undo(only?: HistoryStep | null): HistoryStep | null {
    if (only !== undefined && this.undos[this.undos.length - 1] !== only) return null;
    const step = this.undos.pop();
    if (!step) return null;
    this.redos.push(step);
    return {
      cells: step.cells.map((change) => ({ ...change, before: change.after, after: change.before })),
      added: step.deleted,
      deleted: step.added,
      span: step.span,
    };
  }

  /** The step last undone, to apply again, or null. */
  redo(): HistoryStep | null {
    const step = this.redos.pop();
    if (!step) return null;
    this.undos.push(step);
    return step;
  }
}

/** The history's changes of cell writes: each from the value it was edited from. */
export const changesOf = (
  jobs: ReadonlyArray<Pick<CellChange, 'rowId' | 'fieldId' | 'field'> & { base: { value: RowValue }; value: RowValue }>,
): CellChange[] => jobs.map((job) => ({ rowId: job.rowId, fieldId: job.fieldId, field: job.field, before: job.base.value, after: job.value }));

/**
 * The writes that apply `changes` to the rows in memory (or in `read`: rows read for the step): a
 * cell that no longer holds what the change starts from (someone changed it since, or its row is
 * in neither) is left as it is and counted in `skipped` — an undo never overwrites another
 * person's later edit.
 */
export function stepWrites(
  store: RowStore,
  changes: readonly CellChange[],
  read?: ReadonlyMap<string, WireRow>,
): { writes: Array<CellChange & { version: number; row: WireRow }>; skipped: number } {
  const writes: Array<CellChange & { version: number; row: WireRow }> = [];
  let skipped = 0;
  for (const change of changes) {
    const row = store.rowById(change.rowId) ?? read?.get(change.rowId);
    if (!row || !sameValue(cellOf(row, change.fieldId), change.before)) {
      skipped += 1;
      continue;
    }
    writes.push({ ...change, version: row.versions[change.fieldId] ?? 0, row });
  }
  return { writes, skipped };
}
