import { Editor, Node, Point, Range, Transforms } from 'slate';
import { TABLE_DEFAULTS, TABLE_LIMITS, clampColumnSize, emptyCell, emptyRow, type TableLayout } from '../blocks/table/block';
import type { SlateElement, TableElement } from '../../schema/slate';
import { cellAt, findTable } from './queries';

/*
 * Editing tables: rows and columns in and out, column widths, the header flags, and deleting a
 * range that touches a table. Each keeps the element's tableLayout equal to its grid (the
 * normalizer, normalize.ts, would otherwise put it right after the fact).
 */

function setLayout(editor: Editor, index: number, layout: TableLayout): void {
  Transforms.setNodes<SlateElement>(editor, { tableLayout: layout } as Partial<SlateElement>, { at: [index] });
}

/** Inserts an empty row before row `at` (at = rows: at the end). */
export function insertRow(editor: Editor, tableUid: string, at: number): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  const { table, index } = found;
  const layout = table.tableLayout;
  if (table.children.length >= TABLE_LIMITS.rows) return false;
  const position = Math.max(0, Math.min(at, table.children.length));
  Editor.withoutNormalizing(editor, () => {
    Transforms.insertNodes(editor, emptyRow(layout.columns), { at: [index, position], select: false });
    setLayout(editor, index, { ...layout, rows: table.children.length + 1 });
  });
  return true;
}

/** Removes row `at`; the last row stays. */
export function deleteRow(editor: Editor, tableUid: string, at: number): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  const { table, index } = found;
  if (table.children.length <= 1 || at < 0 || at >= table.children.length) return false;
  Editor.withoutNormalizing(editor, () => {
    Transforms.removeNodes(editor, { at: [index, at] });
    setLayout(editor, index, { ...table.tableLayout, rows: table.children.length - 1 });
  });
  return true;
}

/** Inserts an empty column before column `at` (at = columns: at the end), 120 px wide. */
export function insertColumn(editor: Editor, tableUid: string, at: number): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  const { table, index } = found;
  const layout = table.tableLayout;
  if (layout.columns >= TABLE_LIMITS.columns) return false;
  const position = Math.max(0, Math.min(at, layout.columns));
  Editor.withoutNormalizing(editor, () => {
    table.children.forEach((_, row) => {
      Transforms.insertNodes(editor, emptyCell(), { at: [index, row, position], select: false });
    });
    const columnSizes = [...layout.columnSizes];
    columnSizes.splice(position, 0, TABLE_DEFAULTS.columnSize);
    setLayout(editor, index, { ...layout, columns: layout.columns + 1, columnSizes });
  });
  return true;
}

/** Removes column `at`; the last column stays. */
export function deleteColumn(editor: Editor, tableUid: string, at: number): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  const { table, index } = found;
  const layout = table.tableLayout;
  if (layout.columns <= 1 || at < 0 || at >= layout.columns) return false;
  Editor.withoutNormalizing(editor, () => {
    table.children.forEach((_, row) => {
      Transforms.removeNodes(editor, { at: [index, row, at] });
    });
    const columnSizes = [...layout.columnSizes];
    columnSizes.splice(at, 1);
    setLayout(editor, index, { ...layout, columns: layout.columns - 1, columnSizes });
  });
  return true;
}

/** Sets a column's width (clamped to 40–2000 px). */
export function setColumnSize(editor: Editor, tableUid: string, column: number, size: number): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  const layout = found.table.tableLayout;
  if (column < 0 || column >= layout.columns) return false;
  const clamped = clampColumnSize(size);
  if (layout.columnSizes[column] === clamped) return false;
  const columnSizes = [...layout.columnSizes];
  columnSizes[column] = clamped;
  setLayout(editor, found.index, { ...layout, columnSizes });
  return true;
}

export function toggleHeaderRow(editor: Editor, tableUid: string): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  Transforms.setNodes<SlateElement>(editor, { headerRow: !found.table.headerRow } as Partial<SlateElement>, { at: [found.index] });
  return true;
}

export function toggleHeaderColumn(editor: Editor, tableUid: string): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  Transforms.setNodes<SlateElement>(editor, { headerColumn: !found.table.headerColumn } as Partial<SlateElement>, { at: [found.index] });
  return true;
}

/** Deletes a range that touches a table: cells are emptied, never merged or removed. False when no table is involved. */
export function deleteAcrossCells(editor: Editor, range: Range): boolean {
  const [start, end] = Range.edges(range);
  const startCell = cellAt(editor, start.path);
  const endCell = cellAt(editor, end.path);
  if (!startCell && !endCell) return false;
  if (startCell && endCell && startCell.row === endCell.row && startCell.column === endCell.column && startCell.table === endCell.table) {
    return false; // Within one cell: Slate's own delete is right.
  }
  const tableIndex = (startCell ?? endCell)!.table;
  const table = editor.children[tableIndex] as TableElement;
  const from: Point = startCell ? start : Editor.start(editor, [tableIndex]);
  const to: Point = endCell && endCell.table === tableIndex ? end : Editor.end(editor, [tableIndex]);
  const first = cellAt(editor, from.path)!;
  const last = cellAt(editor, to.path)!;
  const startRef = Editor.pointRef(editor, start);
  Editor.withoutNormalizing(editor, () => {
    const columns = table.children[0]?.children.length ?? 0;
    const firstIndex = first.row * columns + first.column;
    const lastIndex = last.row * columns + last.column;
    for (let i = lastIndex; i >= firstIndex; i--) {
      const cellPath = [tableIndex, Math.floor(i / columns), i % columns];
      if (!Node.has(editor, cellPath)) continue;
      const cellStart = i === firstIndex ? from : Editor.start(editor, cellPath);
      const cellEnd = i === lastIndex ? to : Editor.end(editor, cellPath);
      if (!Point.equals(cellStart, cellEnd)) Transforms.delete(editor, { at: { anchor: cellStart, focus: cellEnd } });
    }
    if (!startCell && tableIndex > start.path[0]) {
      // From a block before the table into it: the part before the table goes as usual.
      const before = Editor.end(editor, [tableIndex - 1]);
      if (!Point.equals(start, before)) Transforms.delete(editor, { at: { anchor: start, focus: before } });
    }
  });
  const point = startRef.unref();
  if (point) Transforms.select(editor, point);
  return true;
}
