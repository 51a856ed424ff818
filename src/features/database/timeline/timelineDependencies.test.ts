import type { FilterGroup } from '../../../../schema/blocks/database';
import { dependencyArrows, readDependants, shiftDependants, type Planned } from './timelineDependencies';

const DAY = (d: number) => 20_000 + d;
const row = (id: string, start: number, end: number, blockedBy: string[] = []): Planned => ({ id, start: DAY(start), end: DAY(end), blockedBy });
const plan = (...rows: Planned[]) => new Map(rows.map((r) => [r.id, r]));
const days = (shifted: Map<string, { start: number; end: number }>) =>
  Object.fromEntries([...shifted].map(([id, s]) => [id, [s.start - 20_000, s.end - 20_000]]));

describe('dependants shifted after a blocker moves', () => {
  test('a dependant starting on or before its blocker ends starts the day after, keeping its length; down the chain', () => {
    const rows = plan(row('a', 2, 4), row('b', 5, 6, ['a']), row('c', 9, 9, ['b']));
    expect(days(shiftDependants({ ...rows.get('a')!, start: DAY(5), end: DAY(7) }, rows))).toEqual({ b: [8, 9], c: [10, 10] });
  });

  test('room enough: nothing moves; moved earlier: nothing moves (dependants are never pulled)', () => {
    const rows = plan(row('a', 2, 4), row('b', 10, 12, ['a']));
    expect(shiftDependants({ ...rows.get('a')!, end: DAY(8) }, rows).size).toBe(0);
    expect(shiftDependants({ ...rows.get('a')!, start: DAY(-10), end: DAY(-8) }, rows).size).toBe(0);
  });

  test('a dependant of two blockers starts after the later one; a cycle shifts each row once', () => {
    const rows = plan(row('a', 2, 3), row('x', 1, 12), row('b', 13, 14, ['a', 'x']));
    expect(days(shiftDependants({ ...rows.get('a')!, end: DAY(13) }, rows))).toEqual({ b: [14, 15] });
    const cycle = plan(row('p', 1, 2, ['q']), row('q', 3, 4, ['p']));
    expect(days(shiftDependants({ ...cycle.get('p')!, end: DAY(3) }, cycle))).toEqual({ q: [4, 5] });
  });
});

test('arrows between drawn bars only, from the blocker to the row it blocks; none to itself', () => {
  const drawn = new Map([
    ['a', { blockedBy: [] }],
    ['b', { blockedBy: ['a', 'far'] }],
    ['c', { blockedBy: ['b', 'c'] }],
  ]);
  expect(dependencyArrows(drawn)).toEqual([
    ['a', 'b'],
    ['b', 'c'],
  ]);
});

describe('readDependants: the whole chain as the database holds it', () => {
  /** A database of rows and whom each is blocked by, read as the server reads `contains` rules joined by `or` (a window of `window` rows at most). */
  function database(blockedBy: Record<string, string[]>, window = 500) {
    const asked: string[][] = [];
    const read = async (filter: FilterGroup) => {
      const named = filter.rules.map((rule) => ('value' in rule ? String(rule.value) : ''));
      asked.push(named);
      const matching = Object.entries(blockedBy).filter(([, blockers]) => blockers.some((b) => named.includes(b)));
      return { rows: matching.slice(0, window).map(([id]) => ({ id })), count: matching.length };
    };
    return { read, asked };
  }

  test('round by round, each row once, whatever cycle the relation holds; the moved row is not its own dependant', async () => {
    const { read, asked } = database({ a: [], b: ['a'], c: ['b'], d: ['a', 'c'], e: ['d', 'a'], x: [] });
    const chain = await readDependants('a', 'blocked', read, 100);
    expect(chain.rows.map((r) => r.id).sort()).toEqual(['b', 'c', 'd', 'e']);
    expect(chain.capped).toBe(false);
    expect(asked).toEqual([['a'], ['b', 'd', 'e'], ['c']]);
    const cycle = database({ p: ['q'], q: ['p'] });
    expect((await readDependants('p', 'blocked', cycle.read, 100)).rows.map((r) => r.id)).toEqual(['q']);
  });

  test('a round of more rows than a filter holds is asked in parts of 20 rules', async () => {
    const many = Object.fromEntries([['root', []], ...Array.from({ length: 45 }, (_, i) => [`r${i}`, ['root']])]) as Record<string, string[]>;
    const { read, asked } = database(many);
    expect((await readDependants('root', 'blocked', read, 100)).rows).toHaveLength(45);
    expect(asked.map((names) => names.length)).toEqual([1, 20, 20, 5]);
  });

  test('more dependants than `max`, or than a window, is said (capped), and no more are read', async () => {
    const many = Object.fromEntries([['root', []], ...Array.from({ length: 30 }, (_, i) => [`r${i}`, ['root']])]) as Record<string, string[]>;
    const capped = await readDependants('root', 'blocked', database(many).read, 10);
    expect([capped.rows.length, capped.capped]).toEqual([10, true]);
    const windowed = await readDependants('root', 'blocked', database(many, 25).read, 100);
    expect([windowed.rows.length, windowed.capped]).toEqual([25, true]);
  });
});
