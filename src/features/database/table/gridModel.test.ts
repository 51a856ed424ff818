import {
  cellSelection,
  gridKeyAction,
  groupedLayout,
  movePlacement,
  moveSelection,
  parseTsv,
  planPaste,
  rangeOf,
  skipHidden,
  stepLine,
  tabSelection,
  toTsv,
} from './gridModel';
import { gridHeaders } from './useGridLayout';

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
    // Ctrl/⌘+Enter opens the row (issue 37: the «Открыть» button is the mouse's); while editing, Enter commits as ever.
    expect(gridKeyAction({ key: 'Enter', ctrlKey: true }, false)).toEqual({ type: 'open' });
    expect(gridKeyAction({ key: 'Enter', metaKey: true }, false, { checkbox: true })).toEqual({ type: 'open' });
    expect(gridKeyAction({ key: 'Enter', ctrlKey: true }, true)).toEqual({ type: 'commit', then: 'down' });
    expect(gridKeyAction({ key: 'я' }, false)).toEqual({ type: 'edit', initial: 'я' });
    expect(gridKeyAction({ key: 'c', ctrlKey: true }, false)).toBeNull();
    expect(gridKeyAction({ key: 'a', metaKey: true }, false)).toEqual({ type: 'selectAll' });
    expect(gridKeyAction({ key: 'z', ctrlKey: true }, false)).toEqual({ type: 'undo' });
    expect(gridKeyAction({ key: 'я', metaKey: true }, false)).toEqual({ type: 'undo' });
    expect(gridKeyAction({ key: 'Z', ctrlKey: true, shiftKey: true }, false)).toEqual({ type: 'redo' });
    expect(gridKeyAction({ key: 'y', ctrlKey: true }, false)).toEqual({ type: 'redo' });
    expect(gridKeyAction({ key: 'd', ctrlKey: true }, false)).toEqual({ type: 'fillDown' });
    expect(gridKeyAction({ key: 'в', metaKey: true }, false)).toEqual({ type: 'fillDown' });
    expect(gridKeyAction({ key: 'd', ctrlKey: true, shiftKey: true }, false)).toBeNull();
    expect(gridKeyAction({ key: 'd', ctrlKey: true }, true)).toBeNull();
    expect(gridKeyAction({ key: 'z', ctrlKey: true }, true)).toBeNull();
    expect(gridKeyAction({ key: 'Delete' }, false)).toEqual({ type: 'clear' });
    expect(gridKeyAction({ key: 'Backspace' }, false)).toEqual({ type: 'clear' });
    expect(gridKeyAction({ key: 'Tab', shiftKey: true }, false)).toEqual({ type: 'tab', back: true });
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

