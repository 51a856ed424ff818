import { Editor, Transforms } from 'slate';
import { jsx } from 'slate-hyperscript';
import '../types';
import { anchor, cursor, focus, text, title } from '../testDocument';
import { createWorkspaceEditor } from '../index';
import { tableBlock, type TableData } from '../blocks/table/block';
import type { TableElement } from '../../schema/slate';
import { deleteColumn, deleteRow, insertColumn, insertRow, setColumnSize, toggleHeaderColumn, toggleHeaderRow } from './withTables';

/*
 * Fixtures (slate-hyperscript without JSX): a document with a table, a caret or selection, an
 * action, then the expected document or the table's wire data (toWire gives every token its
 * tableAddress from where its cell is, so the addresses are checked after every change).
 */
const cell = (...children: unknown[]) => jsx('element', { type: 'tableCell' }, ...(children.length > 0 ? children : [jsx('text', {})]));
const row = (...cells: unknown[]) => jsx('element', { type: 'tableRow' }, ...cells);
const table = (uid: string, columnSizes: number[], rows: unknown[][], extra: Record<string, unknown> = {}) =>
  jsx(
    'element',
    {
      type: 'tableBlock',
      uid,
      version: 1,
      tableLayout: { columns: columnSizes.length, rows: rows.length, columnSizes },
      headerRow: false,
      headerColumn: false,
      ...extra,
    },
    ...rows.map((cells) => row(...cells)),
  );
const tableBlockNode = () => ({ type: 'tableBlock', uid: 'tn', version: 1, ...tableBlock.toSlateFields(tableBlock.defaultData!()) }) as TableElement;
const doc = (...blocks: unknown[]) => jsx('editor', {}, ...blocks) as Editor;

function editorWith(input: Editor) {
  const editor = createWorkspaceEditor();
  editor.children = input.children;
  editor.selection = input.selection;
  Editor.normalize(editor, { force: true });
  return editor;
}

const tableAt = (editor: Editor, index = 1) => editor.children[index] as TableElement;
const wire = (editor: Editor, index = 1): TableData => tableBlock.toWireData(tableAt(editor, index));
/** Each token as "text@x,y". */
const addressed = (data: TableData) => data.tokens.map((t) => `${t.text}@${t.tableAddress!.x},${t.tableAddress!.y}`);
const grid = (editor: Editor, index = 1) =>
  tableAt(editor, index).children.map((r) =>
    r.children.map((c) => Editor.string(editor, [index, tableAt(editor, index).children.indexOf(r), r.children.indexOf(c)])),
  );

/** A 2×2 table "a b / c d" after the title, and a paragraph after it. */
const abcd = (...caretIn: Array<'a' | 'd' | 'after'>) =>
  doc(
    title(),
    table(
      't1',
      [100, 200],
      [
        [cell('a', ...(caretIn.includes('a') ? [cursor()] : [])), cell('b')],
        [cell('c'), cell('d', ...(caretIn.includes('d') ? [cursor()] : []))],
      ],
    ),
    text('p', ...(caretIn.includes('after') ? [cursor(), 'after'] : ['after'])),
  );

