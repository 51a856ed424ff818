import type { Socket } from 'socket.io-client';
import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { DatabaseEvent, FormulaProgress, WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { channels } from '../../schema/realtime';
import { collect, connectRealtime, request } from '../../test/helpers/realtimeClient';
import { api, body, createTestApp, expectOk, jsonQueryString as q, signIn, type TestApp } from '../../test/helpers/testApp';
import { claimFormulaJob, CLOCK_SWEEP_MS, holdFormulaWorkers, queueClockJobs, runFormulaJob, untilNextSweep } from '../commands/databases/formulaJobs';

/*
 * A changed formula over a big database, computed in the background (docs/formulas.md «A changed
 * formula over many rows»), on a real server and the project's database: past
 * `formulaInlineRows` rows the field's change answers at once and a job computes the rows in
 * chunks, the views hearing the progress (`computing`, then `reset`) and the rows' answers saying
 * it (`meta.computing`); a job whose formulas change again under way starts over with the new
 * expression; one left by a process that stopped is taken up; a cell written meanwhile keeps its
 * row's values right.
 */

let t: TestApp;
let ann: { cookie: string; id: string };
let baseUrl: string;
const S = '/api/v3/spaces';
const ROWS = 1_200;
const sockets: Socket[] = [];

beforeAll(async () => {
  // Past 100 rows, in the background (the default is 2,000).
  t = await createTestApp({ formulaInlineRows: 100 });
  const cookie = await signIn(t, 'ann.formula-jobs@example.com');
  const me = body<{ id: string }>(await api(t, cookie, 'GET', '/api/user/current')).data;
  ann = { cookie, id: me.id };
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

/** A database of ROWS rows with a price and a quantity (row i: price i, qty 2). */
async function bigShop(rows = ROWS) {
  const page = expectOk<WireElement>(await api(t, ann.cookie, 'POST', `${S}/section/private`, { title: 'Склад' }), 201);
  const fields = {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    price: { name: 'Цена', type: 'number' },
    qty: { name: 'Кол-во', type: 'number' },
  };
  const data: DatabaseData = {
    config: { fields } as unknown as DatabaseData['config'],
    view: { layouts: [{ uid: 'tbl', type: 'table', orderedFields: Object.keys(fields).map((fieldId) => ({ fieldId, isWrap: false })) }] },
  };
  const db = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  for (let start = 0; start < rows; start += 500) {
    const batch = Array.from({ length: Math.min(500, rows - start) }, (_, k) => ({ title: `Товар ${start + k}`, values: { price: start + k, qty: 2 } }));
    expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${db.id}/rows`, { rows: batch }), 201);
  }
  return { db: db.id, page: page.id };
}

const rowsAnswer = async (db: string, query: object = {}) =>
  body<WireRow[]>(await api(t, ann.cookie, 'GET', `${S}/database/${db}/rows?${q({ limit: 100, ...query })}`)) as unknown as {
    data: WireRow[];
    meta: { count: number; computing?: FormulaProgress };
  };

/** Until the database's rows say no formula is being computed. */
async function computed(db: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await rowsAnswer(db, { limit: 1 })).meta.computing) {
    if (Date.now() > until) throw new Error('the formulas were still being computed');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every row's value of `fieldId` against what `expected(price, qty)` says. */
async function expectEveryRow(db: string, fieldId: string, expected: (price: number, qty: number) => unknown): Promise<void> {
  const wrong: string[] = [];
  for (let offset = 0; ; offset += 500) {
    const { data } = await rowsAnswer(db, { offset, limit: 500 });
    for (const row of data) {
      const { price, qty } = row.data.values as { price: number; qty: number };
      if (row.data.values[fieldId] !== expected(price, qty)) wrong.push(`${row.data.title}: ${String(row.data.values[fieldId])}`);
    }
    if (data.length < 500) break;
  }
  expect(wrong.slice(0, 5)).toEqual([]);
}

async function joined(page: string): Promise<DatabaseEvent[]> {
  const socket = await connectRealtime(baseUrl, { cookie: ann.cookie });
  sockets.push(socket);
  const events = collect<DatabaseEvent>(socket, 'database');
  const answer = await request(socket, 'join', { channel: channels.element(page, ann.id) });
  expect(answer.ok).toBe(true);
  return events;
}

test('a formula added to a big database answers at once; its column is computed in the background, the views hearing how far', async () => {
  const { db, page } = await bigShop();
  const events = await joined(page);
  const started = Date.now();
  const answer = await api(t, ann.cookie, 'POST', `${S}/database/${db}/fields`, {
    id: 'total',
    field: { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' },
  });
  expectOk(answer);
  const answeredMs = Date.now() - started;
  await computed(db);
  await expectEveryRow(db, 'total', (price, qty) => price * qty);
  // Sorted and filtered by the values computed in the background, as by any field.
  const top = await rowsAnswer(db, {
    sorts: [{ fieldId: 'total', direction: 'desc' }],
    filter: { op: 'and', rules: [{ fieldId: 'total', condition: 'lt', value: 100 }] },
  });
  expect(top.meta.count).toBe(50);
  expect(top.data[0].data.values.total).toBe(98);
  // The views heard: the job queued (0 of ROWS), then maybe some progress, then a reset once the rows were all in.
  await waitFor(() => events.some((e) => e.change.kind === 'reset'));
  const kinds = events.map((e) => e.change.kind);
  const first = events.find((e) => e.change.kind === 'computing')!.change as FormulaProgress & { kind: 'computing' };
  expect(first).toEqual({ kind: 'computing', fieldIds: ['total'], done: 0, total: ROWS });
  expect(kinds.indexOf('computing')).toBeLessThan(kinds.lastIndexOf('reset'));
  for (const e of events) if (e.change.kind === 'computing') expect(e.change.done).toBeLessThanOrEqual(ROWS);
  expect(answeredMs).toBeLessThan(10_000);
  expect(await t.app.db.selectFrom('formula_jobs').selectAll().where('database_id', '=', db).execute()).toEqual([]);
});

test('the rows say how far the computation is while it runs (meta.computing), and nothing once it is done', async () => {
  const { db } = await bigShop(300);
  // The job queued by the change waits while the workers are held.
  const worker = holdFormulaWorkers();
  try {
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${db}/fields`, { id: 'total', field: { name: 'Сумма', type: 'formula', expression: 'prop("qty") + 1' } }),
    );
    expect((await rowsAnswer(db, { limit: 1 })).meta.computing).toEqual({ fieldIds: ['total'], done: 0, total: 300 });
  } finally {
    worker();
  }
  await computed(db);
  expect((await rowsAnswer(db, { limit: 1 })).meta.computing).toBeUndefined();
  await expectEveryRow(db, 'total', (_price, qty) => qty + 1);
});