describe('grouped layout with collapsed groups', () => {
  test('a collapsed group is its header alone; its rows keep their positions but take no item', () => {
    // Groups of 2, 3 and 1 rows; the middle one collapsed.
    const layout = groupedLayout([2, 3, 1], new Set([1]));
    expect(layout.size).toBe(6);
    expect(Array.from({ length: 6 }, (_, i) => layout.itemAt(i))).toEqual([
      { kind: 'group', group: 0 },
      { kind: 'row', row: 0 },
      { kind: 'row', row: 1 },
      { kind: 'group', group: 1 },
      { kind: 'group', group: 2 },
      { kind: 'row', row: 5 },
    ]);
    // A hidden row is found at its group's header.
    expect([0, 1, 2, 3, 4, 5].map((r) => layout.itemOfRow(r))).toEqual([1, 2, 3, 3, 3, 5]);
    expect([0, 1, 2, 3, 4, 5].map((r) => layout.isHidden(r))).toEqual([false, false, true, true, true, false]);
    // Every group collapsed: headers only.
    const shut = groupedLayout([2, 3], new Set([0, 1]));
    expect(shut.size).toBe(2);
    expect([shut.itemAt(0), shut.itemAt(1)]).toEqual([
      { kind: 'group', group: 0 },
      { kind: 'group', group: 1 },
    ]);
    expect(shut.visibleRow(0, 1)).toBeNull();
    // Nothing collapsed: as before.
    expect(groupedLayout([2, 3, 1], new Set()).size).toBe(9);
  });

  test('the nearest drawn row either way, past collapsed (and empty) groups', () => {
    const layout = groupedLayout([2, 0, 3, 1, 2], new Set([2, 3]));
    // Rows: group 0 = 0–1, group 2 = 2–4 (shut), group 3 = 5 (shut), group 4 = 6–7.
    expect(layout.visibleRow(1, 1)).toBe(1);
    expect(layout.visibleRow(2, 1)).toBe(6);
    expect(layout.visibleRow(5, 1)).toBe(6);
    expect(layout.visibleRow(4, -1)).toBe(1);
    expect(layout.visibleRow(5, -1)).toBe(1);
    expect(groupedLayout([2, 3], new Set([1])).visibleRow(3, 1)).toBeNull();
  });

  test('keyboard moves skip the rows of a collapsed group, or go back when nothing is past them', () => {
    const layout = groupedLayout([2, 3, 1], new Set([1]));
    const size6 = { rows: 6, cols: 2 };
    const down = moveSelection(cellSelection({ row: 1, col: 1 }), 1, 0, size6, false);
    expect(skipHidden(down, { row: 1, col: 1 }, layout)).toEqual(cellSelection({ row: 5, col: 1 }));
    const up = moveSelection(cellSelection({ row: 5, col: 0 }), -1, 0, size6, false);
    expect(skipHidden(up, { row: 5, col: 0 }, layout)).toEqual(cellSelection({ row: 1, col: 0 }));
    // Shift keeps the anchor.
    const extended = moveSelection(cellSelection({ row: 1, col: 0 }), 1, 0, size6, true);
    expect(skipHidden(extended, { row: 1, col: 0 }, layout)).toEqual({ anchor: { row: 1, col: 0 }, focus: { row: 5, col: 0 } });
    // The last group collapsed: Ctrl+↓ ends on the last drawn row.
    const tail = groupedLayout([2, 3], new Set([1]));
    const far = moveSelection(cellSelection({ row: 0, col: 0 }), 1_000_000_000, 0, { rows: 5, cols: 1 }, false);
    expect(skipHidden(far, { row: 0, col: 0 }, tail).focus.row).toBe(1);
    // Not grouped, or a drawn row: unchanged.
    expect(skipHidden(down, { row: 1, col: 1 }, null)).toBe(down);
  });
});

describe('moving rows', () => {
  // Rows a…f at positions 0…5.
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const idAt = (r: number) => ids[r];

  test('rows put at a line go after the row above it that is not moved (null: the top)', () => {
    // c dropped above b (line 1): after a.
    expect(movePlacement(idAt, [2], 1)).toBe('a');
    // c dropped at the top.
    expect(movePlacement(idAt, [2], 0)).toBeNull();
    // b dropped below e (line 5): after e.
    expect(movePlacement(idAt, [1], 5)).toBe('e');
    // b and d (checked together) dropped below c: after c, the rows above the line being moved skipped.
    expect(movePlacement(idAt, [3, 1], 3)).toBe('c');
    // b and d dropped just below d (line 4): they gather after c.
    expect(movePlacement(idAt, [1, 3], 4)).toBe('c');
    // b, c dropped at the top: null.
    expect(movePlacement(idAt, [1, 2], 0)).toBeNull();
  });

  test('a block dropped on itself or beside itself moves nothing; an unknown row above stops it', () => {
    expect(movePlacement(idAt, [2], 2)).toBeUndefined();
    expect(movePlacement(idAt, [2], 3)).toBeUndefined();
    expect(movePlacement(idAt, [1, 2, 3], 2)).toBeUndefined();
    expect(movePlacement(idAt, [1, 2, 3], 4)).toBeUndefined();
    expect(movePlacement(idAt, [], 2)).toBeUndefined();
    expect(movePlacement((r) => (r === 0 ? undefined : ids[r]), [3], 1)).toBeUndefined();
  });

  test('a step up goes above the row over the first moved, a step down below the row under the last', () => {
    expect(movePlacement(idAt, [2], stepLine([2], -1, 6))).toBe('a');
    expect(movePlacement(idAt, [2], stepLine([2], 1, 6))).toBe('d');
    // At the edges nothing moves.
    expect(movePlacement(idAt, [0], stepLine([0], -1, 6))).toBeUndefined();
    expect(movePlacement(idAt, [5], stepLine([5], 1, 6))).toBeUndefined();
    // Second row up: first.
    expect(movePlacement(idAt, [1], stepLine([1], -1, 6))).toBeNull();
    // Rows apart gather: b and d a step up go to the top, a step down after e.
    expect(movePlacement(idAt, [1, 3], stepLine([1, 3], -1, 6))).toBeNull();
    expect(movePlacement(idAt, [1, 3], stepLine([1, 3], 1, 6))).toBe('e');
  });

  test('Alt+Shift+↑/↓ is a step of the rows; Alt+↑ alone is nothing', () => {
    expect(gridKeyAction({ key: 'ArrowUp', altKey: true, shiftKey: true }, false)).toEqual({ type: 'moveRows', step: -1 });
    expect(gridKeyAction({ key: 'ArrowDown', altKey: true, shiftKey: true }, false)).toEqual({ type: 'moveRows', step: 1 });
    expect(gridKeyAction({ key: 'ArrowDown', altKey: true }, false)).toBeNull();
    expect(gridKeyAction({ key: 'ArrowDown', altKey: true, shiftKey: true }, true)).toBeNull();
  });

  test('a checkbox cell toggles with Space or Enter only: a typed character or F2 leaves it alone (issue 34 §2)', () => {
    const checkbox = { checkbox: true };
    expect(gridKeyAction({ key: ' ' }, false, checkbox)).toEqual({ type: 'toggle' });
    expect(gridKeyAction({ key: 'Enter' }, false, checkbox)).toEqual({ type: 'toggle' });
    for (const key of ['x', 'д', '1', 'F2']) expect(gridKeyAction({ key }, false, checkbox)).toBeNull();
    // The grid's other keys work there as anywhere.
    expect(gridKeyAction({ key: 'ArrowDown' }, false, checkbox)).toEqual({ type: 'move', dRow: 1, dCol: 0, extend: false });
    expect(gridKeyAction({ key: 'Delete' }, false, checkbox)).toEqual({ type: 'clear' });
    expect(gridKeyAction({ key: 'z', ctrlKey: true }, false, checkbox)).toEqual({ type: 'undo' });
  });
});

