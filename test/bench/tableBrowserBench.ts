/**
 * `npm run bench:table`: the Table view of a 50,000-row × 12-field database in real Chromium
 * against the real server on loopback (issue 16), on SQLite and PostgreSQL side by side.
 *
 * The database is a page of type Database made through the API (test/bench/bigTable.ts, as
 * `bench:database` makes it). After one warm-up opening, BENCH_REPS openings, each in a fresh
 * browser context (nothing cached), measure:
 *  - first screen: from the navigation's start until the first rows are painted in the grid (the
 *    first task after the animation frame that follows a loaded row's arrival in the DOM);
 * and BENCH_RUNS of them go on to measure, in that tab:
 *  - scrolling: the grid scrolled down by BENCH_STEP px a frame (100 px: 6,000 px/s, a fast
 *    fling; 3 rows come in a frame, windows of 100 are read as it goes) for BENCH_FRAMES frames,
 *    the next offset set between frames as the wheel's comes; a frame's time is from its start
 *    (the animation frame's timestamp: before the scroll event, React's render, style, layout,
 *    paint) until the first task after it; and the CPU the page's main thread and its whole
 *    renderer spent a frame (CDP Performance in thread time: what the machine's other load does
 *    not change, unlike the frame time);
 *  - a cell edit: BENCH_KEYS characters typed into the title cell's editor and as many into a
 *    plain <input> put in the same page, each from its keydown until the first task after the
 *    animation frame that follows its input event (keydown → next paint);
 *  - heap: the grid jumped through the whole table (every 5 %, each time until its rows are in),
 *    then a garbage collection (CDP HeapProfiler.collectGarbage) and Runtime.getHeapUsage.
 * Beside each of those BENCH_RUNS scrolls, in the same run (issue 34, shared/design/BENCH-METHOD.md
 * «Why every browser figure needs a baseline beside it»): a minimal virtualized HTML table of the
 * same rows (test/bench/virtualBaseline.ts: rows absolutely placed in a tall spacer, the visible
 * range and 6 more each side made on each scroll event; the grid's row height, the columns it
 * draws at the top with their widths, the same texts, read in the same API windows of 100 from
 * the same server on the same origin) opened in its own fresh context and scrolled by the same
 * script, the same steps and frames. Interleaved: in odd runs the grid's opening comes first, in
 * even ones the baseline's. Reported: each side's frame time p50 / p95 and CPU a frame (medians
 * over runs), and grid ÷ baseline (the median over runs of each run's ratio; target p95 ≤ 1.2×).
 * The baseline takes the grid's geometry from the warm-up opening, has a warm-up of its own, and
 * must draw its first row with the grid's texts (`checkBaseline`) before anything is measured.
 *
 * The seeding queues every row's title and cells for the search index, as a CSV import of as many
 * rows does (it writes them through the same `POST database/{id}/rows`, 1,000 a call): about
 * 600,000 targets, which the server's indexer takes many minutes to catch up with (issue 34: the
 * table must stay within 1.2× of its figures without it). So, right after the seeding, the table
 * is measured (a) while the indexer catches up and (b) with it held off, interleaved:
 * BENCH_INDEXING_RUNS (BENCH_RUNS) repetitions of both, (b) first in odd ones, the server
 * restarted on the same data and port before each with its indexer running or held off
 * (SEARCH_INDEX_INTERVAL_MS of a day), a warm-up opening, then one in a fresh context measuring
 * the first screen and the scroll as above, and the backlog before and after it. Reported: both,
 * and (a) ÷ (b), the median of the repetitions' ratios of the first screen and of the scroll's
 * frame p95 (target ≤ 1.2×). The figures above are then measured with the indexer held off (the
 * server restarted so), never with part of a backlog falling into them by chance.
 * Prints a table with the targets and writes test/bench/results/table-<time>.json.
 *   BENCH_DBS=sqlite,postgres BENCH_ROWS=50000 BENCH_REPS=5 BENCH_RUNS=3 BENCH_INDEXING_RUNS=3 npm run bench:table
 *   BENCH_PROFILE=file.cpuprofile profiles the last scroll (the renderer's JS, CDP Profiler).
 *   BENCH_TRACE=1 prints each scroll's Chromium trace summed by event, ms a frame (bigTable.ts
 *   traceFrames); BENCH_CSS='…' adds a style sheet to the pages before they scroll (experiments).
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { signInToProcess, type ServerProcess } from '../helpers/serverProcess';
import {
  AFTER_PAINT_SCRIPT,
  cpuCell,
  figures,
  firstPaintScript,
  frameFigures,
  measureScroll,
  openBenchPage,
  pair,
  percentile,
  runBench,
  screenFigures,
  SCROLL_FRAMES_SCRIPT,
  ScrollPair,
  seedBigTable,
  startBenchServer,
  TABLE_FIELDS,
  timed,
  type BenchDatabase,
  type MeasuredScroll,
  type BenchServer,
  type ScrollingWindow,
  type SeededTable,
} from './bigTable';
import { DATABASE_WINDOW } from '../../src/editor/blocks/rowsAddress';
import { checkBaseline, openBaseline, readTableGeometry, tableBaselineHtml, type BaselineField } from './virtualBaseline';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const RUNS = Math.min(REPS, Number(process.env.BENCH_RUNS ?? 3));
const FRAMES = Number(process.env.BENCH_FRAMES ?? 300);
const STEP = Number(process.env.BENCH_STEP ?? 100);
const KEYS = Number(process.env.BENCH_KEYS ?? 25);
const INDEXING_RUNS = Number(process.env.BENCH_INDEXING_RUNS ?? RUNS);
const VIEWPORT = { width: 1280, height: 800 };
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const TARGETS = { firstScreenMs: 500, frameMs: 16.7, scrollRatio: 1.2, editRatio: 1.5, heapMb: 80, indexingRatio: 1.2 };
/** The grid's rows drawn beyond the scroll box on each side (TableView.tsx's row virtualizer): the baseline draws as many. */
const OVERSCAN = 6;

