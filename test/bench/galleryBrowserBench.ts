/**
 * `npm run bench:gallery`: the Gallery view of a 5,000-row database in real Chromium against the
 * real server on loopback (issue 38: «Gallery of 5,000 cards scrolls with frame p95 ≤ 16.7 ms»),
 * on SQLite and PostgreSQL side by side.
 *
 * The database is `bench:table`'s (test/bench/bigTable.ts) with BENCH_ROWS rows (5,000); its first
 * view is a gallery of medium cards showing «Цена», «Срок» and «Метки», pictures from the pages'
 * content (none here: each card's picture box is drawn empty, and the rows are read with
 * `preview`). After one warm-up opening, BENCH_REPS openings each in a fresh context measure the
 * first screen (navigation → the first cards painted); BENCH_RUNS of them go on to scroll the
 * gallery down BENCH_STEP px a frame (100: a fling) for BENCH_FRAMES frames (200), each frame
 * timed as bench:table's scroll (`measureScroll`). Beside each run, in the same run (BENCH-METHOD
 * «Why every browser figure needs a baseline beside it»): the minimal virtualized grid of the same
 * cards (test/bench/virtualBaseline.ts `galleryBaselineHtml`: the gallery's geometry, its cards'
 * texts, windows of 100 from the same server), scrolled by the same script, interleaved.
 * Prints a table with the targets and writes test/bench/results/gallery-<time>.json.
 *   BENCH_DBS=sqlite,postgres BENCH_ROWS=5000 BENCH_REPS=5 BENCH_RUNS=3 BENCH_FRAMES=200 BENCH_STEP=100 npm run bench:gallery
 */
