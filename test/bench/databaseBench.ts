/**
 * `npm run bench:database`: a data table of BENCH_ROWS (50,000) rows × 12 fields, made through
 * the real API in a server process on 127.0.0.1 (test/bench/bigTable.ts: a page of type Database,
 * as `bench:table` makes it), on SQLite and PostgreSQL side by side. Measures
 * what the Table view asks the server for: a window of 100 rows of a view sorted by a number
 * field and filtered by a select field (issue 16: ≤ 30 ms p95), at the top and at random
 * offsets (and the first, cold window that computes the view's order), the footer (cold and
 * kept), a cell write, and two charts over every row (issue 17: ≤ 100 ms p95): a count by a
 * select, and a sum of a number by month of a date with a series by a select — read again, and
 * read right after a cell write in a field they read (BENCH_WRITE_PAIRS pairs), and a chart under
 * a view's filter the same way; and a window of the view right after a write in its sort or filter
 * field, beside the window alone (issue 34: ≤ 1.5×). Sequential requests (one user scrolling), after a warm-up; prints
 * a table and writes test/bench/results/database-<time>.json. The seeding queues every row for
 * the search index: the measuring runs while the server's indexer catches up, as after a real
 * import, and the bench then waits for the queue to empty and prints how long that took.
 *   BENCH_ROWS=50000 BENCH_SAMPLES=200 BENCH_WRITE_PAIRS=40 BENCH_DBS=sqlite,postgres npm run bench:database
 */
import {
  benchDatabases,
  figures,
  S,
  searchQueueEmptied,
  seedBigTable,
  startBenchServer,
  TABLE_FIELDS,
  timed,
  writeResults,
  type BenchDatabase,
} from './bigTable';
import { fetchJson, signInToProcess } from '../helpers/serverProcess';
import { seeded } from '../helpers/races';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WRITE_PAIRS = Number(process.env.BENCH_WRITE_PAIRS ?? 40);
const DBS = benchDatabases();

const q = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

