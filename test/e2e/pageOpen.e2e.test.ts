import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { signInThroughUi } from '../helpers/browser';
import { fetchJson, type ServerProcess } from '../helpers/serverProcess';
import { browserSuite, eventually, savedAndReloaded, shoot } from '../helpers/editorPage';

/*
 * Opening a page by its link (issue 15, «Opening a big page fast»), in real Chromium against the
 * real server: the page's data is asked for at start, alongside the app's code (not after the
 * shell and a lazy screen); the top of a big page is drawn read-only while the rest comes, then
 * the editor takes over; the sidebar's lists are each read once; the blocks come compressed.
 */

const EMAIL = 'open-e2e@example.com';
const LINES = 160;
const line = (n: number) => `Абзац ${n}: съешь же ещё этих мягких французских булок, да выпей чаю`;

let server: ServerProcess;
let browser: Browser;
let context: BrowserContext;
let cookie: string;
let pageId: string;

browserSuite((started, launched) => ([server, browser] = [started, launched]));
beforeAll(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tab = await context.newPage();
  await signInThroughUi(tab, server, EMAIL);
  await tab.close();
  cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const page = await fetchJson<{ data: { id: string } }>(`${server.url}/api/v3/spaces/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ title: 'Длинная страница' }),
  });
  pageId = page.data.id;
  let previous: string | null = null;
  for (let n = 1; n <= LINES; n++) {
    const created: { data: { id: string } } = await fetchJson(`${server.url}/api/v3/spaces/block`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ pageId, type: 'text', placeAfter: previous, data: { tokens: [{ text: line(n) }] } }),
    });
    previous = created.data.id;
  }
}, 120_000);

/** The requests a tab makes to the API, by path (with query), in order. */
function recordApi(tab: Page): Request[] {
  const seen: Request[] = [];
  tab.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) seen.push(request);
  });
  return seen;
}
const pathOf = (request: Request) => {
  const url = new URL(request.url());
  return url.pathname + url.search;
};

const editor = (tab: Page) => tab.locator('[data-slate-editor]');

test('a page link: its data is asked for with the code, each sidebar list once, the blocks compressed', async () => {
  const tab = await context.newPage();
  const logFrom = server.log().length;
  const blocksAnswer = tab.waitForResponse((r) => r.url().endsWith(`/note/${pageId}/blocks`));
  await tab.goto(`${server.url}/${pageId}`);
  await editor(tab).and(tab.locator('[contenteditable="true"]')).waitFor();
  await tab.locator('.sidebar-page', { hasText: 'Длинная страница' }).first().waitFor();
  // The live tree's join has happened by now (and any second reading of the lists with it).
  await tab.waitForTimeout(1500);
  // Counted where they arrive, in the server's log of requests (the browser may send a request
  // twice when a kept-alive connection the server had just closed fails, which is no second read).
  const arrived = server
    .log()
    .slice(logFrom)
    .split('\n')
    .filter((line) => line.includes('"incoming request"'));
  const count = (path: string) => arrived.filter((line) => line.includes(`"url":${JSON.stringify(path)}`)).length;
  // A section's list, whatever its query (the shared one asks for every workspace: ?scope="all").
  const sectionReads = (section: string) => arrived.filter((line) => new RegExp(`"url":"/api/v3/spaces/section/${section}(\\?[^"]*)?"`).test(line)).length;
  expect({
    favorite: sectionReads('favorite'),
    shared: sectionReads('shared'),
    private: sectionReads('private'),
    blocks: count(`/api/v3/spaces/note/${pageId}/blocks`),
    top: count(`/api/v3/spaces/note/${pageId}/blocks?limit=100`),
    user: count('/api/user/current'),
    workspaces: count('/api/v3/spaces/workspace'),
    settings: count('/api/user/settings'),
  }).toEqual({ favorite: 1, shared: 1, private: 1, blocks: 1, top: 1, user: 1, workspaces: 1, settings: 1 });

  // The page, its top, the user's settings are asked for at start, with the words and the page
  // screen's code (without the prefetch, after it: nothing is drawn before it is in), and before
  // the shell, once drawn, asks for its lists. All of the page is asked for once the top is there.
  const timing = await tab.evaluate((id) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const find = (pattern: RegExp) => entries.find((e) => pattern.test(new URL(e.name).pathname + new URL(e.name).search));
    return {
      headStart: find(new RegExp(`/note/${id}/blocks\\?limit=100$`))?.startTime ?? NaN,
      headEnd: find(new RegExp(`/note/${id}/blocks\\?limit=100$`))?.responseEnd ?? NaN,
      blocksStart: find(new RegExp(`/note/${id}/blocks$`))?.startTime ?? NaN,
      settingsStart: find(/^\/api\/user\/settings$/)?.startTime ?? NaN,
      listsStart: find(/^\/api\/v3\/spaces\/section\/private$/)?.startTime ?? NaN,
      screenCodeStart: find(/\/assets\/PageScreen-[^/]+\.js$/)?.startTime ?? NaN,
      screenCodeEnd: find(/\/assets\/PageScreen-[^/]+\.js$/)?.responseEnd ?? NaN,
      wordsStart: find(/\/assets\/common-[^/]+\.json$/)?.startTime ?? NaN,
      appStart: performance.getEntriesByName('app:start')[0]?.startTime ?? NaN,
      // Asked for once each (from the browser's cache, after the sign-in: the server may not see them).
      words: entries.filter((e) => /\/assets\/(common|documentEditor|automation)-[^/]+\.json$/.test(e.name)).length,
      screenCode: entries.filter((e) => /\/assets\/PageScreen-[^/]+\.js$/.test(e.name)).length,
    };
  }, pageId);
  // index.html's early script (src/app/earlyStart.ts) asks for the words, the page, its top, the
  // user and the page screen's code while the HTML is read: before the app's own code runs.
  expect(timing.headStart).toBeLessThan(timing.appStart);
  expect(timing.settingsStart).toBeLessThan(timing.appStart);
  expect(timing.wordsStart).toBeLessThan(timing.appStart);
  expect(timing.screenCodeStart).toBeLessThan(timing.appStart);
  expect([timing.words, timing.screenCode]).toEqual([3, 1]);
  expect(timing.headStart).toBeLessThan(timing.screenCodeEnd);
  expect(timing.headStart).toBeLessThan(timing.listsStart);
  expect(timing.settingsStart).toBeLessThan(timing.listsStart);
  expect(timing.blocksStart).toBeGreaterThanOrEqual(timing.headEnd);

  const answer = await blocksAnswer;
  expect(await answer.headerValue('content-encoding')).toBe('br');
  const listed = (await answer.json()) as { data: unknown[] };
  expect(listed.data).toHaveLength(LINES);
  await tab.close();
});

