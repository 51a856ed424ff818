import { FEEDBACK_LIMIT_PER_IP, FEEDBACK_WINDOW_MS } from '../routes/feedback';
import { api, createTestApp, errorCode, type TestApp } from '../../test/helpers/testApp';
import { deleteEndedRateLimits, hitRateLimit } from './rateLimits';

/**
 * The request limits' store (docs/security.md «Request limits»): fixed windows counted in the
 * `rate_limits` table by one upsert, on both databases. The counting across server processes is
 * server/plugins/rateLimit.int.test.ts.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const rows = (key: string) => t.app.db.selectFrom('rate_limits').selectAll().where('key', '=', key).execute();

describe('hitRateLimit', () => {
  test('counts hits within the window; the window ends at its time and the next hit starts a new one', async () => {
    const key = 'test:window';
    expect(await hitRateLimit(t.app.db, key, 1_000, T0)).toEqual({ hits: 1, resetAt: T0 + 1_000 });
    expect(await hitRateLimit(t.app.db, key, 1_000, T0 + 400)).toEqual({ hits: 2, resetAt: T0 + 1_000 });
    expect(await hitRateLimit(t.app.db, key, 1_000, T0 + 999)).toEqual({ hits: 3, resetAt: T0 + 1_000 });
    // The window is over at its reset time: a new one from this hit.
    expect(await hitRateLimit(t.app.db, key, 1_000, T0 + 1_000)).toEqual({ hits: 1, resetAt: T0 + 2_000 });
    expect(await hitRateLimit(t.app.db, key, 1_000, T0 + 1_500)).toEqual({ hits: 2, resetAt: T0 + 2_000 });
    // Long after: a new window again, of the length asked now.
    expect(await hitRateLimit(t.app.db, key, 5_000, T0 + 60_000)).toEqual({ hits: 1, resetAt: T0 + 65_000 });
    expect(await rows(key)).toEqual([{ key, hits: 1, reset_at: new Date(T0 + 65_000).toISOString() }]);
  });

  test('keys count apart', async () => {
    await hitRateLimit(t.app.db, 'test:a', 1_000, T0);
    await hitRateLimit(t.app.db, 'test:a', 1_000, T0);
    expect(await hitRateLimit(t.app.db, 'test:b', 1_000, T0)).toEqual({ hits: 1, resetAt: T0 + 1_000 });
    expect(await hitRateLimit(t.app.db, 'test:a', 1_000, T0)).toEqual({ hits: 3, resetAt: T0 + 1_000 });
  });

  test('parallel hits each get their own count: none lost, none counted twice', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => hitRateLimit(t.app.db, 'test:parallel', 60_000, T0)));
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});

test('deleteEndedRateLimits deletes the rows whose window ended, and only those', async () => {
  await hitRateLimit(t.app.db, 'test:ended', 1_000, T0 - 5_000);
  await hitRateLimit(t.app.db, 'test:just-ended', 1_000, T0 - 1_000);
  await hitRateLimit(t.app.db, 'test:live', 1_000, T0 - 999);
  expect(await deleteEndedRateLimits(t.app.db, T0)).toBeGreaterThanOrEqual(2);
  expect(await rows('test:ended')).toEqual([]);
  expect(await rows('test:just-ended')).toEqual([]);
  expect(await rows('test:live')).toHaveLength(1);
});

describe('through a route (feedback: FEEDBACK_LIMIT_PER_IP an hour per address)', () => {
  const message = { username: 'Ева', text: 'Спасибо', email: 'eva@example.com' };
  const from = { 'x-forwarded-for': '198.51.100.77' };
  const send = () => api(t, undefined, 'POST', '/api/email/hello', message, from);

  test('the first hit of a process deletes ended windows; beyond the limit 429 with Retry-After; once the window ended the address may send again', async () => {
    // An ended window left by another process long ago.
    await t.app.db
      .insertInto('rate_limits')
      .values({ key: 'feedback:192.0.2.1', hits: 9, reset_at: new Date(Date.now() - 1_000).toISOString() })
      .execute();
    for (let i = 0; i < FEEDBACK_LIMIT_PER_IP; i++) expect((await send()).statusCode).toBe(200);
    expect(await rows('feedback:192.0.2.1')).toEqual([]);
    const [row] = await rows('feedback:198.51.100.77');
    expect(row.hits).toBe(FEEDBACK_LIMIT_PER_IP);

    const limited = await send();
    expect([limited.statusCode, errorCode(limited)]).toEqual([429, 'rate_limited']);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(FEEDBACK_WINDOW_MS / 1000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(FEEDBACK_WINDOW_MS / 1000);
    // Refused hits count too (a fixed window: they do not move its end).
    expect((await rows('feedback:198.51.100.77'))[0]).toEqual({ ...row, hits: FEEDBACK_LIMIT_PER_IP + 1 });

    // The window ends (as if an hour went by): a new one starts with the next message.
    await t.app.db
      .updateTable('rate_limits')
      .set({ reset_at: new Date(Date.now() - 1).toISOString() })
      .where('key', '=', 'feedback:198.51.100.77')
      .execute();
    expect((await send()).statusCode).toBe(200);
    const [fresh] = await rows('feedback:198.51.100.77');
    expect(fresh.hits).toBe(1);
    expect(Date.parse(fresh.reset_at) - Date.now()).toBeGreaterThan(FEEDBACK_WINDOW_MS - 60_000);
  });
});
