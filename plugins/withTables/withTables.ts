import { Editor, Element, Node, Path, Point, Range, Text, Transforms, type NodeEntry, type Operation } from 'slate';
import { newId } from '../../schema/ids';
import {
  TABLE_DEFAULTS,
  TABLE_LIMITS,
  clampColumnSize,
  defaultTableLayout,
  emptyCell,
  emptyRow,
  type TableLayout,
} from '../../schema/blocks/table';
import type { BlockElement, SlateElement, TableElement } from '../../schema/slate';
import type { KeyPress } from '../types';

/**
 * Tables, the one block with structure inside (docs/adr/0005-flat-blocks.md): tableBlock →
 * tableRow → tableCell → text. The structure is the truth: the normalizer keeps every row at the
 * same number of cells and the element's tableLayout equal to it, so a token's tableAddress (given
 * by toWire from the cell's place) is always right after rows and columns come and go.
 *
 * Keys: Tab / Shift+Tab move between cells (Tab in the last cell adds a row); Enter in a cell is
 * a line break; Backspace at the start of a cell (and Delete at its end) does nothing, so cells,
 * rows and the table never merge with anything. A selection that starts in a table ends in the
 * same table; deleting across cells empties them and keeps the grid.
 */

export const isTableElement = (node: unknown): node is TableElement => Element.isElement(node) && node.type === 'tableBlock';

/** The table with this uid and its top-level index. */
export function findTable(editor: Editor, uid: string): { table: TableElement; index: number } | null {
  const index = editor.children.findIndex((n) => isTableElement(n) && n.uid === uid);
  return index < 0 ? null : { table: editor.children[index] as TableElement, index };
}

/** Where a path is inside a table: the table's index, the row and the column; null outside tables. */
export function cellAt(editor: Editor, path: Path): { table: number; row: number; column: number } | null {
  if (path.length < 3 || !isTableElement(editor.children[path[0]])) return null;
  return { table: path[0], row: path[1], column: path[2] };
}

function layoutOf(table: TableElement): TableLayout {
  return table.tableLayout;
}

function setLayout(editor: Editor, index: number, layout: TableLayout): void {
  Transforms.setNodes<SlateElement>(editor, { tableLayout: layout } as Partial<SlateElement>, { at: [index] });
}

/** Inserts an empty row before row `at` (at = rows: at the end). */
export function insertRow(editor: Editor, tableUid: string, at: number): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  const { table, index } = found;
  const layout = layoutOf(table);
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
    setLayout(editor, index, { ...layoutOf(table), rows: table.children.length - 1 });
  });
  return true;
}

