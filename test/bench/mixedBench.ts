/**
 * `npm run bench:mixed` (issue 34, «Windows under writes»): the server under a mixed load, in its
 * own process as `npm start` runs it (test/bench/bigTable.ts `startBenchServer`), on SQLite and
 * PostgreSQL in turn (BENCH_DBS); the load generator is this one process.
 *
 * Seed: a table of BENCH_ROWS (20,000) rows × 12 fields (bigTable's seeding) in a Database page,
 * its Table view sorted by a number (price, descending) and filtered by a select (stage ≠ c); the
 * search indexer is waited out before anything is measured (its backlog and the wait are
 * reported); then TYPISTS (40) document pages of BLOCKS_PER_PAGE paragraphs each.
 *
 * Load, open-loop (each actor on its own clock; a tick that finds its actor still waiting is
 * counted as skipped, not queued):
 * - READERS (10) table readers, each reading a window of 100 rows of the sorted, filtered view at
 *   a random offset every second;
 * - WRITERS (5) cell writers, each WRITE_RATE (2) cells a second in 20 rows of its own, in turn
 *   the sort field (price), the filter field (stage, «c» included so rows leave and enter the
 *   view), and two others (qty, note), each with the cell's current version;
 * - TYPISTS (40) people typing, each updating a paragraph of their own page (POST block/{id},
 *   the block's current version, an X-Client-Id of their own) TYPE_RATE (1.25) times a second:
 *   ~50 updates/s in all;
 * - VIEWED_PAGES (5) of those pages watched by VIEWERS_PER_PAGE (2) socket.io clients each (the
 *   `element` channel): every update answered 200 on them must reach each of their viewers once;
 * - a probe: GET /version (the server has no health or metrics route) every 200 ms, whose
 *   latency is the event loop's delay plus a trivial request.
 * Two phases, each WARMUP s (10, not counted) then SECONDS s (60): «without table readers» (the
 * baseline the issue compares with), then «mixed» (everything); BENCH_REPS (1) repetitions of
 * both, the order rotating each repetition.
 *
 * Reported per phase: document-update latency p50/p95/p99 and throughput, window and cell-write
 * latency p50/p95, errors and conflicts, skipped ticks, the probe's p50/p95/p99, the server
 * process's CPU (/proc/<pid>/stat, % of one core), PostgreSQL's processes' CPU (this process's
 * descendants but the server), this load generator's CPU (process.cpuUsage)
 * and the CPU every other process on the machine used meanwhile (cores), and the share of the time
 * some task waited for CPU or for I/O (/proc/pressure). Nothing lost: at the end
 * the sum of the block versions on the server equals the seeded versions plus every update
 * answered 200, every acknowledged cell value (and version) is the row's, and every delivery came.
 * Target: document-update p95 ≤ 250 ms with nothing lost. Exits 1 when something was lost.
 * Prints a table and writes test/bench/results/mixed-<time>.json.
 *   BENCH_ROWS=20000 BENCH_SECONDS=60 BENCH_WARMUP=10 BENCH_DBS=sqlite,postgres npm run bench:mixed
 * BENCH_READERS, BENCH_WRITERS, BENCH_WRITE_RATE, BENCH_TYPISTS, BENCH_TYPE_RATE change the load;
 * BENCH_CPU_PROF=<dir> runs the server with --cpu-prof (a .cpuprofile per thread in <dir>/<database>).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { channels, CLIENT_ID_HEADER, type ElementEdit } from '../../schema/realtime';
import { connectRealtime, request } from '../helpers/realtimeClient';
import { seeded } from '../helpers/races';
import { fetchJson, signInToProcess, type ServerProcess } from '../helpers/serverProcess';
import { benchDatabases, percentile, S, seedBigTable, startBenchServer, writeResults, type BenchDatabase } from './bigTable';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const REPS = Number(process.env.BENCH_REPS ?? 1);
const READERS = Number(process.env.BENCH_READERS ?? 10);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 5);
const WRITE_RATE = Number(process.env.BENCH_WRITE_RATE ?? 2);
const TYPISTS = Number(process.env.BENCH_TYPISTS ?? 40);
const TYPE_RATE = Number(process.env.BENCH_TYPE_RATE ?? 1.25);
const BLOCKS_PER_PAGE = 5;
const ROWS_PER_WRITER = 20;
const VIEWED_PAGES = Math.min(5, TYPISTS);
const VIEWERS_PER_PAGE = 2;
const PROBE_MS = 200;
/** How long the search indexer may take to catch up with the seeding before measuring anyway (reported). */
const INDEX_WAIT_S = Number(process.env.BENCH_INDEX_WAIT ?? 600);
const TARGET_UPDATE_P95_MS = 250;
const CLK_TCK = 100;
const EMAIL = 'mixed-bench@example.com';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);
const pct = (values: number[]) => ({
  n: values.length,
  p50: round(percentile(values, 50)),
  p95: round(percentile(values, 95)),
  p99: round(percentile(values, 99)),
});

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/**
 * CPU of the database's processes, in ms: every process descended from this one but the server
 * (PostgreSQL's postmaster and its backends, with the children they reaped; none on SQLite).
 */