/**
 * The page's side, as a script (not functions handed to evaluate: tsx names inner functions with a
 * helper the page does not have). `__afterPaint`: the first task after the current frame's
 * rendering. `__scrollFrames`: the scroll loop. `__armKeys`: times each key's keydown → next paint.
 */
const PAGE_SCRIPT = `${AFTER_PAINT_SCRIPT}
${SCROLL_FRAMES_SCRIPT}
window.__armKeys = () => {
  window.__keys = [];
  if (window.__armed) return;
  window.__armed = true;
  document.addEventListener('keydown', (event) => (window.__down = event.timeStamp), true);
  document.addEventListener('input', () => {
    const start = window.__down;
    window.__down = undefined;
    if (start !== undefined) requestAnimationFrame(() => window.__afterPaint((at) => window.__keys.push(at - start)));
  }, true);
};
${firstPaintScript('.db-scroll .db-row:not(.is-loading)')}`;

type BenchWindow = ScrollingWindow & {
  __keys: number[];
  __armKeys(): void;
};

interface Opened {
  context: BrowserContext;
  tab: Page;
  cdp: CDPSession;
  firstScreen: number;
}

async function open(browser: Browser, server: ServerProcess, cookie: string, table: SeededTable): Promise<Opened> {
  const opened = await openBenchPage(browser, server.url, cookie, table.pageId, VIEWPORT, PAGE_SCRIPT);
  return { ...opened, cdp: await opened.context.newCDPSession(opened.tab) };
}

/** The grid scrolled down STEP px a frame for FRAMES frames (`measureScroll`). */
function scroll(tab: Page, cdp: CDPSession, profile: boolean) {
  return measureScroll(tab, cdp, '.db-scroll', {
    frames: FRAMES,
    step: STEP,
    loading: '.db-row.is-loading',
    profile: profile ? process.env.BENCH_PROFILE : undefined,
  });
}

/** The baseline page (test/bench/virtualBaseline.ts) of the grid's geometry, opened in a fresh context and scrolled as the grid is. */
async function scrollBaseline(browser: Browser, server: ServerProcess, cookie: string, html: string) {
  const page = await openBaseline(browser, server.url, cookie, VIEWPORT, PAGE_SCRIPT, html, '#spacer .row:not(.is-loading)');
  try {
    return await measureScroll(page.tab, page.cdp, '#box', { frames: FRAMES, step: STEP, loading: '.row.is-loading' });
  } finally {
    await page.context.close();
  }
}

/** The fields as the baseline page formats them, in the view's order (data-col). */
const BASELINE_FIELDS: BaselineField[] = Object.entries(TABLE_FIELDS).map(([fieldId, field]) => ({ fieldId, ...field }));