async function measure(database: BenchDatabase) {
  const { server, stop, searchQueue, searchCatchUps } = await startBenchServer(database);
  try {
    const cookie = await signInToProcess(server, 'bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows × ${Object.keys(TABLE_FIELDS).length} fields…\n`);
    const seedStarted = Date.now();
    const [seedMs, { databaseId, viewId }] = await timed(() => seedBigTable(server, cookie, ROWS));
    // The seeding queued every row and text cell for the search index: the server's indexer
    // catches up while the table is measured, as after a real import (issue 20).
    const searchBacklogAfterSeed = await searchQueue();
    const measureStarted = Date.now();
    const view = { filter: { op: 'and', rules: [{ fieldId: 'stage', condition: 'isNot', value: 'c' }] }, sorts: [{ fieldId: 'price', direction: 'desc' }] };
    const rows = (params: Record<string, unknown>) =>
      fetchJson<{ data: unknown[]; meta: { count: number } }>(`${server.url}${S}/database/${databaseId}/rows?${q(params)}`, { cookie });
    // The first window of a view computes its order (cold); the ones after read a slice of it.
    const [coldMs, first] = await timed(() => rows({ ...view, limit: 100 }));
    const count = first.meta.count;
    for (let i = 0; i < 20; i++) await rows({ ...view, offset: i * 100, limit: 100 }); // warm-up
    const random = seeded(7);
    const top: number[] = [];
    const anywhere: number[] = [];
    const unsorted: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      top.push((await timed(() => rows({ ...view, offset: 0, limit: 100 })))[0]);
      anywhere.push((await timed(() => rows({ ...view, offset: random(Math.max(1, count - 100)), limit: 100 })))[0]);
      unsorted.push((await timed(() => rows({ offset: random(Math.max(1, ROWS - 100)), limit: 100 })))[0]);
    }
    await fetchJson(`${server.url}${S}/database/${databaseId}/views/${viewId}`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ layout: { ...view, calculations: { price: 'sum', qty: 'average', note: 'empty' } } }),
    });
    const calculations: number[] = [];
    const footerUrl = `${server.url}${S}/database/${databaseId}/calculations?viewId="${viewId}"`;
    const [footerColdMs] = await timed(() => fetchJson(footerUrl, { cookie }));
    for (let i = 0; i < Math.min(SAMPLES, 50); i++) calculations.push((await timed(() => fetchJson(footerUrl, { cookie })))[0]);
    // Charts (issue 17: ≤ 100 ms p95) over every row, in a chart view of their own (no filter).
    await fetchJson(`${server.url}${S}/database/${databaseId}/views`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ layout: { uid: 'chart', type: 'chart', orderedFields: [] } }),
    });
    const chartBy = async (chart: unknown, viewId = 'chart') => {
      const url = `${server.url}${S}/database/${databaseId}/chart?${q({ viewId, chart })}`;
      const [coldMs, answer] = await timed(() => fetchJson<{ data: { rows: number; points: unknown[] } }>(url, { cookie }));
      const samples: number[] = [];
      for (let i = 0; i < Math.min(SAMPLES, 100); i++) samples.push((await timed(() => fetchJson(url, { cookie })))[0]);
      return { coldMs: Number(coldMs.toFixed(1)), ...figures(samples), rows: answer.data.rows, points: answer.data.points.length };
    };
    const countChart = { x: { fieldId: 'stage' }, y: { aggregate: 'count' } };
    const sumChart = { x: { fieldId: 'due', bucket: 'month' }, y: { aggregate: 'sum', fieldId: 'price' }, series: { fieldId: 'stage' } };
    const chartCount = await chartBy(countChart);
    const chartSum = await chartBy(sumChart);
    const ids = (first.data as Array<{ id: string; versions: Record<string, number> }>).slice(0, 50);
    // What people wait for in a live table: the chart read right after a cell it reads was
    // written (its kept groups no longer hold). WRITE_PAIRS pairs of one cell write (a field the
    // chart or its view's filter reads, in turn) and one chart read; the read is timed.
    const versions = new Map(ids.map((row) => [row.id, { ...row.versions }]));
    const valueOf: Record<string, (i: number) => unknown> = {
      stage: (i) => ['a', 'b', 'd', 'e'][i % 4],
      price: (i) => 100 + i,
      due: (i) => `2026-${String(1 + (i % 12)).padStart(2, '0')}-15`,
      qty: (i) => (i % 2 === 0 ? 100 : 900),
    };
    let written = 0;
    const afterWrite = async (viewId: string, chart: unknown, fieldIds: string[]) => {
      const url = `${server.url}${S}/database/${databaseId}/chart?${q({ viewId, chart })}`;
      await fetchJson(url, { cookie });
      const samples: number[] = [];
      for (let i = 0; i < WRITE_PAIRS; i++, written++) {
        const row = ids[written % ids.length];
        const fieldId = fieldIds[i % fieldIds.length];
        const rowVersions = versions.get(row.id)!;
        const cell = await fetchJson<{ data: { version: number } }>(`${server.url}${S}/row/${row.id}/cells/${fieldId}`, {
          method: 'POST',
          cookie,
          body: JSON.stringify({ value: valueOf[fieldId](written), version: rowVersions[fieldId] ?? 0 }),
        });
        rowVersions[fieldId] = cell.data.version;
        samples.push((await timed(() => fetchJson(url, { cookie })))[0]);
      }
      return figures(samples);
    };
    // Windows under writes (issue 34): a window of the sorted, filtered view read right after a
    // write in the field it sorts or filters by (the kept order brought up to date from the rows
    // written, not sorted again), beside the window read alone (randomWindow, this run).
    const windowAfterWrite: number[] = [];
    // The window alone, read in the same loop just before each write (the server's indexer is catching up meanwhile: the same load for both).
    const windowBeforeWrite: number[] = [];
    for (let i = 0; i < WRITE_PAIRS; i++, written++) {
      windowBeforeWrite.push((await timed(() => rows({ ...view, offset: random(Math.max(1, count - 100)), limit: 100 })))[0]);
      const row = ids[written % ids.length];
      const fieldId = i % 2 === 0 ? 'price' : 'stage';
      const rowVersions = versions.get(row.id)!;
      const cell = await fetchJson<{ data: { version: number } }>(`${server.url}${S}/row/${row.id}/cells/${fieldId}`, {
        method: 'POST',
        cookie,
        body: JSON.stringify({ value: valueOf[fieldId](written), version: rowVersions[fieldId] ?? 0 }),
      });
      rowVersions[fieldId] = cell.data.version;
      windowAfterWrite.push((await timed(() => rows({ ...view, offset: random(Math.max(1, count - 100)), limit: 100 })))[0]);
    }
    const countAfterWrite = await afterWrite('chart', countChart, ['stage']);
    const sumAfterWrite = await afterWrite('chart', sumChart, ['price', 'due', 'stage']);
    // A chart under a view's filter (qty ≥ 500: about half the rows), written in its fields and in the filter's.
    await fetchJson(`${server.url}${S}/database/${databaseId}/views`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({
        layout: { uid: 'filtered', type: 'chart', orderedFields: [], filter: { op: 'and', rules: [{ fieldId: 'qty', condition: 'gte', value: 500 }] } },
      }),
    });
    const filteredChart = { x: { fieldId: 'stage' }, y: { aggregate: 'sum', fieldId: 'price' } };
    const chartFiltered = await chartBy(filteredChart, 'filtered');
    const filteredAfterWrite = await afterWrite('filtered', filteredChart, ['stage', 'price', 'qty']);
    const writes: number[] = [];
    for (const row of ids) {
      writes.push(
        (
          await timed(() =>
            fetchJson(`${server.url}${S}/row/${row.id}/cells/note`, {
              method: 'POST',
              cookie,
              body: JSON.stringify({ value: 'изменено', version: row.versions.note ?? 0 }),
            }),
          )
        )[0],
      );
    }
    const measureSeconds = Number(((Date.now() - measureStarted) / 1000).toFixed(1));
    const searchBacklogAfterMeasure = await searchQueue();
    process.stdout.write(
      `[${database}] measured in ${measureSeconds} s; search backlog ${searchBacklogAfterSeed} → ${searchBacklogAfterMeasure}, waiting for it…\n`,
    );
    // Until the queue is empty, or it stops going down for 10 s (the indexer held off: SEARCH_INDEX_INTERVAL_MS).
    const left = await searchQueueEmptied(searchQueue);
    const searchIndexedSeconds = left === 0 ? Number(((Date.now() - measureStarted) / 1000).toFixed(1)) : null;
    const catchUps = searchCatchUps(seedStarted);
    const longest = catchUps.reduce((a, b) => (b.seconds > a.seconds ? b : a), { targets: 0, seconds: 0 });
    return {
      database,
      rows: ROWS,
      measureSeconds,
      searchBacklogAfterSeed,
      searchBacklogAfterMeasure,
      searchIndexedSeconds,
      searchLongestCatchUp: longest,
      viewCount: count,
      seedSeconds: Number((seedMs / 1000).toFixed(1)),
      viewColdMs: Number(coldMs.toFixed(1)),
      footerColdMs: Number(footerColdMs.toFixed(1)),
      topWindow: figures(top),
      randomWindow: figures(anywhere),
      windowAfterWrite: figures(windowAfterWrite),
      windowBeforeWrite: figures(windowBeforeWrite),
      unsortedRandomWindow: figures(unsorted),
      calculations: figures(calculations),
      cellWrite: figures(writes),
      chartCount,
      chartSum,
      chartFiltered,
      countAfterWrite,
      sumAfterWrite,
      filteredAfterWrite,
    };
  } finally {
    await stop();
  }
}

