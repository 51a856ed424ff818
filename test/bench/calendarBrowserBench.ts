/**
 * `npm run bench:calendar`: the Calendar view of a big database in real Chromium against the real
 * server on loopback (issue 17: a month of 2,000 items opens in ≤ 400 ms), on SQLite and
 * PostgreSQL side by side.
 *
 * The database is `bench:table`'s (test/bench/bigTable.ts) with BENCH_ROWS rows (10,000; their
 * «Срок» days spread over 2026) and BENCH_MONTH more rows dated in this month (2,000), so this
 * month holds at least 2,000 items; its calendar by «Срок» is the page's first view. After one
 * warm-up opening, BENCH_REPS openings, each in a fresh browser context, measure:
 *  - first screen: from the navigation's start until this month's items are painted (the first
 *    task after the animation frame that follows the calendar's rows being drawn);
 *  - month switch: «next month» then «previous month», from the click back to this month until
 *    its items are painted again.
 * Prints a table with the targets and writes test/bench/results/calendar-<time>.json.
 *   BENCH_DBS=sqlite,postgres BENCH_ROWS=10000 BENCH_MONTH=2000 BENCH_REPS=5 npm run bench:calendar
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { fetchJson, signInToProcess, type ServerProcess } from '../helpers/serverProcess';
import {
  AFTER_PAINT_SCRIPT,
  benchOpenings,
  openBenchPage,
  pair,
  runBench,
  S,
  screenFigures,
  seedBigTable,
  startBenchServer,
  timed,
  type BenchDatabase,
} from './bigTable';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const MONTH = Number(process.env.BENCH_MONTH ?? 2_000);
const REPS = Number(process.env.BENCH_REPS ?? 5);
const VIEWPORT = { width: 1440, height: 900 };
const TARGETS = { firstScreenMs: 400, monthSwitchMs: 400 };

/**
 * The page's side: `__afterPaint`, and `__painted`: the time the calendar's items were painted
 * after its grid stopped being busy (its rows for the days shown are in), for the first screen and
 * again after `__armSwitch()`.
 */
const PAGE_SCRIPT = `${AFTER_PAINT_SCRIPT}
window.__painted = undefined;
window.__armSwitch = () => { window.__painted = undefined; window.__armed = true; };
let waiting = false;
const observer = new MutationObserver(() => {
  if (waiting || window.__painted !== undefined) return;
  const grid = document.querySelector('.db-calendar-grid[aria-busy="false"]');
  if (!grid || !grid.querySelector('.fc-event')) return;
  waiting = true;
  requestAnimationFrame(() => window.__afterPaint((at) => { window.__painted = at; waiting = false; }));
});
observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
`;
type BenchWindow = Window & { __painted?: number; __armSwitch(): void };

interface Seeded {
  pageId: string;
  databaseId: string;
  monthItems: number;
}

/** `bench:table`'s database, MONTH more rows in this month, and a calendar by «Срок» first among its views. */
async function seedCalendar(server: ServerProcess, cookie: string): Promise<Seeded> {
  const table = await seedBigTable(server, cookie, ROWS, 'bench calendar');
  const now = new Date();
  const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
  const days = new Date(now.getFullYear(), now.getMonth() + 1, 0).getDate();
  for (let start = 0; start < MONTH; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, MONTH - start) }, (_, k) => {
      const i = start + k;
      const day = 1 + (i % days);
      const due =
        i % 5 === 0
          ? { start: `${month}-${String(day).padStart(2, '0')}`, end: `${month}-${String(Math.min(days, day + 2)).padStart(2, '0')}` }
          : `${month}-${String(day).padStart(2, '0')}`;
      return { title: `Событие ${i}`, values: { due, stage: ['a', 'b', 'c'][i % 3] } };
    });
    await fetchJson(`${server.url}${S}/database/${table.databaseId}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows }) });
  }
  const layout = { uid: 'bench-calendar', type: 'calendar', name: 'Календарь', orderedFields: [], calendar: { fieldId: 'due', mode: 'month' } };
  await fetchJson(`${server.url}${S}/database/${table.databaseId}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout }) });
  await fetchJson(`${server.url}${S}/database/${table.databaseId}/views/${layout.uid}/move`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ placeAfter: null }),
  });
  const range = {
    fieldId: 'due',
    from: `${month}-01`,
    to: `${now.getMonth() === 11 ? now.getFullYear() + 1 : now.getFullYear()}-${String(((now.getMonth() + 1) % 12) + 1).padStart(2, '0')}-01`,
  };
  const counted = await fetchJson<{ meta: { count: number } }>(
    `${server.url}${S}/database/${table.databaseId}/rows?range=${encodeURIComponent(JSON.stringify(range))}&limit=1`,
    { cookie },
  );
  return { pageId: table.pageId, databaseId: table.databaseId, monthItems: counted.meta.count };
}

