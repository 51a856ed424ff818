import { MAIN_FIELD_ID, type DatabaseData } from '../../../../schema/blocks/database';
import { ROWS_PER_REQUEST } from '../../../../schema/database';
import { existingTargets, sendRows, type ImportProgress } from './importCsv';

/**
 * The CSV import writes its rows in batches of ROWS_PER_REQUEST; a batch refused by the server's
 * request limit (429 rate_limited with the seconds to wait, docs/security.md «Request limits») is
 * sent again after that wait, so a big import is slowed, never stopped half-way.
 */

const data = {
  config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } },
  view: { layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
} as unknown as DatabaseData;
const database = { id: 'db1', data };
const plan = (n: number) => ({ rows: Array.from({ length: n }, (_, i) => [`Строка ${i}`]), names: ['Название'], firstLine: 2 });

let posted: number[];
let refusals: Array<{ status: number; body: unknown }>;
beforeEach(() => {
  posted = [];
  refusals = [];
  globalThis.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const refusal = refusals.shift();
    if (refusal) return { ok: false, status: refusal.status, json: async () => refusal.body } as Response;
    posted.push((JSON.parse(String(init?.body)) as { rows: unknown[] }).rows.length);
    return { ok: true, status: 201, json: async () => ({ data: [], meta: {} }) } as Response;
  }) as typeof fetch;
});

const limited = (retryAfter: number) => ({ status: 429, body: { data: null, errors: [{ code: 'rate_limited', message: '', details: { retryAfter } }] } });

it('a batch refused by the limit is sent again after Retry-After; every row arrives once, the wait is shown', async () => {
  refusals = [limited(1)];
  const progress: ImportProgress[] = [];
  const started = Date.now();
  const result = await sendRows(database, plan(ROWS_PER_REQUEST + 5), existingTargets(database, [MAIN_FIELD_ID]), {
    pageId: 'p1',
    onProgress: (p) => progress.push(p),
    columnName: () => 'Название',
  });
  expect(result.failed).toBeUndefined();
  expect(result.imported).toBe(ROWS_PER_REQUEST + 5);
  expect(posted).toEqual([ROWS_PER_REQUEST, 5]);
  expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  expect(progress[0]).toEqual({ stage: 'rows', done: 0, total: ROWS_PER_REQUEST + 5, waitSeconds: 1 });
});

it('another failure, or a wait too long to sit out, stops the import as before', async () => {
  refusals = [{ status: 403, body: { data: null, errors: [{ code: 'forbidden', message: '' }] } }];
  const refused = await sendRows(database, plan(3), existingTargets(database, [MAIN_FIELD_ID]), { pageId: 'p1', columnName: () => '' });
  expect([refused.imported, posted]).toEqual([0, []]);
  expect(refused.failed).toBeTruthy();
  refusals = [limited(3600)];
  const tooLong = await sendRows(database, plan(3), existingTargets(database, [MAIN_FIELD_ID]), { pageId: 'p1', columnName: () => '' });
  expect([tooLong.imported, posted]).toEqual([0, []]);
});

it('stopping while it waits ends the import at once', async () => {
  refusals = [limited(30)];
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const started = Date.now();
  const result = await sendRows(database, plan(3), existingTargets(database, [MAIN_FIELD_ID]), {
    pageId: 'p1',
    signal: controller.signal,
    columnName: () => '',
  });
  expect(Date.now() - started).toBeLessThan(5_000);
  expect([result.imported, result.cancelled, result.failed]).toEqual([0, true, undefined]);
  expect(posted).toEqual([]);
});
