/**
 * `npm run bench:timeline`: the Timeline view of a 10,000-row database in real Chromium against
 * the real server on loopback (issue 17: «a timeline of 10,000 rows scrolls at p95 ≤ 16.7 ms per
 * frame»), on SQLite and PostgreSQL side by side.
 *
 * The database is `bench:table`'s (test/bench/bigTable.ts) with BENCH_ROWS rows (10,000) and a
 * date field «Период» holding a range of 1–21 days, the starts spread over a year around today;
 * its timeline (by weeks, the title and two fields in the table pane) is the page's first view,
 * so its first window is asked for by index.html's early script, as a table's. After one warm-up
 * opening, BENCH_REPS openings, each in a fresh browser context, measure:
 *  - first screen: from the navigation's start until the first rows are painted (the first task
 *    after the animation frame that follows a loaded row's arrival in the DOM);
 * and BENCH_RUNS of them go on to measure, in that tab:
 *  - a vertical scroll: BENCH_STEP px (100: 3 rows) a frame for BENCH_FRAMES frames, windows of
 *    100 rows read as it goes;
 *  - a horizontal scroll: BENCH_STEP px (about 5.5 days by weeks) a frame for BENCH_FRAMES frames,
 *    ticks and bars drawn for the days coming on screen;
 *    each frame's time from its start until the first task after it (SCROLL_FRAMES_SCRIPT).
 * Prints a table with the targets and writes test/bench/results/timeline-<time>.json.
 *   BENCH_DBS=sqlite,postgres BENCH_ROWS=10000 BENCH_REPS=5 BENCH_RUNS=3 npm run bench:timeline
 */
import type { CDPSession, Page } from 'playwright-core';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { launchBrowser } from '../helpers/browser';
import { fetchJson, signInToProcess, type ServerProcess } from '../helpers/serverProcess';
import {
  AFTER_PAINT_SCRIPT,
  benchOpenings,
  cpuCounters,
  firstPaintScript,
  frameFigures,
  openBenchPage,
  pair,
  percentile,
  runBench,
  S,
  screenFigures,
  SCROLL_FRAMES_SCRIPT,
  seedBigTable,
  startBenchServer,
  timed,
  type BenchDatabase,
  type ScrollingWindow,
} from './bigTable';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const RUNS = Math.min(REPS, Number(process.env.BENCH_RUNS ?? 3));
const FRAMES = Number(process.env.BENCH_FRAMES ?? 150);
const STEP = Number(process.env.BENCH_STEP ?? 100);
const VIEWPORT = { width: 1440, height: 900 };
const TARGETS = { firstScreenMs: 500, frameMs: 16.7 };
const SCROLLER = '.db-timeline-scroll';
const LOADING = '.db-timeline-row.is-loading';

const PAGE_SCRIPT = `${AFTER_PAINT_SCRIPT}
${SCROLL_FRAMES_SCRIPT}
${firstPaintScript(`${SCROLLER} .db-timeline-row:not(.is-loading)`)}`;

