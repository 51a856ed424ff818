/**
 * `npm run bench` (server part): the real routes against bare reference routes doing the same
 * database work, on SQLite and PostgreSQL, measured as shared/design/BENCH-METHOD.md says:
 * server and load in separate processes on 127.0.0.1, autocannon with 50 connections, 3 s warm-up
 * then 10 s measured, 3 interleaved repetitions (rotating order), medians; before each run the
 * servers are left to finish what the previous run queued. Block updates carry the
 * right version (each in-flight request leases its own block) and the run checks afterwards that
 * the versions on the server add up to the successful updates. Prints a table and writes
 * test/bench/results/server-<time>.json.
 *   BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_REPS=3 BENCH_DBS=sqlite,postgres npm run bench
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import Database from 'better-sqlite3';
import { fetchJson, freePort, signInToProcess, startPostgresProcess, startServerProcess, type ServerProcess } from '../helpers/serverProcess';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONNECTIONS = 50;
const DBS = (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const UPDATE_BLOCKS = 200;
const PAGE_BLOCKS = 5000;
const CLK_TCK = 100;

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  cpuMsPerRequest: number;
}

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

const json = fetchJson;

const signIn = (server: ServerProcess) => signInToProcess(server, 'bench@example.com');

/** A page with `count` paragraphs of about 60 characters, made through the real API. */
async function makePage(server: ServerProcess, cookie: string, count: number): Promise<{ pageId: string; blockIds: string[] }> {
  const page = await json<{ data: { id: string } }>(`${server.url}/api/v3/spaces/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ title: `bench ${count}` }),
  });
  const blockIds: string[] = [];
  let previous: string | null = null;
  for (let i = 0; i < count; i++) {
    const created: { data: { id: string } } = await json(`${server.url}/api/v3/spaces/block`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({
        pageId: page.data.id,
        type: 'text',
        placeAfter: previous,
        data: { tokens: [{ text: `Строка ${i}: съешь же ещё этих мягких французских булок, да выпей чаю.` }] },
      }),
    });
    previous = created.data.id;
    blockIds.push(created.data.id);
  }
  return { pageId: page.data.id, blockIds };
}

function startBare(env: Record<string, string>): Promise<{ url: string; pid: number; child: ChildProcess }> {
  return freePort().then(
    (port) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/bareServer.ts'], {
          env: { ...process.env, PORT: String(port), ...env },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        child.stdout?.on(
          'data',
          (chunk: Buffer) => chunk.toString().includes('READY') && resolve({ url: `http://127.0.0.1:${port}`, pid: child.pid as number, child }),
        );
        child.once('exit', (code) => reject(new Error(`bare server exited ${code}`)));
      }),
  );
}

/** Leases distinct blocks to in-flight updates and tracks their versions from the answers. */
function blockPool(ids: string[], versions: Map<string, number>) {
  let free = [...ids];
  let ok = 0;
  return {
    lease(): string {
      const id = free.pop();
      if (!id) throw new Error('more requests in flight than blocks');
      return id;
    },
    answer(id: string, status: number, body: string) {
      if (status === 200) {
        const parsed = JSON.parse(body) as { version?: number; data?: { version: number } };
        versions.set(id, parsed.version ?? (parsed.data as { version: number }).version);
        ok += 1;
      }
      free.push(id);
    },
    /** Updates answered 200 since the last reset, and how many were still in flight at the stop. */
    settle(): { ok: number; inFlight: number } {
      return { ok, inFlight: ids.length - free.length };
    },
    /** After a run: versions as the server has them, every block free again. */
    reset(serverVersions: Map<string, number>) {
      for (const [id, version] of serverVersions) versions.set(id, version);
      free = [...ids];
      ok = 0;
    },
  };
}

interface Target {
  url: string;
  pid: number;
  request: () => autocannon.Request;
  headers?: Record<string, string>;
}

