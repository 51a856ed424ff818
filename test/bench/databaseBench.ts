/**
 * `npm run bench:database`: a data table of BENCH_ROWS (50,000) rows × 12 fields, made through
 * the real API in a server process on 127.0.0.1, on SQLite and PostgreSQL side by side. Measures
 * what the Table view asks the server for: a window of 100 rows of a view sorted by a number
 * field and filtered by a select field (issue 16: ≤ 30 ms p95), at the top and at random
 * offsets (and the first, cold window that computes the view's order), the footer (cold and
 * kept) and a cell write. Sequential requests (one user
 * scrolling), after a warm-up; prints a table and writes test/bench/results/database-<time>.json.
 *   BENCH_ROWS=50000 BENCH_SAMPLES=200 BENCH_DBS=sqlite,postgres npm run bench:database
 */
import fs from 'node:fs';
import path from 'node:path';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { fetchJson, signInToProcess, startPostgresProcess, startServerProcess, type ServerProcess } from '../helpers/serverProcess';
import { seeded } from '../helpers/races';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const DBS = (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const S = '/api/v3/spaces';

const FIELDS = {
  [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
  price: { name: 'Цена', type: 'number', format: 'rub' },
  qty: { name: 'Количество', type: 'number' },
  done: { name: 'Готово', type: 'checkbox' },
  stage: { name: 'Этап', type: 'select', options: ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ id, name: `Этап ${i + 1}` })) },
  tags: { name: 'Метки', type: 'multiSelect', options: ['x', 'y', 'z'].map((id) => ({ id, name: id })) },
  due: { name: 'Срок', type: 'date' },
  note: { name: 'Заметка', type: 'text' },
  site: { name: 'Сайт', type: 'url' },
  mail: { name: 'Почта', type: 'email' },
  phone: { name: 'Телефон', type: 'phone' },
  created: { name: 'Создано', type: 'createdTime' },
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await work();
  return [performance.now() - start, result];
}

async function seed(server: ServerProcess, cookie: string): Promise<string> {
  const page = await fetchJson<{ data: { id: string } }>(`${server.url}${S}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'bench database' }) });
  const layout = { uid: 'v1', type: 'table', name: 'Таблица', orderedFields: Object.keys(FIELDS).map((fieldId) => ({ fieldId, isWrap: false })) };
  const db = await fetchJson<{ data: { id: string } }>(`${server.url}${S}/block`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ pageId: page.data.id, type: 'database', data: { config: { fields: FIELDS }, view: { layouts: [layout] } } }),
  });
  const random = seeded(50);
  for (let start = 0; start < ROWS; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, ROWS - start) }, (_, k) => {
      const i = start + k;
      return {
        title: `Задача ${i} ${['альфа', 'бета', 'гамма'][random(3)]}`,
        values: {
          price: random(100_000) / 100,
          qty: random(1000),
          done: random(2) === 1,
          stage: ['a', 'b', 'c', 'd', 'e'][random(5)],
          tags: [['x'], ['y'], ['x', 'z'], []][random(4)],
          due: `2026-${String(1 + random(12)).padStart(2, '0')}-${String(1 + random(28)).padStart(2, '0')}`,
          note: `заметка ${random(10_000)}`,
          site: `https://example.com/${i}`,
          mail: `user${i}@example.com`,
          phone: `+7 900 ${String(random(10_000_000)).padStart(7, '0')}`,
        },
      };
    });
    await fetchJson(`${server.url}${S}/database/${db.data.id}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows }) });
    if (start % 10_000 === 0) process.stdout.write(`  ${start + rows.length} rows\n`);
  }
  return db.data.id;
}

const q = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

async function measure(database: 'sqlite' | 'postgres') {
  const postgres = database === 'postgres' ? await startPostgresProcess() : null;
  const server = await startServerProcess({ LOG_REQUESTS: 'false', ...(postgres ? { DATABASE_URL: postgres.url } : {}) });
  try {
    const cookie = await signInToProcess(server, 'bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows × ${Object.keys(FIELDS).length} fields…\n`);
    const [seedMs, databaseId] = await timed(() => seed(server, cookie));
    const view = { filter: { op: 'and', rules: [{ fieldId: 'stage', condition: 'isNot', value: 'c' }] }, sorts: [{ fieldId: 'price', direction: 'desc' }] };
    const rows = (params: Record<string, unknown>) => fetchJson<{ data: unknown[]; meta: { count: number } }>(`${server.url}${S}/database/${databaseId}/rows?${q(params)}`, { cookie });
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
    await fetchJson(`${server.url}${S}/database/${databaseId}/views/v1`, { method: 'POST', cookie, body: JSON.stringify({ layout: { ...view, calculations: { price: 'sum', qty: 'average', note: 'empty' } } }) });
    const calculations: number[] = [];
    const footerUrl = `${server.url}${S}/database/${databaseId}/calculations?viewId="v1"`;
    const [footerColdMs] = await timed(() => fetchJson(footerUrl, { cookie }));
    for (let i = 0; i < Math.min(SAMPLES, 50); i++) calculations.push((await timed(() => fetchJson(`${server.url}${S}/database/${databaseId}/calculations?viewId="v1"`, { cookie })))[0]);
    const ids = (first.data as Array<{ id: string; versions: Record<string, number> }>).slice(0, 50);
    const writes: number[] = [];
    for (const row of ids) {
      writes.push((await timed(() => fetchJson(`${server.url}${S}/row/${row.id}/cells/note`, { method: 'POST', cookie, body: JSON.stringify({ value: 'изменено', version: row.versions.note ?? 0 }) })))[0]);
    }
    const figures = (values: number[]) => ({ p50: Number(percentile(values, 50).toFixed(1)), p95: Number(percentile(values, 95).toFixed(1)) });
    return {
      database,
      rows: ROWS,
      viewCount: count,
      seedSeconds: Number((seedMs / 1000).toFixed(1)),
      viewColdMs: Number(coldMs.toFixed(1)),
      footerColdMs: Number(footerColdMs.toFixed(1)),
      topWindow: figures(top),
      randomWindow: figures(anywhere),
      unsortedRandomWindow: figures(unsorted),
      calculations: figures(calculations),
      cellWrite: figures(writes),
    };
  } finally {
    await server.stop();
    await postgres?.stop();
  }
}

const results = [];
for (const database of DBS) results.push(await measure(database));
process.stdout.write('\nData table (ms, sequential requests on loopback; window = 100 rows sorted by a number, filtered by a select):\n');
process.stdout.write('database  rows    in view  cold view  top p50/p95  random p50/p95  unsorted p50/p95  cold footer  footer p50/p95  cell write p50/p95  seed s\n');
for (const r of results) {
  process.stdout.write(
    `${r.database.padEnd(9)} ${String(r.rows).padEnd(7)} ${String(r.viewCount).padEnd(8)} ${String(r.viewColdMs).padEnd(10)} ${`${r.topWindow.p50}/${r.topWindow.p95}`.padEnd(12)} ${`${r.randomWindow.p50}/${r.randomWindow.p95}`.padEnd(15)} ${`${r.unsortedRandomWindow.p50}/${r.unsortedRandomWindow.p95}`.padEnd(17)} ${String(r.footerColdMs).padEnd(12)} ${`${r.calculations.p50}/${r.calculations.p95}`.padEnd(15)} ${`${r.cellWrite.p50}/${r.cellWrite.p95}`.padEnd(19)} ${r.seedSeconds}\n`,
  );
}
const out = path.join('test/bench/results', `database-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(results, null, 2));
process.stdout.write(`\nwritten ${out}\n`);