/** Times keydown → next paint of KEYS characters typed into `target` (a key that made no input is left out). */
async function typeTimed(tab: Page, target: Locator): Promise<number[]> {
  await tab.evaluate(() => (window as unknown as BenchWindow).__armKeys());
  await target.evaluate((el) => {
    if (document.activeElement !== el) throw new Error(`the focus is on ${document.activeElement?.outerHTML.slice(0, 80)}, not the field to type into`);
  });
  for (let i = 0; i < KEYS; i++) {
    const before = await tab.evaluate(() => (window as unknown as BenchWindow).__keys.length);
    await tab.keyboard.press(i % 2 ? 'KeyO' : 'KeyA');
    await tab.waitForFunction((n) => (window as unknown as BenchWindow).__keys.length > n, before, { polling: 10, timeout: 3_000 }).catch(() => undefined);
  }
  return tab.evaluate(() => (window as unknown as BenchWindow).__keys);
}

/** Plain <input> and the title cell's editor, each KEYS characters; the order alternates by run. */
async function edit(tab: Page, run: number): Promise<{ cell: number[]; plain: number[] }> {
  await tab.locator('.db-scroll').evaluate((el) => (el.scrollTop = 0));
  await tab.evaluate(() => {
    if (document.getElementById('bench-plain')) return;
    const input = document.createElement('input');
    input.id = 'bench-plain';
    input.style.cssText = 'position: fixed; top: 4px; right: 4px; z-index: 10000; width: 200px;';
    document.body.append(input);
  });
  const plain = async () => {
    await tab.locator('#bench-plain').focus();
    return typeTimed(tab, tab.locator('#bench-plain'));
  };
  const cell = async () => {
    const editor = tab.getByLabel('Значение ячейки');
    // Clicked (the grid takes the keys), then Enter edits; a click that came before the grid took
    // the focus back (a loaded machine) is made again.
    for (let attempt = 1; ; attempt++) {
      await tab.locator('.db-scroll [data-row="1"] [data-col="0"]').click({ position: { x: 20, y: 10 } });
      await tab.locator('.db-scroll [data-row="1"] [data-col="0"].is-active').waitFor();
      await tab.keyboard.press('Enter');
      // Still focused a moment later: on a loaded machine a grid that was still taking its rows
      // in (after the jump back to the top) has been seen taking the focus back once.
      const shown = await editor
        .waitFor({ timeout: 5_000 })
        .then(() => tab.waitForTimeout(200))
        .then(() => editor.evaluate((el) => document.activeElement === el))
        .catch(() => false);
      if (shown) break;
      if (await editor.count()) await tab.keyboard.press('Escape');
      if (attempt === 3) {
        const shot = path.join(os.tmpdir(), `table-bench-${Date.now()}.png`);
        await tab.screenshot({ path: shot });
        throw new Error(`the cell editor did not open (screenshot: ${shot})`);
      }
    }
    const times = await typeTimed(tab, editor);
    await tab.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    return times;
  };
  if (run % 2) {
    const c = await cell();
    return { cell: c, plain: await plain() };
  }
  const p = await plain();
  return { cell: await cell(), plain: p };
}

/** Jumps through the whole table (every 5 %, until the rows there are in), then the heap after a GC (MB) and the DOM's nodes. */
async function heapAfterScrollingThrough(tab: Page, cdp: CDPSession): Promise<{ heapMb: number; domNodes: number }> {
  for (let at = 0.05; at <= 1.0001; at += 0.05) {
    await tab.locator('.db-scroll').evaluate((el, f) => (el.scrollTop = f * (el.scrollHeight - el.clientHeight)), at);
    await tab.waitForFunction(() => {
      const rows = document.querySelectorAll('.db-scroll .db-row');
      return rows.length > 0 && !document.querySelector('.db-scroll .db-row.is-loading');
    });
  }
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const { nodes } = await cdp.send('Memory.getDOMCounters');
  return { heapMb: usedSize / 2 ** 20, domNodes: nodes };
}

/** SEARCH_INDEX_INTERVAL_MS holding the indexer off for the bench's length (a day). */
const HELD_OFF = { SEARCH_INDEX_INTERVAL_MS: String(86_400_000) };

interface ConditionRun {
  firstScreen: number;
  frames: number[];
  backlog: { before: number; after: number };
}

/**
 * Right after the seeding (its backlog queued for the search index, as after a CSV import), the
 * table measured (a) while the server's indexer catches up and (b) with it held off, interleaved:
 * INDEXING_RUNS repetitions of both, (b) first in odd ones; for each, the server is restarted on
 * the same data with its indexer running or held off (SEARCH_INDEX_INTERVAL_MS), one warm-up
 * opening, then one in a fresh context measuring the first screen and a scroll, and the backlog
 * before and after it.
 */
