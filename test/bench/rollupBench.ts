/**
 * `npm run bench:rollup`: issue 38's speed targets for rollups, on SQLite and PostgreSQL side by
 * side, through a real server process on 127.0.0.1 (test/bench/bigTable.ts: BENCH_ROWS = 50,000
 * tasks × 12 fields made through the API).
 *
 * 1. **Links written**: each task names the next task and the seventh after it (a relation within
 *    the table, written through `POST database/{id}/cells`, 1,000 cells a call); a second database
 *    «Проекты» of BENCH_PROJECTS rows names five tasks each.
 * 2. **A rollup column made**: «Сумма соседей» = the sum of «Цена» over that relation, timed until
 *    every task has its value (in the background, like a formula's).
 * 3. **Windows by a rollup**: 100 tasks sorted and filtered by the rollup at random offsets, beside
 *    the same window by the stored number «Цена», interleaved (target: as fast, ≤ 30 ms p95).
 * 4. **Dependent values for a second viewer**: a socket.io client joined to both pages hears, after
 *    another user writes a task's «Цена», the new rollup of the task naming it (this database)
 *    and of the project naming it (the other database), beside a plain text cell written
 *    (from sending the write to the event; target ≤ 300 ms p95).
 *
 * Prints a table and writes test/bench/results/rollup-<time>.json.
 *   BENCH_ROWS=50000 BENCH_SAMPLES=200 BENCH_DBS=sqlite,postgres npm run bench:rollup
 */
import type { Socket } from 'socket.io-client';
import type { DatabaseEvent } from '../../schema/database';
import { channels, type RealtimeAck } from '../../schema/realtime';
import { jsonQuery } from '../../src/editor/blocks/rowsAddress';
import { connectRealtime, request } from '../helpers/realtimeClient';
import { seeded } from '../helpers/races';
import { fetchJson, signInToProcess } from '../helpers/serverProcess';
import { benchDatabases, figures, S, seedBigTable, startBenchServer, timed, writeResults, type BenchDatabase } from './bigTable';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 200);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const VIEWER_ROUNDS = Number(process.env.BENCH_VIEWER_PAIRS ?? 60);
const DBS = benchDatabases();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RowsAnswer {
  data: Array<{ id: string; versions: Record<string, number>; data: { title: string; values: Record<string, unknown> } }>;
  meta: { count: number; nextCursor?: string | null; computing?: { done: number; total: number } };
}

