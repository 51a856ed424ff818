import { createEditor, type Descendant, type Node } from 'slate';
import { cellAt, findTable, fragmentText, selectionInTable } from './queries';

/* The read-only helpers on plain Slate values (the plugin that uses them: withTables.test.ts). */

const cell = (text: string) => ({ type: 'tableCell', children: [{ text }] });
const row = (...texts: string[]) => ({ type: 'tableRow', children: texts.map(cell) });
const paragraph = (uid: string, text: string) => ({ type: 'textBlock', uid, version: 1, children: [{ text }] });
const table = (uid: string) => ({
  type: 'tableBlock',
  uid,
  version: 1,
  tableLayout: { columns: 2, rows: 2, columnSizes: [120, 120] },
  headerRow: false,
  headerColumn: false,
  children: [row('a', 'b'), row('c', 'd')],
});

function editorOf(...children: unknown[]) {
  const editor = createEditor();
  editor.children = children as Descendant[];
  return editor;
}

describe('table queries', () => {
  it('findTable finds a table by uid with its index; another block or an unknown uid is not one', () => {
    const editor = editorOf(paragraph('p1', 'x'), table('t1'));
    expect(findTable(editor, 't1')?.index).toBe(1);
    expect(findTable(editor, 'p1')).toBeNull();
    expect(findTable(editor, 'nope')).toBeNull();
  });

  it('cellAt gives table, row and column for a path inside a cell, null elsewhere', () => {
    const editor = editorOf(paragraph('p1', 'x'), table('t1'));
    expect(cellAt(editor, [1, 1, 0, 0])).toEqual({ table: 1, row: 1, column: 0 });
    expect(cellAt(editor, [1, 1])).toBeNull();
    expect(cellAt(editor, [0, 0])).toBeNull();
  });

  it('selectionInTable when either end is in a cell', () => {
    const editor = editorOf(paragraph('p1', 'x'), table('t1'));
    const at = (path: number[]) => ({ path, offset: 0 });
    expect(selectionInTable(editor)).toBe(false);
    editor.selection = { anchor: at([0, 0]), focus: at([0, 0]) };
    expect(selectionInTable(editor)).toBe(false);
    editor.selection = { anchor: at([0, 0]), focus: at([1, 0, 1, 0]) };
    expect(selectionInTable(editor)).toBe(true);
  });

  it('fragmentText: blocks on lines, a row as cells apart by tabs, nested blocks flattened', () => {
    const fragment = [
      paragraph('p1', 'first'),
      { type: 'quote', children: [paragraph('p2', 'inner one'), paragraph('p3', 'inner two')] },
      row('x', 'y'),
      table('t1'),
    ];
    expect(fragmentText(fragment as Node[])).toBe('first\ninner one\ninner two\nx\ty\na\tb\nc\td');
  });
});
