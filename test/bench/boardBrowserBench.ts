/**
 * `npm run bench:board`: the Board view of a 5,000-row database in real Chromium against the real
 * server on loopback (issue 17), on SQLite and PostgreSQL side by side.
 * BENCH_PROFILE=file.cpuprofile profiles the last run's column scroll (the renderer's JS, CDP Profiler).
 * BENCH_TRACE=1 prints each scroll's Chromium trace summed by event, ms a frame (bigTable.ts
 *   traceFrames); BENCH_CSS='…' adds a style sheet to the pages before they scroll (experiments).
 *
 * The database is `bench:table`'s (test/bench/bigTable.ts) with BENCH_ROWS rows (5,000): its
 * board is grouped by the select field «Этап» (5 options and «Без значения»: 6 columns of about
 * 1,000, 1,000, …, 0 cards), showing three fields on each card, and is the page's first view.
 * After one warm-up opening, BENCH_REPS openings, each in a fresh browser context, measure:
 *  - first screen: from the navigation's start until the first cards are painted (the first task
 *    after the animation frame that follows a loaded card's arrival in the DOM);
 * and BENCH_RUNS of them go on to measure, in that tab:
 *  - a drag: a card picked up in the first column and carried by the mouse across the board to
 *    the fourth column and back (BENCH_MOVES moves of the pointer, one a frame), each frame's time
 *    from its start until the first task after it, then dropped on a card there (the move saved);
 *  - scrolling, before the drag, as a person looks through a board: the wheel over the first column
 *    (≈ 1,000 cards) scrolls it down BENCH_STEP px a frame (100: a fling) for BENCH_FRAMES frames
 *    (200), then the board is panned sideways (a trackpad, Shift+wheel) BENCH_SIDE_STEP px a frame
 *    (10) from its left end to its right end; each frame timed as bench:table's scroll
 *    (`measureScroll`: frame time, and the renderer's CPU a frame).
 * Beside each run's scrolls, in the same run (issue 34, BENCH-METHOD «Why every browser figure
 * needs a baseline beside it»): minimal virtualized card lists of the same cards
 * (test/bench/virtualBaseline.ts: the board's columns at its offsets, each a scroll box of the
 * real one's size holding absolutely placed cards of the board's card size and texts, the visible
 * range and 4 more each side made on each scroll event, read in the board's windows of 30 per
 * column from the same server on the same origin), in a fresh context, scrolled by the same
 * script and steps. Interleaved (odd runs: the board first; even: the baseline first); reported:
 * each side's frame time p50 / p95 and CPU a frame (medians over runs) and board ÷ baseline (the
 * median of each run's ratio; target p95 ≤ 1.2×), for the column and for the sideways scroll. The
 * baseline takes the board's geometry from the warm-up opening, has a warm-up of its own, and must
 * draw the first column's first card with the board's texts (`checkBaseline`) before anything is measured.
 * Prints a table with the targets and writes test/bench/results/board-<time>.json.
 *   BENCH_DBS=sqlite,postgres BENCH_ROWS=5000 BENCH_REPS=5 BENCH_RUNS=3 BENCH_FRAMES=200 BENCH_STEP=100 BENCH_SIDE_STEP=10 npm run bench:board
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { BOARD_WINDOW } from '../../src/editor/blocks/rowsAddress';
import { launchBrowser } from '../helpers/browser';
import { fetchJson, signInToProcess, type ServerProcess } from '../helpers/serverProcess';
import {
  AFTER_PAINT_SCRIPT,
  cpuCell,
  firstPaintScript,
  frameFigures,
  measureScroll,
  openBenchPage,
  pair,
  percentile,
  runBench,
  S,
  screenFigures,
  SCROLL_FRAMES_SCRIPT,
  ScrollPair,
  seedBigTable,
  startBenchServer,
  TABLE_FIELDS,
  timed,
  type BenchDatabase,
  type MeasuredScroll,
} from './bigTable';
import { boardBaselineHtml, checkBaseline, openBaseline, readBoardGeometry, type BaselineField } from './virtualBaseline';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const RUNS = Math.min(REPS, Number(process.env.BENCH_RUNS ?? 3));
const MOVES = Number(process.env.BENCH_MOVES ?? 120);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 200);
const STEP = Number(process.env.BENCH_STEP ?? 100);
const SIDE_STEP = Number(process.env.BENCH_SIDE_STEP ?? 10);
const VIEWPORT = { width: 1440, height: 900 };
const TARGETS = { firstScreenMs: 600, frameMs: 16.7, scrollRatio: 1.2 };
/** The cards a column draws beyond its scroll box on each side (BoardView.tsx's virtualizer): the baseline draws as many. */
const OVERSCAN = 4;
/** The board's columns (the group field «Этап»'s options, then «Без значения») and the fields its cards show, for the baseline page. */
const STAGE = TABLE_FIELDS.stage;
const GROUPS = [...STAGE.options.map((o) => ({ value: o.id as string | null, name: o.name })), { value: null, name: 'Без значения' }];
const CARD_FIELDS: BaselineField[] = (['price', 'due', 'tags'] as const).map((fieldId) => ({ fieldId, ...TABLE_FIELDS[fieldId] }));
const TITLE_FIELD: BaselineField = { fieldId: MAIN_FIELD_ID, ...TABLE_FIELDS[MAIN_FIELD_ID] };