test('a formula changed again while its job runs: the job starts over and every row ends with the newest expression', async () => {
  const { db } = await bigShop();
  const worker = holdFormulaWorkers();
  try {
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${db}/fields`, {
        id: 'total',
        field: { name: 'Сумма', type: 'formula', expression: 'prop("price") + 1' },
      }),
    );
    const job = await claimFormulaJob(t.app.db);
    expect(job?.database_id).toBe(db);
    let chunks = 0;
    await runFormulaJob(t.app.db, job!, async (events) => {
      // After the first chunk (500 rows computed with «+ 1»), the expression changes.
      if (events.some((e) => e.kind === 'cellsWritten') && ++chunks === 1) {
        expectOk(
          await api(t, ann.cookie, 'POST', `${S}/database/${db}/fields/total`, { field: { name: 'Сумма', type: 'formula', expression: 'prop("price") + 2' } }),
        );
      }
    });
    expect(chunks).toBeGreaterThan(3); // 3 chunks, then 3 again from the start
  } finally {
    worker();
  }
  await computed(db);
  await expectEveryRow(db, 'total', (price) => price + 2);
});

test('a job left by a process that stopped (its heartbeat old) is taken up by a worker', async () => {
  const { db } = await bigShop(300);
  const worker = holdFormulaWorkers();
  try {
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${db}/fields`, {
        id: 'total',
        field: { name: 'Сумма', type: 'formula', expression: 'prop("price") * 3' },
      }),
    );
    // Taken by a process that then stopped beating a minute ago.
    await t.app.db
      .updateTable('formula_jobs')
      .set({ heartbeat_at: new Date(Date.now() - 60_000).toISOString() })
      .where('database_id', '=', db)
      .execute();
  } finally {
    worker();
  }
  await computed(db);
  await expectEveryRow(db, 'total', (price) => price * 3);
});

