import { groupKey } from '../rows/collapsedGroups';
import {
  CARD_BASE,
  CARD_LINE,
  COVER_HEIGHT,
  cardEstimate,
  cardKeyAction,
  cardMove,
  cellGroups,
  cellKey,
  columnCell,
  coverFile,
  laneCellOf,
} from './boardCards';

const key = (name: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
  key: name,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});
const moveKey = (name: string) => key(name, { ctrlKey: true, shiftKey: true });

describe("a column's value as the card's cell", () => {
  test('an option or a box as it is; a person alone in a list; no value: none', () => {
    expect(columnCell({ type: 'status' }, 'todo')).toBe('todo');
    expect(columnCell({ type: 'checkbox' }, false)).toBe(false);
    expect(columnCell({ type: 'select' }, null)).toBeNull();
    expect(columnCell({ type: 'person' }, 'u1')).toEqual(['u1']);
    expect(columnCell({ type: 'person' }, null)).toBeNull();
  });

  test('a multi-select card moved: the option it came from replaced by the column’s, its others kept; to «Без значения»: none left', () => {
    const field = { type: 'multiSelect' as const };
    expect(columnCell(field, 'b', 'a', ['a', 'x'])).toEqual(['x', 'b']);
    // Already in the column it goes to (a card of both): it leaves the other one only.
    expect(columnCell(field, 'b', 'a', ['a', 'b'])).toEqual(['b']);
    expect(columnCell(field, null, 'a', ['a', 'x'])).toBeNull();
    expect(columnCell(field, null, 'a', ['a'])).toBeNull();
    expect(columnCell(field, 'a', null, null)).toEqual(['a']);
    // A new card in a column.
    expect(columnCell(field, 'a')).toEqual(['a']);
    // A relation's card (rows of the same database) alike.
    expect(columnCell({ type: 'relation' }, 'r2', 'r1', ['r1', 'r3'])).toEqual(['r3', 'r2']);
  });
});

describe("a card's cover", () => {
  test('the first picture of the files cell (by its name), else none', () => {
    expect(
      coverFile([
        { id: 'a', name: 'план.pdf' },
        { id: 'b', name: 'Фото.JPG' },
        { id: 'c', name: 'x.png' },
      ]),
    ).toEqual({ id: 'b', name: 'Фото.JPG' });
    for (const name of ['a.png', 'a.jpeg', 'a.gif', 'a.webp', 'a.avif', 'a.bmp']) expect(coverFile([{ id: 'f', name }])?.id).toBe('f');
    // SVG and the like are served as attachments (docs/api/files.md): never a cover.
    expect(
      coverFile([
        { id: 'a', name: 'logo.svg' },
        { id: 'b', name: 'png' },
      ]),
    ).toBeNull();
    expect(coverFile(null)).toBeNull();
    expect(coverFile(undefined)).toBeNull();
    expect(coverFile('a.png')).toBeNull();
  });

  test("a card's estimated height counts the shown fields that have a value and the cover it has", () => {
    const pictures = [{ id: 'p', name: 'p.png' }];
    expect(cardEstimate({ note: 'x', price: null, tags: [] }, ['note', 'price', 'tags'], null)).toBe(CARD_BASE + CARD_LINE);
    expect(cardEstimate({ note: 'x', shots: pictures }, ['note'], 'shots')).toBe(CARD_BASE + CARD_LINE + COVER_HEIGHT);
    expect(cardEstimate({ note: 'x', shots: [{ id: 'd', name: 'd.pdf' }] }, ['note'], 'shots')).toBe(CARD_BASE + CARD_LINE);
    // Not read yet: every field, and a cover when the board shows them.
    expect(cardEstimate(undefined, ['a', 'b'], 'shots')).toBe(CARD_BASE + 2 * CARD_LINE + COVER_HEIGHT);
    expect(cardEstimate(undefined, ['a'], null)).toBe(CARD_BASE + CARD_LINE);
  });
});