import type { Browser } from 'playwright-core';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';
import { DATABASE_WINDOW } from '../../src/editor/blocks/rowsAddress';
import { launchBrowser } from '../helpers/browser';
import { fetchJson, signInToProcess, type ServerProcess } from '../helpers/serverProcess';
import {
  AFTER_PAINT_SCRIPT,
  cpuCell,
  firstPaintScript,
  measureScroll,
  openBenchPage,
  pair,
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
import { checkBaseline, galleryBaselineHtml, openBaseline, readGalleryGeometry, type BaselineField } from './virtualBaseline';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const RUNS = Math.min(REPS, Number(process.env.BENCH_RUNS ?? 3));
const FRAMES = Number(process.env.BENCH_FRAMES ?? 200);
const STEP = Number(process.env.BENCH_STEP ?? 100);
const VIEWPORT = { width: 1440, height: 900 };
const TARGETS = { firstScreenMs: 600, frameMs: 16.7 };
/** Lines of cards the gallery draws beyond its box on each side (GalleryView.tsx's virtualizer): the baseline draws as many. */
const OVERSCAN = 2;
const CARD_FIELDS: BaselineField[] = (['price', 'due', 'tags'] as const).map((fieldId) => ({ fieldId, ...TABLE_FIELDS[fieldId] }));
const VIEW = 'bench-gallery';

const PAGE_SCRIPT = `${AFTER_PAINT_SCRIPT}
${SCROLL_FRAMES_SCRIPT}
${firstPaintScript('.db-gallery .db-gallery-card:not(.is-loading)')}`;

/** `bench:table`'s database, with a gallery first among its views. */
async function seedGallery(server: ServerProcess, cookie: string) {
  const table = await seedBigTable(server, cookie, ROWS, 'bench gallery');
  const layout = {
    uid: VIEW,
    type: 'gallery',
    name: 'Галерея',
    orderedFields: [MAIN_FIELD_ID, 'price', 'due', 'tags'].map((fieldId) => ({ fieldId, isWrap: false })),
  };
  await fetchJson(`${server.url}${S}/database/${table.databaseId}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout }) });
  await fetchJson(`${server.url}${S}/database/${table.databaseId}/views/${VIEW}/move`, { method: 'POST', cookie, body: JSON.stringify({ placeAfter: null }) });
  return { pageId: table.pageId, databaseId: table.databaseId };
}

async function scrollBaseline(browser: Browser, server: ServerProcess, cookie: string, html: string): Promise<MeasuredScroll> {
  const page = await openBaseline(browser, server.url, cookie, VIEWPORT, PAGE_SCRIPT, html, '.card:not(.is-loading)');
  try {
    return await measureScroll(page.tab, page.cdp, '#gallery', { frames: FRAMES, step: STEP, loading: '.card.is-loading' });
  } finally {
    await page.context.close();
  }
}

async function benchDatabase(database: BenchDatabase) {
  const { server, stop } = await startBenchServer(database);
  const browser = await launchBrowser();
  try {
    const cookie = await signInToProcess(server, 'gallery-bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows × 12 fields…\n`);
    const [seedMs, seeded] = await timed(() => seedGallery(server, cookie));
    const firstScreens: number[] = [];
    const pairs = new ScrollPair();
    let baselineHtml = '';
    for (let rep = 0; rep <= REPS; rep++) {
      const baselineFirst = rep > 0 && rep <= RUNS && rep % 2 === 0;
      const baseline = baselineFirst ? await scrollBaseline(browser, server, cookie, baselineHtml) : null;
      let scrolled: MeasuredScroll | null = null;
      const opened = await openBenchPage(browser, server.url, cookie, seeded.pageId, VIEWPORT, PAGE_SCRIPT);
      const cdp = await opened.context.newCDPSession(opened.tab);
      let line = '';
      try {
        if (rep === 0) {
          const geometry = await readGalleryGeometry(opened.tab);
          baselineHtml = galleryBaselineHtml(geometry, seeded.databaseId, VIEW, CARD_FIELDS, OVERSCAN, DATABASE_WINDOW);
          const page = await openBaseline(browser, server.url, cookie, VIEWPORT, PAGE_SCRIPT, baselineHtml, '.card:not(.is-loading)');
          await checkBaseline(opened.tab, '.db-gallery-card:not(.is-loading) .db-card-title', page.tab, '.card:not(.is-loading) .title').finally(() =>
            page.context.close(),
          );
          process.stdout.write(`[${database}] gallery: ${geometry.perLine} cards a line, ${geometry.cardWidth}×${geometry.cardHeight} px\n`);
          continue;
        }
        firstScreens.push(opened.firstScreen);
        line = `[${database}] #${rep}: first screen ${opened.firstScreen.toFixed(0)} ms`;
        if (rep <= RUNS) scrolled = await measureScroll(opened.tab, cdp, '.db-gallery', { frames: FRAMES, step: STEP, loading: '.db-gallery-card.is-loading' });
      } finally {
        await opened.context.close();
      }
      if (scrolled) {
        const other = baseline ?? (await scrollBaseline(browser, server, cookie, baselineHtml));
        line += `\n[${database}] #${rep} scroll beside the baseline (${baselineFirst ? 'baseline first' : 'gallery first'}): ${pairs.add(scrolled, other)}`;
      }
      process.stdout.write(`${line}\n`);
    }
    return { database, rows: ROWS, seedSeconds: Number((seedMs / 1000).toFixed(1)), firstScreen: screenFigures(firstScreens), scroll: pairs.figures() };
  } finally {
    await browser.close();
    await stop();
  }
}

type Result = Awaited<ReturnType<typeof benchDatabase>>;

async function main() {
  const figures: Array<[string, string, (r: Result) => string]> = [
    ['first screen: navigation → first cards painted, ms (p50 / p95)', `≤ ${TARGETS.firstScreenMs}`, (r) => pair(r.firstScreen)],
    ['gallery scrolled down: frame time, ms (p50 / p95, medians of runs)', `p95 ≤ ${TARGETS.frameMs}`, (r) => pair(r.scroll.view)],
    ['  minimal virtualized grid, the same scroll, ms (p50 / p95)', '', (r) => pair(r.scroll.baseline)],
    ['  gallery ÷ baseline, frame time (p50 / p95, median of runs)', '', (r) => pair(r.scroll.ratio)],
    [
      '  CPU a frame, ms: main thread (script, style + layout) / renderer: gallery · baseline (ratios)',
      '',
      (r) => `${cpuCell(r.scroll.view.cpu)} · ${cpuCell(r.scroll.baseline.cpu)} (${r.scroll.ratio.mainCpu}× / ${r.scroll.ratio.rendererCpu}×)`,
    ],
  ];
  const heading = `Gallery view of ${ROWS} cards in Chromium (loopback, ${REPS} openings, ${RUNS} scrolls each)`;
  await runBench('gallery', benchDatabase, heading, figures, { ROWS, REPS, RUNS, FRAMES, STEP, VIEWPORT, OVERSCAN }, TARGETS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
