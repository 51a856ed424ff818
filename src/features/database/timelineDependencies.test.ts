import { dependencyArrows, shiftDependants, type Planned } from './timelineDependencies';

const DAY = (d: number) => 20_000 + d;
const row = (id: string, start: number, end: number, blockedBy: string[] = []): Planned => ({ id, start: DAY(start), end: DAY(end), blockedBy });
const plan = (...rows: Planned[]) => new Map(rows.map((r) => [r.id, r]));
const days = (shifted: Map<string, { start: number; end: number }>) => Object.fromEntries([...shifted].map(([id, s]) => [id, [s.start - 20_000, s.end - 20_000]]));

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
