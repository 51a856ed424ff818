/**
 * Where a round of the search indexer's backlog goes (issue 34): a table of BENCH_ROWS rows × 12
 * fields seeded through the API with the server's indexer held off (its backlog queued as after a
 * CSV import: mostly `c:` cell and `p:` page targets of rows), the server stopped, then, from this
 * process, BENCH_ROUNDS rounds of 200 timed one by one with the statements each sent; then the
 * server's loop (`searchIndexer`) for BENCH_LOOP_S seconds nobody using the server and as long
 * while people use it (`inUse`), its targets per second in each.
 *
 *   BENCH_DBS=postgres BENCH_ROWS=5000 npm run bench:indexer   (a diagnosis: not part of `npm run bench`)
 */
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import type { Kysely, KyselyPlugin } from 'kysely';
import { benchDatabases, percentile, seedBigTable, type BenchDatabase } from './bigTable';
import { signInToProcess, startPostgresProcess, startServerProcess } from '../helpers/serverProcess';
import { connectDatabase } from '../../server/db/connect';
import { SQLITE_FILE } from '../../server/plugins/db';
import type { Database } from '../../server/db/types';
import { indexRound, searchIndexer } from '../../server/search/indexer';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const LOOP_S = Number(process.env.BENCH_LOOP_S ?? 10);

/** Counts the statements sent (every query Kysely compiles, in transactions too) and the time to each one's answer, by kind and table. */
function counting(): { plugin: KyselyPlugin; count: () => number; times: Map<string, { n: number; ms: number }> } {
  let n = 0;
  const started = new Map<unknown, { at: number; what: string }>();
  const times = new Map<string, { n: number; ms: number }>();
  return {
    plugin: {
      transformQuery: (args) => {
        n += 1;
        const node = args.node as { kind: string; from?: { froms: unknown[] }; into?: unknown; table?: unknown };
        const table = JSON.stringify(node.from?.froms?.[0] ?? node.into ?? node.table ?? '').match(/"name":"(\w+)"/)?.[1] ?? '';
        started.set(args.queryId, { at: performance.now(), what: `${node.kind.replace('QueryNode', '')} ${table}` });
        return args.node;
      },
      transformResult: async (args) => {
        const start = started.get(args.queryId);
        if (start) {
          const t = times.get(start.what) ?? { n: 0, ms: 0 };
          t.n += 1;
          t.ms += performance.now() - start.at;
          times.set(start.what, t);
          started.delete(args.queryId);
        }
        return args.result;
      },
    },
    count: () => n,
    times,
  };
}

async function queueLength(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('search_queue')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The loop's pace for `seconds`: targets per second. */
async function loopPace(db: Kysely<Database>, seconds: number, inUse: boolean): Promise<number> {
  const before = await queueLength(db);
  const quiet = { info: () => undefined, warn: () => undefined, error: (obj: unknown, msg: string) => console.error(msg, obj) };
  const loop = searchIndexer(db, quiet, 250, () => inUse);
  loop.start();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await loop.stop();
  return (before - (await queueLength(db))) / seconds;
}

async function bench(database: BenchDatabase) {
  const postgres = database === 'postgres' ? await startPostgresProcess() : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'index-round-bench-'));
  try {
    const env = { DATA_DIR: dataDir, SEARCH_INDEX_INTERVAL_MS: String(86_400_000), ...(postgres ? { DATABASE_URL: postgres.url } : {}) };
    const server = await startServerProcess(env);
    try {
      const cookie = await signInToProcess(server, 'index-round-bench@example.com');
      await seedBigTable(server, cookie, ROWS);
    } finally {
      await server.stop();
    }
    const handle = connectDatabase({ databaseUrl: postgres?.url, sqliteFile: path.join(dataDir, SQLITE_FILE) });
    const statements = counting();
    const db = handle.db.withPlugin(statements.plugin);
    try {
      const queued = await queueLength(db);
      const times: number[] = [];
      const sent: number[] = [];
      let taken = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const before = statements.count();
        const started = performance.now();
        const round = await indexRound(db, 200);
        times.push(performance.now() - started);
        sent.push(statements.count() - before);
        taken += round.taken;
      }
      const ms = times.reduce((a, b) => a + b, 0);
      const byStatement = Object.fromEntries([...statements.times].map(([what, t]) => [what, `${t.n} × ${(t.ms / t.n).toFixed(1)} ms`]));
      const idle = await loopPace(db, LOOP_S, false);
      const busy = await loopPace(db, LOOP_S, true);
      const out = {
        database,
        rows: ROWS,
        queued,
        rounds: ROUNDS,
        roundMs: { p50: Number(percentile(times, 50).toFixed(1)), max: Number(Math.max(...times).toFixed(1)) },
        statementsPerRound: { p50: percentile(sent, 50), max: Math.max(...sent) },
        statementsPerTarget: Number((sent.reduce((a, b) => a + b, 0) / taken).toFixed(2)),
        targetsPerSecond: Math.round((taken / ms) * 1000),
        byStatement,
        loopTargetsPerSecond: { nobodyUsing: Math.round(idle), peopleUsing: Math.round(busy) },
        load: os.loadavg().map((l) => l.toFixed(2)),
      };
      console.log(JSON.stringify(out));
    } finally {
      await handle.db.destroy();
    }
  } finally {
    await postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const database of benchDatabases()) await bench(database);