/** Today `offset` days on, YYYY-MM-DD (UTC: the bench only needs the spread). */
const dayFromToday = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** `bench:table`'s database with a range field, and a timeline first among its views. */
async function seedTimeline(server: ServerProcess, cookie: string): Promise<{ pageId: string }> {
  const table = await seedBigTable(server, cookie, ROWS, 'bench timeline', {
    fields: { span: { name: 'Период', type: 'date' } },
    values: (_, random) => {
      const start = random(366) - 183;
      return { span: { start: dayFromToday(start), end: dayFromToday(start + random(21)) } };
    },
  });
  const layout = {
    uid: 'bench-timeline',
    type: 'timeline',
    name: 'Хронология',
    orderedFields: [MAIN_FIELD_ID, 'stage', 'price'].map((fieldId) => ({ fieldId, isWrap: false })),
    timeline: { startFieldId: 'span', scale: 'week' },
  };
  await fetchJson(`${server.url}${S}/database/${table.databaseId}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout }) });
  await fetchJson(`${server.url}${S}/database/${table.databaseId}/views/${layout.uid}/move`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ placeAfter: null }),
  });
  return { pageId: table.pageId };
}

/**
 * The timeline scrolled STEP px a frame for FRAMES frames, down or to the right (from where it
 * opened, on today): the frames' times, and the CPU the page's main thread and its whole renderer
 * spent a frame (thread time: what the machine's other load does not change, unlike frame times).
 */
async function scroll(tab: Page, cdp: CDPSession, horizontal: boolean) {
  await tab.locator(`${SCROLLER} .db-timeline-item`).first().waitFor();
  await tab.waitForTimeout(300);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const before = await cpuCounters(cdp);
  const result = await tab
    .locator(SCROLLER)
    .evaluate((el, args) => (window as unknown as ScrollingWindow).__scrollFrames(el, args.frames, args.step, args.horizontal, args.loading), {
      frames: FRAMES,
      step: STEP,
      horizontal,
      loading: LOADING,
    });
  const after = await cpuCounters(cdp);
  await cdp.send('Performance.disable');
  const perFrame = (name: string) => (after[name] - before[name]) / FRAMES;
  return { ...result, mainCpu: perFrame('ThreadTime'), rendererCpu: perFrame('ProcessTime') };
}

async function benchDatabase(database: BenchDatabase) {
  const { server, stop } = await startBenchServer(database);
  const browser = await launchBrowser();
  try {
    const cookie = await signInToProcess(server, 'timeline-bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows × 13 fields…\n`);
    const [seedMs, seeded] = await timed(() => seedTimeline(server, cookie));
    const down: number[] = [];
    const across: number[] = [];
    const cpu = { down: [] as Array<[number, number]>, across: [] as Array<[number, number]> };
    let loadingFrames = 0;
    const firstScreens = await benchOpenings(
      database,
      REPS,
      RUNS,
      () => openBenchPage(browser, server.url, cookie, seeded.pageId, VIEWPORT, PAGE_SCRIPT),
      async ({ context, tab }) => {
        const cdp = await context.newCDPSession(tab);
        const vertical = await scroll(tab, cdp, false);
        const horizontal = await scroll(tab, cdp, true);
        cpu.down.push([vertical.mainCpu, vertical.rendererCpu]);
        cpu.across.push([horizontal.mainCpu, horizontal.rendererCpu]);
        down.push(...vertical.work);
        across.push(...horizontal.work);
        loadingFrames += vertical.loadingFrames;
        const p = (work: number[]) => `${percentile(work, 50).toFixed(1)}/${percentile(work, 95).toFixed(1)} ms`;
        return `; scroll down p50/p95 ${p(vertical.work)} (${vertical.loadingFrames} frames with rows loading; CPU a frame: main ${vertical.mainCpu.toFixed(1)}, renderer ${vertical.rendererCpu.toFixed(1)} ms); across p50/p95 ${p(horizontal.work)} (CPU a frame: main ${horizontal.mainCpu.toFixed(1)}, renderer ${horizontal.rendererCpu.toFixed(1)} ms)`;
      },
    );
    return {
      database,
      rows: ROWS,
      seedSeconds: Number((seedMs / 1000).toFixed(1)),
      firstScreen: screenFigures(firstScreens),
      verticalFrame: frameFigures(down, TARGETS.frameMs),
      horizontalFrame: frameFigures(across, TARGETS.frameMs),
      loadingFrames,
      cpuDown: meanCpu(cpu.down),
      cpuAcross: meanCpu(cpu.across),
    };
  } finally {
    await browser.close();
    await stop();
  }
}

/** Mean main-thread and renderer CPU a frame over the runs, ms. */
const meanCpu = (runs: Array<[number, number]>) => ({
  main: Number((runs.reduce((a, r) => a + r[0], 0) / runs.length).toFixed(1)),
  renderer: Number((runs.reduce((a, r) => a + r[1], 0) / runs.length).toFixed(1)),
});

type Result = Awaited<ReturnType<typeof benchDatabase>>;

async function main() {
  const figures: Array<[string, string, (r: Result) => string]> = [
    ['first screen: navigation → first rows painted, ms (p50 / p95)', `≤ ${TARGETS.firstScreenMs} (the table's)`, (r) => pair(r.firstScreen)],
    [`scroll down, ${STEP} px a frame: frame time, ms (p50 / p95)`, `p95 ≤ ${TARGETS.frameMs}`, (r) => pair(r.verticalFrame)],
    ['  frames over 16.7 ms', '', (r) => `${r.verticalFrame.over16_7} of ${r.verticalFrame.frames}`],
    ['  CPU a frame (thread time): main thread / whole renderer, ms', '', (r) => `${r.cpuDown.main} / ${r.cpuDown.renderer}`],
    [`scroll across (by weeks), ${STEP} px a frame: frame time, ms (p50 / p95)`, `p95 ≤ ${TARGETS.frameMs}`, (r) => pair(r.horizontalFrame)],
    ['  frames over 16.7 ms', '', (r) => `${r.horizontalFrame.over16_7} of ${r.horizontalFrame.frames}`],
    ['  CPU a frame (thread time): main thread / whole renderer, ms', '', (r) => `${r.cpuAcross.main} / ${r.cpuAcross.renderer}`],
  ];
  const heading = `Timeline view of ${ROWS} rows in Chromium (loopback, ${VIEWPORT.width} × ${VIEWPORT.height}, ${REPS} openings, ${RUNS} scrolls each way)`;
  await runBench('timeline', benchDatabase, heading, figures, { ROWS, REPS, RUNS, FRAMES, STEP, VIEWPORT }, TARGETS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