function databaseCpuMs(serverPid: number): number {
  const stats = new Map<number, string[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.set(Number(entry), fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' '));
    } catch {
      // gone meanwhile
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, fields] of stats) {
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  let total = 0;
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (child === serverPid) continue;
      const fields = stats.get(child)!;
      total += ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / CLK_TCK;
      walk(child);
    }
  };
  walk(process.pid);
  return total;
}

/** Pressure stall totals (µs some task waited for CPU / for I/O: /proc/pressure), when the kernel has PSI. */
function pressure(): { cpu: number; io: number } {
  const some = (kind: string) => {
    try {
      return Number(/some .*total=(\d+)/.exec(fs.readFileSync(`/proc/pressure/${kind}`, 'utf8'))?.[1] ?? NaN);
    } catch {
      return NaN;
    }
  };
  return { cpu: some('cpu'), io: some('io') };
}

/** Busy jiffies of the whole machine (/proc/stat). */
function machineBusyMs(): number {
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const values = fields.map(Number);
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
  return ((total - values[3] - values[4]) * 1000) / CLK_TCK;
}

const q = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

/** A request's outcome: its time, and its status (0: no answer). */
async function call(url: string, init: RequestInit & { cookie?: string }): Promise<{ ms: number; status: number; body: string }> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (init.cookie) headers.cookie = init.cookie;
  if (typeof init.body === 'string') headers['content-type'] = 'application/json';
  const start = performance.now();
  try {
    const res = await fetch(url, { ...init, headers });
    const body = await res.text();
    return { ms: performance.now() - start, status: res.status, body };
  } catch (error) {
    return { ms: performance.now() - start, status: 0, body: String(error) };
  }
}