async function measure(database: BenchDatabase) {
  const { server, stop } = await startBenchServer(database);
  const sockets: Socket[] = [];
  try {
    const cookie = await signInToProcess(server, 'bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows…\n`);
    const tasks = await seedBigTable(server, cookie, ROWS);
    const post = (path: string, body: unknown) =>
      fetchJson<{ data: unknown }>(`${server.url}${S}${path}`, { method: 'POST', cookie, body: JSON.stringify(body) });
    const rowsOf = (databaseId: string, params: Record<string, unknown>) =>
      fetchJson<RowsAnswer>(`${server.url}${S}/database/${databaseId}/rows${jsonQuery(params)}`, { cookie });

    // 1. The links: every task names the next and the seventh after it; projects name five tasks each.
    const ids: string[] = [];
    for (let offset = 0; offset < ROWS; offset += 500) ids.push(...(await rowsOf(tasks.databaseId, { offset, limit: 500 })).data.map((row) => row.id));
    await post(`/database/${tasks.databaseId}/fields`, { id: 'next', field: { name: 'Соседи', type: 'relation' } });
    const linking = performance.now();
    for (let start = 0; start < ids.length; start += 1000) {
      const cells = ids.slice(start, start + 1000).map((rowId, k) => {
        const i = start + k;
        return { rowId, fieldId: 'next', value: [ids[(i + 1) % ids.length], ids[(i + 7) % ids.length]], version: 0 };
      });
      await post(`/database/${tasks.databaseId}/cells`, { cells });
    }
    const linkSeconds = Number(((performance.now() - linking) / 1000).toFixed(1));
    process.stdout.write(`[${database}] ${ids.length} relation cells written in ${linkSeconds} s\n`);
    const holder = (await post('/section/private', { type: 'Database', title: 'Проекты' })) as { data: { id: string } };
    const projectsId = (
      await fetchJson<{ data: Array<{ id: string; type: string }> }>(`${server.url}${S}/note/${holder.data.id}/blocks`, { cookie })
    ).data.find((block) => block.type === 'database')!.id;
    await post(`/database/${projectsId}/fields`, { id: 'tasks', field: { name: 'Задачи', type: 'relation', databaseId: tasks.databaseId } });
    const projectOf = new Map<string, string>();
    for (let start = 0; start < PROJECTS; start += 100) {
      const made = (await post(`/database/${projectsId}/rows`, {
        rows: Array.from({ length: Math.min(100, PROJECTS - start) }, (_, k) => {
          const p = start + k;
          return { title: `Проект ${p}`, values: { tasks: ids.slice(p * 5, p * 5 + 5) } };
        }),
      })) as { data: Array<{ id: string }> };
      made.data.forEach((row, k) => ids.slice((start + k) * 5, (start + k) * 5 + 5).forEach((task) => projectOf.set(task, row.id)));
    }
    await post(`/database/${projectsId}/fields`, {
      id: 'psum',
      field: { name: 'Цена задач', type: 'rollup', relationFieldId: 'tasks', targetFieldId: 'price', calculation: 'sum' },
    });

    // 2. The rollup column made over the tasks.
    const started = performance.now();
    const [addMs] = await timed(() =>
      post(`/database/${tasks.databaseId}/fields`, {
        id: 'nsum',
        field: { name: 'Сумма соседей', type: 'rollup', relationFieldId: 'next', targetFieldId: 'price', calculation: 'sum' },
      }),
    );
    for (;;) {
      if (!(await rowsOf(tasks.databaseId, { limit: 1 })).meta.computing) break;
      await sleep(100);
    }
    const madeSeconds = Number(((performance.now() - started) / 1000).toFixed(2));
    process.stdout.write(`[${database}] rollup column: answered in ${addMs.toFixed(0)} ms, every row computed in ${madeSeconds} s\n`);
    // Checked: a task's rollup is the sum of the prices of the two it names.
    const priceOf = async (id: string) =>
      (await fetchJson<{ data: { data: { values: { price: number } } } }>(`${server.url}${S}/row/${id}`, { cookie })).data.data.values.price;
    for (const i of [0, 1, ids.length - 1]) {
      const row = await fetchJson<{ data: { data: { values: { nsum?: number } } } }>(`${server.url}${S}/row/${ids[i]}`, { cookie });
      const expected = (await priceOf(ids[(i + 1) % ids.length])) + (await priceOf(ids[(i + 7) % ids.length]));
      if (Math.abs((row.data.data.values.nsum ?? NaN) - expected) > 1e-6) throw new Error(`task ${i}: ${String(row.data.data.values.nsum)} ≠ ${expected}`);
    }

    // 3. Windows by the rollup, beside the stored number.
    const byRollup = { sorts: [{ fieldId: 'nsum', direction: 'desc' }], filter: { op: 'and', rules: [{ fieldId: 'nsum', condition: 'gt', value: 500 }] } };
    const byNumber = { sorts: [{ fieldId: 'price', direction: 'desc' }], filter: { op: 'and', rules: [{ fieldId: 'price', condition: 'gt', value: 250 }] } };
    const countRollup = (await rowsOf(tasks.databaseId, { ...byRollup, limit: 1 })).meta.count;
    const countNumber = (await rowsOf(tasks.databaseId, { ...byNumber, limit: 1 })).meta.count;
    for (let i = 0; i < 20; i++) {
      await rowsOf(tasks.databaseId, { ...byRollup, offset: i * 100, limit: 100 });
      await rowsOf(tasks.databaseId, { ...byNumber, offset: i * 100, limit: 100 });
    }
    const random = seeded(38);
    const rollupWindow: number[] = [];
    const numberWindow: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      rollupWindow.push((await timed(() => rowsOf(tasks.databaseId, { ...byRollup, offset: random(Math.max(1, countRollup - 100)), limit: 100 })))[0]);
      numberWindow.push((await timed(() => rowsOf(tasks.databaseId, { ...byNumber, offset: random(Math.max(1, countNumber - 100)), limit: 100 })))[0]);
    }

    // 4. A second viewer, joined to both pages, hears the rollups of a task's price written by another.
    const viewer = await connectRealtime(server.url, { cookie }, { clientId: 'bench-viewer' });
    sockets.push(viewer);
    const me = (await fetchJson<{ data: { id: string } }>(`${server.url}/api/user/current`, { cookie })).data.id;
    for (const pageId of [tasks.pageId, holder.data.id]) {
      const joined = (await request(viewer, 'join', { channel: channels.element(pageId, me) })) as RealtimeAck;
      if (!joined.ok) throw new Error(`join: ${JSON.stringify(joined)}`);
    }
    const waiters = new Map<string, (at: number) => void>();
    viewer.on('database', (event: DatabaseEvent) => {
      if (event.change.kind !== 'cells') return;
      for (const cell of event.change.cells) waiters.get(`${event.change.rowId}/${cell.fieldId}`)?.(performance.now());
    });
    const hear = (rowId: string, fieldId: string) =>
      new Promise<number>((resolve, reject) => {
        const key = `${rowId}/${fieldId}`;
        const timer = setTimeout(() => reject(new Error(`${key}: not heard in 10 s`)), 10_000);
        waiters.set(key, (at) => {
          clearTimeout(timer);
          waiters.delete(key);
          resolve(at);
        });
      });
    const versions = new Map<string, Record<string, number>>();
    const write = async (rowId: string, fieldId: string, value: unknown) => {
      const known =
        versions.get(rowId) ?? (await fetchJson<{ data: { versions: Record<string, number> } }>(`${server.url}${S}/row/${rowId}`, { cookie })).data.versions;
      const answer = await fetchJson<{ data: { version: number } }>(`${server.url}${S}/row/${rowId}/cells/${fieldId}`, {
        method: 'POST',
        cookie,
        headers: { 'x-client-id': 'bench-writer' },
        body: JSON.stringify({ value, version: known[fieldId] ?? 0 }),
      });
      versions.set(rowId, { ...known, [fieldId]: answer.data.version });
    };
    const here: number[] = [];
    const there: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < VIEWER_ROUNDS; i++) {
      // A task a project names (the first PROJECTS × 5), named by the task before it.
      const k = 1 + ((i * 37) % (PROJECTS * 5 - 1));
      const task = ids[k];
      const namer = ids[k - 1];
      const heardHere = hear(namer, 'nsum');
      const heardThere = hear(projectOf.get(task)!, 'psum');
      const sent = performance.now();
      await write(task, 'price', 1000 + i);
      here.push((await heardHere) - sent);
      there.push((await heardThere) - sent);
      const heardPlain = hear(task, 'note');
      const sentPlain = performance.now();
      await write(task, 'note', `заметка ${i}`);
      plain.push((await heardPlain) - sentPlain);
    }
    return {
      database,
      rows: ROWS,
      projects: PROJECTS,
      linkSeconds,
      addAnsweredMs: Number(addMs.toFixed(0)),
      madeSeconds,
      countRollup,
      countNumber,
      rollupWindow: figures(rollupWindow),
      numberWindow: figures(numberWindow),
      viewerHearsHere: figures(here),
      viewerHearsOther: figures(there),
      plainHeard: figures(plain),
    };
  } finally {
    for (const socket of sockets) socket.close();
    await stop();
  }
}