test('the top of a big page is drawn read-only while the rest comes; then it is edited and saved as usual', async () => {
  const tab = await context.newPage();
  // The whole page comes late (a slow network): the top is there long before.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await tab.route(`**/api/v3/spaces/note/${pageId}/blocks`, async (route) => {
    await released;
    await route.continue();
  });
  await tab.goto(`${server.url}/${pageId}`);
  await editor(tab).getByText(line(1), { exact: true }).waitFor();
  // Far blocks are placeholders holding their text (src/editor/lazyChunks.tsx): the text is there.
  const previewText = (await editor(tab).textContent()) ?? '';
  expect(previewText).toContain(line(100));
  expect(previewText).not.toContain(line(101));
  expect(await editor(tab).getAttribute('contenteditable')).toBe('false');
  await expect(tab.locator('.page-readonly').count()).resolves.toBe(0);
  // It says the rest is coming (and is busy for assistive technology).
  expect(await tab.locator('.page-sync').textContent()).toBe('Загрузка страницы…');
  expect(await tab.locator('.page').getAttribute('aria-busy')).toBe('true');
  await shoot(tab, 'page-open-preview-1280');
  // A click in the top while it loads: the editor that takes over puts the caret there.
  await editor(tab).getByText(line(3), { exact: true }).click();

  release();
  await editor(tab).and(tab.locator('[contenteditable="true"]')).waitFor();
  expect(await tab.locator('.page').getAttribute('aria-busy')).toBe('false');
  expect((await editor(tab).textContent()) ?? '').toContain(line(LINES));
  await tab.waitForFunction(() => document.activeElement?.closest('[data-slate-editor]') !== null);
  await tab.keyboard.press('End');
  await tab.keyboard.type(' — дописано');
  await savedAndReloaded(tab);
  await editor(tab)
    .getByText(`${line(3)} — дописано`, { exact: true })
    .waitFor();
  await tab.close();
});

