import type { WireRow } from '../../../../schema/database';
import { withPending } from './BoardView';

/** A column's store: rows by index, as a window holds them. */
function column(ids: string[]) {
  const rows = ids.map((id) => ({ id, data: { title: id, values: {} }, versions: {} }) as unknown as WireRow);
  return { count: rows.length, rowAt: (i: number) => rows[i], indexOf: (id: string) => rows.findIndex((r) => r.id === id) };
}
const drawn = (view: ReturnType<typeof withPending>) => Array.from({ length: view.count }, (_, i) => view.rowAt(i)?.id);
const card = (id: string) => ({ id, data: { title: id, values: {} }, versions: {} }) as unknown as WireRow;

describe('a card dropped and not yet answered is drawn in its new place', () => {
  test('to another column: out of the one it left, beside its target or last in the other', () => {
    const todo = column(['a', 'b', 'c']);
    const doing = column(['x', 'y']);
    const before = { row: card('b'), from: 'todo', to: 'doing', target: 'y', side: 'before' as const };
    expect(drawn(withPending(todo, 'todo', before))).toEqual(['a', 'c']);
    expect(drawn(withPending(doing, 'doing', before))).toEqual(['x', 'b', 'y']);
    expect(drawn(withPending(doing, 'doing', { ...before, target: 'y', side: 'after' }))).toEqual(['x', 'y', 'b']);
    expect(drawn(withPending(doing, 'doing', { ...before, target: null }))).toEqual(['x', 'y', 'b']);
    // Other columns, and no move: as stored.
    expect(drawn(withPending(column(['q']), 'done', before))).toEqual(['q']);
    expect(drawn(withPending(todo, 'todo', null))).toEqual(['a', 'b', 'c']);
  });

  test('within its column: up, down, to the end', () => {
    const todo = column(['a', 'b', 'c', 'd']);
    const move = (id: string, target: string | null, side: 'before' | 'after') =>
      drawn(withPending(todo, 'todo', { row: card(id), from: 'todo', to: 'todo', target, side }));
    expect(move('d', 'b', 'before')).toEqual(['a', 'd', 'b', 'c']);
    expect(move('a', 'c', 'after')).toEqual(['b', 'c', 'a', 'd']);
    expect(move('b', 'd', 'before')).toEqual(['a', 'c', 'b', 'd']);
    expect(move('b', null, 'after')).toEqual(['a', 'c', 'd', 'b']);
  });

  test('the column it went to read it already (the other not yet): drawn once, where the read put it', () => {
    const doing = column(['x', 'b', 'y']);
    expect(drawn(withPending(doing, 'doing', { row: card('b'), from: 'todo', to: 'doing', target: 'y', side: 'after' }))).toEqual(['x', 'b', 'y']);
    // The column it left read already too: nothing to take out.
    expect(drawn(withPending(column(['a', 'c']), 'todo', { row: card('b'), from: 'todo', to: 'doing', target: 'y', side: 'after' }))).toEqual(['a', 'c']);
  });

  test('a person board: the card leaves every other column holding it; into one that held it, it moves there as within a column', () => {
    // «b» is Ann's and Bob's; dropped before «y» in Cat's column: it leaves Ann's and Bob's.
    const toCat = { row: card('b'), from: 'ann', to: 'cat', target: 'y', side: 'before' as const };
    expect(drawn(withPending(column(['a', 'b']), 'ann', toCat))).toEqual(['a']);
    expect(drawn(withPending(column(['b', 'c']), 'bob', toCat))).toEqual(['c']);
    expect(drawn(withPending(column(['x', 'y']), 'cat', toCat))).toEqual(['x', 'b', 'y']);
    // Dropped after «c» in Bob's column, which held it first: drawn there after «c», once.
    const toBob = { row: card('b'), from: 'ann', to: 'bob', target: 'c', side: 'after' as const, wasThere: true };
    const bob = withPending(column(['b', 'c', 'd']), 'bob', toBob);
    expect(drawn(bob)).toEqual(['c', 'b', 'd']);
    expect(['b', 'c', 'd', 'z'].map((id) => bob.indexOf(id))).toEqual([1, 0, 2, -1]);
  });

  test("a drawn card's index, the pending one's included", () => {
    const doing = withPending(column(['x', 'y']), 'doing', { row: card('b'), from: 'todo', to: 'doing', target: 'y', side: 'before' });
    expect(['x', 'b', 'y'].map((id) => doing.indexOf(id))).toEqual([0, 1, 2]);
    const todo = withPending(column(['a', 'b', 'c']), 'todo', { row: card('b'), from: 'todo', to: 'doing', target: 'y', side: 'before' });
    expect(['a', 'b', 'c'].map((id) => todo.indexOf(id))).toEqual([0, -1, 1]);
  });

  test('a column with none of it in memory yet: counts still right', () => {
    const far = { count: 500, rowAt: () => undefined, indexOf: () => -1 };
    const view = withPending(far, 'doing', { row: card('z'), from: 'todo', to: 'doing', target: null, side: 'after' });
    expect(view.count).toBe(501);
    expect(view.rowAt(500)?.id).toBe('z');
  });
});

