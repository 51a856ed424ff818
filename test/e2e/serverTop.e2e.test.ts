import type { Page } from 'playwright-core';
import { cookieOf } from '../helpers/browser';
import { browserSuite } from '../helpers/browserSuite';
import { savedAndReloaded, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';

/*
 * The first screen from the server (issue 35 §5; docs/web-app.md «The first screen from the
 * server»), in real Chromium against the real server: a page's link shows its top drawn in
 * index.html before the app's code has come; the app takes over without a frame of nothing; a
 * click and the keys typed on the server's drawing land where they were typed.
 */

const suite = browserSuite();
const line = (n: number) => `Абзац ${n}: съешь же ещё этих мягких французских булок`;

/** A page of the signed-in person's with `count` paragraphs; its id. */
async function pageOf(tab: Page, title: string, count: number): Promise<string> {
  const cookie = await cookieOf(tab);
  const S = `${suite.server.url}/api/v3/spaces`;
  const page = await fetchJson<{ data: { id: string } }>(`${S}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title }) });
  let after: string | null = null;
  for (let n = 1; n <= count; n++) {
    const block: { data: { id: string } } = await fetchJson(`${S}/block`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ pageId: page.data.id, type: 'text', placeAfter: after, data: { tokens: [{ text: line(n) }] } }),
    });
    after = block.data.id;
  }
  return page.data.id;
}

/**
 * Types `text` key by key as a keyboard with a Russian layout does: a keydown of each character
 * (Playwright's `type` puts characters a US keyboard lacks in without any key event, as an input
 * method does, and its `press` knows no Cyrillic key; on the server's drawing nothing takes
 * input, so only keys count there).
 */
async function pressEach(tab: Page, text: string): Promise<void> {
  const cdp = await tab.context().newCDPSession(tab);
  for (const key of text) {
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key, unmodifiedText: key });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key });
  }
  await cdp.detach();
}

/**
 * The recorder of the first click and keys is there (index.html's `async` script, asked for first
 * in the head: here it has come ≈ 10 ms after the document, before the first paint). A person's
 * click comes a moment after the page shows; a test's may come sooner on a loaded machine.
 */
const recording = (tab: Page) => tab.waitForFunction(() => window.__earlyInput !== undefined);

/** Holds the answers to `url` back until the returned function is called. */
async function hold(tab: Page, url: string | RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await tab.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Holds the app's code (index.html's module) back: what shows meanwhile is the server's alone. */
const holdAppCode = (tab: Page) => hold(tab, /\/assets\/index-[^/]+\.js$/);

/**
 * Records every frame from the navigation on: whether an element matching `selector` whose text
 * starts with `text` is on the screen (the server's drawing or the app's).
 */
async function recordFrames(tab: Page, selector: string, text: string): Promise<void> {
  await tab.addInitScript(
    ([selector, text]) => {
      const frames: boolean[] = [];
      (window as unknown as { __frames: boolean[] }).__frames = frames;
      const visible = () =>
        [...document.querySelectorAll(selector)].some((element) => {
          if (!(element.textContent ?? '').startsWith(text)) return false;
          const box = element.getBoundingClientRect();
          return box.height > 0 && getComputedStyle(element).visibility !== 'hidden' && box.top < innerHeight;
        });
      const tick = () => {
        frames.push(visible());
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    [selector, text] as const,
  );
}

/** From the first frame that showed it on, the recorded element never left the screen. */
async function expectNeverGone(tab: Page): Promise<void> {
  const frames = await tab.evaluate(() => (window as unknown as { __frames: boolean[] }).__frames);
  const first = frames.indexOf(true);
  expect(first).toBeGreaterThanOrEqual(0);
  expect(frames.slice(first).filter((shown) => !shown)).toHaveLength(0);
}

const serverTop = (tab: Page) => tab.locator('#server-top');
/** A click on a paragraph of the server's drawing (its middle), once the recorder is there. */
async function clickOnTop(tab: Page, text: string): Promise<void> {
  await serverTop(tab).getByText(text, { exact: true }).waitFor();
  await recording(tab);
  await serverTop(tab).getByText(text, { exact: true }).click();
}
const appEditor = (tab: Page) => tab.locator('#root [data-slate-editor]');
const editable = (tab: Page) => appEditor(tab).and(tab.locator('[contenteditable="true"]')).waitFor();

test("a page's link shows its top before the app's code has come; the app takes over with no frame of nothing in between", async () => {
  const tab = await suite.signedIn('top-frames@example.com');
  const pageId = await pageOf(tab, 'Первый экран', 30);
  // Every frame from the start: is the first paragraph on the screen (the server's or the app's)?
  await recordFrames(tab, '#server-top [data-top-block], #root [data-slate-editor] [data-block-id]', line(1));
  const release = await holdAppCode(tab);
  await tab.goto(`${suite.server.url}/${pageId}`, { waitUntil: 'commit' });
  await serverTop(tab).getByText(line(30)).waitFor();
  // The page as it will look, drawn by the server: the title and the paragraphs, read-only.
  await shoot(tab, 'server-top-1280');
  expect(await tab.title()).toBe('Первый экран — Страницы');
  expect(await serverTop(tab).locator('h1').textContent()).toBe('Первый экран');
  expect(await tab.locator('[data-slate-editor]').count()).toBe(0);
  release();
  await editable(tab);
  await tab.waitForTimeout(300);
  expect(await serverTop(tab).count()).toBe(0);
  // From its first frame on, the paragraph never left the screen while the app took over.
  await expectNeverGone(tab);
  await shoot(tab, 'server-top-taken-over-1280');
  await tab.context().close();
});

test('a click and keys typed on the server’s top before the app has come land where they were typed, and are saved', async () => {
  const tab = await suite.signedIn('top-keys@example.com');
  const pageId = await pageOf(tab, 'Печать заранее', 5);
  const release = await holdAppCode(tab);
  await tab.goto(`${suite.server.url}/${pageId}`, { waitUntil: 'commit' });
  const second = serverTop(tab).getByText(line(2));
  await second.waitFor();
  await recording(tab);
  // At the end of the second paragraph's text (its last character's right edge).
  const box = await tab.evaluate((text) => {
    const node = [...document.querySelectorAll('#server-top [data-slate-string]')].find((n) => n.textContent === text)!.firstChild as Text;
    const range = document.createRange();
    range.setStart(node, text.length - 1);
    range.setEnd(node, text.length);
    const rect = range.getBoundingClientRect();
    return { x: rect.right - 1, y: rect.top + rect.height / 2 };
  }, line(2));
  await tab.mouse.click(box.x, box.y);
  await pressEach(tab, ' и ещё');
  await tab.keyboard.press('Enter');
  await pressEach(tab, 'Новый абзац');
  release();
  await editable(tab);
  await appEditor(tab).getByText('Новый абзац', { exact: true }).waitFor();
  const texts = await appEditor(tab).locator('[data-block-id]').allTextContents();
  expect(texts.slice(0, 5)).toEqual(['Печать заранее', line(1), `${line(2)} и ещё`, 'Новый абзац', line(3)]);
  // The caret stayed where the keys went: typing goes on there.
  await tab.keyboard.type('!');
  await appEditor(tab).getByText('Новый абзац!', { exact: true }).waitFor();
  await savedAndReloaded(tab);
  expect((await appEditor(tab).locator('[data-block-id]').allTextContents()).slice(0, 5)).toEqual([
    'Печать заранее',
    line(1),
    `${line(2)} и ещё`,
    'Новый абзац!',
    line(3),
  ]);
  await tab.context().close();
});

test('a big page: keys typed on the server’s top and on the app’s read-only top wait for the editor, then land in order', async () => {
  const tab = await suite.signedIn('top-big@example.com');
  const pageId = await pageOf(tab, 'Большая', 130);
  const releaseCode = await holdAppCode(tab);
  // All of the page comes late: the app shows its read-only top in between.
  const releaseBlocks = await hold(tab, `**/api/v3/spaces/note/${pageId}/blocks`);
  await tab.goto(`${suite.server.url}/${pageId}`, { waitUntil: 'commit' });
  // A click in the middle of the first paragraph's text.
  await clickOnTop(tab, line(1));
  await pressEach(tab, 'Сначала ');
  releaseCode();
  // The app's read-only top has taken over; typing still waits.
  await appEditor(tab).getByText(line(2), { exact: true }).waitFor();
  expect(await serverTop(tab).count()).toBe(0);
  expect(await appEditor(tab).getAttribute('contenteditable')).toBe('false');
  await pressEach(tab, 'потом');
  releaseBlocks();
  await editable(tab);
  await appEditor(tab).getByText(/потом/).waitFor();
  const first = (await appEditor(tab).locator('[data-block-id]').nth(1).textContent()) ?? '';
  // Both runs of keys went where the click was, one after the other.
  expect(first).not.toBe(line(1));
  expect(first.replace('Сначала потом', '')).toBe(line(1));
  await tab.context().close();
});

test('a reader who may not edit: the top is drawn, keys do nothing, the app takes over', async () => {
  const owner = await suite.signedIn('top-owner@example.com');
  const pageId = await pageOf(owner, 'Только чтение', 3);
  const reader = await suite.signedIn('top-reader@example.com');
  const cookie = await cookieOf(owner);
  const readerId = (await fetchJson<{ data: { id: string } }>(`${suite.server.url}/api/user/current`, { cookie: await cookieOf(reader) })).data.id;
  await fetchJson(`${suite.server.url}/api/v3/spaces/element/${pageId}/member/add`, {
    method: 'POST',
    cookie,
    body: JSON.stringify([{ userId: readerId, accessLevel: 'read' }]),
  });
  const release = await holdAppCode(reader);
  await reader.goto(`${suite.server.url}/${pageId}`, { waitUntil: 'commit' });
  await clickOnTop(reader, line(2));
  await pressEach(reader, 'чужой текст');
  release();
  await appEditor(reader).getByText(line(3), { exact: true }).waitFor();
  await reader.locator('.page-readonly').waitFor();
  expect(await serverTop(reader).count()).toBe(0);
  expect(await appEditor(reader).textContent()).not.toContain('чужой текст');
  // The keys are not kept any more: the reader's typing goes to the browser as usual.
  expect(await reader.evaluate(() => window.__earlyInput === undefined)).toBe(true);
  await owner.context().close();
  await reader.context().close();
});

test('a phone, in the dark: the top in the phone layout and the theme from the start', async () => {
  const tab = await suite.signedIn('top-phone@example.com');
  const pageId = await pageOf(tab, 'На телефоне', 8);
  await tab.setViewportSize({ width: 375, height: 800 });
  await tab.emulateMedia({ colorScheme: 'dark' });
  const release = await holdAppCode(tab);
  await tab.goto(`${suite.server.url}/${pageId}`, { waitUntil: 'commit' });
  await serverTop(tab).getByText(line(8), { exact: true }).waitFor();
  expect(await tab.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  // No sidebar on a phone: the page takes the width.
  const box = await serverTop(tab).locator('h1').boundingBox();
  expect(box?.x ?? 999).toBeLessThan(40);
  await shoot(tab, 'server-top-375-dark');
  release();
  await appEditor(tab).getByText(line(8), { exact: true }).waitFor();
  await shoot(tab, 'server-top-taken-over-375-dark');
  await tab.context().close();
});

test('scrolled on the server’s drawing, the page stays where it was scrolled when the app takes over', async () => {
  const tab = await suite.signedIn('top-scroll@example.com');
  const pageId = await pageOf(tab, 'Прокрутка', 60);
  const release = await holdAppCode(tab);
  await tab.goto(`${suite.server.url}/${pageId}`, { waitUntil: 'commit' });
  await serverTop(tab).getByText(line(60), { exact: true }).waitFor();
  const scrolled = await tab.evaluate(() => {
    const main = document.querySelector('#server-top .shell-main')!;
    main.scrollTop = 900;
    return main.scrollTop;
  });
  expect(scrolled).toBeGreaterThan(800);
  const before = await serverTop(tab).getByText(line(30), { exact: true }).boundingBox();
  release();
  await editable(tab);
  expect(await serverTop(tab).count()).toBe(0);
  expect(await tab.evaluate(() => document.querySelector('#root .shell-main')!.scrollTop)).toBe(scrolled);
  // The same paragraph where it was on the screen.
  const after = await appEditor(tab).getByText(line(30), { exact: true }).boundingBox();
  expect(Math.abs((after?.y ?? 0) - (before?.y ?? -999))).toBeLessThan(2);
  await tab.context().close();
});

test('a published page opened signed out: the public frame drawn by the server, then the app’s public page', async () => {
  const owner = await suite.signedIn('top-publisher@example.com');
  const pageId = await pageOf(owner, 'Для всех', 4);
  await fetchJson(`${suite.server.url}/api/v3/spaces/element/${pageId}`, {
    method: 'PATCH',
    cookie: await cookieOf(owner),
    body: JSON.stringify({ isPublic: true }),
  });
  const visitor = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const release = await holdAppCode(visitor);
  await visitor.goto(`${suite.server.url}/public/${pageId}`, { waitUntil: 'commit' });
  await serverTop(visitor).getByText(line(4), { exact: true }).waitFor();
  expect(await serverTop(visitor).locator('.public-topbar').count()).toBe(1);
  await shoot(visitor, 'server-top-public-1280');
  release();
  await appEditor(visitor).getByText(line(4), { exact: true }).waitFor();
  await visitor.locator('#root .public-page').waitFor();
  expect(await serverTop(visitor).count()).toBe(0);
  await visitor.context().close();
  await owner.context().close();
});

test('a database page: the table with its first rows drawn by the server; the app takes over once its grid holds them, never blinking empty', async () => {
  const tab = await suite.signedIn('top-database@example.com');
  const cookie = await cookieOf(tab);
  const S = `${suite.server.url}/api/v3/spaces`;
  const page: { data: { id: string } } = await fetchJson(`${S}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ title: 'Заказы', type: 'Database' }),
  });
  const blocks: { data: Array<{ id: string }> } = await fetchJson(`${S}/note/${page.data.id}/blocks`, { cookie });
  const rows = Array.from({ length: 40 }, (_, n) => ({ title: `Заказ ${String(n + 1).padStart(2, '0')}` }));
  await fetchJson(`${S}/database/${blocks.data[0].id}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows }) });
  // Every frame: is the first row on the screen (the server's grid or the app's)?
  await recordFrames(tab, '#server-top .db-row [data-col="0"], #root .db-row [data-col="0"]', 'Заказ 01');
  const releaseCode = await holdAppCode(tab);
  // The rows' answer to the app is held too: the app's page is there before its grid has rows.
  const releaseRows = await hold(tab, /\/rows\?/);
  await tab.goto(`${suite.server.url}/${page.data.id}`, { waitUntil: 'commit' });
  await serverTop(tab).locator('.db-row', { hasText: 'Заказ 12' }).waitFor();
  await shoot(tab, 'server-top-database-1280');
  expect(await serverTop(tab).locator('.db-table').getAttribute('aria-busy')).toBeNull();
  releaseCode();
  // The app's page has come, with its grid still waiting for rows: the server's drawing stays over it.
  await tab.locator('#root .db-table[aria-busy="true"]').waitFor();
  await tab.waitForTimeout(200);
  expect(await serverTop(tab).count()).toBe(1);
  releaseRows();
  await tab.locator('#root .db-row', { hasText: 'Заказ 12' }).waitFor();
  await serverTop(tab).waitFor({ state: 'detached' });
  await expectNeverGone(tab);
  await shoot(tab, 'server-top-database-taken-over-1280');
  await tab.context().close();
});