const results = [];
for (const database of DBS) results.push(await measure(database));
process.stdout.write(`\nRollups over ${ROWS} rows (ms unless said; sequential requests on loopback):\n`);
process.stdout.write(
  'database  links s  column made s  window by rollup p50/p95  by «Цена» p50/p95  hears rollup here p50/p95  in «Проекты» p50/p95  plain cell p50/p95\n',
);
for (const r of results) {
  process.stdout.write(
    `${r.database.padEnd(9)} ${String(r.linkSeconds).padEnd(8)} ${String(r.madeSeconds).padEnd(13)} ${`${r.rollupWindow.p50}/${r.rollupWindow.p95}`.padEnd(25)} ${`${r.numberWindow.p50}/${r.numberWindow.p95}`.padEnd(18)} ${`${r.viewerHearsHere.p50}/${r.viewerHearsHere.p95}`.padEnd(26)} ${`${r.viewerHearsOther.p50}/${r.viewerHearsOther.p95}`.padEnd(21)} ${r.plainHeard.p50}/${r.plainHeard.p95}\n`,
  );
}
process.stdout.write('targets: window by rollup ≤ 30 ms p95 (as by a stored number), a dependent rollup heard by a second viewer ≤ 300 ms p95\n');
process.stdout.write(`\nwritten ${writeResults('rollup', results)}\n`);
