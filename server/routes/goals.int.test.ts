import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';

describe('POST /api/goals: retention goals, first-party', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  test('a goal is stored once, when the account is old enough; early, unknown or anonymous ones are refused', async () => {
    const cookie = await signIn(t, 'returning@example.com');
    const early = await api(t, cookie, 'POST', '/api/goals', { goal: 'return_1d' });
    expect([early.statusCode, errorCode(early)]).toEqual([422, 'goal.not_reached']);

    const user = await t.app.db.selectFrom('users').select('id').where('email', '=', 'returning@example.com').executeTakeFirstOrThrow();
    const tenDaysAgo = new Date(Date.now() - 10 * 24 * 60 * 60 * 1000).toISOString();
    await t.app.db.updateTable('users').set({ created_at: tenDaysAgo }).where('id', '=', user.id).execute();

    const first = await api(t, cookie, 'POST', '/api/goals', { goal: 'return_1d' });
    expect(first.statusCode).toBe(200);
    const { reachedAt } = body<{ goal: string; reachedAt: string }>(first).data;
    const again = await api(t, cookie, 'POST', '/api/goals', { goal: 'return_1d' });
    expect(body(again).data).toEqual({ goal: 'return_1d', reachedAt });
    expect((await api(t, cookie, 'POST', '/api/goals', { goal: 'return_7d' })).statusCode).toBe(200);
    const month = await api(t, cookie, 'POST', '/api/goals', { goal: 'return_30d' });
    expect([month.statusCode, errorCode(month)]).toEqual([422, 'goal.not_reached']);

    const rows = await t.app.db.selectFrom('retention_goals').select(['goal']).where('user_id', '=', user.id).orderBy('goal').execute();
    expect(rows.map((r) => r.goal)).toEqual(['return_1d', 'return_7d']);

    const unknown = await api(t, cookie, 'POST', '/api/goals', { goal: 'return_2d' });
    expect([unknown.statusCode, errorCode(unknown)]).toEqual([422, 'validation_failed']);
    const anonymous = await api(t, undefined, 'POST', '/api/goals', { goal: 'return_1d' });
    expect([anonymous.statusCode, errorCode(anonymous)]).toEqual([401, 'unauthorized']);
  });
});
