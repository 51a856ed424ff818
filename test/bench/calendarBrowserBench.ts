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
 *
 * And the tabs of a smaller database (issue 34): a Database page of BENCH_TAB_ROWS rows (2,000;
 * `bench:table`'s fields and values) whose views are its Table, a Calendar by «Срок» and a bar
 * chart (rows counted by «Этап»). Beside it, the page's static-HTML floor on the same server: a
 * static page holding the same first screen as text (its title, its views' names, the header and
 * the first 30 rows in a plain <table>, no script; bigTable.ts `tableFloorHtml`). After one
 * warm-up of each, BENCH_REPS repetitions, interleaved (the floor first in odd ones, the app
 * first in even ones), each opening in a fresh browser context, measure:
 *  - floor: from the navigation's start until the static table is painted;
 *  - first screen: from the navigation's start until the table's first rows are painted (as
 *    `bench:table` times it), and its ratio to the floor of the same repetition;
 *  - Calendar tab: from the click on its tab until this month's items are painted (its grid no
 *    longer busy, the first task after the frame that follows);
 *  - Chart tab: from the click on its tab until the chart's bars are painted.
 * Each part starts once the server's search indexer has caught up with its seeding.
 * Cells are medians (and p95) over the repetitions; ratios the median of the repetitions' ratios.
 * Prints a table with the targets and writes test/bench/results/calendar-<time>.json.
 *   BENCH_DBS=sqlite,postgres BENCH_ROWS=10000 BENCH_MONTH=2000 BENCH_TAB_ROWS=2000 BENCH_REPS=5 npm run bench:calendar
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { fetchJson, signInToProcess, type ServerProcess } from '../helpers/serverProcess';
import {
  AFTER_PAINT_SCRIPT,
  benchOpenings,
  firstPaintScript,
  openBenchPage,
  pair,
  percentile,
  runBench,
  S,
  screenFigures,
  searchQueueEmptied,
  seedBigTable,
  startBenchServer,
  staticFloorFile,
  tableFloorHtml,
  timed,
  type BenchDatabase,
  type SeededTable,
} from './bigTable';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const MONTH = Number(process.env.BENCH_MONTH ?? 2_000);
const TAB_ROWS = Number(process.env.BENCH_TAB_ROWS ?? 2_000);
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

/**
 * The tabs page's side: `__firstPaint` (the table's first rows painted, as `bench:table` times
 * it), and after `__armTab(kind)`, `__tabPainted`: when the Calendar's items (its grid no longer
 * busy) or the chart's bars were painted.
 */
const TABS_SCRIPT = `${AFTER_PAINT_SCRIPT}
${firstPaintScript('.db-scroll .db-row:not(.is-loading)')}
window.__armTab = (kind) => {
  window.__tabPainted = undefined;
  let waiting = false;
  const done = () => {
    if (kind === 'calendar') {
      const grid = document.querySelector('.db-calendar-grid[aria-busy="false"]');
      return !!grid && (window.__emptyMonth || !!grid.querySelector('.fc-event'));
    }
    return !!document.querySelector('.db-chart-figure .recharts-bar-rectangle');
  };
  const observer = new MutationObserver(() => {
    if (waiting || !done()) return;
    waiting = true;
    observer.disconnect();
    requestAnimationFrame(() => window.__afterPaint((at) => (window.__tabPainted = at)));
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
};
`;
type TabsWindow = Window & { __tabPainted?: number; __emptyMonth?: boolean; __armTab(kind: 'calendar' | 'chart'): void };
const TAB_VIEWS = ['Таблица', 'Календарь', 'Диаграмма'];

interface SeededTabs {
  table: SeededTable;
  monthItems: number;
}

