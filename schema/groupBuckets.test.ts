import { dateBucket, dayNumber, numberBucket } from './groupBuckets';

/* A view's groups by a date or a number (docs/api/databases.md «Grouping»). */

const zone = 'Europe/Moscow';
const at = (iso: string) => Date.parse(iso);
// Today: Saturday 5 December 2026 in Moscow.
const today = dayNumber(at('2026-12-05T12:00:00+03:00'), zone);

test('days are counted in the zone: 23:30 UTC on the 4th is already the 5th in Moscow', () => {
  expect(dayNumber(at('2026-12-04T23:30:00Z'), zone)).toBe(today);
  expect(dayNumber(at('2026-12-04T20:30:00Z'), zone)).toBe(today - 1);
});

test('by day, week (from Monday), month and year', () => {
  const ms = at('2026-12-05T10:00:00+03:00');
  expect(dateBucket(ms, 'day', zone, today)).toEqual({ key: 'day:2026-12-05', label: '5 декабря 2026', order: today });
  expect(dateBucket(ms, 'week', zone, today)).toMatchObject({ key: 'week:2026-11-30', label: 'Неделя с 30 ноября 2026' });
  expect(dateBucket(at('2026-11-30T00:30:00+03:00'), 'week', zone, today).key).toBe('week:2026-11-30');
  expect(dateBucket(at('2026-11-29T23:30:00+03:00'), 'week', zone, today).key).toBe('week:2026-11-23');
  // Before 1970 too (days below zero): Wednesday 31 December 1969 is in the week from Monday the 29th.
  expect(dateBucket(at('1969-12-31T12:00:00+03:00'), 'week', zone, today).key).toBe('week:1969-12-29');
  expect(dateBucket(ms, 'month', zone, today)).toMatchObject({ key: 'month:2026-12', label: 'Декабрь 2026' });
  expect(dateBucket(ms, 'year', zone, today)).toMatchObject({ key: 'year:2026', label: '2026' });
});

test('relative to today: the near ranges, months beyond, each after the one before', () => {
  const day = (offset: number) => at('2026-12-05T12:00:00+03:00') + offset * 86_400_000;
  const label = (offset: number) => dateBucket(day(offset), 'relative', zone, today).label;
  expect([-40, -30, -8, -7, -2, -1, 0, 1, 2, 7, 8, 30, 31, 70].map(label)).toEqual([
    'Октябрь 2026',
    'Последние 30 дней',
    'Последние 30 дней',
    'Последние 7 дней',
    'Последние 7 дней',
    'Вчера',
    'Сегодня',
    'Завтра',
    'Следующие 7 дней',
    'Следующие 7 дней',
    'Следующие 30 дней',
    'Следующие 30 дней',
    'Январь 2027',
    'Февраль 2027',
  ]);
  // Ascending dates, ascending groups: a table sorted by the date shows each group as one run.
  const orders = Array.from({ length: 200 }, (_, i) => dateBucket(day(i - 100), 'relative', zone, today).order);
  for (let i = 1; i < orders.length; i++) expect(orders[i]).toBeGreaterThanOrEqual(orders[i - 1]);
  // The month cut by «Последние 30 дней» keeps its part before them, as its own group.
  expect(dateBucket(day(-31), 'relative', zone, today).key).toBe('month:2026-11');
  expect(dateBucket(day(-31), 'relative', zone, today).order).toBeLessThan(dateBucket(day(-30), 'relative', zone, today).order);
});

test('numbers in ranges of a step, the start in, the end out; negatives and fractions', () => {
  expect(numberBucket(15, 10)).toEqual({ key: 'range:10', label: '10 – 20', order: 10 });
  expect(numberBucket(20, 10).key).toBe('range:20');
  expect(numberBucket(-0.5, 10)).toMatchObject({ key: 'range:-10', label: '-10 – 0' });
  expect(numberBucket(0.35, 0.1)).toMatchObject({ key: 'range:0.3', label: '0,3 – 0,4' });
  expect(numberBucket(0.3, 0.1).key).toBe('range:0.3');
  expect(numberBucket(1500, 1000).label).toBe('1\u00a0000 – 2\u00a0000');
});