/** Inserts an empty column before column `at` (at = columns: at the end), 120 px wide. */
export function insertColumn(editor: Editor, tableUid: string, at: number): boolean {
  const found = findTable(editor, tableUid);
  if (!found) return false;
  const { table, index } = found;
  const layout = layoutOf(table);
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
  const layout = layoutOf(table);
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
  const layout = layoutOf(found.table);
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

const isLayout = (value: unknown): value is TableLayout => {
  if (!value || typeof value !== 'object') return false;
  const layout = value as TableLayout;
  return Number.isInteger(layout.columns) && Number.isInteger(layout.rows) && Array.isArray(layout.columnSizes);
};

const BLOCK_ONLY_KEYS = ['uid', 'version', 'depth'] as const;

/** Fixes one thing about a table element; true when it changed something (normalization reruns). */
function normalizeTable(editor: Editor, table: TableElement, path: Path): boolean {
  const children = table.children as unknown as Node[];
  if (!isLayout(table.tableLayout) || (children.length > 0 && !children.some((c) => Element.isElement(c) && c.type === 'tableRow'))) {
    // A fresh table (a block turned into one by its shortcut): the default grid, any text in its first cell.
    const layout = isLayout(table.tableLayout) ? table.tableLayout : defaultTableLayout();
    const columns = Math.max(1, layout.columns);
    if (children.every((child) => Text.isText(child))) {
      // Its text becomes the first cell (wrapped, so the caret stays in it), then the rest of the grid.
      Editor.withoutNormalizing(editor, () => {
        const own = (_: Node, p: Path) => p.length === path.length + 1;
        Transforms.wrapNodes(editor, { type: 'tableCell', children: [] } as unknown as SlateElement, { at: path, match: own });
        Transforms.wrapNodes(editor, { type: 'tableRow', children: [] } as unknown as SlateElement, { at: path, match: own });
        const rest = Array.from({ length: columns - 1 }, emptyCell);
        if (rest.length > 0) Transforms.insertNodes(editor, rest, { at: [...path, 0, 1], select: false });
        const rows = Array.from({ length: Math.max(1, layout.rows) - 1 }, () => emptyRow(columns));
        if (rows.length > 0) Transforms.insertNodes(editor, rows, { at: [...path, 1], select: false });
        if (!isLayout(table.tableLayout)) Transforms.setNodes<SlateElement>(editor, { tableLayout: layout } as Partial<SlateElement>, { at: path });
      });
      return true;
    }
    const texts = children.flatMap((child) => (Text.isText(child) ? [child] : Array.from(Node.texts(child), ([t]) => t)));
    Editor.withoutNormalizing(editor, () => {
      for (let i = children.length - 1; i >= 0; i--) Transforms.removeNodes(editor, { at: [...path, i] });
      const rows = Array.from({ length: Math.max(1, layout.rows) }, () => emptyRow(Math.max(1, layout.columns)));
      const kept = texts.filter((t) => t.text !== '').map((t) => ({ ...t }));
      if (kept.length > 0) rows[0].children[0] = { type: 'tableCell', children: kept };
      Transforms.insertNodes(editor, rows, { at: [...path, 0], select: false });
      if (!isLayout(table.tableLayout)) Transforms.setNodes<SlateElement>(editor, { tableLayout: layout } as Partial<SlateElement>, { at: path });
    });
    return true;
  }
  if (typeof table.headerRow !== 'boolean' || typeof table.headerColumn !== 'boolean') {
    Transforms.setNodes<SlateElement>(
      editor,
      { headerRow: table.headerRow === true, headerColumn: table.headerColumn === true } as Partial<SlateElement>,
      { at: path },
    );
    return true;
  }
  // Anything in the table that is not a row goes into a row of its own (a pasted cell, text).
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (Element.isElement(child) && child.type === 'tableRow') continue;
    if (Text.isText(child)) {
      Transforms.wrapNodes(editor, { type: 'tableCell', children: [] } as unknown as SlateElement, { at: [...path, i] });
    } else if (Element.isElement(child) && child.type !== 'tableCell') {
      Transforms.unwrapNodes(editor, { at: [...path, i] });
      return true;
    }
    Transforms.wrapNodes(editor, { type: 'tableRow', children: [] } as unknown as SlateElement, { at: [...path, i] });
    return true;
  }
  if (children.length === 0) {
    Transforms.insertNodes(editor, emptyRow(Math.max(1, table.tableLayout.columns)), { at: [...path, 0], select: false });
    return true;
  }
  if (children.length > TABLE_LIMITS.rows) {
    Transforms.removeNodes(editor, { at: [...path, TABLE_LIMITS.rows] });
    return true;
  }
  const rows = table.children;
  const widest = Math.max(...rows.map((row) => row.children.length));
  if (widest > TABLE_LIMITS.columns) {
    const row = rows.findIndex((r) => r.children.length > TABLE_LIMITS.columns);
    Transforms.removeNodes(editor, { at: [...path, row, TABLE_LIMITS.columns] });
    return true;
  }
  const columns = Math.max(1, widest);
  const short = rows.findIndex((row) => row.children.length < columns);
  if (short >= 0) {
    const row = rows[short];
    const missing = Array.from({ length: columns - row.children.length }, emptyCell);
    Transforms.insertNodes(editor, missing, { at: [...path, short, row.children.length], select: false });
    return true;
  }
  const layout = table.tableLayout;
  const sizesOk =
    layout.columnSizes.length === columns && layout.columnSizes.every((size) => clampColumnSize(size) === size);
  if (layout.columns !== columns || layout.rows !== rows.length || !sizesOk) {
    const columnSizes = Array.from({ length: columns }, (_, i) => clampColumnSize(layout.columnSizes[i] ?? TABLE_DEFAULTS.columnSize));
    Transforms.setNodes<SlateElement>(editor, { tableLayout: { columns, rows: rows.length, columnSizes } } as Partial<SlateElement>, { at: path });
    return true;
  }
  return false;
}

/** Rows and cells carry no block fields. */
function dropBlockFields(editor: Editor, node: SlateElement, path: Path): boolean {
  const present = BLOCK_ONLY_KEYS.filter((key) => key in node);
  if (present.length === 0) return false;
  Transforms.unsetNodes(editor, [...present], { at: path });
  return true;
}

