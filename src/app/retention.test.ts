import { reportRetentionGoals } from './retention';

const DAY = 24 * 60 * 60 * 1000;

function serve() {
  const posted: unknown[] = [];
  globalThis.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    posted.push(JSON.parse(String(init?.body)));
    return { ok: true, status: 200, statusText: '', json: async () => ({ data: {}, errors: [] }) } as Response;
  }) as typeof fetch;
  return posted;
}

beforeEach(() => localStorage.clear());

test('posts each goal the account has passed, once per browser', async () => {
  const posted = serve();
  const now = Date.parse('2026-11-23T12:00:00Z');
  const user = { id: 'u1', createdAt: new Date(now - 8 * DAY).toISOString() };
  expect(await reportRetentionGoals(user, now)).toEqual(['return_1d', 'return_7d']);
  expect(posted).toEqual([{ goal: 'return_1d' }, { goal: 'return_7d' }]);
  expect(await reportRetentionGoals(user, now)).toEqual([]);
  expect(await reportRetentionGoals(user, now + 23 * DAY)).toEqual(['return_30d']);
  expect(posted).toHaveLength(3);
});

test('nothing on the first day, for anonymous visitors, or without a creation date', async () => {
  const posted = serve();
  const now = Date.now();
  expect(await reportRetentionGoals({ id: 'u1', createdAt: new Date(now - DAY).toISOString() }, now)).toEqual([]);
  expect(await reportRetentionGoals({ id: 'u2', createdAt: new Date(now - 40 * DAY).toISOString(), anonymous: true }, now)).toEqual([]);
  expect(await reportRetentionGoals({ id: 'u3', createdAt: '' }, now)).toEqual([]);
  expect(posted).toEqual([]);
});

test('a failed post is tried again next time', async () => {
  let fail = true;
  const posted: unknown[] = [];
  globalThis.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    if (fail) throw new TypeError('offline');
    posted.push(JSON.parse(String(init?.body)));
    return { ok: true, status: 200, statusText: '', json: async () => ({ data: {}, errors: [] }) } as Response;
  }) as typeof fetch;
  const now = Date.now();
  const user = { id: 'u1', createdAt: new Date(now - 2 * DAY).toISOString() };
  expect(await reportRetentionGoals(user, now)).toEqual([]);
  fail = false;
  expect(await reportRetentionGoals(user, now)).toEqual(['return_1d']);
  expect(posted).toEqual([{ goal: 'return_1d' }]);
});
