import { retryAfterSeconds } from './openai';

describe('retryAfterSeconds (a provider’s Retry-After)', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  test('seconds, rounded up, at least 1 and at most an hour', () => {
    expect(retryAfterSeconds('17', now)).toBe(17);
    expect(retryAfterSeconds(' 2.2 ', now)).toBe(3);
    expect(retryAfterSeconds('0', now)).toBe(1);
    expect(retryAfterSeconds('86400', now)).toBe(3600);
  });
  test('an HTTP date, from now', () => {
    expect(retryAfterSeconds('Mon, 23 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 11:00:00 GMT', now)).toBe(1);
  });
  test('absent or unreadable: not known', () => {
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(retryAfterSeconds('', now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
  });
});
