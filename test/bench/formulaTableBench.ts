/**
 * `npm run bench:formula-table`: issue 38's speed targets for formula fields, on SQLite and
 * PostgreSQL side by side, through a real server process on 127.0.0.1 (test/bench/bigTable.ts:
 * BENCH_ROWS = 50,000 rows × 12 fields made through the API).
 *
 * 1. **A formula column made**: the field `prop("Цена") * prop("Количество")` (by ids on the wire) added, timed until
 *    every row has its value (the rows' `meta.computing` gone; target ≤ 10 s on SQLite).
 * 2. **Windows by a formula**: 100 rows sorted by the formula and filtered by it, at random
 *    offsets, beside the same window sorted and filtered by the stored number field «Цена»,
 *    interleaved in one loop (target: as fast as the stored field, ≤ 30 ms p95).
 * 3. **A dependent value for a second viewer**: a socket.io client joined to the page hears the
 *    formula's new value of a row whose «Количество» another user wrote (from sending the write
 *    to the event; target ≤ 300 ms p95), beside the same for a plain text cell written.
 * 4. **A changed expression**: the formula changed to `prop("Цена") * 2 + prop("Количество")`,
 *    timed until every row has its new value, with windows of the view sorted and filtered by the
 *    formula read meanwhile every 2 s, as a view reads again on the job's progress (the view usable).
 *
 * Prints a table and writes test/bench/results/formula-table-<time>.json.
 *   BENCH_ROWS=50000 BENCH_SAMPLES=200 BENCH_DBS=sqlite,postgres npm run bench:formula-table
 */
import type { Socket } from 'socket.io-client';
import { channels, type RealtimeAck } from '../../schema/realtime';
import { jsonQuery } from '../../src/editor/blocks/rowsAddress';
import type { DatabaseEvent } from '../../schema/database';
import { connectRealtime, request } from '../helpers/realtimeClient';
import { fetchJson, signInToProcess } from '../helpers/serverProcess';
import { seeded } from '../helpers/races';
import { benchDatabases, figures, S, seedBigTable, startBenchServer, timed, writeResults, type BenchDatabase } from './bigTable';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const VIEWER_PAIRS = Number(process.env.BENCH_VIEWER_PAIRS ?? 60);
const DBS = benchDatabases();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RowsAnswer {
  data: Array<{ id: string; versions: Record<string, number>; data: { values: Record<string, unknown> } }>;
  meta: { count: number; computing?: { done: number; total: number } };
}