/** A page with `count` paragraphs, made through the real API. */
async function makePage(server: ServerProcess, cookie: string, title: string, count: number): Promise<{ pageId: string; blockIds: string[] }> {
  const page = await fetchJson<{ data: { id: string } }>(`${server.url}${S}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title }) });
  const blockIds: string[] = [];
  let previous: string | null = null;
  for (let i = 0; i < count; i++) {
    const created: { data: { id: string } } = await fetchJson(`${server.url}${S}/block`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ pageId: page.data.id, type: 'text', placeAfter: previous, data: { tokens: [{ text: `Строка ${i}` }] } }),
    });
    previous = created.data.id;
    blockIds.push(created.data.id);
  }
  return { pageId: page.data.id, blockIds };
}

/** Every `everyMs` (from a random phase) while `running()`: `tick()` unless the previous one is still waiting (then counted as skipped). */
function actor(everyMs: number, random: () => number, running: () => boolean, tick: () => Promise<void>): { done: Promise<void>; skipped: () => number } {
  let skipped = 0;
  let busy: Promise<void> | null = null;
  const done = (async () => {
    let next = performance.now() + random() * everyMs;
    while (running()) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      if (!running()) break;
      next += everyMs;
      if (busy) {
        skipped += 1;
        continue;
      }
      busy = tick().finally(() => (busy = null));
    }
    await busy;
  })();
  return { done, skipped: () => skipped };
}

interface PhaseSamples {
  updates: number[];
  updateErrors: number;
  updateConflicts: number;
  windows: number[];
  windowErrors: number;
  cells: number[];
  cellErrors: number;
  cellConflicts: number;
  probes: number[];
  probeErrors: number;
}

const emptySamples = (): PhaseSamples => ({
  updates: [],
  updateErrors: 0,
  updateConflicts: 0,
  windows: [],
  windowErrors: 0,
  cells: [],
  cellErrors: 0,
  cellConflicts: 0,
  probes: [],
  probeErrors: 0,
});

async function measure(database: BenchDatabase) {
  const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF, database) : null;
  const { server, stop, searchQueue } = await startBenchServer(database, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
  const sockets: Socket[] = [];
  try {
    const cookie = await signInToProcess(server, EMAIL);
    const userId = (await fetchJson<{ data: { id: string } }>(`${server.url}/api/user/current`, { cookie })).data.id;
    process.stdout.write(`[${database}] seeding ${ROWS} rows…\n`);
    const seedStarted = performance.now();
    const { databaseId, viewId } = await seedBigTable(server, cookie, ROWS, 'mixed bench');
    const seedSeconds = round((performance.now() - seedStarted) / 1000);
    // The seeding queued every row for the search index: waited out, so it falls into no phase.
    const indexStarted = performance.now();
    const searchBacklogAfterSeed = await searchQueue();
    let searchBacklog = searchBacklogAfterSeed;
    while (searchBacklog > 0 && performance.now() - indexStarted < INDEX_WAIT_S * 1000) {
      await sleep(1000);
      searchBacklog = await searchQueue();
    }
    const indexWaitSeconds = round((performance.now() - indexStarted) / 1000);
    process.stdout.write(`[${database}] seeded in ${seedSeconds} s; search backlog ${searchBacklogAfterSeed} → ${searchBacklog} after ${indexWaitSeconds} s\n`);

    const view = { filter: { op: 'and', rules: [{ fieldId: 'stage', condition: 'isNot', value: 'c' }] }, sorts: [{ fieldId: 'price', direction: 'desc' }] };
    await fetchJson(`${server.url}${S}/database/${databaseId}/views/${viewId}`, { method: 'POST', cookie, body: JSON.stringify({ layout: view }) });
    const rowsUrl = (params: Record<string, unknown>) => `${server.url}${S}/database/${databaseId}/rows?${q(params)}`;
    type Row = { id: string; data: { values: Record<string, unknown> }; versions: Record<string, number> };
    const first = await fetchJson<{ data: Row[]; meta: { count: number } }>(rowsUrl({ ...view, limit: 100 }), { cookie });
    const viewCount = first.meta.count;
    // The writers' rows: WRITERS × ROWS_PER_WRITER rows spread over the table (unsorted windows), each writer its own.
    const writerRows: Row[][] = [];
    for (let w = 0; w < WRITERS; w++) {
      const offset = Math.floor(((w + 0.5) * ROWS) / WRITERS);
      writerRows.push((await fetchJson<{ data: Row[] }>(rowsUrl({ offset, limit: ROWS_PER_WRITER }), { cookie })).data);
    }
    const cellVersions = new Map<string, number>(); // `${rowId}/${fieldId}` → version
    const acknowledged = new Map<string, unknown>(); // `${rowId}/${fieldId}` → the last value answered 200
    for (const row of writerRows.flat()) for (const [fieldId, version] of Object.entries(row.versions)) cellVersions.set(`${row.id}/${fieldId}`, version);

    process.stdout.write(`[${database}] ${TYPISTS} pages of ${BLOCKS_PER_PAGE} paragraphs…\n`);
    const pages: Array<{ pageId: string; blockIds: string[] }> = [];
    for (let i = 0; i < TYPISTS; i++) pages.push(await makePage(server, cookie, `страница ${i}`, BLOCKS_PER_PAGE));
    const blockVersions = new Map<string, number>(pages.flatMap((p) => p.blockIds.map((id) => [id, 1] as const)));
    const seededVersionSum = [...blockVersions.values()].reduce((a, b) => a + b, 0);

    // Socket.io viewers on a few pages: each update answered 200 there must reach each of them once.
    const viewedBlocks = new Set(pages.slice(0, VIEWED_PAGES).flatMap((p) => p.blockIds));
    const delivered = new Map<string, number>(); // `${blockId}@${version}` → deliveries
    let duplicateDeliveries = 0;
    for (const [p, page] of pages.slice(0, VIEWED_PAGES).entries()) {
      for (let v = 0; v < VIEWERS_PER_PAGE; v++) {
        const socket = await connectRealtime(server.url, { cookie }, { clientId: `mixed-viewer-${p}-${v}` });
        sockets.push(socket);
        const joined = await request(socket, 'join', { channel: channels.element(page.pageId, userId) });
        if (!joined.ok) throw new Error(`a viewer could not join: ${JSON.stringify(joined.error)}`);
        const seen = new Set<string>();
        socket.on('edit', (event: ElementEdit) => {
          if (!viewedBlocks.has(event.block.id)) return;
          const key = `${event.block.id}@${event.block.version}`;
          if (seen.has(key)) duplicateDeliveries += 1;
          else {
            seen.add(key);
            delivered.set(key, (delivered.get(key) ?? 0) + 1);
          }
        });
      }
    }
    const expectedDeliveries = new Set<string>(); // `${blockId}@${version}` of updates answered 200 on viewed pages

    const random = seeded(34);
    const unit = () => random(1_000_000) / 1_000_000;
    let samples = emptySamples();
    let text = 0;
    let written = 0;

    // One update in flight per typist (`actor`), over the page's paragraphs in turn.
    const typist = (page: { blockIds: string[] }, n: number) => {
      let k = 0;
      return async () => {
        const id = page.blockIds[k++ % page.blockIds.length];
        const version = blockVersions.get(id)!;
        const answer = await call(`${server.url}${S}/block/${id}`, {
          method: 'POST',
          cookie,
          headers: { [CLIENT_ID_HEADER]: `mixed-typist-${n}` },
          body: JSON.stringify({ version, type: 'text', data: { tokens: [{ text: `правка ${(text += 1)}` }] } }),
        });
        if (answer.status === 200) {
          const { version: now } = (JSON.parse(answer.body) as { data: { version: number } }).data;
          blockVersions.set(id, now);
          if (viewedBlocks.has(id)) expectedDeliveries.add(`${id}@${now}`);
          samples.updates.push(answer.ms);
        } else if (answer.status === 409) samples.updateConflicts += 1;
        else samples.updateErrors += 1;
      };
    };
    const reader = () => async () => {
      const answer = await call(rowsUrl({ ...view, offset: random(Math.max(1, viewCount - 100)), limit: 100 }), { cookie });
      if (answer.status === 200) samples.windows.push(answer.ms);
      else samples.windowErrors += 1;
    };
    const FIELDS = ['price', 'stage', 'qty', 'note'];
    const valueOf: Record<string, (i: number) => unknown> = {
      price: () => random(100_000) / 100,
      stage: () => ['a', 'b', 'c', 'd', 'e'][random(5)],
      qty: () => random(1000),
      note: (i) => `правка ячейки ${i}`,
    };
    const writer = (rows: Row[]) => {
      let k = 0;
      return async () => {
        const row = rows[k % rows.length];
        const fieldId = FIELDS[Math.floor(k / rows.length) % FIELDS.length];
        k += 1;
        const key = `${row.id}/${fieldId}`;
        const value = valueOf[fieldId]((written += 1));
        const answer = await call(`${server.url}${S}/row/${row.id}/cells/${fieldId}`, {
          method: 'POST',
          cookie,
          body: JSON.stringify({ value, version: cellVersions.get(key) ?? 0 }),
        });
        if (answer.status === 200) {
          cellVersions.set(key, (JSON.parse(answer.body) as { data: { version: number } }).data.version);
          acknowledged.set(key, value);
          samples.cells.push(answer.ms);
        } else if (answer.status === 409) samples.cellConflicts += 1;
        else samples.cellErrors += 1;
      };
    };
    const probe = () => async () => {
      const answer = await call(`${server.url}/version`, {});
      if (answer.status === 200) samples.probes.push(answer.ms);
      else samples.probeErrors += 1;
    };
    const typists = pages.map((page, n) => typist(page, n));
    const writers = writerRows.map((rows) => writer(rows));

    const phase = async (name: string, readers: number) => {
      let running = true;
      const actors = [
        ...typists.map((tick) => ({ kind: 'typist', ...actor(1000 / TYPE_RATE, unit, () => running, tick) })),
        ...writers.map((tick) => ({ kind: 'writer', ...actor(1000 / WRITE_RATE, unit, () => running, tick) })),
        ...Array.from({ length: readers }, () => ({ kind: 'reader', ...actor(1000, unit, () => running, reader()) })),
        { kind: 'probe', ...actor(PROBE_MS, unit, () => running, probe()) },
      ];
      process.stdout.write(`[${database}] ${name}: ${WARMUP} s warm-up…\n`);
      await sleep(WARMUP * 1000);
      samples = emptySamples();
      const skippedBefore = new Map(actors.map((a, i) => [i, a.skipped()]));
      const serverCpuBefore = cpuMs(server.pid);
      const databaseCpuBefore = databaseCpuMs(server.pid);
      const ownCpuBefore = process.cpuUsage();
      const machineBefore = machineBusyMs();
      const pressureBefore = pressure();
      const started = performance.now();
      await sleep(SECONDS * 1000);
      const wallMs = performance.now() - started;
      const serverCpu = cpuMs(server.pid) - serverCpuBefore;
      const databaseCpu = databaseCpuMs(server.pid) - databaseCpuBefore;
      const own = process.cpuUsage(ownCpuBefore);
      const ownCpu = (own.user + own.system) / 1000;
      const machine = machineBusyMs() - machineBefore;
      const pressureAfter = pressure();
      const measured = samples;
      const skipped = (kind: string) => actors.reduce((n, a, i) => n + (a.kind === kind ? a.skipped() - skippedBefore.get(i)! : 0), 0);
      const result = {
        phase: name,
        readers,
        seconds: round(wallMs / 1000),
        updates: {
          ...pct(measured.updates),
          perSecond: round(measured.updates.length / (wallMs / 1000)),
          errors: measured.updateErrors,
          conflicts: measured.updateConflicts,
          skipped: skipped('typist'),
        },
        windows: { ...pct(measured.windows), errors: measured.windowErrors, skipped: skipped('reader') },
        cellWrites: { ...pct(measured.cells), errors: measured.cellErrors, conflicts: measured.cellConflicts, skipped: skipped('writer') },
        probe: { ...pct(measured.probes), errors: measured.probeErrors },
        /** % of one core. */
        serverCpuPct: round((serverCpu / wallMs) * 100),
        /** PostgreSQL's processes (0 on SQLite: in the server's). */
        databaseCpuPct: round((databaseCpu / wallMs) * 100),
        loadGeneratorCpuPct: round((ownCpu / wallMs) * 100),
        /** Cores used by every other process on the machine meanwhile (of os.availableParallelism()). */
        otherCores: round(Math.max(0, machine - serverCpu - databaseCpu - ownCpu) / wallMs, 2),
        /** Share of the phase some task on the machine waited for CPU / for I/O (/proc/pressure), %. */
        pressurePct: {
          cpu: round(((pressureAfter.cpu - pressureBefore.cpu) / 1000 / wallMs) * 100),
          io: round(((pressureAfter.io - pressureBefore.io) / 1000 / wallMs) * 100),
        },
      };
      running = false;
      await Promise.all(actors.map((a) => a.done));
      process.stdout.write(
        `[${database}] ${name}: updates ${result.updates.perSecond}/s p50/p95/p99 ${result.updates.p50}/${result.updates.p95}/${result.updates.p99} ms; windows ${result.windows.n} p50/p95 ${result.windows.p50}/${result.windows.p95}; cells ${result.cellWrites.n} p50/p95 ${result.cellWrites.p50}/${result.cellWrites.p95}; probe p50/p95 ${result.probe.p50}/${result.probe.p95}; server CPU ${result.serverCpuPct} %, database ${result.databaseCpuPct} %, load generator ${result.loadGeneratorCpuPct} %, others ${result.otherCores} cores; pressure cpu ${result.pressurePct.cpu} %, io ${result.pressurePct.io} %\n`,
      );
      return result;
    };

    // REPS repetitions of both phases, the order rotating (the machine's other load drifts).
    const phases = [];
    for (let rep = 0; rep < REPS; rep++) {
      const pair: Array<[string, number]> = [
        ['without table readers', 0],
        ['mixed', READERS],
      ];
      for (const [name, readers] of rep % 2 === 0 ? pair : pair.reverse()) phases.push({ rep: rep + 1, ...(await phase(name, readers)) });
    }

    // Nothing lost: the versions on the server add up, each acknowledged cell is there, each delivery came.
    await sleep(2000);
    let serverVersionSum = 0;
    for (const page of pages) {
      const blocks = await fetchJson<{ data: Array<{ id: string; version: number }> }>(`${server.url}${S}/note/${page.pageId}/blocks`, { cookie });
      const own = new Set(page.blockIds);
      serverVersionSum += blocks.data.filter((b) => own.has(b.id)).reduce((n, b) => n + b.version, 0);
    }
    const clientVersionSum = [...blockVersions.values()].reduce((a, b) => a + b, 0);
    let cellsMissing = 0;
    for (const row of writerRows.flat()) {
      const now = (await fetchJson<{ data: Row }>(`${server.url}${S}/row/${row.id}`, { cookie })).data;
      for (const fieldId of FIELDS) {
        const key = `${row.id}/${fieldId}`;
        if (!acknowledged.has(key)) continue;
        const same = JSON.stringify(now.data.values[fieldId]) === JSON.stringify(acknowledged.get(key)) && now.versions[fieldId] === cellVersions.get(key);
        if (!same) cellsMissing += 1;
      }
    }
    const deliveriesMissing = [...expectedDeliveries].reduce((n, key) => n + VIEWERS_PER_PAGE - (delivered.get(key) ?? 0), 0);
    const check = {
      seededVersionSum,
      /** Seeded versions + every update answered 200 (the client's tracked versions). */
      clientVersionSum,
      serverVersionSum,
      cellsAcknowledged: acknowledged.size,
      cellsMissing,
      deliveriesExpected: expectedDeliveries.size * VIEWERS_PER_PAGE,
      deliveriesMissing,
      duplicateDeliveries,
    };
    const ok = serverVersionSum === clientVersionSum && cellsMissing === 0 && deliveriesMissing === 0 && duplicateDeliveries === 0;
    process.stdout.write(`[${database}] nothing lost: ${ok ? 'yes' : 'NO'} ${JSON.stringify(check)}\n`);
    return {
      database,
      rows: ROWS,
      viewCount,
      seedSeconds,
      searchBacklogAfterSeed,
      searchBacklogAtStart: searchBacklog,
      indexWaitSeconds,
      phases,
      check: { ...check, ok },
    };
  } finally {
    for (const socket of sockets) socket.close();
    await stop();
  }
}

const wallStart = performance.now();
const results = [];
for (const database of benchDatabases()) results.push(await measure(database));
process.stdout.write(
  `\nMixed load (${TYPISTS} typists at ${TYPE_RATE}/s, ${WRITERS} cell writers at ${WRITE_RATE}/s, ${READERS} window readers at 1/s; ${WARMUP} s warm-up + ${SECONDS} s per phase; ms; CPU in % of one core; ${os.availableParallelism()} cores):\n`,
);
process.stdout.write(
  '| database | phase | updates/s | update p50/p95/p99 | window p50/p95 | cell write p50/p95 | errors / conflicts / skipped | probe p50/p95/p99 | server CPU | database CPU | load generator CPU | other processes (cores) | CPU / I/O pressure |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n',
);
for (const r of results) {
  for (const p of r.phases) {
    const errors = p.updates.errors + p.windows.errors + p.cellWrites.errors + p.probe.errors;
    const conflicts = p.updates.conflicts + p.cellWrites.conflicts;
    const skipped = p.updates.skipped + p.windows.skipped + p.cellWrites.skipped;
    process.stdout.write(
      `| ${r.database} | ${p.phase}${REPS > 1 ? ` (${p.rep})` : ''} | ${p.updates.perSecond} | ${p.updates.p50} / ${p.updates.p95} / ${p.updates.p99} | ${p.readers ? `${p.windows.p50} / ${p.windows.p95}` : '–'} | ${p.cellWrites.p50} / ${p.cellWrites.p95} | ${errors} / ${conflicts} / ${skipped} | ${p.probe.p50} / ${p.probe.p95} / ${p.probe.p99} | ${p.serverCpuPct} % | ${p.databaseCpuPct} % | ${p.loadGeneratorCpuPct} % | ${p.otherCores} | ${p.pressurePct.cpu} % / ${p.pressurePct.io} % |\n`,
    );
  }
}
process.stdout.write(`\nTarget: document-update p95 ≤ ${TARGET_UPDATE_P95_MS} ms under the mixed load, nothing lost.\n`);
for (const r of results) {
  const mixed = r.phases.filter((p) => p.readers > 0).map((p) => p.updates.p95);
  process.stdout.write(
    `${r.database}: update p95 under the mixed load ${mixed.join(', ')} ms (${mixed.every((p95) => p95 <= TARGET_UPDATE_P95_MS) ? 'met' : 'MISSED'}); nothing lost: ${r.check.ok ? 'yes' : 'NO'}; search backlog at start ${r.searchBacklogAtStart} (waited ${r.indexWaitSeconds} s)\n`,
  );
}
const file = writeResults('mixed', {
  method: {
    ROWS,
    SECONDS,
    WARMUP,
    READERS,
    WRITERS,
    WRITE_RATE,
    TYPISTS,
    TYPE_RATE,
    BLOCKS_PER_PAGE,
    VIEWED_PAGES,
    VIEWERS_PER_PAGE,
    wallSeconds: Math.round((performance.now() - wallStart) / 1000),
  },
  targets: { updateP95Ms: TARGET_UPDATE_P95_MS },
  results,
});
process.stdout.write(`\nwritten ${file}\n`);
if (results.some((r) => !r.check.ok)) process.exit(1);