/** The page's side, as a script (see tableBrowserBench.ts): `__afterPaint`, the first cards' paint, and frame timing while armed. */
const PAGE_SCRIPT = `${AFTER_PAINT_SCRIPT}
window.__frames = null;
window.__timeFrames = () => {
  const work = [];
  window.__frames = work;
  const frame = (at) => {
    if (window.__frames !== work) return;
    window.__afterPaint((done) => work.push(done - at));
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
};
window.__stopFrames = () => {
  const work = window.__frames || [];
  window.__frames = null;
  return work;
};
${SCROLL_FRAMES_SCRIPT}
${firstPaintScript('.db-board .db-card:not(.is-loading)')}`;
type BenchWindow = Window & { __timeFrames(): void; __stopFrames(): number[] };

interface Seeded {
  pageId: string;
  databaseId: string;
}

/** `bench:table`'s database, with a board first among its views. */
async function seedBoard(server: ServerProcess, cookie: string): Promise<Seeded> {
  const table = await seedBigTable(server, cookie, ROWS, 'bench board');
  const layout = {
    uid: 'bench-board',
    type: 'board',
    name: 'Доска',
    orderedFields: [MAIN_FIELD_ID, 'price', 'due', 'tags'].map((fieldId) => ({ fieldId, isWrap: false })),
    groupBy: { fieldId: 'stage' },
  };
  await fetchJson(`${server.url}${S}/database/${table.databaseId}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout }) });
  await fetchJson(`${server.url}${S}/database/${table.databaseId}/views/${layout.uid}/move`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ placeAfter: null }),
  });
  return { pageId: table.pageId, databaseId: table.databaseId };
}

async function open(
  browser: Browser,
  server: ServerProcess,
  cookie: string,
  seeded: Seeded,
): Promise<{ context: BrowserContext; tab: Page; cdp: CDPSession; firstScreen: number }> {
  const opened = await openBenchPage(browser, server.url, cookie, seeded.pageId, VIEWPORT, PAGE_SCRIPT);
  return { ...opened, cdp: await opened.context.newCDPSession(opened.tab) };
}

/**
 * What a person does to look through a board, in `tab` (the board, or the baseline: `board` and
 * `cards` its scroll boxes): the first column (≈ 1,000 cards) scrolled down STEP px a frame for
 * FRAMES frames (the wheel over a column: a fling), then the board scrolled sideways SIDE_STEP px a
 * frame from its left end to its right end (a trackpad's or Shift+wheel's pan along the columns).
 */
async function scrollBoard(tab: Page, cdp: CDPSession, board: string, cards: string, loading: string, profile?: string) {
  const column = await measureScroll(tab, cdp, cards, { frames: FRAMES, step: STEP, loading, profile });
  const range = await tab.locator(board).evaluate((el) => el.scrollWidth - el.clientWidth);
  const sideways = await measureScroll(tab, cdp, board, { frames: Math.max(1, Math.ceil(range / SIDE_STEP)), step: SIDE_STEP, horizontal: true, loading });
  await tab.locator(board).evaluate((el) => (el.scrollLeft = 0));
  await tab
    .locator(cards)
    .first()
    .evaluate((el) => (el.scrollTop = 0));
  return { column, sideways };
}

/** The baseline page (test/bench/virtualBaseline.ts) of the board's geometry, opened in a fresh context and scrolled as the board is. */
async function scrollBaseline(browser: Browser, server: ServerProcess, cookie: string, html: string) {
  const page = await openBaseline(browser, server.url, cookie, VIEWPORT, PAGE_SCRIPT, html, '.card:not(.is-loading)');
  try {
    return await scrollBoard(page.tab, page.cdp, '#board', '.cards', '.card.is-loading');
  } finally {
    await page.context.close();
  }
}

/** A card of the first column carried across the board and back, then dropped on the third card of the fourth column: the frames meanwhile. */
async function drag(tab: Page): Promise<number[]> {
  const columns = tab.locator('.db-board-column');
  // After the scrolls, the columns are back at their top: their first cards drawn again, then a moment at rest.
  await columns.nth(0).locator('.db-card-slot[data-index="0"] .db-card:not(.is-loading)').waitFor();
  await columns.nth(3).locator('.db-card-slot[data-index="2"] .db-card:not(.is-loading)').waitFor();
  await tab.waitForTimeout(300);
  const card = (await columns.nth(0).locator('.db-card-slot[data-index="0"] .db-card').boundingBox())!;
  const far = (await columns.nth(3).locator('.db-card-slot[data-index="2"] .db-card').boundingBox())!;
  const start = { x: card.x + 30, y: card.y + card.height / 2 };
  const end = { x: far.x + 30, y: far.y + 6 };
  await tab.mouse.move(start.x, start.y);
  await tab.mouse.down();
  await tab.mouse.move(start.x + 10, start.y + 10, { steps: 3 });
  await tab.evaluate(() => (window as unknown as BenchWindow).__timeFrames());
  // There and back, and there again (the drop).
  const path = (from: typeof start, to: typeof start, steps: number) =>
    Array.from({ length: steps }, (_, i) => ({ x: from.x + ((to.x - from.x) * (i + 1)) / steps, y: from.y + ((to.y - from.y) * (i + 1)) / steps }));
  const third = Math.max(1, Math.floor(MOVES / 3));
  for (const point of [...path(start, end, third), ...path(end, start, third), ...path(start, end, third)]) {
    await tab.mouse.move(point.x, point.y);
    await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  await tab.mouse.move(end.x + 1, end.y);
  const work = await tab.evaluate(() => (window as unknown as BenchWindow).__stopFrames());
  const saved = tab.waitForResponse((r) => /\/rows\/move$/.test(r.url()) && r.request().method() === 'POST');
  await tab.mouse.up();
  if ((await saved).status() !== 200) throw new Error('the move was not saved');
  return work;
}

async function benchDatabase(database: BenchDatabase) {
  const { server, stop } = await startBenchServer(database);
  const browser = await launchBrowser();
  try {
    const cookie = await signInToProcess(server, 'board-bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows × 12 fields…\n`);
    const [seedMs, seeded] = await timed(() => seedBoard(server, cookie));
    const frames: number[] = [];
    const firstScreens: number[] = [];
    const columnPairs = new ScrollPair();
    const sidewaysPairs = new ScrollPair();
    let baselineHtml = '';
    for (let rep = 0; rep <= REPS; rep++) {
      // Interleaved: the baseline scrolled before the board's opening in even repetitions, after it in odd ones.
      const baselineFirst = rep > 0 && rep <= RUNS && rep % 2 === 0;
      const baseline = baselineFirst ? await scrollBaseline(browser, server, cookie, baselineHtml) : null;
      let scrolled: { column: MeasuredScroll; sideways: MeasuredScroll } | null = null;
      let line = '';
      const opened = await open(browser, server, cookie, seeded);
      try {
        if (rep === 0) {
          // Warm-up; the baseline takes the board's geometry.
          await opened.tab
            .locator('.db-board-column')
            .nth(GROUPS.length - 1)
            .waitFor();
          const geometry = await readBoardGeometry(opened.tab);
          if (geometry.columns.length !== GROUPS.length) throw new Error(`the board shows ${geometry.columns.length} columns, not ${GROUPS.length}`);
          baselineHtml = boardBaselineHtml(geometry, seeded.databaseId, 'bench-board', GROUPS, CARD_FIELDS, TITLE_FIELD, OVERSCAN, BOARD_WINDOW);
          const page = await openBaseline(browser, server.url, cookie, VIEWPORT, PAGE_SCRIPT, baselineHtml, '.card:not(.is-loading)');
          await checkBaseline(
            opened.tab,
            '.db-board-cards .db-card-slot[data-index="0"] .db-card',
            page.tab,
            '#content > section:first-child .card:first-child:not(.is-loading)',
          ).finally(() => page.context.close());
          continue;
        }
        firstScreens.push(opened.firstScreen);
        line = `[${database}] #${rep}: first screen ${opened.firstScreen.toFixed(0)} ms`;
        if (rep <= RUNS) {
          const profile = rep === RUNS ? process.env.BENCH_PROFILE : undefined;
          scrolled = await scrollBoard(opened.tab, opened.cdp, '.db-board', '.db-board-cards', '.db-card.is-loading', profile);
          const work = await drag(opened.tab);
          frames.push(...work);
          line += `; drag frame p50/p95 ${percentile(work, 50).toFixed(1)}/${percentile(work, 95).toFixed(1)} ms (${work.length} frames)`;
        }
      } finally {
        await opened.context.close();
      }
      if (scrolled) {
        const other = baseline ?? (await scrollBaseline(browser, server, cookie, baselineHtml));
        line += `\n[${database}] #${rep} column scroll beside the baseline (${baselineFirst ? 'baseline first' : 'board first'}): ${columnPairs.add(scrolled.column, other.column)}`;
        line += `\n[${database}] #${rep} sideways: ${sidewaysPairs.add(scrolled.sideways, other.sideways)}`;
      }
      process.stdout.write(`${line}\n`);
    }
    return {
      database,
      rows: ROWS,
      seedSeconds: Number((seedMs / 1000).toFixed(1)),
      firstScreen: screenFigures(firstScreens),
      dragFrame: frameFigures(frames, TARGETS.frameMs),
      /** The first column scrolled down, and the board sideways, beside the minimal virtualized card lists' (virtualBaseline.ts): medians over the runs, ratios board ÷ baseline. */
      columnScroll: columnPairs.figures(),
      sidewaysScroll: sidewaysPairs.figures(),
    };
  } finally {
    await browser.close();
    await stop();
  }
}