test('a small page is not drawn twice: no top-of-page step when the top is all of it', async () => {
  const small = await fetchJson<{ data: { id: string } }>(`${server.url}/api/v3/spaces/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ title: 'Короткая' }),
  });
  await fetchJson(`${server.url}/api/v3/spaces/block`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ pageId: small.data.id, type: 'text', placeAfter: null, data: { tokens: [{ text: 'Одна строка' }] } }),
  });
  const tab = await context.newPage();
  const editableStates: string[] = [];
  await tab.exposeFunction('__editableSeen', (value: string) => editableStates.push(value));
  await tab.addInitScript(() => {
    new MutationObserver(() => {
      const node = document.querySelector('[data-slate-editor]');
      const value = node?.getAttribute('contenteditable');
      const w = window as unknown as { __last?: string; __editableSeen(v: string): void };
      if (value && value !== w.__last) {
        w.__last = value;
        w.__editableSeen(value);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['contenteditable'] });
  });
  const requests = recordApi(tab);
  await tab.goto(`${server.url}/${small.data.id}`);
  await editor(tab).and(tab.locator('[contenteditable="true"]')).waitFor();
  await editor(tab).getByText('Одна строка', { exact: true }).waitFor();
  expect(editableStates).toEqual(['true']);
  // Its top is all of it: one request for its blocks.
  expect(requests.map(pathOf).filter((p) => p.startsWith(`/api/v3/spaces/note/${small.data.id}/blocks`))).toEqual([
    `/api/v3/spaces/note/${small.data.id}/blocks?limit=100`,
  ]);
  await tab.close();
});

test("a page holding a database: the early script asks for its first rows and the Table view's code once the page's top is in; the app asks for neither again", async () => {
  const S = `${server.url}/api/v3/spaces`;
  const holder = await fetchJson<{ data: { id: string } }>(`${S}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Заказы' }),
  });
  const block = (await fetchJson<{ data: Array<{ id: string }> }>(`${S}/note/${holder.data.id}/blocks`, { cookie })).data[0];
  await fetchJson(`${S}/database/${block.id}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'Первый заказ' }, { title: 'Второй заказ' }] }),
  });
  const tab = await context.newPage();
  const requests = recordApi(tab);
  const logFrom = server.log().length;
  await tab.goto(`${server.url}/${holder.data.id}`);
  await tab.locator('.db-scroll .db-row', { hasText: 'Второй заказ' }).waitFor();
  // Joining the page's live channel asks where the database stands; it has not moved since the
  // rows were read, so they are not read again (every view read them twice before).
  await eventually(async () => requests.map(pathOf).filter((p) => p.startsWith(`/api/v3/spaces/database/${block.id}/revision`)).length, 1, 10_000);
  await tab.waitForTimeout(400);
  const rowReads = requests.filter((request) => pathOf(request).startsWith(`/api/v3/spaces/database/${block.id}/rows`));
  const rows = rowReads.map(pathOf);
  // The app takes the script's answer only while it is fresh (src/app/api.ts PREFETCH_FRESH_MS,
  // 10 s): on a machine so busy that the app asked later than that, it reads the rows itself.
  const stale = rowReads.length === 2 && rowReads[1].timing().startTime - rowReads[0].timing().startTime >= 10_000;
  if (rowReads.length > 1)
    console.log(
      `pageOpen: the rows read ${rowReads.length} times, at ${rowReads.map((r) => Math.round(r.timing().startTime - rowReads[0].timing().startTime)).join(', ')} ms`,
    );
  expect(rows).toHaveLength(stale ? 2 : 1);
  const arrived = server
    .log()
    .slice(logFrom)
    .split('\n')
    .filter((line) => line.includes('"incoming request"') && line.includes(`/database/${block.id}/rows`));
  // The browser's one, and the server's own read for the page's top it draws (`app.inject`: no socket, no remote port).
  expect(arrived.map((line) => line.includes('"remotePort"'))).toEqual(expect.arrayContaining([true, false]));
  expect(arrived).toHaveLength(rows.length + 1);
  const seen = await tab.evaluate(() => ({
    // The script's requests stay listed once taken (their answers are gone).
    early: Object.keys(window.__early ?? {}),
    preloaded: Array.from(document.head.querySelectorAll('link[rel="modulepreload"]')).map((link) => new URL((link as HTMLLinkElement).href).pathname),
    code: performance.getEntriesByType('resource').filter((e) => /\/assets\/DatabaseBlock-[^/]+\.js$/.test(e.name)).length,
  }));
  expect(seen.early).toContain(rows[0]);
  expect(seen.preloaded.some((path) => /^\/assets\/DatabaseBlock-[^/]+\.js$/.test(path))).toBe(true);
  expect(seen.code).toBe(1);
  await tab.close();
});
