import { CARD_BASE, CARD_LINE, COVER_HEIGHT, cardEstimate, cardKeyAction, columnCell, coverFile } from './boardCards';

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
