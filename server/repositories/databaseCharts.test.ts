import { codePointBefore, groupRows, type ChartRow } from './databaseCharts';

/** The chart's rows grouped in JavaScript (server/repositories/databaseCharts.ts): what must not depend on the order rows were read in. */

const row = (x: unknown, y: number | null, xv: string | null = null): ChartRow => ({ x, s: null, y, xv, sv: null });

test('code-point order, as SQLite and PostgreSQL\'s "C" compare text (not UTF-16 units)', () => {
  expect(codePointBefore('a', 'b')).toBe(true);
  expect(codePointBefore('ab', 'a')).toBe(false);
  expect(codePointBefore('a', 'ab')).toBe(true);
  expect(codePointBefore('Hello', 'hello')).toBe(true);
  // U+FF21 (a BMP letter) before U+1F600 (two UTF-16 units starting at 0xD83D, which `<` puts first).
  expect('\u{1F600}' < '\uFF21').toBe(true);
  expect(codePointBefore('\uFF21', '\u{1F600}')).toBe(true);
  expect(codePointBefore('\u{1F600}', '\uFF21')).toBe(false);
  expect(codePointBefore('\u{1F600}', '\u{1F601}')).toBe(true);
  expect(codePointBefore('same', 'same')).toBe(false);
});

test('groups by raw x and series, with the same figures and spelling whatever the order of the rows', () => {
  const rows = [
    row('a', 0.1, '"B"'),
    row('a', 0.2, '"a"'),
    row('b', null),
    row('a', 0.3, '"A"'),
    row(null, 1e16),
    row(null, 1),
    row(null, -1e16),
    row('a', null),
  ];
  const reversed = groupRows([...rows].reverse());
  const forward = groupRows(rows);
  const byX = (groups: ReturnType<typeof groupRows>) => Object.fromEntries(groups.map((g) => [String(g.x), g]));
  expect(byX(reversed)).toEqual(byX(forward));
  expect(byX(forward)).toEqual({
    a: { x: 'a', s: null, n: 4, yn: 3, ys: 0.1 + 0.2 + 0.3, lo: 0.1, hi: 0.3, xv: '"A"', sv: null },
    b: { x: 'b', s: null, n: 1, yn: 0, ys: 0, lo: null, hi: null, xv: null, sv: null },
    // Added in ascending order: -1e16 + 1 + 1e16, the same however the rows came.
    null: { x: null, s: null, n: 3, yn: 3, ys: -1e16 + 1 + 1e16, lo: -1e16, hi: 1e16, xv: null, sv: null },
  });
});