test('a cell written while the job runs keeps its row right: the row computed from what it holds now', async () => {
  const { db } = await bigShop();
  const worker = holdFormulaWorkers();
  const rows = [...(await rowsAnswer(db, { limit: 500 })).data, ...(await rowsAnswer(db, { offset: 500, limit: 500 })).data];
  try {
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${db}/fields`, {
        id: 'total',
        field: { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' },
      }),
    );
    const job = await claimFormulaJob(t.app.db);
    let writes = 0;
    await runFormulaJob(t.app.db, job!, async (events) => {
      if (!events.some((e) => e.kind === 'cellsWritten')) return;
      // Between chunks: a quantity written in a row done already and in one not reached yet.
      for (const row of [rows[writes * 7], rows[rows.length - 1 - writes * 7]]) {
        const cell = expectOk<{ version: number }>(
          await api(t, ann.cookie, 'POST', `${S}/row/${row.id}/cells/qty`, { value: 10 + writes, version: row.versions.qty }),
        );
        row.versions.qty = cell.version;
      }
      writes++;
    });
    expect(writes).toBeGreaterThan(0);
  } finally {
    worker();
  }
  await computed(db);
  await expectEveryRow(db, 'total', (price, qty) => price * qty);
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('not in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('now() and today() kept current (the clock sweep)', () => {
  /** A database whose «Сейчас» is now() and «Итого» reads it, and one with no clock in its formulas. */
  async function clocked() {
    const { db } = await bigShop(150);
    expectOk(await api(t, ann.cookie, 'POST', `${S}/database/${db}/fields`, { id: 'now', field: { name: 'Сейчас', type: 'formula', expression: 'now()' } }));
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${db}/fields`, { id: 'year', field: { name: 'Год', type: 'formula', expression: 'year(prop("now"))' } }),
    );
    await computed(db);
    const plain = await bigShop(10);
    expectOk(
      await api(t, ann.cookie, 'POST', `${S}/database/${plain.db}/fields`, {
        id: 'total',
        field: { name: 'Сумма', type: 'formula', expression: 'prop("price") + 1' },
      }),
    );
    return { db, plain: plain.db };
  }
  const moments = async (db: string) =>
    (await rowsAnswer(db, { limit: 500 })).data.map((row) => (row.data.values.now as { start: string } | string | null) ?? null);

  test('a sweep queues the databases whose formulas read the clock (not the others), quietly; their values move on', async () => {
    const { db, plain } = await clocked();
    const before = await moments(db);
    expect(before.every((m) => m !== null)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const release = holdFormulaWorkers();
    let queued: string[];
    try {
      await queueClockJobs(t.app.db);
      queued = (await t.app.db.selectFrom('formula_jobs').select(['database_id', 'reason']).execute()).map((j) => `${j.database_id}:${j.reason}`);
      // Quiet: the views show no progress for it.
      expect((await rowsAnswer(db, { limit: 1 })).meta.computing).toBeUndefined();
    } finally {
      release();
    }
    expect(queued).toContain(`${db}:clock`);
    expect(queued.some((q) => q.startsWith(plain))).toBe(false);
    await waitForAsync(async () => (await t.app.db.selectFrom('formula_jobs').selectAll().where('database_id', '=', db).execute()).length === 0);
    const after = await moments(db);
    expect(after).toHaveLength(before.length);
    expect(after.every((m, i) => JSON.stringify(m) !== JSON.stringify(before[i]))).toBe(true);
    // Formulas of formulas follow: the year of now.
    const { data } = await rowsAnswer(db, { limit: 1 });
    expect(data[0].data.values.year).toBe(Number(new Intl.DateTimeFormat('en', { timeZone: 'Europe/Moscow', year: 'numeric' }).format(new Date())));
  });

  test('a sweep while the database has a job already queues nothing more (two processes sweeping at once)', async () => {
    const { db } = await clocked();
    const release = holdFormulaWorkers();
    try {
      await queueClockJobs(t.app.db);
      const first = await t.app.db.selectFrom('formula_jobs').selectAll().where('database_id', '=', db).executeTakeFirstOrThrow();
      await queueClockJobs(t.app.db);
      const second = await t.app.db.selectFrom('formula_jobs').selectAll().where('database_id', '=', db).executeTakeFirstOrThrow();
      expect(second.token).toBe(first.token);
    } finally {
      release();
    }
    await waitForAsync(async () => (await t.app.db.selectFrom('formula_jobs').selectAll().where('database_id', '=', db).execute()).length === 0);
  });
});

test('the sweep runs at every half hour of the clock (and a moment after)', () => {
  const at = (iso: string) => untilNextSweep(Date.parse(iso));
  expect(at('2026-12-04T21:00:00.000Z')).toBe(30 * 60_000 + 2_000);
  expect(at('2026-12-04T20:59:59.000Z')).toBe(1_000 + 2_000);
  expect(at('2026-12-04T21:15:00.000Z')).toBe(15 * 60_000 + 2_000);
  expect(CLOCK_SWEEP_MS).toBe(30 * 60_000);
});

async function waitForAsync(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('not in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