describe("the board's keys on a focused card", () => {
  // Four columns: 3 cards, a folded one, none, 2 cards.
  const counts = [3, null, 0, 2];

  test('arrows move the focus: up and down the column, across to the nearest column with cards (passing folded and empty ones), Home and End', () => {
    expect(cardKeyAction(key('ArrowDown'), { column: 0, index: 0 }, counts, true)).toEqual({ kind: 'focus', column: 0, index: 1 });
    expect(cardKeyAction(key('ArrowDown'), { column: 0, index: 2 }, counts, true)).toBeNull();
    expect(cardKeyAction(key('ArrowUp'), { column: 0, index: 0 }, counts, true)).toBeNull();
    expect(cardKeyAction(key('ArrowRight'), { column: 0, index: 2 }, counts, true)).toEqual({ kind: 'focus', column: 3, index: 1 });
    expect(cardKeyAction(key('ArrowLeft'), { column: 3, index: 0 }, counts, true)).toEqual({ kind: 'focus', column: 0, index: 0 });
    expect(cardKeyAction(key('ArrowRight'), { column: 3, index: 0 }, counts, true)).toBeNull();
    expect(cardKeyAction(key('End'), { column: 0, index: 0 }, counts, true)).toEqual({ kind: 'focus', column: 0, index: 2 });
    expect(cardKeyAction(key('Home'), { column: 0, index: 2 }, counts, true)).toEqual({ kind: 'focus', column: 0, index: 0 });
    expect(cardKeyAction(key('Enter'), { column: 0, index: 1 }, counts, false)).toEqual({ kind: 'open' });
  });

  test('Ctrl+Shift (⌘⇧) with an arrow moves the card: a place up or down, or to the top of the next column (an empty one too, not a folded one); readers move nothing', () => {
    expect(cardKeyAction(moveKey('ArrowUp'), { column: 0, index: 1 }, counts, true)).toEqual({ kind: 'move', column: 0, place: 'up' });
    expect(cardKeyAction(moveKey('ArrowUp'), { column: 0, index: 0 }, counts, true)).toBeNull();
    expect(cardKeyAction(moveKey('ArrowDown'), { column: 0, index: 1 }, counts, true)).toEqual({ kind: 'move', column: 0, place: 'down' });
    expect(cardKeyAction(moveKey('ArrowDown'), { column: 0, index: 2 }, counts, true)).toBeNull();
    expect(cardKeyAction(moveKey('ArrowRight'), { column: 0, index: 2 }, counts, true)).toEqual({ kind: 'move', column: 2, place: 'top' });
    expect(cardKeyAction(moveKey('ArrowLeft'), { column: 3, index: 0 }, counts, true)).toEqual({ kind: 'move', column: 2, place: 'top' });
    expect(cardKeyAction(moveKey('ArrowLeft'), { column: 0, index: 0 }, counts, true)).toBeNull();
    expect(cardKeyAction(key('ArrowRight', { metaKey: true, shiftKey: true }), { column: 0, index: 0 }, counts, true)).toEqual({
      kind: 'move',
      column: 2,
      place: 'top',
    });
    expect(cardKeyAction(moveKey('ArrowDown'), { column: 0, index: 0 }, counts, false)).toBeNull();
    // Other chords are not the board's.
    expect(cardKeyAction(key('ArrowDown', { shiftKey: true }), { column: 0, index: 0 }, counts, true)).toBeNull();
    expect(cardKeyAction(key('ArrowDown', { altKey: true, ctrlKey: true, shiftKey: true }), { column: 0, index: 0 }, counts, true)).toBeNull();
    expect(cardKeyAction(key('a'), { column: 0, index: 0 }, counts, true)).toBeNull();
  });
});

