import { pauseAfter, queuedAtMs, roundSize } from './indexer';

test('queue times as both databases write them are read as UTC', () => {
  const at = Date.UTC(2026, 10, 26, 12, 42, 28, 123);
  expect(queuedAtMs('2026-11-26 12:42:28.123456+00')).toBe(at);
  expect(queuedAtMs('2026-11-26T12:42:28.123')).toBe(at);
  expect(queuedAtMs('2026-11-26T15:42:28.123+03:00')).toBe(at);
});

test('SQLite: a round of a backlog that gave way to a request is followed by four times its length; one that nobody waited for, by none', () => {
  expect(pauseAfter({ taken: 8, drained: false, gaveWay: true, workMs: 3.6 }, true)).toBe(14);
  expect(pauseAfter({ taken: 8, drained: false, gaveWay: true, workMs: 0.1 }, true)).toBe(1);
  expect(pauseAfter({ taken: 24, drained: false, gaveWay: false, workMs: 10.2 }, true)).toBe(0);
});

test('PostgreSQL: rounds of a backlog nobody waits for are 20 ms apart whatever they took (the work is in the database server)', () => {
  expect(pauseAfter({ taken: 200, drained: false, gaveWay: false, workMs: 2_000 }, false)).toBe(20);
  expect(pauseAfter({ taken: 200, drained: false, gaveWay: false, workMs: 120 }, false, false)).toBe(20);
});

test('while people use the server, a round of a backlog is followed by four times its length (SQLite: whether or not a request waited; PostgreSQL: 20 ms at least)', () => {
  // The round nobody waited for, which took all the time it could (10 ms), gets a pause of 41 ms: a fifth of the time.
  expect(pauseAfter({ taken: 24, drained: false, gaveWay: false, workMs: 10.2 }, true, true)).toBe(41);
  expect(pauseAfter({ taken: 8, drained: false, gaveWay: true, workMs: 3.6 }, true, true)).toBe(14);
  expect(pauseAfter({ taken: 8, drained: false, gaveWay: false, workMs: 0.1 }, true, true)).toBe(1);
  // Nobody using it: as before.
  expect(pauseAfter({ taken: 24, drained: false, gaveWay: false, workMs: 10.2 }, true, false)).toBe(0);
  // PostgreSQL: a batched round of 200 (≈ 0.1 s) is followed by four times its length: a fifth of the time (docs/search.md «A backlog»).
  expect(pauseAfter({ taken: 200, drained: false, gaveWay: false, workMs: 120.4 }, false, true)).toBe(482);
  expect(pauseAfter({ taken: 3, drained: false, gaveWay: false, workMs: 2 }, false, true)).toBe(20);
});

test('rounds of the server indexer: 200 targets; on PostgreSQL while people use the server, 20 (bursts as short as SQLite rounds)', () => {
  expect(roundSize(false, false)).toBe(200);
  expect(roundSize(false, true)).toBe(20);
  expect(roundSize(true, true)).toBe(200);
  expect(roundSize(true, false)).toBe(200);
});
