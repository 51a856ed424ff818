/**
 * What the data-table benches share (`bench:database`, `bench:table`): a server process on SQLite
 * or on an embedded PostgreSQL, a Database page holding a table of N rows × 12 fields made through
 * the real API (rows in batches of 1,000), percentiles, and the results file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { addSessionCookie } from '../helpers/browser';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { connectDatabase } from '../../server/db/connect';
import type { Database } from '../../server/db/types';
import { SQLITE_FILE } from '../../server/plugins/db';
import { fetchJson, freePort, startPostgresProcess, startServerProcess, type ServerProcess } from '../helpers/serverProcess';
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
  /**
   * Stops the server process and starts it again on the same data and port (the same URL: the
   * browser's cookies hold) with `env` added (e.g. SEARCH_INDEX_INTERVAL_MS to hold its indexer
   * off); answers the new process.
   */
  restart(env?: Record<string, string>): Promise<ServerProcess>;
  stop(): Promise<void>;
}

/** `nodeArgs`: the server's node options (e.g. `--cpu-prof`). */
export async function startBenchServer(database: BenchDatabase, nodeArgs: string[] = []): Promise<BenchServer> {
  const postgres = database === 'postgres' ? await startPostgresProcess() : null;
  // The bench's own data directory and port, kept across restarts.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workspace-bench-'));
  const env = {
    // Info: the indexer's «caught up» lines are read (`searchCatchUps`).
    LOG_REQUESTS: 'false',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
  try {
    let server = await startServerProcess(env, nodeArgs);
    let db: Kysely<Database> | null = null;
    return {
      server,
      async searchQueue() {
        db ??= connectDatabase({ databaseUrl: postgres?.url, sqliteFile: path.join(dataDir, SQLITE_FILE) }).db;
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
      async restart(more = {}) {
        await server.stop();
        server = await startServerProcess({ ...env, ...more }, nodeArgs);
        return server;
      },
      async stop() {
        await db?.destroy();
        await server.stop();
        await postgres?.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await postgres?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Waits until the server's search queue is empty, or has not gone down for `stallMs` (the indexer
 * held off: SEARCH_INDEX_INTERVAL_MS); answers the targets left (0: caught up).
 */
export async function searchQueueEmptied(searchQueue: () => Promise<number>, stallMs = 10_000): Promise<number> {
  let left = await searchQueue();
  let lastFall = Date.now();
  while (left > 0 && Date.now() - lastFall < stallMs) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = await searchQueue();
    if (now < left) lastFall = Date.now();
    left = now;
  }
  return left;
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
 * set after the frame, as a wheel's scroll comes in between frames (set in the frame, it would
 * force a layout of its own). Setting it forces the style and layout of whatever changed since the
 * frame (rows a page drew in a task after it, not in its scroll event): that time is added to the
 * next frame's, where a wheel's scroll would have them done.
 */
export const SCROLL_FRAMES_SCRIPT = `
window.__scrollFrames = (el, frames, step, horizontal = false, loading = '.db-row.is-loading') => new Promise((resolve) => {
  const work = [];
  const intervals = [];
  let loadingFrames = 0;
  let last = 0;
  let n = 0;
  let forced = 0;
  let at = horizontal ? el.scrollLeft : el.scrollTop;
  const frame = (time) => {
    if (last) intervals.push(time - last);
    last = time;
    if (n > 0 && el.querySelector(loading)) loadingFrames += 1;
    window.__afterPaint((done) => {
      if (n > 0) work.push(done - time + forced);
      if (n++ >= frames) return resolve({ work, intervals, loadingFrames });
      at += step;
      const before = performance.now();
      if (horizontal) el.scrollLeft = at;
      else el.scrollTop = at;
      forced = performance.now() - before;
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
  await addSessionCookie(context, cookie, serverUrl);
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

/** A scroll measured by `measureScroll`: each frame's time, the intervals, the frames with rows loading, and the CPU a frame (ms, thread time). */
export interface MeasuredScroll extends ScrollResult {
  mainCpu: number;
  rendererCpu: number;
  scriptCpu: number;
  layoutCpu: number;
}

/**
 * BENCH_TRACE: a Chromium trace of the scroll (CDP Tracing), its main-thread and compositor events
 * summed by name, a frame: where a frame's time goes (the scroll event and what it renders, forced
 * style and layout, paint, layerizing), beside the baseline's. Started before the scroll; the
 * function returned ends it and gives the 40 largest as lines.
 */
async function traceFrames(cdp: CDPSession): Promise<(frames: number) => Promise<string>> {
  interface TraceEvent {
    ph: string;
    name: string;
    pid: number;
    tid: number;
    dur?: number;
    args: { name?: string };
  }
  const events: TraceEvent[] = [];
  const collect = (e: { value: object[] }) => events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink,cc', transferMode: 'ReportEvents' });
  return async (frames) => {
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
    const threads = new Map<string, string>();
    for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name ?? '');
    const sums = new Map<string, number>();
    for (const e of events) {
      const thread = threads.get(`${e.pid}:${e.tid}`) ?? '';
      if (e.ph !== 'X' || !e.dur || !/^(CrRendererMain|Compositor)/.test(thread)) continue;
      const key = `${thread.replace(/\d+$/, '')} ${e.name}`;
      sums.set(key, (sums.get(key) ?? 0) + e.dur / 1000);
    }
    return [...sums]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40)
      .map(([key, ms]) => `${(ms / frames).toFixed(2).padStart(7)} ${key}`)
      .join('\n');
  };
}

/**
 * Scrolls the element `selector` of `tab` (a page with SCROLL_FRAMES_SCRIPT) from its start by
 * `step` px a frame for `frames` frames (`horizontal`: sideways), after 300 ms at rest: each
 * frame's time, the frames' intervals, the frames with an element matching `loading`, and the CPU
 * the page's main thread (and its whole renderer) spent a frame — the part of the frame time that
 * another process's load on the machine does not change. `profile`: a file the renderer's JS
 * profile of the scroll is written to (CDP Profiler).
 */
export async function measureScroll(
  tab: Page,
  cdp: CDPSession,
  selector: string,
  options: { frames: number; step: number; horizontal?: boolean; loading: string; profile?: string },
): Promise<MeasuredScroll> {
  const { frames, step, horizontal = false, loading, profile } = options;
  const target = tab.locator(selector).first();
  await target.evaluate((el, sideways) => (sideways ? (el.scrollLeft = 0) : (el.scrollTop = 0)), horizontal);
  await tab.waitForTimeout(300);
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  // Experiments without a build: BENCH_CSS is added to the page before it is scrolled.
  if (process.env.BENCH_CSS) await tab.addStyleTag({ content: process.env.BENCH_CSS });
  const traced = process.env.BENCH_TRACE ? await traceFrames(cdp) : null;
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const before = await cpuCounters(cdp);
  const result = await target.evaluate((el, o) => (window as unknown as ScrollingWindow).__scrollFrames(el, o.frames, o.step, o.horizontal, o.loading), {
    frames,
    step,
    horizontal,
    loading,
  });
  const after = await cpuCounters(cdp);
  if (traced) console.log(`${selector}: the renderer's trace, ms a frame over ${frames} frames\n${await traced(frames)}`);
  await cdp.send('Performance.disable');
  if (profile) {
    const { profile: cpu } = await cdp.send('Profiler.stop');
    fs.writeFileSync(profile, JSON.stringify(cpu));
  }
  const perFrame = (name: string) => (after[name] - before[name]) / frames;
  return {
    ...result,
    mainCpu: perFrame('ThreadTime'),
    rendererCpu: perFrame('ProcessTime'),
    scriptCpu: perFrame('ScriptDuration'),
    layoutCpu: perFrame('LayoutDuration') + perFrame('RecalcStyleDuration'),
  };
}

/** CPU a frame as a table cell: main thread (script, style + layout) / renderer, ms. */
export const cpuCell = (c: { mainThread: number; script: number; styleAndLayout: number; renderer: number }) =>
  `${c.mainThread} (${c.script}, ${c.styleAndLayout}) / ${c.renderer}`;

/** The median of `values` (NaN for none). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A scroll of the real view beside its baseline, over repetitions (BENCH-METHOD): every frame of
 * each kept for the percentiles over all runs, each run's p50 / p95 and CPU a frame, and the
 * ratios view ÷ baseline of each repetition, whose medians are the figures.
 */
export class ScrollPair {
  readonly runs: Array<{ view: MeasuredScroll; baseline: MeasuredScroll }> = [];

  add(view: MeasuredScroll, baseline: MeasuredScroll): string {
    this.runs.push({ view, baseline });
    const p = (s: MeasuredScroll) =>
      `${percentile(s.work, 50).toFixed(1)}/${percentile(s.work, 95).toFixed(1)} ms (CPU ${s.mainCpu.toFixed(1)}, ${s.loadingFrames} loading)`;
    return `view ${p(view)}, baseline ${p(baseline)}, p95 ratio ${(percentile(view.work, 95) / percentile(baseline.work, 95)).toFixed(2)}`;
  }

  /** The figures: medians over runs of each run's p50, p95 and CPU a frame, and of the ratios; all frames' p50 / p95 too. */
  figures() {
    const side = (pick: (run: { view: MeasuredScroll; baseline: MeasuredScroll }) => MeasuredScroll) => {
      const scrolls = this.runs.map(pick);
      const round = (v: number, d = 1) => Number(v.toFixed(d));
      return {
        p50: round(median(scrolls.map((s) => percentile(s.work, 50)))),
        p95: round(median(scrolls.map((s) => percentile(s.work, 95)))),
        runP95: scrolls.map((s) => round(percentile(s.work, 95))),
        allFrames: figures(scrolls.flatMap((s) => s.work)),
        frames: scrolls.reduce((n, s) => n + s.work.length, 0),
        loadingFrames: scrolls.reduce((n, s) => n + s.loadingFrames, 0),
        cpu: {
          mainThread: round(median(scrolls.map((s) => s.mainCpu)), 2),
          script: round(median(scrolls.map((s) => s.scriptCpu)), 2),
          styleAndLayout: round(median(scrolls.map((s) => s.layoutCpu)), 2),
          renderer: round(median(scrolls.map((s) => s.rendererCpu)), 2),
        },
      };
    };
    const ratio = (of: (s: MeasuredScroll) => number) => Number(median(this.runs.map((r) => of(r.view) / of(r.baseline))).toFixed(2));
    return {
      view: side((r) => r.view),
      baseline: side((r) => r.baseline),
      ratio: {
        p50: ratio((s) => percentile(s.work, 50)),
        p95: ratio((s) => percentile(s.work, 95)),
        mainCpu: ratio((s) => s.mainCpu),
        rendererCpu: ratio((s) => s.rendererCpu),
      },
    };
  }
}

/**
 * A first screen's static-HTML floor (BENCH-METHOD: «a static HTML page holding the same first
 * screen of text, served by the same server»): a file in the web build's directory (WEB_DIR, dist),
 * which the server serves like the build's other files. Made (empty) before the server starts —
 * the server lists its static files at start — and filled by `write` once the rows are there;
 * `remove` when done. `name` is its path on the server.
 */
export function staticFloorFile(): { name: string; write(html: string): void; remove(): void } {
  const name = `bench-floor-${process.pid}-${Date.now()}.html`;
  const file = path.join(path.resolve(process.env.WEB_DIR ?? 'dist'), name);
  fs.writeFileSync(file, '<!doctype html><title>floor</title>');
  return {
    name,
    write: (html) => fs.writeFileSync(file, html),
    remove: () => fs.rmSync(file, { force: true }),
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A cell's text as a plain table shows it (an option's name, «Да», a date range, a list). */
function cellText(field: { type: string; options?: Array<{ id: string; name: string }> } | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => cellText(field, v)).join(', ');
  if (typeof value === 'boolean') return value ? 'Да' : '';
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).join(' – ');
  const option = field?.options?.find((o) => o.id === value);
  return option ? option.name : String(value);
}

/**
 * The static floor of a table's first screen: the page's title, its views' names, the header and
 * the first `rows` rows of TABLE_FIELDS as text in a plain <table>, no script; the element
 * `#floor-end` after it (firstPaintScript('#floor-end') times it).
 */
export async function tableFloorHtml(server: ServerProcess, cookie: string, table: SeededTable, title: string, views: string[], rows = 30): Promise<string> {
  const answer = await fetchJson<{ data: Array<{ data: { title: string; values: Record<string, unknown> } }> }>(
    `${server.url}${S}/database/${table.databaseId}/rows?limit=${rows}`,
    { cookie },
  );
  const fields = Object.entries(TABLE_FIELDS) as Array<[string, { name: string; type: string; options?: Array<{ id: string; name: string }> }]>;
  const head = fields.map(([, f]) => `<th>${escapeHtml(f.name)}</th>`).join('');
  const body = answer.data
    .map(
      ({ data }) => `<tr>${fields.map(([id, f]) => `<td>${escapeHtml(id === MAIN_FIELD_ID ? data.title : cellText(f, data.values[id]))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{margin:0;font:14px/1.5 system-ui,sans-serif}h1{font-size:32px;margin:24px 96px 8px}nav{margin:0 96px}nav span{margin-right:16px}
.wrap{margin:8px 96px;overflow:hidden}table{border-collapse:collapse;white-space:nowrap}td,th{border:1px solid #e5e5e5;padding:6px 8px;max-width:200px;overflow:hidden;text-overflow:ellipsis;text-align:left}</style></head>
<body><h1>${escapeHtml(title)}</h1><nav>${views.map((v) => `<span>${escapeHtml(v)}</span>`).join('')}</nav>
<div class="wrap"><table><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div><div id="floor-end"></div></body></html>`;
}