describe("a board's swimlanes: cells and moves across them", () => {
  test("a cell's name: its column's groupKey without lanes; the lane's and the column's values with them, read back", () => {
    for (const value of ['todo', true, false, null]) expect(cellKey(value)).toBe(groupKey(value));
    expect(cellKey('todo', 'web')).not.toBe(cellKey('web', 'todo'));
    expect(laneCellOf(cellKey('todo', null))).toEqual({ lane: null, column: 'todo' });
    expect(laneCellOf(cellKey(null, true))).toEqual({ lane: true, column: null });
    // An id with a slash or quotes comes back whole.
    expect(laneCellOf(cellKey('a/"b"', 'c/d'))).toEqual({ lane: 'c/d', column: 'a/"b"' });
    // A column's name (a board without lanes), nothing, or something else: not a lane's cell.
    for (const key of [cellKey('todo'), undefined, '', '[1,2]', '["a"]', 'nope']) expect(laneCellOf(key)).toBeNull();
  });

  test('the groups a cell puts a card in: a box checked or not, each of a list, an option, else «Без значения»', () => {
    expect(cellGroups({ type: 'checkbox' }, true)).toEqual([true]);
    expect(cellGroups({ type: 'checkbox' }, undefined)).toEqual([false]);
    expect(cellGroups({ type: 'multiSelect' }, ['a', 'b'])).toEqual(['a', 'b']);
    expect(cellGroups({ type: 'person' }, [])).toEqual([null]);
    expect(cellGroups({ type: 'select' }, 'x')).toEqual(['x']);
    expect(cellGroups({ type: 'status' }, null)).toEqual([null]);
  });

  const stage = { fieldId: 'stage', field: { type: 'select' as const } };
  const team = { fieldId: 'team', field: { type: 'multiSelect' as const } };

  test('without lanes: the column written when it changes, as before', () => {
    expect(cardMove(stage, undefined, { stage: 'todo' }, { column: 'todo' }, { column: 'done' })).toEqual({
      set: [{ fieldId: 'stage', value: 'done' }],
      stays: [],
      laneStays: [],
    });
    expect(cardMove(stage, undefined, { stage: 'todo' }, { column: 'todo' }, { column: 'todo' }).set).toEqual([]);
    // A multi-select board: the card stays in its other options' columns.
    expect(cardMove(team, undefined, { team: ['web', 'app'] }, { column: 'web' }, { column: 'ios' })).toEqual({
      set: [{ fieldId: 'team', value: ['app', 'ios'] }],
      stays: ['app'],
      laneStays: [],
    });
  });

  test('with the card’s versions: a value made from what the cell held is written at its version; a replacing one (a select, a person, «Без значения») is not', () => {
    const versions = { stage: 4, team: 7 };
    expect(cardMove(team, undefined, { team: ['web', 'app'] }, { column: 'web' }, { column: 'ios' }, versions).set).toEqual([
      { fieldId: 'team', value: ['app', 'ios'], version: 7 },
    ]);
    // Never written: version 0.
    expect(cardMove(team, undefined, {}, { column: null }, { column: 'ios' }, {}).set).toEqual([{ fieldId: 'team', value: ['ios'], version: 0 }]);
    expect(cardMove(team, undefined, { team: ['web'] }, { column: 'web' }, { column: null }, versions).set).toEqual([{ fieldId: 'team', value: null }]);
    expect(cardMove(stage, team, { stage: 'todo', team: ['web'] }, { column: 'todo', lane: 'web' }, { column: 'done', lane: 'ios' }, versions).set).toEqual([
      { fieldId: 'stage', value: 'done' },
      { fieldId: 'team', value: ['ios'], version: 7 },
    ]);
  });

  test('to another column of its lane: the column alone written; the card stays in its other lanes', () => {
    expect(cardMove(stage, team, { stage: 'todo', team: ['web', 'app'] }, { column: 'todo', lane: 'web' }, { column: 'done', lane: 'web' })).toEqual({
      set: [{ fieldId: 'stage', value: 'done' }],
      stays: [],
      laneStays: ['app'],
    });
  });

  test("to another lane: both written in one move, the lane's value swapped as a column's is (the others kept; «Без значения» clears)", () => {
    expect(cardMove(stage, team, { stage: 'todo', team: ['web', 'app'] }, { column: 'todo', lane: 'web' }, { column: 'done', lane: 'ios' })).toEqual({
      set: [
        { fieldId: 'stage', value: 'done' },
        { fieldId: 'team', value: ['app', 'ios'] },
      ],
      stays: [],
      laneStays: ['app'],
    });
    // The same column, another lane: the lane's value alone.
    expect(cardMove(stage, team, { stage: 'todo', team: ['web'] }, { column: 'todo', lane: 'web' }, { column: 'todo', lane: null })).toEqual({
      set: [{ fieldId: 'team', value: null }],
      stays: [],
      laneStays: [],
    });
    // Lanes by a select, a box, a person.
    const owner = { fieldId: 'owner', field: { type: 'person' as const } };
    expect(cardMove(stage, owner, { stage: 'todo', owner: ['u1', 'u2'] }, { column: 'todo', lane: 'u1' }, { column: 'todo', lane: 'u3' }).set).toEqual([
      { fieldId: 'owner', value: ['u3'] },
    ]);
    const urgent = { fieldId: 'urgent', field: { type: 'checkbox' as const } };
    expect(cardMove(stage, urgent, { stage: 'todo' }, { column: 'todo', lane: false }, { column: 'done', lane: true }).set).toEqual([
      { fieldId: 'stage', value: 'done' },
      { fieldId: 'urgent', value: true },
    ]);
    const area = { fieldId: 'area', field: { type: 'status' as const } };
    expect(cardMove(team, area, { team: ['web'], area: 'a' }, { column: 'web', lane: 'a' }, { column: 'app', lane: 'b' })).toEqual({
      set: [
        { fieldId: 'team', value: ['app'] },
        { fieldId: 'area', value: 'b' },
      ],
      stays: [],
      laneStays: [],
    });
  });
});