async function indexingComparison(database: BenchDatabase, browser: Browser, bench: BenchServer, cookie: string, table: SeededTable) {
  const runs: Record<'indexing' | 'heldOff', ConditionRun[]> = { indexing: [], heldOff: [] };
  for (let rep = 1; rep <= INDEXING_RUNS; rep++) {
    const order: Array<'indexing' | 'heldOff'> = rep % 2 ? ['heldOff', 'indexing'] : ['indexing', 'heldOff'];
    for (const condition of order) {
      const server = await bench.restart(condition === 'heldOff' ? HELD_OFF : {});
      (await open(browser, server, cookie, table)).context.close().catch(() => undefined); // warm-up
      const before = await bench.searchQueue();
      const opened = await open(browser, server, cookie, table);
      try {
        const s = await scroll(opened.tab, opened.cdp, false);
        const after = await bench.searchQueue();
        runs[condition].push({ firstScreen: opened.firstScreen, frames: s.work, backlog: { before, after } });
        process.stdout.write(
          `[${database}] ${condition === 'indexing' ? 'indexer catching up' : 'indexer held off'} #${rep}: first screen ${opened.firstScreen.toFixed(0)} ms; scroll frame p50/p95 ${percentile(s.work, 50).toFixed(1)}/${percentile(s.work, 95).toFixed(1)} ms; search backlog ${before} → ${after}\n`,
        );
      } finally {
        await opened.context.close();
      }
    }
  }
  const summary = (list: ConditionRun[]) => ({
    firstScreen: screenFigures(list.map((r) => r.firstScreen)),
    scrollFrame: {
      ...frameFigures(
        list.flatMap((r) => r.frames),
        TARGETS.frameMs,
      ),
      runP95: list.map((r) => Number(percentile(r.frames, 95).toFixed(1))),
    },
    backlog: list.map((r) => r.backlog),
  });
  const indexing = summary(runs.indexing);
  const heldOff = summary(runs.heldOff);
  const ratios = (pick: (r: ConditionRun) => number) =>
    Number(
      percentile(
        runs.indexing.map((r, i) => pick(r) / pick(runs.heldOff[i])),
        50,
      ).toFixed(2),
    );
  return {
    indexing,
    heldOff,
    /** Runs of (a) during which the indexer indexed (its backlog went down) and had not caught up by their end. */
    runsWhileIndexing: runs.indexing.filter((r) => r.backlog.after > 0 && r.backlog.after < r.backlog.before).length,
    /** (a) ÷ (b), the median of the repetitions' ratios (target ≤ 1.2×). */
    firstScreenRatio: ratios((r) => r.firstScreen),
    scrollP95Ratio: ratios((r) => percentile(r.frames, 95)),
  };
}

