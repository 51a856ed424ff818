import { cellSelection, gridKeyAction, groupedLayout, moveSelection, parseTsv, planPaste, rangeOf, tabSelection, toTsv } from './gridModel';

const size = { rows: 5, cols: 4 };

describe('keyboard navigation', () => {
  test('arrows move the active cell and stop at the edges; Shift+arrows extend the range from the anchor', () => {
    let sel = cellSelection({ row: 0, col: 0 });
    sel = moveSelection(sel, 1, 0, size, false);
    sel = moveSelection(sel, 0, 1, size, false);
    expect(sel).toEqual({ anchor: { row: 1, col: 1 }, focus: { row: 1, col: 1 } });
    sel = moveSelection(sel, -5, 0, size, false);
    expect(sel.focus).toEqual({ row: 0, col: 1 });
    sel = moveSelection(sel, 2, 0, size, true);
    sel = moveSelection(sel, 0, 2, size, true);
    expect(sel.anchor).toEqual({ row: 0, col: 1 });
    expect(rangeOf(sel)).toEqual({ top: 0, left: 1, bottom: 2, right: 3 });
    // Past the last column it stays.
    expect(moveSelection(sel, 0, 1, size, true).focus.col).toBe(3);
    // Extending back over the anchor flips the range.
    expect(rangeOf(moveSelection(cellSelection({ row: 3, col: 3 }), -2, -2, size, true))).toEqual({ top: 1, left: 1, bottom: 3, right: 3 });
  });

  test('Tab moves right and wraps to the next row, Shift+Tab back; the corners stay', () => {
    expect(tabSelection(cellSelection({ row: 0, col: 3 }), false, size).focus).toEqual({ row: 1, col: 0 });
    expect(tabSelection(cellSelection({ row: 1, col: 0 }), true, size).focus).toEqual({ row: 0, col: 3 });
    expect(tabSelection(cellSelection({ row: 4, col: 3 }), false, size).focus).toEqual({ row: 4, col: 3 });
    expect(tabSelection(cellSelection({ row: 0, col: 0 }), true, size).focus).toEqual({ row: 0, col: 0 });
  });

  test('what each key does, browsing and editing', () => {
    expect(gridKeyAction({ key: 'ArrowDown' }, false)).toEqual({ type: 'move', dRow: 1, dCol: 0, extend: false });
    expect(gridKeyAction({ key: 'ArrowLeft', shiftKey: true }, false)).toEqual({ type: 'move', dRow: 0, dCol: -1, extend: true });
    expect(gridKeyAction({ key: 'ArrowUp', ctrlKey: true }, false)).toMatchObject({ type: 'move', dRow: -1_000_000_000 });
    expect(gridKeyAction({ key: 'Enter' }, false)).toEqual({ type: 'edit' });
    expect(gridKeyAction({ key: 'я' }, false)).toEqual({ type: 'edit', initial: 'я' });
    expect(gridKeyAction({ key: 'c', ctrlKey: true }, false)).toBeNull();
    expect(gridKeyAction({ key: 'a', metaKey: true }, false)).toEqual({ type: 'selectAll' });
    expect(gridKeyAction({ key: 'z', ctrlKey: true }, false)).toEqual({ type: 'undo' });
    expect(gridKeyAction({ key: 'я', metaKey: true }, false)).toEqual({ type: 'undo' });
    expect(gridKeyAction({ key: 'Z', ctrlKey: true, shiftKey: true }, false)).toEqual({ type: 'redo' });
    expect(gridKeyAction({ key: 'y', ctrlKey: true }, false)).toEqual({ type: 'redo' });
    expect(gridKeyAction({ key: 'z', ctrlKey: true }, true)).toBeNull();
    expect(gridKeyAction({ key: 'Delete' }, false)).toEqual({ type: 'clear' });
    expect(gridKeyAction({ key: 'Backspace' }, false)).toEqual({ type: 'clear' });
    expect(gridKeyAction({ key: 'Tab', shiftKey: true }, false)).toEqual({ type: 'tab', back: true });
    expect(gridKeyAction({ key: ' ' }, false, { toggleOnSpace: true })).toEqual({ type: 'toggle' });
    expect(gridKeyAction({ key: ' ' }, false)).toEqual({ type: 'edit', initial: ' ' });
    // Editing: only Enter, Tab and Escape are the grid's.
    expect(gridKeyAction({ key: 'Enter' }, true)).toEqual({ type: 'commit', then: 'down' });
    expect(gridKeyAction({ key: 'Tab' }, true)).toEqual({ type: 'commit', then: 'right' });
    expect(gridKeyAction({ key: 'Escape' }, true)).toEqual({ type: 'cancel' });
    expect(gridKeyAction({ key: 'ArrowDown' }, true)).toBeNull();
    expect(gridKeyAction({ key: 'x' }, true)).toBeNull();
  });
});

