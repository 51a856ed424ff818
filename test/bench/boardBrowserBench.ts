/**
 * `npm run bench:board`: the Board view of a 5,000-row database in real Chromium against the real
 * server on loopback (issue 17), on SQLite and PostgreSQL side by side.
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
 *    from its start until the first task after it, then dropped on a card there (the move saved).
 * Prints a table with the targets and writes test/bench/results/board-<time>.json.
 *   BENCH_DBS=sqlite,postgres BENCH_ROWS=5000 BENCH_REPS=5 BENCH_RUNS=3 npm run bench:board
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { launchBrowser } from '../helpers/browser';
import { fetchJson, signInToProcess, type ServerProcess } from '../helpers/serverProcess';
import {
  AFTER_PAINT_SCRIPT,
  benchOpenings,
  firstPaintScript,
  frameFigures,
  openBenchPage,
  pair,
  percentile,
  runBench,
  S,
  screenFigures,
  seedBigTable,
  startBenchServer,
  timed,
  type BenchDatabase,
} from './bigTable';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const RUNS = Math.min(REPS, Number(process.env.BENCH_RUNS ?? 3));
const MOVES = Number(process.env.BENCH_MOVES ?? 120);
const VIEWPORT = { width: 1440, height: 900 };
const TARGETS = { firstScreenMs: 600, frameMs: 16.7 };

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

function open(browser: Browser, server: ServerProcess, cookie: string, seeded: Seeded): Promise<{ context: BrowserContext; tab: Page; firstScreen: number }> {
  return openBenchPage(browser, server.url, cookie, seeded.pageId, VIEWPORT, PAGE_SCRIPT);
}

/** A card of the first column carried across the board and back, then dropped on the third card of the fourth column: the frames meanwhile. */
async function drag(tab: Page): Promise<number[]> {
  const columns = tab.locator('.db-board-column');
  await columns.nth(3).locator('.db-card:not(.is-loading)').nth(2).waitFor();
  const card = (await columns.nth(0).locator('.db-card:not(.is-loading)').first().boundingBox())!;
  const far = (await columns.nth(3).locator('.db-card:not(.is-loading)').nth(2).boundingBox())!;
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
    const firstScreens = await benchOpenings(
      database,
      REPS,
      RUNS,
      () => open(browser, server, cookie, seeded),
      async ({ tab }) => {
        const work = await drag(tab);
        frames.push(...work);
        return `; drag frame p50/p95 ${percentile(work, 50).toFixed(1)}/${percentile(work, 95).toFixed(1)} ms (${work.length} frames)`;
      },
    );
    return {
      database,
      rows: ROWS,
      seedSeconds: Number((seedMs / 1000).toFixed(1)),
      firstScreen: screenFigures(firstScreens),
      dragFrame: frameFigures(frames, TARGETS.frameMs),
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
  ];
  const heading = `Board view of ${ROWS} cards in 6 columns in Chromium (loopback, ${REPS} openings, ${RUNS} drags each)`;
  await runBench('board', benchDatabase, heading, figures, { ROWS, REPS, RUNS, MOVES, VIEWPORT }, TARGETS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