async function benchDatabase(database: BenchDatabase) {
  const bench = await startBenchServer(database);
  let { server } = bench;
  const browser = await launchBrowser();
  try {
    const cookie = await signInToProcess(server, 'table-bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows × 12 fields…\n`);
    const [seedMs, table] = await timed(() => seedBigTable(server, cookie, ROWS));
    // Right after the seeding: (a) while the indexer catches up, (b) held off, interleaved. Then
    // the figures below with it held off (BENCH-METHOD: background work is its own condition,
    // never left to fall into a measurement by chance; its backlog of 50,000 rows takes minutes).
    const searchBacklogAfterSeed = await bench.searchQueue();
    const indexing = await indexingComparison(database, browser, bench, cookie, table);
    server = await bench.restart(HELD_OFF);
    const firstScreens: number[] = [];
    const frames: number[] = [];
    const intervals: number[] = [];
    const runFrameP95: number[] = [];
    let loadingFrames = 0;
    const cpu: Array<{ mainCpu: number; rendererCpu: number; scriptCpu: number; layoutCpu: number }> = [];
    const cellKeys: number[] = [];
    const plainKeys: number[] = [];
    const heaps: number[] = [];
    const pairs = new ScrollPair();
    let baselineHtml = '';
    for (let rep = 0; rep <= REPS; rep++) {
      // Interleaved: the baseline scrolled before the grid's opening in even repetitions, after it in odd ones.
      const baselineFirst = rep > 0 && rep <= RUNS && rep % 2 === 0;
      const baseline: MeasuredScroll | null = baselineFirst ? await scrollBaseline(browser, server, cookie, baselineHtml) : null;
      let grid: MeasuredScroll | null = null;
      let line = '';
      const opened = await open(browser, server, cookie, table);
      try {
        if (rep === 0) {
          // Warm-up (the server's kept view order, statement caches, the OS file cache); the baseline takes the grid's geometry.
          await opened.tab.locator('.db-scroll .db-row:not(.is-loading) [data-col="1"]').first().waitFor();
          baselineHtml = tableBaselineHtml(await readTableGeometry(opened.tab), table.databaseId, table.viewId, BASELINE_FIELDS, OVERSCAN, DATABASE_WINDOW);
          const page = await openBaseline(browser, server.url, cookie, VIEWPORT, PAGE_SCRIPT, baselineHtml, '#spacer .row:not(.is-loading)');
          await checkBaseline(opened.tab, '.db-scroll .db-row[data-row="0"]:not(.is-loading)', page.tab, '#spacer .row:first-child:not(.is-loading)').finally(
            () => page.context.close(),
          );
          continue;
        }
        firstScreens.push(opened.firstScreen);
        line = `[${database}] #${rep}: first screen ${opened.firstScreen.toFixed(0)} ms`;
        if (rep <= RUNS) {
          const s = await scroll(opened.tab, opened.cdp, !!process.env.BENCH_PROFILE && rep === RUNS);
          grid = s;
          frames.push(...s.work);
          intervals.push(...s.intervals);
          loadingFrames += s.loadingFrames;
          cpu.push(s);
          runFrameP95.push(percentile(s.work, 95));
          const e = await edit(opened.tab, rep);
          cellKeys.push(...e.cell);
          plainKeys.push(...e.plain);
          const h = await heapAfterScrollingThrough(opened.tab, opened.cdp);
          heaps.push(h.heapMb);
          line += `; scroll frame p50/p95 ${percentile(s.work, 50).toFixed(1)}/${percentile(s.work, 95).toFixed(1)} ms (interval p95 ${percentile(s.intervals, 95).toFixed(1)}, ${s.loadingFrames} frames with rows loading; CPU a frame: main thread ${s.mainCpu.toFixed(1)} ms — script ${s.scriptCpu.toFixed(1)}, style and layout ${s.layoutCpu.toFixed(1)} — renderer ${s.rendererCpu.toFixed(1)} ms)`;
          line += `; key→paint p95 cell ${percentile(e.cell, 95).toFixed(1)} / plain ${percentile(e.plain, 95).toFixed(1)} ms; heap ${h.heapMb.toFixed(1)} MB (${h.domNodes} DOM nodes)`;
        }
      } finally {
        await opened.context.close();
      }
      if (grid) {
        const other = baseline ?? (await scrollBaseline(browser, server, cookie, baselineHtml));
        line += `\n[${database}] #${rep} beside the baseline (${baselineFirst ? 'baseline first' : 'grid first'}): ${pairs.add(grid, other)}`;
      }
      process.stdout.write(`${line}\n`);
    }
    const cell = figures(cellKeys);
    const plain = figures(plainKeys);
    const scrollFrame = { ...frameFigures(frames, TARGETS.frameMs), runP95: runFrameP95.map((v) => Number(v.toFixed(1))) };
    const firstScreen = screenFigures(firstScreens);
    return {
      database,
      rows: ROWS,
      seedSeconds: Number((seedMs / 1000).toFixed(1)),
      searchBacklogAfterSeed,
      /** Right after the seeding, (a) while the indexer catches up and (b) held off, interleaved; their ratios (target ≤ 1.2×). */
      indexing,
      firstScreen,
      scrollFrame,
      frameInterval: figures(intervals),
      /** Mean CPU a scrolled frame, ms (thread time: what the machine's other load does not change). */
      frameCpu: {
        mainThread: Number(mean(cpu.map((c) => c.mainCpu)).toFixed(2)),
        script: Number(mean(cpu.map((c) => c.scriptCpu)).toFixed(2)),
        styleAndLayout: Number(mean(cpu.map((c) => c.layoutCpu)).toFixed(2)),
        renderer: Number(mean(cpu.map((c) => c.rendererCpu)).toFixed(2)),
      },
      loadingFrames,
      cellEdit: { ...cell, keys: cellKeys.length },
      plainInput: { ...plain, keys: plainKeys.length },
      keysTyped: RUNS * KEYS,
      editRatio: { p50: Number((cell.p50 / plain.p50).toFixed(2)), p95: Number((cell.p95 / plain.p95).toFixed(2)) },
      heapMb: { max: Number(Math.max(...heaps).toFixed(1)), runs: heaps.map((h) => Number(h.toFixed(1))) },
      /** The grid's scroll beside the minimal virtualized table's (virtualBaseline.ts), medians over the runs and the ratios grid ÷ baseline. */
      scrollBeside: pairs.figures(),
    };
  } finally {
    await browser.close();
    await bench.stop();
  }
}

type Result = Awaited<ReturnType<typeof benchDatabase>>;

async function main() {
  const figures: Array<[string, string, (r: Result) => string]> = [
    ['first screen: navigation → first rows painted, ms (p50 / p95)', `≤ ${TARGETS.firstScreenMs}`, (r) => pair(r.firstScreen)],
    [`scroll frame time, ${STEP} px a frame, ms (p50 / p95)`, `p95 ≤ ${TARGETS.frameMs}`, (r) => pair(r.scrollFrame)],
    ['  frames over 16.7 ms', '', (r) => `${r.scrollFrame.over16_7} of ${r.scrollFrame.frames}`],
    ['  interval between frames, ms (p50 / p95)', '', (r) => pair(r.frameInterval)],
    [
      '  CPU a frame, mean ms: main thread (script, style + layout) / whole renderer',
      '',
      (r) => `${r.frameCpu.mainThread} (${r.frameCpu.script}, ${r.frameCpu.styleAndLayout}) / ${r.frameCpu.renderer}`,
    ],
    ['minimal virtualized table, the same rows and scroll: frame time, ms (p50 / p95, medians of runs)', '', (r) => pair(r.scrollBeside.baseline)],
    ['  the grid, the same runs: frame time, ms (p50 / p95, medians of runs)', '', (r) => pair(r.scrollBeside.view)],
    ['  grid ÷ baseline, frame time (p50 / p95, median of runs)', `p95 ≤ ${TARGETS.scrollRatio}×`, (r) => pair(r.scrollBeside.ratio)],
    [
      '  CPU a frame, ms: main thread (script, style + layout) / renderer: grid · baseline (ratios)',
      '',
      (r) =>
        `${cpuCell(r.scrollBeside.view.cpu)} · ${cpuCell(r.scrollBeside.baseline.cpu)} (${r.scrollBeside.ratio.mainCpu}× / ${r.scrollBeside.ratio.rendererCpu}×)`,
    ],
    ['cell edit: keydown → next paint, ms (p50 / p95)', '', (r) => pair(r.cellEdit)],
    ['plain <input>: keydown → next paint, ms (p50 / p95)', '', (r) => pair(r.plainInput)],
    ['  cell edit ÷ plain input (p50 / p95)', `p95 ≤ ${TARGETS.editRatio}×`, (r) => pair(r.editRatio)],
    ['JS heap after scrolling through, after a GC, MB (max)', `≤ ${TARGETS.heapMb}`, (r) => String(r.heapMb.max)],
    ['search backlog after the seeding (targets)', '', (r) => `${r.searchBacklogAfterSeed}`],
    [
      '(a) indexer catching up: first screen / scroll frame p95, ms',
      '',
      (r) =>
        `${r.indexing.indexing.firstScreen.p50} / ${r.indexing.indexing.scrollFrame.p95} (${r.indexing.runsWhileIndexing} of ${r.indexing.indexing.backlog.length} runs indexing all along)`,
    ],
    ['(b) indexer held off: first screen / scroll frame p95, ms', '', (r) => `${r.indexing.heldOff.firstScreen.p50} / ${r.indexing.heldOff.scrollFrame.p95}`],
    [
      '  (a) ÷ (b): first screen / scroll frame p95 (medians of the repetitions)',
      `≤ ${TARGETS.indexingRatio}×`,
      (r) => `${r.indexing.firstScreenRatio}× / ${r.indexing.scrollP95Ratio}×`,
    ],
  ];
  const heading = `Table view of ${ROWS} rows × 12 fields in Chromium (loopback, ${REPS} openings, ${RUNS} scroll/edit/heap runs each, the search indexer held off; and ${INDEXING_RUNS} × (a)/(b) right after the seeding)`;
  await runBench('table', benchDatabase, heading, figures, { ROWS, REPS, RUNS, INDEXING_RUNS, FRAMES, STEP, KEYS, VIEWPORT, OVERSCAN }, TARGETS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