describe('clipboard text', () => {
  test('TSV out and back: tabs between cells, quotes around cells with tabs, line breaks or quotes', () => {
    const cells = [
      ['Задача', 'Срок'],
      ['Две\nстроки', 'с "кавычками"'],
      ['таб\tвнутри', ''],
    ];
    const tsv = toTsv(cells);
    expect(tsv.split('\n')[0]).toBe('Задача\tСрок');
    expect(parseTsv(tsv)).toEqual(cells);
  });

  test('what spreadsheets put on the clipboard: CRLF and a trailing line break; one plain cell is kept as is', () => {
    expect(parseTsv('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseTsv('"цитата" как есть')).toEqual([['"цитата" как есть']]);
    expect(parseTsv('')).toEqual([['']]);
  });
});

describe('paste mapping', () => {
  test('a block goes from the selection’s top-left; columns past the last are dropped, rows past the last are made', () => {
    const plan = planPaste(
      [
        ['a', 'b', 'c'],
        ['d', 'e', 'f'],
        ['g', 'h', 'i'],
      ],
      cellSelection({ row: 3, col: 2 }),
      size,
    );
    expect(plan.cells).toEqual([
      { row: 3, col: 2, text: 'a' },
      { row: 3, col: 3, text: 'b' },
      { row: 4, col: 2, text: 'd' },
      { row: 4, col: 3, text: 'e' },
      { row: 5, col: 2, text: 'g' },
      { row: 5, col: 3, text: 'h' },
    ]);
    expect(plan.newRows).toBe(1);
  });

  test('one cell fills the selected range; a block that fits the range a whole number of times repeats', () => {
    const fill = planPaste([['x']], { anchor: { row: 0, col: 0 }, focus: { row: 1, col: 1 } }, size);
    expect(fill.cells.map((c) => `${c.row}:${c.col}:${c.text}`)).toEqual(['0:0:x', '0:1:x', '1:0:x', '1:1:x']);
    expect(fill.newRows).toBe(0);
    const repeat = planPaste([['1'], ['2']], { anchor: { row: 0, col: 1 }, focus: { row: 3, col: 1 } }, size);
    expect(repeat.cells.map((c) => c.text)).toEqual(['1', '2', '1', '2']);
    // A range the block does not fit: pasted once.
    expect(planPaste([['1'], ['2']], { anchor: { row: 0, col: 0 }, focus: { row: 2, col: 0 } }, size).cells).toHaveLength(2);
  });
});

describe('grouped layout', () => {
  test('a header before each group’s rows, both ways, empty groups included', () => {
    const layout = groupedLayout([2, 0, 3]);
    expect(layout.size).toBe(8);
    expect(Array.from({ length: 8 }, (_, i) => layout.itemAt(i))).toEqual([
      { kind: 'group', group: 0 },
      { kind: 'row', row: 0 },
      { kind: 'row', row: 1 },
      { kind: 'group', group: 1 },
      { kind: 'group', group: 2 },
      { kind: 'row', row: 2 },
      { kind: 'row', row: 3 },
      { kind: 'row', row: 4 },
    ]);
    expect([0, 1, 2, 3, 4].map((r) => layout.itemOfRow(r))).toEqual([1, 2, 5, 6, 7]);
  });
});
