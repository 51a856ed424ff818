/**
 * What the data-table benches share (`bench:database`, `bench:table`): a server process on SQLite
 * or on an embedded PostgreSQL, a Database page holding a table of N rows × 12 fields made through
 * the real API (rows in batches of 1,000), percentiles, and the results file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { connectDatabase } from '../../server/db/connect';
import type { Database } from '../../server/db/types';
import { SQLITE_FILE } from '../../server/plugins/db';
import { fetchJson, startPostgresProcess, startServerProcess, type ServerProcess } from '../helpers/serverProcess';
import { seeded } from '../helpers/races';

export type BenchDatabase = 'sqlite' | 'postgres';
export const S = '/api/v3/spaces';

/** The databases a bench runs on (BENCH_DBS=sqlite,postgres). */
export const benchDatabases = (): BenchDatabase[] => (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',') as BenchDatabase[];

/** The 12 fields: the title and one of most types. */
export const TABLE_FIELDS = {
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

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** p50 and p95, rounded to 0.1. */
export const figures = (values: number[]) => ({ p50: Number(percentile(values, 50).toFixed(1)), p95: Number(percentile(values, 95).toFixed(1)) });

export async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await work();
  return [performance.now() - start, result];
}

/** The real server as its own process on a database (PostgreSQL started for it); `stop` ends both. */
export interface BenchServer {
  server: ServerProcess;
  /** Targets waiting on the server's search queue (the indexer's backlog), read from its database by a connection of the bench's own. */
  searchQueue(): Promise<number>;
  /** The backlogs the server's indexer logged as caught up since `sinceMs` (epoch ms): their targets and seconds. */
  searchCatchUps(sinceMs: number): Array<{ targets: number; seconds: number }>;
  stop(): Promise<void>;
}

/** `nodeArgs`: the server's node options (e.g. `--cpu-prof`). */
export async function startBenchServer(database: BenchDatabase, nodeArgs: string[] = []): Promise<BenchServer> {
  const postgres = database === 'postgres' ? await startPostgresProcess() : null;
  try {
    // Info: the indexer's «caught up» lines are read (`searchCatchUps`).
    const server = await startServerProcess({ LOG_REQUESTS: 'false', LOG_LEVEL: 'info', ...(postgres ? { DATABASE_URL: postgres.url } : {}) }, nodeArgs);
    let db: Kysely<Database> | null = null;
    return {
      server,
      async searchQueue() {
        db ??= connectDatabase({ databaseUrl: postgres?.url, sqliteFile: path.join(server.dataDir, SQLITE_FILE) }).db;
        const row = await db
          .selectFrom('search_queue')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      },
      searchCatchUps(sinceMs) {
        return server
          .log()
          .split('\n')
          .filter((line) => line.includes('"search index caught up"'))
          .flatMap((line) => {
            try {
              return [JSON.parse(line) as { time: number; targets: number; seconds: number }];
            } catch {
              return []; // a line cut or mixed with stderr's
            }
          })
          .filter((entry) => entry.time >= sinceMs)
          .map(({ targets, seconds }) => ({ targets, seconds }));
      },
      async stop() {
        await db?.destroy();
        await server.stop();
        await postgres?.stop();
      },
    };
  } catch (error) {
    await postgres?.stop();
    throw error;
  }
}

/** Fields a bench adds to TABLE_FIELDS, and each row's values of them (`random(n)`: 0 … n-1, seeded). */
export interface ExtraColumns {
  fields: Record<string, { name: string; type: string }>;
  values(index: number, random: (n: number) => number): Record<string, unknown>;
}

export interface SeededTable {
  pageId: string;
  databaseId: string;
  /** The Table view's uid. */
  viewId: string;
}

/**
 * A page of type Database in the caller's private section, its database given TABLE_FIELDS (shown
 * in its Table view, in that order) and `rows` rows of varied values.
 */