/**
 * Waits until the servers have finished what an earlier run left queued (requests autocannon
 * gave up on keep running): their CPU time stops growing for half a second (at most 20 s).
 */
async function quiesce(pids: number[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  let last = pids.map(cpuMs);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = pids.map(cpuMs);
    if (now.every((value, i) => value - last[i] <= 10)) return;
    last = now;
  }
}

async function run(target: Target, seconds: number): Promise<Measure> {
  const before = cpuMs(target.pid);
  const result = await autocannon({ url: target.url, connections: CONNECTIONS, duration: seconds, headers: target.headers, requests: [target.request()] });
  const cpu = cpuMs(target.pid) - before;
  const ok = result['2xx'];
  return {
    rps: ok / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    errors: result.non2xx + result.errors + result.timeouts,
    cpuMsPerRequest: ok > 0 ? cpu / ok : NaN,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function benchDatabase(database: 'sqlite' | 'postgres') {
  const postgres = database === 'postgres' ? await startPostgresProcess() : null;
  const env: Record<string, string> = { LOG_REQUESTS: 'false' };
  if (postgres) env.DATABASE_URL = postgres.url;
  const server = await startServerProcess(env);
  const bare = await startBare(postgres ? { DATABASE_URL: postgres.url } : { SQLITE_FILE: path.join(server.dataDir, 'workspace.sqlite') });
  try {
    const cookie = await signIn(server);
    process.stdout.write(`[${database}] seeding ${UPDATE_BLOCKS} + ${PAGE_BLOCKS} blocks…\n`);
    const updates = await makePage(server, cookie, UPDATE_BLOCKS);
    const big = await makePage(server, cookie, PAGE_BLOCKS);
    const versions = new Map(updates.blockIds.map((id) => [id, 1]));
    const pool = blockPool(updates.blockIds, versions);
    let text = 0;
    const updateRequest = (real: boolean) => (): autocannon.Request => ({
      method: 'POST',
      setupRequest: (req, context) => {
        const id = pool.lease();
        (context as { id?: string }).id = id;
        const version = versions.get(id) as number;
        const data = { tokens: [{ text: `правка ${(text += 1)}` }] };
        return {
          ...req,
          path: real ? `/api/v3/spaces/block/${id}` : `/bare/block/${id}`,
          headers: { ...req.headers, 'content-type': 'application/json' },
          body: JSON.stringify(real ? { version, type: 'text', data } : { version, data }),
        };
      },
      onResponse: (status, body, context) => pool.answer((context as { id: string }).id, status, body),
    });
    const readVersions = () =>
      postgres ? versionsPostgres(postgres.url, updates.pageId) : versionsSqlite(path.join(server.dataDir, 'workspace.sqlite'), updates.pageId);
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    /** Every successful update raised one version by one: the server's sum must grow by the 200s (plus at most the requests cut off in flight). */
    const versionChecks: { answered: number; cutOff: number; serverDelta: number; ok: boolean }[] = [];
    const checkVersions = async (before: number) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { ok, inFlight } = pool.settle();
      const now = await readVersions();
      const delta = sum(now) - before;
      versionChecks.push({ answered: ok, cutOff: inFlight, serverDelta: delta, ok: delta >= ok && delta <= ok + inFlight });
      pool.reset(now);
      return sum(now);
    };
    const configs: Record<string, Target> = {
      'hello (bare)': { url: bare.url, pid: bare.pid, request: () => ({ method: 'GET', path: '/bare/hello' }) },
      'block update (real)': { url: server.url, pid: server.pid, headers: { cookie }, request: updateRequest(true) },
      'block update (bare)': { url: bare.url, pid: bare.pid, request: updateRequest(false) },
      '5,000-block page (real)': {
        url: server.url,
        pid: server.pid,
        headers: { cookie },
        request: () => ({ method: 'GET', path: `/api/v3/spaces/note/${big.pageId}/blocks` }),
      },
      '5,000-block page (bare)': { url: bare.url, pid: bare.pid, request: () => ({ method: 'GET', path: `/bare/page/${big.pageId}` }) },
    };
    const names = Object.keys(configs);
    const runs: Record<string, Measure[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let rep = 0; rep < REPS; rep++) {
      const order = names.map((_, i) => names[(i + rep) % names.length]);
      for (const name of order) {
        const isUpdate = name.startsWith('block update');
        await quiesce([server.pid, bare.pid]);
        let total = isUpdate ? sum(await readVersions()) : 0;
        await run(configs[name], WARMUP);
        if (isUpdate) total = await checkVersions(total);
        const measure = await run(configs[name], DURATION);
        if (isUpdate) await checkVersions(total);
        runs[name].push(measure);
        process.stdout.write(
          `[${database}] rep ${rep + 1} ${name}: ${measure.rps.toFixed(0)} req/s, p99 ${measure.p99} ms, ${measure.cpuMsPerRequest.toFixed(3)} ms CPU/req, ${measure.errors} errors\n`,
        );
      }
    }
    return { database, runs, versionCheck: { runs: versionChecks, ok: versionChecks.every((c) => c.ok) } };
  } finally {
    bare.child.kill('SIGTERM');
    await server.stop();
    await postgres?.stop();
  }
}

function versionsSqlite(file: string, pageId: string): Map<string, number> {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT id, version FROM blocks WHERE page_id = ?').all(pageId) as { id: string; version: number }[];
  db.close();
  return new Map(rows.map((r) => [r.id, r.version]));
}

async function versionsPostgres(url: string, pageId: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const result = await client.query<{ id: string; version: number }>('SELECT id, version FROM blocks WHERE page_id = $1', [pageId]);
  await client.end();
  return new Map(result.rows.map((r) => [r.id, r.version]));
}

const results = [];
for (const database of DBS) results.push(await benchDatabase(database));

const table: string[] = ['', `| database | route | req/s | p50 ms | p99 ms | CPU ms/req | errors |`, '|---|---|---|---|---|---|---|'];
const summary: Record<string, unknown>[] = [];
for (const { database, runs, versionCheck } of results) {
  const med = (name: string, key: keyof Measure) => median(runs[name].map((m) => m[key]));
  for (const name of Object.keys(runs)) {
    table.push(
      `| ${database} | ${name} | ${med(name, 'rps').toFixed(0)} | ${med(name, 'p50')} | ${med(name, 'p99')} | ${med(name, 'cpuMsPerRequest').toFixed(3)} | ${runs[name].reduce((n, m) => n + m.errors, 0)} |`,
    );
  }
  const ratio = (a: string, b: string, key: keyof Measure) => median(runs[a].map((m, i) => m[key] / runs[b][i][key]));
  const updateRps = ratio('block update (real)', 'block update (bare)', 'rps');
  const updateP99 = ratio('block update (real)', 'block update (bare)', 'p99');
  const loadCpu = ratio('5,000-block page (real)', '5,000-block page (bare)', 'cpuMsPerRequest');
  summary.push({ database, updateRpsRatio: updateRps, updateP99Ratio: updateP99, pageLoadCpuRatio: loadCpu, versionCheck });
  table.push(
    `| ${database} | **ratios** | update req/s real÷bare ${updateRps.toFixed(2)} (target ≥ 0.50) | | update p99 real÷bare ${updateP99.toFixed(2)} (target ≤ 2) | page load CPU real÷bare ${loadCpu.toFixed(2)} (target ≤ 1.5) | versions ${versionCheck.ok ? 'add up' : 'DO NOT ADD UP'} |`,
  );
}
console.log(table.join('\n'));
fs.mkdirSync('test/bench/results', { recursive: true });
const file = `test/bench/results/server-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
fs.writeFileSync(file, JSON.stringify({ method: { DURATION, WARMUP, REPS, CONNECTIONS }, results, summary }, null, 2));
console.log(`\nwritten ${file}`);