type Result = Awaited<ReturnType<typeof benchDatabase>>;

async function main() {
  const figures: Array<[string, string, (r: Result) => string]> = [
    ['first screen: navigation → first cards painted, ms (p50 / p95)', `≤ ${TARGETS.firstScreenMs}`, (r) => pair(r.firstScreen)],
    ['drag frame time, a card carried across the board, ms (p50 / p95)', `p95 ≤ ${TARGETS.frameMs}`, (r) => pair(r.dragFrame)],
    ['  frames over 16.7 ms', '', (r) => `${r.dragFrame.over16_7} of ${r.dragFrame.frames}`],
    ...(
      [
        ['a column scrolled down', (r: Result) => r.columnScroll],
        ['the board scrolled sideways', (r: Result) => r.sidewaysScroll],
      ] as const
    ).flatMap(([what, of]): Array<[string, string, (r: Result) => string]> => [
      [`${what}: board, frame time, ms (p50 / p95, medians of runs)`, '', (r) => pair(of(r).view)],
      [`  minimal virtualized card lists, the same scroll, ms (p50 / p95)`, '', (r) => pair(of(r).baseline)],
      ['  board ÷ baseline, frame time (p50 / p95, median of runs)', `p95 ≤ ${TARGETS.scrollRatio}×`, (r) => pair(of(r).ratio)],
      [
        '  CPU a frame, ms: main thread (script, style + layout) / renderer: board · baseline (ratios)',
        '',
        (r) => `${cpuCell(of(r).view.cpu)} · ${cpuCell(of(r).baseline.cpu)} (${of(r).ratio.mainCpu}× / ${of(r).ratio.rendererCpu}×)`,
      ],
    ]),
  ];
  const heading = `Board view of ${ROWS} cards in 6 columns in Chromium (loopback, ${REPS} openings, ${RUNS} scrolls and drags each)`;
  await runBench('board', benchDatabase, heading, figures, { ROWS, REPS, RUNS, MOVES, FRAMES, STEP, SIDE_STEP, VIEWPORT, OVERSCAN }, TARGETS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
