import { Editor, Element, Node, Text, Transforms, type NodeEntry, type Path } from 'slate';
import { newId } from '../../schema/ids';
import { TABLE_DEFAULTS, TABLE_LIMITS, clampColumnSize, defaultTableLayout, emptyCell, emptyRow, type TableLayout } from '../blocks/table/block';
import type { SlateElement, TableElement } from '../../schema/slate';
import { isTableElement } from './queries';

/*
 * The normalizer: the structure is the truth. Every table is tableBlock → tableRow → tableCell →
 * text, every row has the same number of cells (within TABLE_LIMITS), and the element's
 * tableLayout equals the grid; rows and cells out of place lose their wrapper, and a table is
 * never the last block of the page.
 */

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
    Transforms.setNodes<SlateElement>(editor, { headerRow: table.headerRow === true, headerColumn: table.headerColumn === true } as Partial<SlateElement>, {
      at: path,
    });
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
  const sizesOk = layout.columnSizes.length === columns && layout.columnSizes.every((size) => clampColumnSize(size) === size);
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

/**
 * Normalizes one entry as far as tables go: true when it changed something (Slate normalizes
 * again), false when the entry is left to the next normalizer.
 */
export function normalizeTables(editor: Editor, entry: NodeEntry): boolean {
  const [node, path] = entry;
  if (path.length === 0 && isTableElement(editor.children[editor.children.length - 1])) {
    // A table is never the last block: there is always a line below it to click or arrow into.
    const paragraph = { type: 'textBlock', uid: newId(), version: 1, children: [{ text: '' }] } as SlateElement;
    Transforms.insertNodes(editor, paragraph, { at: [editor.children.length], select: false });
    return true;
  }
  if (!Element.isElement(node)) return false;
  if (node.type === 'tableBlock' && path.length === 1) return normalizeTable(editor, node, path);
  if (node.type === 'tableBlock') {
    Transforms.unwrapNodes(editor, { at: path });
    return true;
  }
  if (node.type === 'tableRow') {
    const parent = Node.parent(editor, path);
    if (!isTableElement(parent) || path.length !== 2) return normalizeStray(editor, node, path);
    if (dropBlockFields(editor, node, path)) return true;
    for (let i = 0; i < node.children.length; i++) {
      const child = node.children[i] as Node;
      if (Element.isElement(child) && child.type === 'tableCell') continue;
      if (Element.isElement(child) && child.children.every((c) => Text.isText(c))) {
        // A block dropped into a row becomes a cell with its text.
        Transforms.unsetNodes(
          editor,
          Object.keys(child).filter((k) => k !== 'children' && k !== 'type'),
          { at: [...path, i] },
        );
        Transforms.setNodes<SlateElement>(editor, { type: 'tableCell' } as Partial<SlateElement>, { at: [...path, i] });
      } else if (Element.isElement(child)) {
        Transforms.unwrapNodes(editor, { at: [...path, i] });
      } else {
        Transforms.wrapNodes(editor, { type: 'tableCell', children: [] } as unknown as SlateElement, { at: [...path, i] });
      }
      return true;
    }
    return false;
  }
  if (node.type === 'tableCell') {
    const parent = Node.parent(editor, path);
    if (!Element.isElement(parent) || parent.type !== 'tableRow') return normalizeStray(editor, node, path);
    if (dropBlockFields(editor, node, path)) return true;
    const nested = node.children.findIndex((c) => !Text.isText(c));
    if (nested >= 0) {
      Transforms.unwrapNodes(editor, { at: [...path, nested] });
      return true;
    }
    const addressed = node.children.findIndex((c) => 'tableAddress' in c);
    if (addressed >= 0) {
      // Inside Slate a cell's place is its address.
      Transforms.unsetNodes(editor, 'tableAddress', { at: [...path, addressed] });
      return true;
    }
  }
  return false;
}