/** A row or cell out of its place (pasted, moved): its content is kept, the wrapper is not. */
function normalizeStray(editor: Editor, node: SlateElement, path: Path): boolean {
  if (path.length === 1) {
    if (node.type === 'tableRow') {
      Transforms.unwrapNodes(editor, { at: path });
    } else {
      // A cell at the top level becomes a paragraph (a block needs its own id).
      Transforms.setNodes<SlateElement>(editor, { type: 'textBlock', uid: newId(), version: 1 } as Partial<SlateElement>, { at: path });
    }
    return true;
  }
  Transforms.unwrapNodes(editor, { at: path });
  return true;
}

/** The plain text of a fragment, blocks on their own lines (what a cell can hold). */
function fragmentText(fragment: readonly Node[]): string {
  const lines: string[] = [];
  const walk = (node: Node) => {
    if (Element.isElement(node) && node.type === 'tableRow') {
      lines.push(node.children.map((cell) => Node.string(cell)).join('\t'));
      return;
    }
    if (Element.isElement(node) && (node.children as Node[]).some((c) => Element.isElement(c))) {
      node.children.forEach(walk);
      return;
    }
    lines.push(Node.string(node));
  };
  fragment.forEach(walk);
  return lines.join('\n');
}

export function withTables<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E): E {
  const { normalizeNode, apply, insertBreak, insertSoftBreak, deleteBackward, deleteForward, deleteFragment, insertText, insertFragment, handleKey } =
    editor;

  editor.normalizeNode = (entry: NodeEntry, options) => {
    const [node, path] = entry;
    if (path.length === 0 && isTableElement(editor.children[editor.children.length - 1])) {
      // A table is never the last block: there is always a line below it to click or arrow into.
      const paragraph = { type: 'textBlock', uid: newId(), version: 1, children: [{ text: '' }] } as SlateElement;
      Transforms.insertNodes(editor, paragraph, { at: [editor.children.length], select: false });
      return;
    }
    if (Element.isElement(node)) {
      const parent = path.length > 0 ? Node.parent(editor, path) : null;
      if (node.type === 'tableBlock' && path.length === 1) {
        if (normalizeTable(editor, node, path)) return;
      } else if (node.type === 'tableBlock') {
        Transforms.unwrapNodes(editor, { at: path });
        return;
      } else if (node.type === 'tableRow') {
        if (!parent || !isTableElement(parent) || path.length !== 2) {
          normalizeStray(editor, node, path);
          return;
        }
        if (dropBlockFields(editor, node, path)) return;
        for (let i = 0; i < node.children.length; i++) {
          const child = node.children[i] as Node;
          if (Element.isElement(child) && child.type === 'tableCell') continue;
          if (Element.isElement(child) && child.children.every((c) => Text.isText(c))) {
            // A block dropped into a row becomes a cell with its text.
            Transforms.unsetNodes(editor, Object.keys(child).filter((k) => k !== 'children' && k !== 'type'), { at: [...path, i] });
            Transforms.setNodes<SlateElement>(editor, { type: 'tableCell' } as Partial<SlateElement>, { at: [...path, i] });
          } else if (Element.isElement(child)) {
            Transforms.unwrapNodes(editor, { at: [...path, i] });
          } else {
            Transforms.wrapNodes(editor, { type: 'tableCell', children: [] } as unknown as SlateElement, { at: [...path, i] });
          }
          return;
        }
      } else if (node.type === 'tableCell') {
        if (!parent || !Element.isElement(parent) || parent.type !== 'tableRow') {
          normalizeStray(editor, node, path);
          return;
        }
        if (dropBlockFields(editor, node, path)) return;
        const nested = node.children.findIndex((c) => !Text.isText(c));
        if (nested >= 0) {
          Transforms.unwrapNodes(editor, { at: [...path, nested] });
          return;
        }
        const addressed = node.children.findIndex((c) => 'tableAddress' in c);
        if (addressed >= 0) {
          // Inside Slate a cell's place is its address.
          Transforms.unsetNodes(editor, 'tableAddress', { at: [...path, addressed] });
          return;
        }
      }
    }
    normalizeNode(entry, options);
  };

  // A selection that starts in a table stays in that table: its other end is clamped to the table's cells.
  let clamping = false;
  editor.apply = (op: Operation) => {
    apply(op);
    if (op.type !== 'set_selection' || clamping || !editor.selection) return;
    const { anchor, focus } = editor.selection;
    const start = cellAt(editor, anchor.path);
    if (!start || (focus.path[0] === start.table && cellAt(editor, focus.path))) return;
    const edge = Path.isAfter(focus.path, anchor.path) ? Editor.end(editor, [start.table]) : Editor.start(editor, [start.table]);
    clamping = true;
    try {
      Transforms.setSelection(editor, { focus: edge });
    } finally {
      clamping = false;
    }
  };

  /** Deletes a range that touches a table: cells are emptied, never merged or removed. False when no table is involved. */
  const deleteAcrossCells = (range: Range): boolean => {
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
  };

  const inTable = () => {
    const { selection } = editor;
    return !!selection && (!!cellAt(editor, selection.anchor.path) || !!cellAt(editor, selection.focus.path));
  };

  editor.deleteFragment = (options) => {
    if (editor.selection && Range.isExpanded(editor.selection) && deleteAcrossCells(editor.selection)) return;
    deleteFragment(options);
  };

  editor.insertText = (text, options) => {
    if (editor.selection && Range.isExpanded(editor.selection)) deleteAcrossCells(editor.selection);
    insertText(text, options);
  };

  const lineBreak = () => {
    if (editor.selection && Range.isExpanded(editor.selection)) editor.deleteFragment();
    Transforms.insertText(editor, '\n');
  };

  editor.insertBreak = () => {
    if (inTable()) lineBreak();
    else insertBreak();
  };

  editor.insertSoftBreak = () => {
    if (inTable()) lineBreak();
    else insertSoftBreak();
  };

  editor.insertFragment = (fragment, options) => {
    if (!inTable()) {
      insertFragment(fragment, options);
      return;
    }
    // A cell holds text only: pasted blocks arrive as lines of text.
    if (editor.selection && Range.isExpanded(editor.selection)) editor.deleteFragment();
    Transforms.insertText(editor, fragmentText(fragment));
  };

  /** The caret, when it is collapsed. */
  const caret = () => (editor.selection && Range.isCollapsed(editor.selection) ? editor.selection.anchor : null);

  editor.deleteBackward = (unit) => {
    const point = caret();
    if (point) {
      const cell = cellAt(editor, point.path);
      if (cell) {
        if (Editor.isStart(editor, point, point.path.slice(0, 3))) return; // never merge cells, rows or the table
      } else if (point.path.length === 2 && point.path[0] > 0 && isTableElement(editor.children[point.path[0] - 1])) {
        const index = point.path[0];
        if (Editor.isStart(editor, point, [index])) {
          // Right after a table: go into its last cell instead of merging into it; an empty block goes away.
          const block = editor.children[index] as BlockElement;
          const end = Editor.end(editor, [index - 1]);
          Editor.withoutNormalizing(editor, () => {
            // (The last block stays: a table is never the last block.)
            if (!Editor.isVoid(editor, block) && Node.string(block) === '' && index < editor.children.length - 1) {
              Transforms.removeNodes(editor, { at: [index] });
            }
            Transforms.select(editor, end);
          });
          return;
        }
      }
    }
    deleteBackward(unit);
  };

  editor.deleteForward = (unit) => {
    const point = caret();
    if (point) {
      const cell = cellAt(editor, point.path);
      if (cell) {
        if (Editor.isEnd(editor, point, point.path.slice(0, 3))) return;
      } else if (point.path.length === 2 && isTableElement(editor.children[point.path[0] + 1])) {
        const index = point.path[0];
        if (Editor.isEnd(editor, point, [index])) {
          const block = editor.children[index] as BlockElement;
          if (index > 0 && block.type !== 'pageHeadingBlock' && !Editor.isVoid(editor, block) && Node.string(block) === '') {
            Transforms.removeNodes(editor, { at: [index] });
            Transforms.select(editor, Editor.start(editor, [index]));
          }
          return;
        }
      }
    }
    deleteForward(unit);
  };

  editor.handleKey = (event) => {
    if (event.key !== 'Tab' || event.ctrlKey || event.metaKey || event.altKey || !editor.selection) return handleKey(event);
    const cell = cellAt(editor, editor.selection.anchor.path);
    if (!cell) return handleKey(event);
    const table = editor.children[cell.table] as TableElement;
    const columns = table.children[cell.row].children.length;
    let row = cell.row;
    let column = cell.column + (event.shiftKey ? -1 : 1);
    if (column >= columns) {
      row += 1;
      column = 0;
    } else if (column < 0) {
      row -= 1;
      column = columns - 1;
    }
    if (row < 0) return true; // Shift+Tab in the first cell: stay.
    if (row >= table.children.length) {
      // Tab in the last cell adds a row and goes to its first cell.
      if (!insertRow(editor, table.uid, table.children.length)) return true;
    }
    Transforms.select(editor, Editor.end(editor, [cell.table, row, column]));
    return true;
  };

  return editor;
}