describe('on a board with swimlanes, a cell is a column in a lane', () => {
  test('to another lane: out of the cell it left, into the one it went to; cells of other lanes as they are', () => {
    const move = { row: card('b'), from: 'todo', to: 'done', fromLane: 'web', toLane: 'app', target: null, side: 'after' as const, stays: [], laneStays: [] };
    expect(drawn(withPending(column(['a', 'b']), 'todo', move, 'web'))).toEqual(['a']);
    expect(drawn(withPending(column(['x']), 'done', move, 'app'))).toEqual(['x', 'b']);
    // The same column in another lane, the column it went to in the lane it left: not where it goes.
    expect(drawn(withPending(column(['x']), 'done', move, 'web'))).toEqual(['x']);
    expect(drawn(withPending(column(['y']), 'todo', move, 'app'))).toEqual(['y']);
  });

  test('within a cell, and to the same column of another lane', () => {
    const within = { row: card('c'), from: 'todo', to: 'todo', fromLane: 'web', toLane: 'web', target: 'a', side: 'before' as const };
    expect(drawn(withPending(column(['a', 'b', 'c']), 'todo', within, 'web'))).toEqual(['c', 'a', 'b']);
    const down = { row: card('a'), from: 'todo', to: 'todo', fromLane: 'web', toLane: null, target: null, side: 'after' as const, laneStays: [] };
    expect(drawn(withPending(column(['a', 'b']), 'todo', down, 'web'))).toEqual(['b']);
    expect(drawn(withPending(column(['z']), 'todo', down, null))).toEqual(['z', 'a']);
  });

  test('a card of two lanes (a multi-select): moved to another column of one, it leaves its old column in both; lanes it stays in keep their other cells', () => {
    // «b» is in the lanes web and app, column todo; dragged in web to done: its team stays [web, app].
    const move = {
      row: card('b'),
      from: 'todo',
      to: 'done',
      fromLane: 'web',
      toLane: 'web',
      target: null,
      side: 'after' as const,
      stays: [],
      laneStays: ['app'],
    };
    expect(drawn(withPending(column(['a', 'b']), 'todo', move, 'web'))).toEqual(['a']);
    expect(drawn(withPending(column(['b']), 'todo', move, 'app'))).toEqual([]);
    expect(drawn(withPending(column([]), 'done', move, 'web'))).toEqual(['b']);
    // Its cell of done in app is read again (not drawn at once); one that has it already keeps it.
    expect(drawn(withPending(column(['b']), 'done', move, 'app'))).toEqual(['b']);
    // Dragged from web to ios in the same column: it leaves web's cell and keeps app's.
    const toIos = { ...move, to: 'todo', toLane: 'ios', laneStays: ['app'] };
    expect(drawn(withPending(column(['a', 'b']), 'todo', toIos, 'web'))).toEqual(['a']);
    expect(drawn(withPending(column(['b']), 'todo', toIos, 'app'))).toEqual(['b']);
    expect(drawn(withPending(column([]), 'todo', toIos, 'ios'))).toEqual(['b']);
  });
});
