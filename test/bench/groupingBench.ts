/**
 * `npm run bench:grouping`: the grouped Table view's windows over BENCH_ROWS (50,000) rows × 12
 * fields (test/bench/bigTable.ts) in a server process, on SQLite and PostgreSQL side by side
 * (issue 38, session 33). Three views of the same rows, each measured the same way:
 *   - by a select («Этап»): its rows ordered in SQL (the baseline, as before this session);
 *   - by a multi-select («Метки»): a row in each of its options' groups (`RowQuery.split`, the
 *     kept order split in JS);
 *   - by a date's months with sub-groups by the select (`RowQuery.bucket`, the kept order sorted
 *     by bucket in JS).
 * For each: the first window (cold: the order computed), its groups, windows at random offsets
 * (the order kept), and a window read right after a cell write in the group field (the kept order
 * brought up to date from the row written) — BENCH_WRITE_PAIRS pairs. p50 / p95 ms; prints a
 * table and writes test/bench/results/grouping-<time>.json.
 *   BENCH_ROWS=50000 BENCH_SAMPLES=100 BENCH_WRITE_PAIRS=40 BENCH_DBS=sqlite,postgres npm run bench:grouping
 */
import { benchDatabases, figures, S, seedBigTable, startBenchServer, timed, writeResults, type BenchDatabase } from './bigTable';
import { fetchJson, signInToProcess } from '../helpers/serverProcess';
import { seeded } from '../helpers/races';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const WRITE_PAIRS = Number(process.env.BENCH_WRITE_PAIRS ?? 40);

const q = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

/** The views measured: their grouping, and what a write in their group field puts there. */
const VIEWS = [
  { uid: 'bySelect', groupBy: { fieldId: 'stage' }, fieldId: 'stage', value: (i: number) => ['a', 'b', 'd', 'e'][i % 4] },
  { uid: 'byTags', groupBy: { fieldId: 'tags' }, fieldId: 'tags', value: (i: number) => [['x'], ['y', 'z'], [], ['x', 'y']][i % 4] },
  {
    uid: 'byMonth',
    groupBy: { fieldId: 'due', by: 'month', sub: { fieldId: 'stage' } },
    fieldId: 'due',
    value: (i: number) => `2026-${String(1 + (i % 12)).padStart(2, '0')}-1${i % 10}`,
  },
] as const;

async function measure(database: BenchDatabase) {
  const { server, stop } = await startBenchServer(database);
  try {
    const cookie = await signInToProcess(server, 'bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows…\n`);
    const { databaseId } = await seedBigTable(server, cookie, ROWS);
    const base = `${server.url}${S}/database/${databaseId}`;
    const random = seeded(11);
    const results: Record<string, unknown> = {};
    // Rows to write into: the first 50 of the database, with their cells' versions.
    const first = await fetchJson<{ data: Array<{ id: string; versions: Record<string, number> }> }>(`${base}/rows?${q({ limit: 50 })}`, { cookie });
    const versions = new Map(first.data.map((row) => [row.id, { ...row.versions }]));
    let written = 0;
    for (const view of VIEWS) {
      await fetchJson(`${base}/views`, {
        method: 'POST',
        cookie,
        body: JSON.stringify({ layout: { uid: view.uid, type: 'table', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }], groupBy: view.groupBy } }),
      });
      const rows = (offset: number) =>
        fetchJson<{ data: unknown[]; meta: { count: number } }>(`${base}/rows?${q({ viewId: view.uid, offset, limit: 100 })}`, { cookie });
      const [coldMs, answer] = await timed(() => rows(0));
      const count = answer.meta.count;
      const [groupsMs, groups] = await timed(() => fetchJson<{ data: unknown[] }>(`${base}/groups?${q({ viewId: view.uid })}`, { cookie }));
      const anywhere: number[] = [];
      for (let i = 0; i < SAMPLES; i++) anywhere.push((await timed(() => rows(random(Math.max(1, count - 100)))))[0]);
      const afterWrite: number[] = [];
      for (let i = 0; i < WRITE_PAIRS; i++, written++) {
        const row = first.data[written % first.data.length];
        const rowVersions = versions.get(row.id)!;
        const cell = await fetchJson<{ data: { version: number } }>(`${server.url}${S}/row/${row.id}/cells/${view.fieldId}`, {
          method: 'POST',
          cookie,
          body: JSON.stringify({ value: view.value(written), version: rowVersions[view.fieldId] ?? 0 }),
        });
        rowVersions[view.fieldId] = cell.data.version;
        afterWrite.push((await timed(() => rows(random(Math.max(1, count - 100)))))[0]);
      }
      results[view.uid] = {
        entries: count,
        groups: groups.data.length,
        coldMs: Number(coldMs.toFixed(1)),
        groupsMs: Number(groupsMs.toFixed(1)),
        randomWindow: figures(anywhere),
        windowAfterWrite: figures(afterWrite),
      };
      process.stdout.write(`[${database}] ${view.uid}: ${JSON.stringify(results[view.uid])}\n`);
    }
    return { database, rows: ROWS, ...results };
  } finally {
    await stop();
  }
}

async function main() {
  const all = [];
  for (const database of benchDatabases()) all.push(await measure(database));
  process.stdout.write('\nGrouped table windows (p50 / p95 ms; cold = the first window, the order computed)\n');
  for (const result of all) {
    for (const view of VIEWS) {
      const r = (
        result as unknown as Record<
          string,
          {
            entries: number;
            groups: number;
            coldMs: number;
            groupsMs: number;
            randomWindow: { p50: number; p95: number };
            windowAfterWrite: { p50: number; p95: number };
          }
        >
      )[view.uid];
      process.stdout.write(
        `  ${result.database.padEnd(8)} ${view.uid.padEnd(9)} entries ${String(r.entries).padStart(6)}  groups ${String(r.groups).padStart(3)}  cold ${r.coldMs} ms  groups ${r.groupsMs} ms  window ${r.randomWindow.p50} / ${r.randomWindow.p95}  after a write ${r.windowAfterWrite.p50} / ${r.windowAfterWrite.p95}\n`,
      );
    }
  }
  process.stdout.write(`results: ${writeResults('grouping', all)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
