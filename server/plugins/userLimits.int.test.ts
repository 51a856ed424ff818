import type { LightMyRequestResponse } from 'fastify';
import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import { actor, createPage, type Actor } from '../../test/helpers/pages';
import { postImport } from '../../test/helpers/imports';
import { api, body, createTestApp, errorCode, expectOk, type TestApp } from '../../test/helpers/testApp';

/**
 * The per-user limits of the expensive calls (docs/security.md «Request limits», issue 33 item 9):
 * search, import (a rate and a cap on imports at once), exports (jobs and streamed zips together)
 * and row batches (the web app's CSV import). Each is counted in the database's `rate_limits`
 * (shared by every process: server/plugins/rateLimit.int.test.ts runs two processes) and answers
 * 429 `rate_limited` with Retry-After and `details.retryAfter` beyond it.
 */

const S = '/api/v3/spaces';
const LIMITS = { searchPer10s: 5, importsPer10Min: 3, importsAtOnce: 2, importsAtOnceTotal: 0, exportsPer10Min: 3, rowBatchesPerMinute: 3 };

let t: TestApp;
let ann: Actor;
let bob: Actor;
beforeAll(async () => {
  t = await createTestApp({ userLimits: LIMITS });
  ann = await actor(t, 'ann@example.com');
  bob = await actor(t, 'bob@example.com');
});
afterAll(async () => {
  await t.close();
});

/** Refused by the limit: 429 rate_limited, Retry-After within the window, the same seconds in details. */
function expectLimited(res: LightMyRequestResponse, windowSeconds: number) {
  expect([res.statusCode, errorCode(res)]).toEqual([429, 'rate_limited']);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  // The plugin rounds the milliseconds left up to whole seconds.
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds + 1);
  expect(body(res).errors[0].details).toEqual({ retryAfter });
}

const search = (who: Actor, q = 'отчёт') => api(t, who.cookie, 'GET', `${S}/search/text?q=${encodeURIComponent(JSON.stringify(q))}`);

test('search: sixty at once by one user — only the allowance runs, the rest 429 with Retry-After; another user goes on', async () => {
  const answers = await Promise.all(Array.from({ length: 60 }, () => search(ann)));
  expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(LIMITS.searchPer10s);
  const refused = answers.filter((r) => r.statusCode !== 200);
  expect(refused).toHaveLength(60 - LIMITS.searchPer10s);
  for (const res of refused) expectLimited(res, 10);
  expect((await search(bob)).statusCode).toBe(200);
});

test("the page picker's title search (GET search) has a limit of its own, as many as the full-text search", async () => {
  const dan = await actor(t, 'dan.titles@example.com');
  const titles = () => api(t, dan.cookie, 'GET', `${S}/search?q=${encodeURIComponent(JSON.stringify('отч'))}`);
  const answers = await Promise.all(Array.from({ length: 20 }, titles));
  expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(LIMITS.searchPer10s);
  for (const res of answers.filter((r) => r.statusCode !== 200)) expectLimited(res, 10);
  // Its own bucket: the full-text search still answers.
  expect((await search(dan)).statusCode).toBe(200);
});

test('search: a call refused for another reason (a bad query) does not count', async () => {
  const carl = await actor(t, 'carl@example.com');
  for (let i = 0; i < 10; i++) expect((await api(t, carl.cookie, 'GET', `${S}/search/text?q=%22x%22&limit=0`)).statusCode).toBe(422);
  expect((await search(carl)).statusCode).toBe(200);
});

/** Pages someone made (an import makes one of a single Markdown file). */
async function pagesBy(app: TestApp, who: Actor): Promise<number> {
  return (await app.app.db.selectFrom('pages').select('id').where('created_by', '=', who.id).where('database_id', 'is', null).execute()).length;
}

const importMarkdown = (app: TestApp, who: Actor, text: string) =>
  postImport(app, who.cookie, new TextEncoder().encode(text), { section: 'private' }, 'Заметки.md');

test('import: the rate per 10 minutes, one after another; another user goes on', async () => {
  const erin = await actor(t, 'erin@example.com');
  const before = await pagesBy(t, erin);
  for (let i = 0; i < LIMITS.importsPer10Min; i++) expect((await importMarkdown(t, erin, `# ${i}\n\nтекст`)).statusCode).toBe(201);
  const over = await importMarkdown(t, erin, '# ещё\n\nтекст');
  expectLimited(over, 600);
  expect(Number(over.headers['retry-after'])).toBeGreaterThan(600 - 30);
  expect((await importMarkdown(t, bob, '# Боб\n\nтекст')).statusCode).toBe(201);
  expect(await pagesBy(t, erin)).toBe(before + LIMITS.importsPer10Min);
});