export async function seedBigTable(server: ServerProcess, cookie: string, rows: number, title = 'bench database', extra?: ExtraColumns): Promise<SeededTable> {
  const page = await fetchJson<{ data: { id: string } }>(`${server.url}${S}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title }),
  });
  const blocks = await fetchJson<{ data: Array<{ id: string; type: string; data: { view: { layouts: Array<{ uid: string }> } } }> }>(
    `${server.url}${S}/note/${page.data.id}/blocks`,
    { cookie },
  );
  const block = blocks.data.find((b) => b.type === 'database');
  if (!block) throw new Error('a Database page without its database block');
  for (const [id, field] of Object.entries({ ...TABLE_FIELDS, ...extra?.fields })) {
    if (id !== MAIN_FIELD_ID) await fetchJson(`${server.url}${S}/database/${block.id}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id, field }) });
  }
  const random = seeded(50);
  for (let start = 0; start < rows; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, rows - start) }, (_, k) => {
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
          ...extra?.values(i, random),
        },
      };
    });
    await fetchJson(`${server.url}${S}/database/${block.id}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows: batch }) });
    if (start % 10_000 === 0) process.stdout.write(`  ${start + batch.length} rows\n`);
  }
  return { pageId: page.data.id, databaseId: block.id, viewId: block.data.view.layouts[0].uid };
}

/** Writes a bench's results to test/bench/results/<name>-<time>.json; answers the file. */
export function writeResults(name: string, results: unknown): string {
  const file = path.join('test/bench/results', `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(results, null, 2));
  return file;
}

/** p50 / p95 as a table cell. */
export const pair = (f: { p50: number; p95: number }) => `${f.p50} / ${f.p95}`;

/**
 * A browser bench's ending: its results on each database run one after the other (`bench`), a
 * Markdown table of `figures` (name, target, the cell of a result) with a line on what was run,
 * and the results written to test/bench/results/<name>-<time>.json with `method`.
 */
export async function runBench<R extends { database: BenchDatabase }>(
  name: string,
  bench: (database: BenchDatabase) => Promise<R>,
  heading: string,
  figures: Array<[string, string, (result: R) => string]>,
  method: Record<string, unknown>,
  targets: Record<string, number>,
): Promise<void> {
  const started = performance.now();
  const results: R[] = [];
  for (const database of benchDatabases()) results.push(await bench(database));
  process.stdout.write(`\n${heading}\n`);
  process.stdout.write(`| figure | target | ${results.map((r) => r.database).join(' | ')} |\n|---|---|${results.map(() => '---|').join('')}\n`);
  for (const [figure, target, value] of figures) process.stdout.write(`| ${figure} | ${target} | ${results.map(value).join(' | ')} |\n`);
  const wallSeconds = Math.round((performance.now() - started) / 1000);
  process.stdout.write(`\nwritten ${writeResults(name, { method: { ...method, wallSeconds }, targets, results })} (${wallSeconds} s)\n`);
}

/** In a page (an init script): `window.__afterPaint(then)`, the first task after the current frame's rendering, with its time. */
export const AFTER_PAINT_SCRIPT = `
window.__afterPaint = (then) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => then(performance.now());
  channel.port2.postMessage(0);
};
`;

/** First-screen times: p50 / p95, the slowest, how many. */
export const screenFigures = (times: number[]) => ({ ...figures(times), max: Number(Math.max(...times).toFixed(1)), runs: times.length });

/** Frame times: p50 / p95, how many, how many over the frame budget `limitMs`. */
export const frameFigures = (times: number[], limitMs: number) => ({
  ...figures(times),
  frames: times.length,
  over16_7: times.filter((f) => f > limitMs).length,
});

/**
 * In a page (an init script, with AFTER_PAINT_SCRIPT): `window.__scrollFrames(el, frames, step,
 * horizontal, loading)` scrolls `el` by `step` px a frame (down, or right) for `frames` frames:
 * each frame's time from its start (the animation frame's timestamp: before the scroll event,
 * React's render, style, layout, paint) until the first task after it, the frames' intervals, and
 * how many frames had an element matching `loading` (rows still being read). The next offset is
 * set after the frame, when nothing is dirty, as a wheel's scroll comes in between frames (set in
 * the frame, it would force a layout of its own).
 */
