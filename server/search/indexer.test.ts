import { queuedAtMs } from './indexer';

test('queue times as both databases write them are read as UTC', () => {
  const at = Date.UTC(2026, 10, 26, 12, 42, 28, 123);
  expect(queuedAtMs('2026-11-26 12:42:28.123456+00')).toBe(at);
  expect(queuedAtMs('2026-11-26T12:42:28.123')).toBe(at);
  expect(queuedAtMs('2026-11-26T15:42:28.123+03:00')).toBe(at);
});