describe('a table with sub-groups (issue 38)', () => {
  // Москва (its rows under two sub-groups: 2 and 1), Тверь (1 and 1): headers g0 [g1 g2] g3 [g4 g5].
  const groups = [
    {
      value: 'москва',
      count: 3,
      groups: [
        { value: 'range:0', count: 2 },
        { value: 'range:20', count: 1 },
      ],
    },
    {
      value: 'тверь',
      count: 2,
      groups: [
        { value: 'range:10', count: 1 },
        { value: null, count: 1 },
      ],
    },
  ];

  test('the headers: a group, then its sub-groups, each before its rows; a sub-group’s key names its group', () => {
    expect(gridHeaders(groups).map((h) => [h.level, h.rows, h.key])).toEqual([
      [0, 0, '"москва"'],
      [1, 2, '"москва">"range:0"'],
      [1, 1, '"москва">"range:20"'],
      [0, 0, '"тверь"'],
      [1, 1, '"тверь">"range:10"'],
      [1, 1, '"тверь">null'],
    ]);
  });

  test('a collapsed group hides its sub-groups’ headers and rows; a collapsed sub-group its rows alone', () => {
    const counts = gridHeaders(groups).map((h) => h.rows);
    const open = groupedLayout(counts);
    expect(open.size).toBe(6 + 5);
    expect([0, 1, 2, 3, 4].map((i) => open.itemAt(i))).toEqual([
      { kind: 'group', group: 0 },
      { kind: 'group', group: 1 },
      { kind: 'row', row: 0 },
      { kind: 'row', row: 1 },
      { kind: 'group', group: 2 },
    ]);
    // Москва collapsed: its two sub-groups hidden (no header) and shut.
    const shut = groupedLayout(counts, new Set([0, 1, 2]), new Set([1, 2]));
    expect(shut.size).toBe(1 + 3 + 2);
    expect([0, 1, 2, 3].map((i) => shut.itemAt(i))).toEqual([
      { kind: 'group', group: 0 },
      { kind: 'group', group: 3 },
      { kind: 'group', group: 4 },
      { kind: 'row', row: 3 },
    ]);
    expect(shut.itemOfRow(1)).toBe(0);
    expect(shut.isHidden(2)).toBe(true);
    expect(shut.visibleRow(0, 1)).toBe(3);
    // One sub-group collapsed: its header stays, its rows go.
    const sub = groupedLayout(counts, new Set([1]));
    expect([0, 1, 2, 3].map((i) => sub.itemAt(i))).toEqual([
      { kind: 'group', group: 0 },
      { kind: 'group', group: 1 },
      { kind: 'group', group: 2 },
      { kind: 'row', row: 2 },
    ]);
  });
});