test('import: twenty at once by one user — at most IMPORT_CONCURRENCY run at a time, the others 429 (nothing made for them)', async () => {
  // No rate here, only the cap on imports at once.
  const capped = await createTestApp({ userLimits: { ...LIMITS, importsPer10Min: 0 } });
  try {
    const dora = await actor(capped, 'dora@example.com');
    const before = await pagesBy(capped, dora);
    const big = `# Большая заметка\n\n${'Абзац текста, который надо прочитать и разобрать.\n\n'.repeat(3_000)}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => importMarkdown(capped, dora, big)));
    const made = answers.filter((r) => r.statusCode === 201);
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(made.length).toBeGreaterThanOrEqual(LIMITS.importsAtOnce);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) expectLimited(res, 5);
    expect(await pagesBy(capped, dora)).toBe(before + made.length);
    // Once they are done, the next one runs.
    expect((await importMarkdown(capped, dora, '# ещё\n\nтекст')).statusCode).toBe(201);
  } finally {
    await capped.close();
  }
});

test("import: the process runs at most IMPORT_CONCURRENCY_TOTAL of everybody's at once (each reads in a worker of up to 2 GB); a refusal by a cap does not count against the rate", async () => {
  const capped = await createTestApp({ userLimits: { ...LIMITS, importsAtOnce: 0, importsAtOnceTotal: 1, importsPer10Min: 2 } });
  try {
    const people = await Promise.all(['gus', 'hal', 'ivy', 'jo'].map((name) => actor(capped, `${name}.total@example.com`)));
    const big = `# Большая заметка\n\n${'Абзац текста, который надо прочитать и разобрать.\n\n'.repeat(3_000)}`;
    const answers = await Promise.all(people.map((who) => importMarkdown(capped, who, big)));
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(answers.filter((r) => r.statusCode === 201).length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expectLimited(res, 5);
      expect(body(res).errors[0].message).toMatch(/the server runs 1 of these at once already/);
    }
    // Refused by the cap, the import was not counted: each person still has the whole rate (2) for the next ones.
    const sooner = people[answers.findIndex((r) => r.statusCode !== 201)];
    for (const n of [1, 2]) expect((await importMarkdown(capped, sooner, `# ещё ${n}\n\nтекст`)).statusCode).toBe(201);
    expectLimited(await importMarkdown(capped, sooner, '# лишняя\n\nтекст'), 600);
  } finally {
    await capped.close();
  }
});

test('exports: jobs started and streamed zips count together per user', async () => {
  const fay = await actor(t, 'fay@example.com');
  const page = await createPage(t, fay, { title: 'Отчёт' });
  const job = () => api(t, fay.cookie, 'POST', `${S}/exports`, { pageId: page.id, format: 'markdown' });
  const zip = () => api(t, fay.cookie, 'GET', `${S}/element/${page.id}/export?format=%22markdown%22`);
  expect((await job()).statusCode).toBe(202);
  expect((await zip()).statusCode).toBe(200);
  expect((await job()).statusCode).toBe(202);
  expectLimited(await zip(), 600);
  expectLimited(await job(), 600);
  // Someone who may not read the page is refused for that, not counted.
  const refused = await api(t, bob.cookie, 'GET', `${S}/element/${page.id}/export`);
  expect(refused.statusCode).toBe(403);
  const jobs = await t.app.db.selectFrom('export_jobs').select('id').where('user_id', '=', fay.id).execute();
  expect(jobs).toHaveLength(2);
});

test('row batches (the CSV import writes 1,000 rows a call): ROWS_LIMIT_PER_MINUTE calls a minute, whatever their size', async () => {
  const gus = await actor(t, 'gus@example.com');
  const page = await createPage(t, gus, { title: 'Таблица' });
  const data: DatabaseData = {
    config: {
      fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, note: { name: 'Заметка', type: 'text' } } as unknown as DatabaseData['config']['fields'],
    },
    view: {
      layouts: [
        {
          uid: 'v1',
          type: 'table',
          name: 'Таблица',
          orderedFields: [
            { fieldId: MAIN_FIELD_ID, isWrap: false },
            { fieldId: 'note', isWrap: false },
          ],
        },
      ],
    },
  };
  const database = expectOk<WireBlock>(await api(t, gus.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const batch = (n: number) =>
    api(t, gus.cookie, 'POST', `${S}/database/${database.id}/rows`, { rows: Array.from({ length: n }, (_, i) => ({ title: `Строка ${i}` })) });
  expect((await batch(1_000)).statusCode).toBe(201);
  expect((await batch(1)).statusCode).toBe(201);
  expect((await batch(1_000)).statusCode).toBe(201);
  expectLimited(await batch(1), 60);
  const rows = await t.app.db.selectFrom('pages').select('id').where('database_id', '=', database.id).execute();
  expect(rows.length).toBe(2_001);
});
