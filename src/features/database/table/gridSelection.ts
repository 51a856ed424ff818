import type { CellPos, GridSelection } from './gridModel';
import type { RowStore } from '../rows/rowStore';

/* Where a grid's selection is, as rows move under it; its first and last rows among the items drawn. */

/** The selection as set, with the ids of the rows its focus and anchor were on then. */
export interface PickedRows {
  selection: GridSelection;
  focus: string | undefined;
  anchor: string | undefined;
}

/** The selection where its rows are now (a row not in memory, or gone: its position as set). */
export function followRows(selection: GridSelection, rows: PickedRows, store: RowStore): GridSelection {
  const at = (id: string | undefined, pos: CellPos): CellPos => {
    const row = id ? store.indexOf(id) : -1;
    return row < 0 || row === pos.row ? pos : { row, col: pos.col };
  };
  const focus = at(rows.focus, selection.focus);
  const anchor = at(rows.anchor, selection.anchor);
  return focus === selection.focus && anchor === selection.anchor ? selection : { anchor, focus };
}

export function firstRowOf(indexes: number[], rowOf: (i: number) => number | null): number {
  for (const i of indexes) {
    const r = rowOf(i);
    if (r !== null) return r;
  }
  return 0;
}
export function lastRowOf(indexes: number[], rowOf: (i: number) => number | null): number {
  for (let k = indexes.length - 1; k >= 0; k -= 1) {
    const r = rowOf(indexes[k]);
    if (r !== null) return r;
  }
  return 0;
}
