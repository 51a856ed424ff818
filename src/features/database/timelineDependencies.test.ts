import { shiftDependants, type Planned } from './timelineDependencies';

const row = (id: string, start: string, end: string, blockedBy: string[] = []): Planned => ({ id, start, end, blockedBy });
const plan = (...rows: Planned[]) => new Map(rows.map((r) => [r.id, r]));

describe('dependants shifted after a blocker moves', () => {
  test('a dependant starting on or before its blocker ends starts the day after, keeping its length; down the chain', () => {
    const rows = plan(row('a', '2026-11-02', '2026-11-04'), row('b', '2026-11-05', '2026-11-06', ['a']), row('c', '2026-11-09', '2026-11-09', ['b']));
    const moved = { ...rows.get('a')!, start: '2026-11-05', end: '2026-11-07' };
    expect(Object.fromEntries(shiftDependants(moved, rows))).toEqual({ b: { start: '2026-11-08', end: '2026-11-09' }, c: { start: '2026-11-10', end: '2026-11-10' } });
  });

  test('room enough: nothing moves; moved earlier: nothing moves (dependants are never pulled)', () => {
    const rows = plan(row('a', '2026-11-02', '2026-11-04'), row('b', '2026-11-10', '2026-11-12', ['a']));
    expect(shiftDependants({ ...rows.get('a')!, end: '2026-11-08' }, rows).size).toBe(0);
    expect(shiftDependants({ ...rows.get('a')!, start: '2026-10-20', end: '2026-10-22' }, rows).size).toBe(0);
  });

  test('a dependant of two blockers starts after the later one; a cycle shifts each row once', () => {
    const rows = plan(row('a', '2026-11-02', '2026-11-03'), row('x', '2026-11-01', '2026-11-12'), row('b', '2026-11-13', '2026-11-14', ['a', 'x']));
    expect(Object.fromEntries(shiftDependants({ ...rows.get('a')!, end: '2026-11-13' }, rows))).toEqual({ b: { start: '2026-11-14', end: '2026-11-15' } });
    const cycle = plan(row('p', '2026-11-01', '2026-11-02', ['q']), row('q', '2026-11-03', '2026-11-04', ['p']));
    expect(Object.fromEntries(shiftDependants({ ...cycle.get('p')!, end: '2026-11-03' }, cycle))).toEqual({ q: { start: '2026-11-04', end: '2026-11-05' } });
  });
});