/** A Database page of TAB_ROWS rows: its Table view first, then a Calendar by «Срок» and a bar chart of rows by «Этап». */
async function seedTabs(server: ServerProcess, cookie: string): Promise<SeededTabs> {
  const table = await seedBigTable(server, cookie, TAB_ROWS, 'bench tabs');
  const views = [
    { uid: 'tabs-calendar', type: 'calendar', name: TAB_VIEWS[1], orderedFields: [], calendar: { fieldId: 'due', mode: 'month' } },
    { uid: 'tabs-chart', type: 'barChart', name: TAB_VIEWS[2], orderedFields: [], chart: { x: { fieldId: 'stage' }, y: { aggregate: 'count' } } },
  ];
  for (const layout of views) {
    await fetchJson(`${server.url}${S}/database/${table.databaseId}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout }) });
  }
  const now = new Date();
  const month = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-01`;
  const range = { fieldId: 'due', from: month(now), to: month(new Date(now.getFullYear(), now.getMonth() + 1, 1)) };
  const counted = await fetchJson<{ meta: { count: number } }>(
    `${server.url}${S}/database/${table.databaseId}/rows?range=${encodeURIComponent(JSON.stringify(range))}&limit=1`,
    { cookie },
  );
  return { table, monthItems: counted.meta.count };
}

/** Clicks the view tab named `name` (stamped in the page just before) and answers the ms until its content was painted. */
async function switchTab(tab: Page, name: string, kind: 'calendar' | 'chart'): Promise<number> {
  await tab.evaluate((k) => (window as unknown as TabsWindow).__armTab(k), kind);
  const clicked = await tab.evaluate((label) => {
    const button = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')].find((b) => b.textContent?.includes(label));
    if (!button) throw new Error(`no tab «${label}»`);
    const at = performance.now();
    button.click();
    return at;
  }, name);
  await tab.waitForFunction(() => ((window as unknown as TabsWindow).__tabPainted ?? -1) > 0);
  return (await tab.evaluate(() => (window as unknown as TabsWindow).__tabPainted as number)) - clicked;
}

interface TabsRep {
  floor: number;
  firstScreen: number;
  calendar: number;
  chart: number;
}

/** The floor and the tabs page, interleaved: one warm-up of each, then REPS repetitions, the order turned each time. */
async function benchTabs(database: BenchDatabase, browser: Browser, server: ServerProcess, cookie: string, floorName: string, seeded: SeededTabs) {
  const floorScript = `${AFTER_PAINT_SCRIPT}\n${firstPaintScript('#floor-end')}`;
  const floor = async () => {
    const opened = await openBenchPage(browser, server.url, cookie, floorName, VIEWPORT, floorScript);
    await opened.context.close();
    return opened.firstScreen;
  };
  const app = async () => {
    const opened = await openBenchPage(browser, server.url, cookie, seeded.table.pageId, VIEWPORT, TABS_SCRIPT);
    try {
      await opened.tab.evaluate((empty) => ((window as unknown as TabsWindow).__emptyMonth = empty), seeded.monthItems === 0);
      await opened.tab.waitForTimeout(500);
      const calendar = await switchTab(opened.tab, TAB_VIEWS[1], 'calendar');
      await opened.tab.waitForTimeout(300);
      const chart = await switchTab(opened.tab, TAB_VIEWS[2], 'chart');
      return { firstScreen: opened.firstScreen, calendar, chart };
    } finally {
      await opened.context.close();
    }
  };
  const reps: TabsRep[] = [];
  for (let rep = 0; rep <= REPS; rep++) {
    // The order turns each repetition: neither is always the first after the other's close.
    const floorFirst = rep % 2 === 1;
    const floorBefore = floorFirst ? await floor() : 0;
    const appMs = await app();
    const floorMs = floorFirst ? floorBefore : await floor();
    if (rep === 0) continue; // warm-up of both
    reps.push({ floor: floorMs, ...appMs });
    process.stdout.write(
      `[${database}] tabs #${rep}: floor ${floorMs.toFixed(0)} ms; first screen ${appMs.firstScreen.toFixed(0)} ms (${(appMs.firstScreen / floorMs).toFixed(2)}× the floor); Calendar tab ${appMs.calendar.toFixed(0)} ms; Chart tab ${appMs.chart.toFixed(0)} ms\n`,
    );
  }
  const of = (pick: (r: TabsRep) => number) => screenFigures(reps.map(pick));
  return {
    rows: TAB_ROWS,
    monthItems: seeded.monthItems,
    floor: of((r) => r.floor),
    firstScreen: of((r) => r.firstScreen),
    firstScreenToFloor: Number(
      percentile(
        reps.map((r) => r.firstScreen / r.floor),
        50,
      ).toFixed(2),
    ),
    calendarTab: of((r) => r.calendar),
    chartTab: of((r) => r.chart),
    reps,
  };
}

async function benchDatabase(database: BenchDatabase) {
  // Made before the server starts (it lists its static files at start), filled once the rows are in.
  const floorFile = staticFloorFile();
  const { server, stop, searchQueue } = await startBenchServer(database);
  const browser = await launchBrowser();
  try {
    const cookie = await signInToProcess(server, 'calendar-bench@example.com');
    process.stdout.write(`[${database}] seeding the tabs page: ${TAB_ROWS} rows × 12 fields…\n`);
    const tabsSeeded = await seedTabs(server, cookie);
    // The rows just written are being indexed for search: waited out, not measured by chance.
    if ((await searchQueueEmptied(searchQueue)) > 0) throw new Error('the search queue stopped going down');
    floorFile.write(await tableFloorHtml(server, cookie, tabsSeeded.table, 'bench tabs', TAB_VIEWS));
    const tabs = await benchTabs(database, browser, server, cookie, floorFile.name, tabsSeeded);
    process.stdout.write(`[${database}] seeding ${ROWS} rows × 12 fields and ${MONTH} in this month…\n`);
    const [seedMs, seeded] = await timed(() => seedCalendar(server, cookie));
    if ((await searchQueueEmptied(searchQueue)) > 0) throw new Error('the search queue stopped going down');
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
      tabs,
      rows: ROWS + MONTH,
      monthItems: seeded.monthItems,
      seedSeconds: Number((seedMs / 1000).toFixed(1)),
      firstScreen: screenFigures(firstScreens),
      monthSwitch: screenFigures(switches),
    };
  } finally {
    await browser.close();
    await stop();
    floorFile.remove();
  }
}

type Result = Awaited<ReturnType<typeof benchDatabase>>;

async function main() {
  const figures: Array<[string, string, (r: Result) => string]> = [
    ['items in this month', '≥ 2,000', (r) => String(r.monthItems)],
    ['first screen: navigation → the month painted, ms (p50 / p95)', `≤ ${TARGETS.firstScreenMs}`, (r) => pair(r.firstScreen)],
    ['month switch: «previous month» → painted, ms (p50 / p95)', `≤ ${TARGETS.monthSwitchMs}`, (r) => pair(r.monthSwitch)],
    [`tabs page (${TAB_ROWS} rows): static-HTML floor, navigation → painted, ms (p50 / p95)`, '', (r) => pair(r.tabs.floor)],
    ["  first screen: navigation → the table's first rows painted, ms (p50 / p95)", '', (r) => pair(r.tabs.firstScreen)],
    ['  first screen ÷ floor (median of the repetitions)', '', (r) => `${r.tabs.firstScreenToFloor}×`],
    ["  Calendar tab: click → this month's items painted, ms (p50 / p95)", '', (r) => `${pair(r.tabs.calendarTab)} (${r.tabs.monthItems} items)`],
    ['  Chart tab: click → bars painted, ms (p50 / p95)', '', (r) => pair(r.tabs.chartTab)],
  ];
  const heading = `Calendar view of ${ROWS + MONTH} rows, this month's ${MONTH}+ items; and a ${TAB_ROWS}-row page's Calendar and Chart tabs beside its static floor; in Chromium (loopback, ${REPS} openings)`;
  await runBench('calendar', benchDatabase, heading, figures, { ROWS, MONTH, TAB_ROWS, REPS, VIEWPORT }, TARGETS);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