export const SCROLL_FRAMES_SCRIPT = `
window.__scrollFrames = (el, frames, step, horizontal = false, loading = '.db-row.is-loading') => new Promise((resolve) => {
  const work = [];
  const intervals = [];
  let loadingFrames = 0;
  let last = 0;
  let n = 0;
  let at = horizontal ? el.scrollLeft : el.scrollTop;
  const frame = (time) => {
    if (last) intervals.push(time - last);
    last = time;
    if (n > 0 && el.querySelector(loading)) loadingFrames += 1;
    window.__afterPaint((done) => {
      if (n > 0) work.push(done - time);
      if (n++ >= frames) return resolve({ work, intervals, loadingFrames });
      at += step;
      if (horizontal) el.scrollLeft = at;
      else el.scrollTop = at;
      requestAnimationFrame(frame);
    });
  };
  requestAnimationFrame(frame);
});
`;

export interface ScrollResult {
  work: number[];
  intervals: number[];
  loadingFrames: number;
}
/** The page's window with SCROLL_FRAMES_SCRIPT. */
export type ScrollingWindow = Window & {
  __scrollFrames(el: Element, frames: number, step: number, horizontal?: boolean, loading?: string): Promise<ScrollResult>;
};

/** In a page (an init script, with AFTER_PAINT_SCRIPT): `window.__firstPaint`, when the first element matching `selector` was painted (the first task after the next frame). */
export const firstPaintScript = (selector: string) => `
const firstPaintObserver = new MutationObserver(() => {
  if (window.__firstPaint !== undefined || !document.querySelector(${JSON.stringify(selector)})) return;
  window.__firstPaint = -1;
  firstPaintObserver.disconnect();
  requestAnimationFrame(() => window.__afterPaint((at) => (window.__firstPaint = at)));
});
firstPaintObserver.observe(document, { childList: true, subtree: true });
`;

/**
 * A page opened in a fresh context signed in with `cookie` (its init `script` given, with
 * firstPaintScript, or another that sets the window's `mark` to the time of the first screen):
 * the tab and its first screen, ms from the navigation's start.
 */
export async function openBenchPage(
  browser: Browser,
  serverUrl: string,
  cookie: string,
  pageId: string,
  viewport: { width: number; height: number },
  script: string,
  mark = '__firstPaint',
): Promise<{ context: BrowserContext; tab: Page; firstScreen: number }> {
  const context = await browser.newContext({ viewport });
  const at = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: serverUrl }]);
  await context.addInitScript(script);
  const tab = await context.newPage();
  tab.setDefaultTimeout(30_000);
  await tab.goto(`${serverUrl}/${pageId}`);
  await tab.waitForFunction((name) => ((window as unknown as Record<string, number | undefined>)[name] ?? -1) > 0, mark);
  const firstScreen = await tab.evaluate((name) => (window as unknown as Record<string, number>)[name], mark);
  return { context, tab, firstScreen };
}

/** The renderer's counters of CPU time (CDP Performance, thread time), ms. */
export async function cpuCounters(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value * 1000]));
}

/**
 * A browser bench's openings of its page: one warm-up, then `reps` openings, each in a fresh
 * context (`open`), whose first screens are answered; the first `runs` of them go on to `measure`
 * in that tab (answering the rest of the opening's line, which is printed).
 */
export async function benchOpenings(
  database: BenchDatabase,
  reps: number,
  runs: number,
  open: () => Promise<{ context: BrowserContext; tab: Page; firstScreen: number }>,
  measure: (opened: { context: BrowserContext; tab: Page }) => Promise<string>,
): Promise<number[]> {
  const firstScreens: number[] = [];
  for (let rep = 0; rep <= reps; rep++) {
    const opened = await open();
    try {
      if (rep === 0) continue; // warm-up
      firstScreens.push(opened.firstScreen);
      const rest = rep <= runs ? await measure(opened) : '';
      process.stdout.write(`[${database}] #${rep}: first screen ${opened.firstScreen.toFixed(0)} ms${rest}\n`);
    } finally {
      await opened.context.close();
    }
  }
  return firstScreens;
}