async function measure(database: BenchDatabase) {
  const { server, stop } = await startBenchServer(database);
  const sockets: Socket[] = [];
  try {
    const cookie = await signInToProcess(server, 'bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows…\n`);
    const { databaseId, pageId } = await seedBigTable(server, cookie, ROWS);
    const rows = (params: Record<string, unknown>) => fetchJson<RowsAnswer>(`${server.url}${S}/database/${databaseId}/rows${jsonQuery(params)}`, { cookie });
    /** Until no formula of the database is being computed; answers the ms from `started` and the windows read meanwhile. */
    const computed = async (started: number, view: Record<string, unknown>) => {
      const meanwhile: number[] = [];
      let progress = 0;
      for (;;) {
        const [ms, answer] = await timed(() => rows({ ...view, offset: 0, limit: 100 }));
        if (!answer.meta.computing) return { seconds: Number(((performance.now() - started) / 1000).toFixed(2)), meanwhile, progress };
        meanwhile.push(ms);
        progress++;
        // The end is told at once (the views hear a reset): a light look (one row, unsorted) every 100 ms between reads says when.
        for (let waited = 0; waited < 2_000; waited += 100) {
          await sleep(100);
          if (!(await rows({ limit: 1 })).meta.computing) return { seconds: Number(((performance.now() - started) / 1000).toFixed(2)), meanwhile, progress };
        }
      }
    };

    // 1. The formula column made.
    const started = performance.now();
    const [addMs] = await timed(() =>
      fetchJson(`${server.url}${S}/database/${databaseId}/fields`, {
        method: 'POST',
        cookie,
        body: JSON.stringify({ id: 'total', field: { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' } }),
      }),
    );
    const made = await computed(started, { sorts: [{ fieldId: 'total', direction: 'desc' }] });
    process.stdout.write(`[${database}] formula column: answered in ${addMs.toFixed(0)} ms, every row computed in ${made.seconds} s\n`);

    // 2. Windows sorted and filtered by the formula, beside the stored number field.
    const byFormula = {
      sorts: [{ fieldId: 'total', direction: 'desc' }],
      filter: { op: 'and', rules: [{ fieldId: 'total', condition: 'gt', value: 50_000 }] },
    };
    const byNumber = { sorts: [{ fieldId: 'price', direction: 'desc' }], filter: { op: 'and', rules: [{ fieldId: 'price', condition: 'gt', value: 100 }] } };
    const countFormula = (await rows({ ...byFormula, limit: 1 })).meta.count;
    const countNumber = (await rows({ ...byNumber, limit: 1 })).meta.count;
    for (let i = 0; i < 20; i++) {
      await rows({ ...byFormula, offset: i * 100, limit: 100 });
      await rows({ ...byNumber, offset: i * 100, limit: 100 });
    }
    const random = seeded(38);
    const formulaWindow: number[] = [];
    const numberWindow: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      formulaWindow.push((await timed(() => rows({ ...byFormula, offset: random(Math.max(1, countFormula - 100)), limit: 100 })))[0]);
      numberWindow.push((await timed(() => rows({ ...byNumber, offset: random(Math.max(1, countNumber - 100)), limit: 100 })))[0]);
    }

    // 3. A second viewer hears a dependent value: one writes «Количество», the other hears «Сумма».
    const viewer = await connectRealtime(server.url, { cookie }, { clientId: 'bench-viewer' });
    sockets.push(viewer);
    const joined = (await request(viewer, 'join', { channel: channels.element(pageId, (await me(server.url, cookie)).id) })) as RealtimeAck;
    if (!joined.ok) throw new Error(`join: ${JSON.stringify(joined)}`);
    const waiters = new Map<string, (at: number) => void>();
    viewer.on('database', (event: DatabaseEvent) => {
      if (event.change.kind !== 'cells') return;
      for (const cell of event.change.cells) waiters.get(`${event.change.rowId}/${cell.fieldId}`)?.(performance.now());
    });
    const sample = (await rows({ limit: 100 })).data;
    const heard = async (row: RowsAnswer['data'][number], write: string, value: unknown, hear: string) => {
      const key = `${row.id}/${hear}`;
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${key}: not heard in 10 s`)), 10_000);
        waiters.set(key, (at) => {
          clearTimeout(timer);
          waiters.delete(key);
          resolve(at);
        });
      });
      const sent = performance.now();
      const answer = await fetchJson<{ data: { version: number } }>(`${server.url}${S}/row/${row.id}/cells/${write}`, {
        method: 'POST',
        cookie,
        headers: { 'x-client-id': 'bench-writer' },
        body: JSON.stringify({ value, version: row.versions[write] ?? 0 }),
      });
      row.versions[write] = answer.data.version;
      return (await arrived) - sent;
    };
    const dependent: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < VIEWER_PAIRS; i++) {
      const row = sample[i % sample.length];
      dependent.push(await heard(row, 'qty', 1000 + i, 'total'));
      plain.push(await heard(row, 'note', `заметка ${i}`, 'note'));
    }

    // 4. A changed expression, windows read meanwhile.
    const again = performance.now();
    const [changeMs] = await timed(() =>
      fetchJson(`${server.url}${S}/database/${databaseId}/fields/total`, {
        method: 'POST',
        cookie,
        body: JSON.stringify({ field: { name: 'Сумма', type: 'formula', expression: 'prop("price") * 2 + prop("qty")' } }),
      }),
    );
    const changed = await computed(again, byFormula);
    const check = (await rows({ limit: 5 })).data;
    for (const row of check) {
      const { values } = row.data;
      const expected = (values.price as number) * 2 + (values.qty as number);
      if (Math.abs((values.total as number) - expected) > 1e-6) throw new Error(`row ${row.id}: ${String(values.total)} ≠ ${expected}`);
    }
    // What the server logged of its jobs: where their time went (the line follows the job's end by a moment).
    for (let i = 0; i < 40 && server.log().split('"formulas computed"').length - 1 < 2; i++) await sleep(50);
    const jobs = server
      .log()
      .split('\n')
      .filter((line) => line.includes('"formulas computed"'))
      .flatMap((line) => {
        try {
          const { rows, chunks, startedOver, chunkMs, computeMs, pauseMs, tellMs, ms } = JSON.parse(line) as Record<string, number>;
          return [{ rows, chunks, startedOver, chunkMs, computeMs, pauseMs, tellMs, ms }];
        } catch {
          return [];
        }
      });
    for (const job of jobs) process.stdout.write(`[${database}] job: ${JSON.stringify(job)}\n`);
    return {
      database,
      rows: ROWS,
      jobs,
      addAnsweredMs: Number(addMs.toFixed(0)),
      madeSeconds: made.seconds,
      countFormula,
      countNumber,
      formulaWindow: figures(formulaWindow),
      numberWindow: figures(numberWindow),
      dependentHeard: figures(dependent),
      plainHeard: figures(plain),
      changeAnsweredMs: Number(changeMs.toFixed(0)),
      changedSeconds: changed.seconds,
      windowsMeanwhile: changed.meanwhile.length > 0 ? figures(changed.meanwhile) : null,
    };
  } finally {
    for (const socket of sockets) socket.close();
    await stop();
  }
}

async function me(url: string, cookie: string): Promise<{ id: string }> {
  return (await fetchJson<{ data: { id: string } }>(`${url}/api/user/current`, { cookie })).data;
}

const results = [];
for (const database of DBS) results.push(await measure(database));
process.stdout.write(`\nFormula fields over ${ROWS} rows (ms unless said; sequential requests on loopback):\n`);
process.stdout.write(
  'database  column made s  window by formula p50/p95  by «Цена» p50/p95  viewer hears formula p50/p95  plain cell p50/p95  changed expression s  windows meanwhile p50/p95\n',
);
for (const r of results) {
  process.stdout.write(
    `${r.database.padEnd(9)} ${String(r.madeSeconds).padEnd(13)} ${`${r.formulaWindow.p50}/${r.formulaWindow.p95}`.padEnd(26)} ${`${r.numberWindow.p50}/${r.numberWindow.p95}`.padEnd(18)} ${`${r.dependentHeard.p50}/${r.dependentHeard.p95}`.padEnd(29)} ${`${r.plainHeard.p50}/${r.plainHeard.p95}`.padEnd(19)} ${String(r.changedSeconds).padEnd(21)} ${r.windowsMeanwhile ? `${r.windowsMeanwhile.p50}/${r.windowsMeanwhile.p95}` : '—'}\n`,
  );
}
process.stdout.write('targets: column made and changed ≤ 10 s (SQLite), window by formula ≤ 30 ms p95 (as by a stored number), viewer ≤ 300 ms p95\n');
process.stdout.write(`\nwritten ${writeResults('formula-table', results)}\n`);
