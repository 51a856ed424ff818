import type { DatabaseField, RowValue } from '../../../schema/blocks/database';
import { cellOf, type RowStore } from './rowStore';

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
 * Undo and redo of the cells edited in one view (Ctrl/⌘+Z; Ctrl/⌘+Shift+Z or Ctrl+Y): a step
 * is one edit, or a whole paste or clear. The grid writes a step back through the same cell
 * writes as any edit (`stepWrites`), so it conflicts and merges like one.
 */
export class CellHistory {
  private undos: CellChange[][] = [];
  private redos: CellChange[][] = [];

  record(step: readonly CellChange[]): void {
    if (step.length === 0) return;
    this.undos.push([...step]);
    if (this.undos.length > HISTORY_STEPS) this.undos.shift();
    this.redos = [];
  }

  /** The changes that undo the last step (each one reversed), or null when there is none. */
  undo(): CellChange[] | null {
    const step = this.undos.pop();
    if (!step) return null;
    this.redos.push(step);
    return step.map((change) => ({ ...change, before: change.after, after: change.before }));
  }

  /** The changes of the step last undone, or null. */
  redo(): CellChange[] | null {
    const step = this.redos.pop();
    if (!step) return null;
    this.undos.push(step);
    return step;
  }
}

const same = (a: RowValue | undefined, b: RowValue | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The writes that apply `changes` to the rows in memory: a cell that no longer holds what the
 * change starts from (someone changed it since, or it is not loaded) is left as it is and counted
 * in `skipped` — an undo never overwrites another person's later edit.
 */
export function stepWrites(store: RowStore, changes: readonly CellChange[]): { writes: Array<CellChange & { version: number }>; skipped: number } {
  const writes: Array<CellChange & { version: number }> = [];
  let skipped = 0;
  for (const change of changes) {
    const row = store.rowById(change.rowId);
    if (!row || !same(cellOf(row, change.fieldId), change.before)) {
      skipped += 1;
      continue;
    }
    writes.push({ ...change, version: row.versions[change.fieldId] ?? 0 });
  }
  return { writes, skipped };
}
