import type { BrowserContext, Page } from 'playwright-core';
import { blocksOf, eventually, newPage, saved, shoot, twoPeopleSuite } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * Co-editing in real Chromium against the real server (issue 6): Alice and Bob have one page
 * open and type into the same paragraph at the same time, each at their own spot. Both end with
 * the same text, which holds everything both typed; neither caret was moved away from where its
 * owner was typing; each sees the other's avatar and caret. Then Bob adds a paragraph and
 * removes another, and renames the page; Alice sees all of it live.
 */

const HEADERS = { 'X-App-Type': 'Web' };
const people = twoPeopleSuite('alice.coedit@example.com', 'bob.coedit@example.com');
let server: ServerProcess;
let alice: BrowserContext;
let bob: BrowserContext;

beforeAll(() => {
  [server, alice, bob] = [people.server(), people.first(), people.second()];
});

const paragraph = (page: Page, n: number) => page.locator('[data-slate-editor] p[data-block-id]').nth(n);

/** Puts the caret at a character offset of the n-th paragraph (through the DOM, as a click would). */
async function caretAt(page: Page, n: number, offset: number): Promise<void> {
  await paragraph(page, n).click();
  await page.evaluate(
    ([index, at]) => {
      const block = document.querySelectorAll('[data-slate-editor] p[data-block-id]')[index];
      const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
      let seen = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement?.closest('[data-slate-string]')) continue;
        const length = node.textContent?.length ?? 0;
        if (at <= seen + length) {
          window.getSelection()?.collapse(node, at - seen);
          return;
        }
        seen += length;
      }
    },
    [n, offset] as const,
  );
  await page.waitForTimeout(50);
}

/** Types character by character with a small delay, as a person does. */
async function typeSlowly(page: Page, text: string): Promise<void> {
  for (const ch of text) {
    await page.keyboard.type(ch);
    await page.waitForTimeout(25 + Math.random() * 40);
  }
}

/** The text around the DOM caret: what the person is typing next to. */
const aroundCaret = (page: Page) =>
  page.evaluate(() => {
    const s = window.getSelection();
    const text = s?.anchorNode?.textContent ?? '';
    return text.slice(Math.max(0, (s?.anchorOffset ?? 0) - 4), s?.anchorOffset ?? 0);
  });