const results = [];
for (const database of DBS) results.push(await measure(database));
process.stdout.write('\nData table (ms, sequential requests on loopback; window = 100 rows sorted by a number, filtered by a select):\n');
process.stdout.write(
  'database  rows    in view  cold view  top p50/p95  random p50/p95  unsorted p50/p95  cold footer  footer p50/p95  cell write p50/p95  seed s\n',
);
for (const r of results) {
  process.stdout.write(
    `${r.database.padEnd(9)} ${String(r.rows).padEnd(7)} ${String(r.viewCount).padEnd(8)} ${String(r.viewColdMs).padEnd(10)} ${`${r.topWindow.p50}/${r.topWindow.p95}`.padEnd(12)} ${`${r.randomWindow.p50}/${r.randomWindow.p95}`.padEnd(15)} ${`${r.unsortedRandomWindow.p50}/${r.unsortedRandomWindow.p95}`.padEnd(17)} ${String(r.footerColdMs).padEnd(12)} ${`${r.calculations.p50}/${r.calculations.p95}`.padEnd(15)} ${`${r.cellWrite.p50}/${r.cellWrite.p95}`.padEnd(19)} ${r.seedSeconds}\n`,
  );
}
process.stdout.write(
  `\nWindows under writes (ms; a random window of the view alone, then a cell write in its sort or filter field and a random window right after it, ${WRITE_PAIRS} times; target ≤ 1.5× the window alone):\n`,
);
process.stdout.write('database  alone p50/p95  after a write p50/p95  ratio p50/p95\n');
for (const r of results) {
  process.stdout.write(
    `${r.database.padEnd(9)} ${`${r.windowBeforeWrite.p50}/${r.windowBeforeWrite.p95}`.padEnd(14)} ${`${r.windowAfterWrite.p50}/${r.windowAfterWrite.p95}`.padEnd(22)} ${(r.windowAfterWrite.p50 / r.windowBeforeWrite.p50).toFixed(2)}/${(r.windowAfterWrite.p95 / r.windowBeforeWrite.p95).toFixed(2)}\n`,
  );
}
process.stdout.write('\nCharts over every row (ms; count by a select; sum of a number by month of a date, a series by a select):\n');
process.stdout.write('database  count: first  p50/p95      rows    sum by month: first  p50/p95      points\n');
for (const r of results) {
  process.stdout.write(
    `${r.database.padEnd(9)} ${String(r.chartCount.coldMs).padEnd(12)} ${`${r.chartCount.p50}/${r.chartCount.p95}`.padEnd(12)} ${String(r.chartCount.rows).padEnd(7)} ${String(r.chartSum.coldMs).padEnd(19)} ${`${r.chartSum.p50}/${r.chartSum.p95}`.padEnd(12)} ${r.chartSum.points}\n`,
  );
}
process.stdout.write(
  `\nCharts right after a cell write in a field they read (ms, p50/p95 of the read over ${WRITE_PAIRS} write + read pairs; filtered: sum by a select over the rows with qty ≥ 500):\n`,
);
process.stdout.write('database  count p50/p95  sum by month p50/p95  filtered: first  p50/p95      after a write p50/p95\n');
for (const r of results) {
  process.stdout.write(
    `${r.database.padEnd(9)} ${`${r.countAfterWrite.p50}/${r.countAfterWrite.p95}`.padEnd(14)} ${`${r.sumAfterWrite.p50}/${r.sumAfterWrite.p95}`.padEnd(21)} ${String(r.chartFiltered.coldMs).padEnd(15)} ${`${r.chartFiltered.p50}/${r.chartFiltered.p95}`.padEnd(12)} ${r.filteredAfterWrite.p50}/${r.filteredAfterWrite.p95}\n`,
  );
}
process.stdout.write(
  "\nSearch indexing of the seeded rows meanwhile (the server's indexer; targets = rows' titles and cells; s from the start of measuring):\n",
);
process.stdout.write('database  backlog after seed  after measuring  measuring s  queue empty at s  longest logged catch-up\n');
for (const r of results) {
  process.stdout.write(
    `${r.database.padEnd(9)} ${String(r.searchBacklogAfterSeed).padEnd(19)} ${String(r.searchBacklogAfterMeasure).padEnd(16)} ${String(r.measureSeconds).padEnd(12)} ${String(r.searchIndexedSeconds ?? 'never').padEnd(17)} ${r.searchLongestCatchUp.targets} in ${r.searchLongestCatchUp.seconds} s\n`,
  );
}
process.stdout.write(`\nwritten ${writeResults('database', results)}\n`);