function open(browser: Browser, server: ServerProcess, cookie: string, seeded: Seeded): Promise<{ context: BrowserContext; tab: Page; firstScreen: number }> {
  return openBenchPage(browser, server.url, cookie, seeded.pageId, VIEWPORT, PAGE_SCRIPT, '__painted');
}

/** «Next month», settled, then «previous month»: from that click until this month's items are painted. */
async function monthSwitch(tab: Page): Promise<number> {
  const title = await tab.locator('.db-calendar .fc-toolbar-title').textContent();
  await tab.locator('.db-calendar .fc-next-button').click();
  await tab.waitForFunction(
    (before) =>
      document.querySelector('.db-calendar .fc-toolbar-title')?.textContent !== before &&
      document.querySelector('.db-calendar-grid')?.getAttribute('aria-busy') === 'false',
    title,
  );
  await tab.waitForTimeout(200);
  await tab.evaluate(() => (window as unknown as BenchWindow).__armSwitch());
  const clicked = await tab.evaluate(() => {
    const at = performance.now();
    (document.querySelector('.db-calendar .fc-prev-button') as HTMLButtonElement).click();
    return at;
  });
  await tab.waitForFunction(() => ((window as unknown as BenchWindow).__painted ?? -1) > 0);
  return (await tab.evaluate(() => (window as unknown as BenchWindow).__painted as number)) - clicked;
}

async function benchDatabase(database: BenchDatabase) {
  const { server, stop } = await startBenchServer(database);
  const browser = await launchBrowser();
  try {
    const cookie = await signInToProcess(server, 'calendar-bench@example.com');
    process.stdout.write(`[${database}] seeding ${ROWS} rows × 12 fields and ${MONTH} in this month…\n`);
    const [seedMs, seeded] = await timed(() => seedCalendar(server, cookie));
    const switches: number[] = [];
    const firstScreens = await benchOpenings(
      database,
      REPS,
      REPS,
      () => open(browser, server, cookie, seeded),
      async ({ tab }) => {
        const switched = await monthSwitch(tab);
        switches.push(switched);
        return `; month switch ${switched.toFixed(0)} ms`;
      },
    );
    return {
      database,
      rows: ROWS + MONTH,
      monthItems: seeded.monthItems,
      seedSeconds: Number((seedMs / 1000).toFixed(1)),
      firstScreen: screenFigures(firstScreens),
      monthSwitch: screenFigures(switches),
    };
  } finally {
    await browser.close();
    await stop();
  }
}

type Result = Awaited<ReturnType<typeof benchDatabase>>;

async function main() {
  const figures: Array<[string, string, (r: Result) => string]> = [
    ['items in this month', '≥ 2,000', (r) => String(r.monthItems)],
    ['first screen: navigation → the month painted, ms (p50 / p95)', `≤ ${TARGETS.firstScreenMs}`, (r) => pair(r.firstScreen)],
    ['month switch: «previous month» → painted, ms (p50 / p95)', `≤ ${TARGETS.monthSwitchMs}`, (r) => pair(r.monthSwitch)],
  ];
  const heading = `Calendar view of ${ROWS + MONTH} rows, this month's ${MONTH}+ items, in Chromium (loopback, ${REPS} openings)`;
  await runBench('calendar', benchDatabase, heading, figures, { ROWS, MONTH, REPS, VIEWPORT }, TARGETS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