it('two people typing into one paragraph at once both keep what they typed, and see each other', async () => {
  const alicePage = await alice.newPage();
  await alicePage.goto(server.url + '/');
  const url = await newPage(alicePage, 'Вместе');
  await alicePage.keyboard.type('Начало середина конец');
  await alicePage.keyboard.press('Enter');
  await alicePage.keyboard.type('Второй абзац');
  await alicePage.keyboard.press('Enter');
  await alicePage.keyboard.type('Третий абзац');
  await saved(alicePage);
  const pageId = new URL(url).pathname.slice(1);
  const shared = await alicePage.request.post(`${server.url}/api/v3/spaces/element/${pageId}/member/add`, {
    data: [{ email: 'bob.coedit@example.com', accessLevel: 'edit' }],
    headers: HEADERS,
  });
  expect(shared.status()).toBe(200);

  const bobPage = await bob.newPage();
  await bobPage.goto(url);
  await paragraph(bobPage, 0).waitFor();
  // Presence: each sees the other's avatar.
  await alicePage.locator('[data-testid="presence-avatars"] .presence-avatar').first().waitFor({ timeout: 5_000 });
  await bobPage.locator('[data-testid="presence-avatars"] .presence-avatar').first().waitFor({ timeout: 5_000 });

  // Alice types after «Начало», Bob at the end of the same paragraph, at the same time.
  await caretAt(alicePage, 0, 'Начало'.length);
  await caretAt(bobPage, 0, 'Начало середина конец'.length);
  await Promise.all([typeSlowly(alicePage, ' от Алисы'), typeSlowly(bobPage, ' и от Боба')]);
  // Each kept typing where they were: their carets were not moved by the other's edits.
  expect(await aroundCaret(alicePage)).toBe('лисы');
  expect(await aroundCaret(bobPage)).toBe('Боба');

  await Promise.all([saved(alicePage), saved(bobPage)]);
  const expected = 'Начало от Алисы середина конец и от Боба';
  await eventually(async () => (await blocksOf(alicePage))[0], `textBlock:0:${expected}`, 10_000);
  await eventually(async () => (await blocksOf(bobPage))[0], `textBlock:0:${expected}`, 10_000);
  // The server holds the same.
  const blocks = await (await alicePage.request.get(`${server.url}/api/v3/spaces/note/${pageId}/blocks`, { headers: HEADERS })).json();
  expect(blocks.data[0].data.tokens.map((t: { text: string }) => t.text).join('')).toBe(expected);

  // Each sees the other's caret.
  await alicePage.locator('.presence-remote .presence-caret').first().waitFor({ timeout: 5_000 });
  await bobPage.locator('.presence-remote .presence-caret').first().waitFor({ timeout: 5_000 });
  await shoot(alicePage, 'coediting-alice-1280');
  await shoot(bobPage, 'coediting-bob-1280');

  // Bob adds a paragraph at the end and deletes the second one: Alice sees both, live.
  await caretAt(bobPage, 2, 'Третий абзац'.length);
  await bobPage.keyboard.press('Enter');
  await bobPage.keyboard.type('Новый от Боба');
  await caretAt(bobPage, 1, 0);
  await bobPage.keyboard.press('Shift+End');
  await bobPage.keyboard.press('Backspace');
  await bobPage.keyboard.press('Backspace');
  await saved(bobPage);
  const after = [`textBlock:0:${expected}`, 'textBlock:0:Третий абзац', 'textBlock:0:Новый от Боба'];
  await eventually(() => blocksOf(bobPage), after, 10_000);
  await eventually(() => blocksOf(alicePage), after, 10_000);

  // Bob renames the page: Alice's title line, top bar and sidebar follow.
  await bobPage.locator('[data-slate-editor] h1').click();
  await bobPage.keyboard.press('End');
  await bobPage.keyboard.type(' навсегда');
  await saved(bobPage);
  await eventually(() => alicePage.locator('[data-slate-editor] h1').innerText(), 'Вместе навсегда', 10_000);
  await alicePage.locator('.sidebar', { hasText: 'Вместе навсегда' }).first().waitFor({ timeout: 10_000 });
  await alicePage.locator('.page-topbar', { hasText: 'Вместе навсегда' }).waitFor({ timeout: 10_000 });
});

it('a page whose blocks fail to load is shown as an error, never as an empty page, and nothing is saved over it', async () => {
  const page = await alice.newPage();
  await page.goto(server.url + '/');
  const url = await newPage(page, 'Не пустая');
  await page.keyboard.type('Важный текст');
  await saved(page);
  const pageId = new URL(url).pathname.slice(1);

  // The connection drops right when the blocks are asked for.
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && request.url().includes('/api/v3/spaces/block')) writes.push(`${request.method()} ${request.url()}`);
  });
  // The blocks' every read: the top of the page (`?limit=`) and the whole of it.
  const blocksReads = /\/api\/v3\/spaces\/note\/[^/]+\/blocks(\?.*)?$/;
  await page.route(blocksReads, (route) => route.abort('internetdisconnected'));
  await page.reload();
  await page.getByText('Нет связи с сервером').first().waitFor();
  expect(await page.locator('[data-slate-editor]').count()).toBe(0);
  await page.waitForTimeout(1500);
  expect(writes).toEqual([]);

  // Back online: the text is there, on the screen and on the server.
  await page.unroute(blocksReads);
  await page.reload();
  await eventually(() => blocksOf(page), ['textBlock:0:Важный текст'], 10_000);
  const blocks = await (await page.request.get(`${server.url}/api/v3/spaces/note/${pageId}/blocks`, { headers: HEADERS })).json();
  expect(blocks.data.map((b: { data: { tokens: Array<{ text: string }> } }) => b.data.tokens.map((t) => t.text).join(''))).toEqual(['Важный текст']);
});