describe('row and column transforms keep every token addressed', () => {
  it('insertRow in the middle moves the rows below down', () => {
    const editor = editorWith(abcd());
    expect(insertRow(editor, 't1', 1)).toBe(true);
    expect(addressed(wire(editor))).toEqual(['a@0,0', 'b@1,0', 'c@0,2', 'd@1,2']);
    expect(wire(editor).tableLayout).toEqual({ columns: 2, rows: 3, columnSizes: [100, 200] });
    expect(grid(editor)).toEqual([
      ['a', 'b'],
      ['', ''],
      ['c', 'd'],
    ]);
  });

  it('deleteRow moves the rows below up; the last row cannot go', () => {
    const editor = editorWith(abcd());
    expect(deleteRow(editor, 't1', 0)).toBe(true);
    expect(addressed(wire(editor))).toEqual(['c@0,0', 'd@1,0']);
    expect(wire(editor).tableLayout.rows).toBe(1);
    expect(deleteRow(editor, 't1', 0)).toBe(false);
    expect(grid(editor)).toEqual([['c', 'd']]);
  });

  it('insertColumn shifts the cells to its right and adds a 120 px size', () => {
    const editor = editorWith(abcd());
    expect(insertColumn(editor, 't1', 1)).toBe(true);
    expect(addressed(wire(editor))).toEqual(['a@0,0', 'b@2,0', 'c@0,1', 'd@2,1']);
    expect(wire(editor).tableLayout).toEqual({ columns: 3, rows: 2, columnSizes: [100, 120, 200] });
  });

  it('deleteColumn shifts the cells to its right back and drops its size; the last column cannot go', () => {
    const editor = editorWith(abcd());
    expect(deleteColumn(editor, 't1', 0)).toBe(true);
    expect(addressed(wire(editor))).toEqual(['b@0,0', 'd@0,1']);
    expect(wire(editor).tableLayout).toEqual({ columns: 1, rows: 2, columnSizes: [200] });
    expect(deleteColumn(editor, 't1', 0)).toBe(false);
  });

  it('a sequence of inserts and deletes keeps the wire data valid and addressed', () => {
    const editor = editorWith(abcd());
    insertColumn(editor, 't1', 0);
    insertRow(editor, 't1', 0);
    deleteColumn(editor, 't1', 2);
    deleteRow(editor, 't1', 2);
    const data = wire(editor);
    expect(addressed(data)).toEqual(['a@1,1']);
    expect(tableBlock.dataSchema.safeParse(data).success).toBe(true);
    expect(data.tableLayout).toEqual({ columns: 2, rows: 2, columnSizes: [120, 100] });
  });

  it('setColumnSize clamps to 40–2000 px; the header flags toggle', () => {
    const editor = editorWith(abcd());
    setColumnSize(editor, 't1', 0, 10);
    setColumnSize(editor, 't1', 1, 5000);
    expect(wire(editor).tableLayout.columnSizes).toEqual([40, 2000]);
    expect(setColumnSize(editor, 't1', 2, 100)).toBe(false);
    toggleHeaderRow(editor, 't1');
    toggleHeaderColumn(editor, 't1');
    expect([wire(editor).headerRow, wire(editor).headerColumn]).toEqual([true, true]);
    toggleHeaderRow(editor, 't1');
    expect(wire(editor).headerRow).toBe(false);
  });

  it('an unknown table uid changes nothing', () => {
    const editor = editorWith(abcd());
    const before = editor.children;
    expect(insertRow(editor, 'nope', 0)).toBe(false);
    expect(deleteColumn(editor, 'nope', 0)).toBe(false);
    expect(editor.children).toBe(before);
  });
});

describe('normalization: the structure is the truth, the layout follows it', () => {
  it('a text block turned into a table gets the default grid (2 columns, 3 rows, 120 px) with its text in the first cell', () => {
    const editor = editorWith(doc(title(), text('x', 'hel', cursor(), 'lo')));
    Transforms.setNodes(editor, { type: 'tableBlock' } as Partial<TableElement>, { at: [1] });
    expect(grid(editor)).toEqual([
      ['hello', ''],
      ['', ''],
      ['', ''],
    ]);
    // The caret stays where it was, now in the first cell.
    expect(editor.selection!.anchor).toEqual({ path: [1, 0, 0, 0], offset: 3 });
    expect(wire(editor)).toEqual({
      tokens: [{ text: 'hello', tableAddress: { x: 0, y: 0 } }],
      tableLayout: { columns: 2, rows: 3, columnSizes: [120, 120] },
      headerRow: false,
      headerColumn: false,
    });
    expect(tableAt(editor).uid).toBe('x');
  });

  it('typing /table and a space in an empty paragraph makes a table', () => {
    const editor = editorWith(doc(title(), text('x', cursor())));
    for (const key of '/table ') editor.insertText(key);
    expect(tableAt(editor).type).toBe('tableBlock');
    expect(grid(editor)).toEqual([
      ['', ''],
      ['', ''],
      ['', ''],
    ]);
    // The caret is in the table (convertBlock of withMarkdownShortcuts puts it in the last cell).
    expect(editor.selection!.anchor.path.slice(0, 1)).toEqual([1]);
    expect(editor.selection!.anchor.path).toHaveLength(4);
    expect(wire(editor).tableLayout).toEqual({ columns: 2, rows: 3, columnSizes: [120, 120] });
  });

  it('short rows get empty cells and the layout takes the real row and column counts', () => {
    const input = doc(
      title(),
      jsx(
        'element',
        { type: 'tableBlock', uid: 't', version: 1, tableLayout: { columns: 1, rows: 5, columnSizes: [90] }, headerRow: false, headerColumn: false },
        row(cell('a'), cell('b'), cell('c')),
        row(cell('d')),
      ),
    );
    const editor = editorWith(input);
    expect(grid(editor)).toEqual([
      ['a', 'b', 'c'],
      ['d', '', ''],
    ]);
    expect(tableAt(editor).tableLayout).toEqual({ columns: 3, rows: 2, columnSizes: [90, 120, 120] });
    expect(addressed(wire(editor))).toEqual(['a@0,0', 'b@1,0', 'c@2,0', 'd@0,1']);
  });

  it('cells lose tableAddress and block fields; a stray cell at the top level becomes a paragraph', () => {
    const input = doc(
      title(),
      table('t', [120], [[jsx('element', { type: 'tableCell', uid: 'oops', version: 3 }, jsx('text', { tableAddress: { x: 5, y: 5 } }, 'a'))]]),
      jsx('element', { type: 'tableCell' }, 'loose'),
    );
    const editor = editorWith(input);
    expect(tableAt(editor).children[0].children[0]).toEqual({ type: 'tableCell', children: [{ text: 'a' }] });
    expect(editor.children[2]).toMatchObject({ type: 'textBlock', version: 1, children: [{ text: 'loose' }] });
    expect(typeof (editor.children[2] as { uid?: string }).uid).toBe('string');
  });
});

