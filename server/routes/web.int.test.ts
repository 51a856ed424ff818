import { createTestApp, errorCode, type TestApp } from '../../test/helpers/testApp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

test('GET /version', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/version' });
  expect(res.statusCode).toBe(200);
  expect(res.body).toBe('v2510.17');
  expect(t.app.dbKind).toBe(globalThis.__TEST_DB__);
  expect(errorCode(await t.app.inject({ method: 'GET', url: '/api/nope' }))).toBe('not_found');
});