describe('keys inside a table', () => {
  const tab = (editor: ReturnType<typeof createWorkspaceEditor>, shiftKey = false) => editor.handleKey({ key: 'Tab', shiftKey });

  it('Tab goes to the next cell (end of its text), wrapping to the next row', () => {
    const editor = editorWith(abcd('a'));
    expect(tab(editor)).toBe(true);
    expect(editor.selection).toEqual({ anchor: { path: [1, 0, 1, 0], offset: 1 }, focus: { path: [1, 0, 1, 0], offset: 1 } });
    tab(editor);
    expect(editor.selection!.anchor).toEqual({ path: [1, 1, 0, 0], offset: 1 });
  });

  it('Tab in the last cell adds a row and goes to its first cell', () => {
    const editor = editorWith(abcd('d'));
    expect(tab(editor)).toBe(true);
    expect(grid(editor)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['', ''],
    ]);
    expect(editor.selection!.anchor).toEqual({ path: [1, 2, 0, 0], offset: 0 });
    expect(wire(editor).tableLayout.rows).toBe(3);
  });

  it('Shift+Tab goes back a cell and stays in the first cell', () => {
    const editor = editorWith(abcd('d'));
    tab(editor, true);
    expect(editor.selection!.anchor).toEqual({ path: [1, 1, 0, 0], offset: 1 });
    tab(editor, true);
    tab(editor, true);
    tab(editor, true);
    expect(editor.selection!.anchor).toEqual({ path: [1, 0, 0, 0], offset: 1 });
    expect(grid(editor)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('Enter in a cell inserts a line break and never splits the table', () => {
    const editor = editorWith(abcd('a'));
    editor.insertBreak();
    editor.insertText('z');
    expect(editor.children).toHaveLength(3);
    expect(grid(editor)).toEqual([
      ['a\nz', 'b'],
      ['c', 'd'],
    ]);
    expect(addressed(wire(editor))).toEqual(['a\nz@0,0', 'b@1,0', 'c@0,1', 'd@1,1']);
  });

  it('Backspace at the start of a cell does nothing', () => {
    const editor = editorWith(doc(title(), text('p0', 'before'), table('t1', [120, 120], [[cell('a'), cell(cursor(), 'b')]])));
    editor.deleteBackward('character');
    Transforms.select(editor, { path: [2, 0, 0, 0], offset: 0 });
    editor.deleteBackward('character');
    expect(grid(editor, 2)).toEqual([['a', 'b']]);
    expect(Editor.string(editor, [1])).toBe('before');
    // The table keeps its own block, and an empty paragraph follows it (a table is never last).
    expect(editor.children).toHaveLength(4);
    expect(editor.children[3]).toMatchObject({ type: 'textBlock', version: 1, children: [{ text: '' }] });
  });

  it('Delete at the end of a cell does nothing', () => {
    const editor = editorWith(abcd('a'));
    editor.deleteForward('character');
    expect(grid(editor)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('Backspace at the start of the paragraph after a table goes into the last cell instead of merging', () => {
    const editor = editorWith(abcd('after'));
    editor.deleteBackward('character');
    expect(grid(editor)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(Editor.string(editor, [2])).toBe('after');
    expect(editor.selection!.anchor).toEqual({ path: [1, 1, 1, 0], offset: 1 });
  });

  it('Backspace in an empty paragraph after a table removes it, unless it is the last block', () => {
    const editor = editorWith(doc(title(), table('t1', [120], [[cell('a')]]), text('p', cursor()), text('q', 'end')));
    editor.deleteBackward('character');
    expect(editor.children.map((n) => (n as { uid: string }).uid)).toEqual(['pageHeading_p1', 't1', 'q']);
    expect(editor.selection!.anchor).toEqual({ path: [1, 0, 0, 0], offset: 1 });

    const last = editorWith(doc(title(), table('t1', [120], [[cell('a')]]), text('p', cursor())));
    last.deleteBackward('character');
    expect(last.children.map((n) => (n as { uid: string }).uid)).toEqual(['pageHeading_p1', 't1', 'p']);
    expect(last.selection!.anchor).toEqual({ path: [1, 0, 0, 0], offset: 1 });
  });

  it('a table at the end of the page gets an empty paragraph after it', () => {
    const editor = editorWith(doc(title(), text('p', 'x')));
    Transforms.insertNodes(editor, tableBlockNode(), { at: [2] });
    expect(editor.children).toHaveLength(4);
    expect(editor.children[3]).toMatchObject({ type: 'textBlock', children: [{ text: '' }] });
    // Removing that paragraph brings a new one back.
    Transforms.removeNodes(editor, { at: [3] });
    expect(editor.children).toHaveLength(4);
    expect(editor.children[2]).toMatchObject({ type: 'tableBlock' });
  });
});

describe('selections and deleting across cells', () => {
  it('a selection from a cell to a block after the table ends at the table end', () => {
    const editor = editorWith(abcd());
    Transforms.select(editor, { anchor: { path: [1, 0, 1, 0], offset: 0 }, focus: { path: [2, 0], offset: 3 } });
    expect(editor.selection).toEqual({ anchor: { path: [1, 0, 1, 0], offset: 0 }, focus: { path: [1, 1, 1, 0], offset: 1 } });
  });

  it('a selection from a cell back into the title starts at the table start', () => {
    const editor = editorWith(abcd());
    Transforms.select(editor, { anchor: { path: [1, 1, 0, 0], offset: 1 }, focus: { path: [0, 0], offset: 2 } });
    expect(editor.selection!.focus).toEqual({ path: [1, 0, 0, 0], offset: 0 });
  });

  it('a selection from one table into another is clamped to the first one', () => {
    const editor = editorWith(doc(title(), table('t1', [120], [[cell('a')]]), table('t2', [120], [[cell('b')]])));
    Transforms.select(editor, { anchor: { path: [1, 0, 0, 0], offset: 0 }, focus: { path: [2, 0, 0, 0], offset: 1 } });
    expect(editor.selection!.focus).toEqual({ path: [1, 0, 0, 0], offset: 1 });
  });

  it('deleting a selection across cells empties those cells and keeps the grid', () => {
    const input = doc(
      title(),
      table(
        't1',
        [120, 120],
        [
          [cell('al', anchor(), 'pha'), cell('beta')],
          [cell('ga', focus(), 'mma'), cell('delta')],
        ],
      ),
    );
    const editor = editorWith(input);
    editor.deleteFragment();
    expect(grid(editor)).toEqual([
      ['al', ''],
      ['mma', 'delta'],
    ]);
    expect(editor.selection).toEqual({ anchor: { path: [1, 0, 0, 0], offset: 2 }, focus: { path: [1, 0, 0, 0], offset: 2 } });
    expect(addressed(wire(editor))).toEqual(['al@0,0', 'mma@0,1', 'delta@1,1']);
  });

  it('typing over a cross-cell selection empties the cells and types into the first', () => {
    const input = doc(title(), table('t1', [120, 120], [[cell(anchor(), 'ab'), cell('cd', focus())]]));
    const editor = editorWith(input);
    editor.insertText('x');
    expect(grid(editor)).toEqual([['x', '']]);
  });

  it('deleting from a paragraph before a table into it keeps the table and its other cells', () => {
    const input = doc(title(), text('p', 'keep', anchor(), 'gone'), table('t1', [120, 120], [[cell('a'), cell('b', focus(), 'c')]]));
    const editor = editorWith(input);
    editor.deleteFragment();
    expect(Editor.string(editor, [1])).toBe('keep');
    expect(grid(editor, 2)).toEqual([['', 'c']]);
  });

  it('pasting blocks into a cell puts their text in the cell', () => {
    const editor = editorWith(abcd('a'));
    editor.insertFragment([
      { type: 'textBlock', uid: 'q1', version: 1, children: [{ text: 'one' }] },
      { type: 'textBlock', uid: 'q2', version: 1, children: [{ text: 'two' }] },
    ]);
    expect(grid(editor)).toEqual([
      ['aone\ntwo', 'b'],
      ['c', 'd'],
    ]);
    expect(editor.children).toHaveLength(3);
  });
});
