import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser, signInThroughUi } from './browser';
import { startServerProcess, type ServerProcess } from './serverProcess';

/*
 * What the editor's browser tests share: reading the blocks as a user sees them, making a page,
 * waiting until everything is saved, reloading, and pasting clipboard data as Chromium does.
 */

/** Every block after the title as "type:depth:text" (the text the block's editable part shows). */
export async function blocksOf(page: Page): Promise<string[]> {
  return page.locator('[data-slate-editor] [data-block-id]').evaluateAll((all) =>
    all
      .filter((n) => n.parentElement?.closest('[data-block-id]') == null)
      .slice(1)
      .map((n) => {
        const type = [...n.classList].find((c) => c.startsWith('block-') && c !== 'block-void')?.slice(6) ?? '?';
        const text = (
          n.querySelector('[data-slate-node="text"]')
            ? [...n.querySelectorAll('[data-slate-string], [data-slate-zero-width]')].map((s) => s.textContent ?? '').join('')
            : ''
        ).replace(/\uFEFF/g, '');
        return `${type}:${n.getAttribute('data-depth') ?? 0}:${text}`;
      }),
  );
}

/** The ids (data-block-id) of the blocks after the title, in order. */
export async function blockIdsOf(page: Page): Promise<string[]> {
  return page.locator('[data-slate-editor] [data-block-id]').evaluateAll((all) =>
    all
      .filter((n) => n.parentElement?.closest('[data-block-id]') == null)
      .slice(1)
      .map((n) => n.getAttribute('data-block-id') ?? ''),
  );
}

/** The cells' text of the n-th table on the page, row by row. */
export async function tableCells(page: Page, n = 0): Promise<string[][]> {
  return page
    .locator('[data-slate-editor] .block-tableBlock')
    .nth(n)
    .evaluate((table) =>
      [...table.querySelectorAll('tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').replace(/\uFEFF/g, ''))),
    );
}

/** A new page from the sidebar, its title typed; the caret ends in the empty block under the title. */
export async function newPage(page: Page, title: string): Promise<string> {
  const before = page.url();
  await page.getByRole('button', { name: 'Новая страница' }).first().click();
  // The new page's address (made from another page, the old one has an address of the same shape).
  await page.waitForURL((url) => /\/[0-9a-f-]{36}$/.test(url.pathname) && url.href !== before);
  // The editor, not the read-only top drawn while the page loads: keys typed into that are lost.
  await pageReady(page);
  await page.locator('[data-slate-editor] h1').click();
  await page.keyboard.type(title);
  await page.keyboard.press('Enter');
  return page.url();
}

/** A formula made with /latex where the caret is, `tex` typed in its box; waits until KaTeX has drawn it. */
export async function typeFormula(page: Page, tex: string): Promise<void> {
  await page.keyboard.type('/latex ');
  await page.getByText('Добавьте формулу').click();
  await page.getByRole('textbox', { name: 'Формула LaTeX' }).fill(tex);
  await page.keyboard.press('Escape');
  await page.locator('.block-latexBlock .katex-display').waitFor();
}

/** Reads until the value equals `expected` (deep), or fails with the last value read after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  expect(last).toEqual(expected);
}

/**
 * Waits until every edit reached the server (the page's sync status says so). Not saved in 15 s
 * (or `timeoutMs`): fails saying what the status was then (its state and text), to tell a slow
 * save from a stuck one.
 */
export async function saved(page: Page, timeoutMs = 15_000): Promise<void> {
  try {
    await page.locator('.page-sync[data-status="saved"]').waitFor({ timeout: timeoutMs });
  } catch (error) {
    const status = await page
      .locator('.page-sync')
      .evaluateAll((nodes) => nodes.map((node) => `${(node as HTMLElement).dataset.status}: ${node.textContent}`))
      .catch(() => []);
    throw new Error(`not saved in ${timeoutMs / 1000} s; the sync status: ${status.join(' | ') || '(none shown)'}`, { cause: error });
  }
}

/**
 * The page's blocks as the server has them once saved, "type:depth:text" (wire types, docs/api/blocks.md),
 * in order — what `blocksOf` cannot read of blocks folded away under a closed toggle (drawn without text).
 */
export async function savedBlocksOf(page: Page, pageId: string): Promise<string[]> {
  await saved(page);
  return page.evaluate(async (id) => {
    const res = await fetch(`/api/v3/spaces/note/${id}/blocks`);
    const { data } = (await res.json()) as { data: { id: string; type: string; parentId: string | null; data: { tokens?: { text: string }[] } }[] };
    const depth = new Map<string, number>();
    return data.map((block) => {
      const level = block.parentId ? (depth.get(block.parentId) ?? 0) + 1 : 0;
      depth.set(block.id, level);
      return `${block.type}:${level}:${(block.data.tokens ?? []).map((token) => token.text).join('')}`;
    });
  }, pageId);
}

/** The page screen with all of the page in (not the read-only top of a big page, `aria-busy`). */
export const pageReady = (page: Page) => page.locator('.page[aria-busy="false"] [data-slate-editor] h1').first().waitFor();

/** Saves, reloads and waits for the editor to be back, with all of the page. */
export async function savedAndReloaded(page: Page, timeoutMs?: number): Promise<void> {
  await saved(page, timeoutMs);
  await page.reload();
  await pageReady(page);
}

export interface PasteResult {
  /** The page cancelled the `paste` event (handled it there); otherwise `beforeinput` followed. */
  handledOnPaste: boolean;
  /** The `beforeinput` (insertFromPaste) was cancelled: the editor handled it. */
  handledOnBeforeInput: boolean;
}

/**
 * Pastes clipboard data into the focused editor the way Chromium does it for Ctrl+V: a `paste`
 * ClipboardEvent carrying a DataTransfer built in the page, fired at the element the selection
 * starts in; when the page does not cancel it, the editing `beforeinput` event
 * (inputType insertFromPaste) with the same DataTransfer. (slate-react reads only plain-text-only
 * pastes on `paste` in Chromium and everything else on `beforeinput`, so a bare synthetic `paste`
 * event would not reach it with HTML.)
 */
export async function pasteData(
  page: Page,
  data: Record<string, string>,
  files: ReadonlyArray<{ name: string; type: string; base64: string }> = [],
): Promise<PasteResult> {
  return page.evaluate(
    ([entries, fileList]) => {
      const selection = window.getSelection();
      const anchor = selection && selection.rangeCount > 0 ? selection.anchorNode : null;
      const target = anchor ? (anchor instanceof Element ? anchor : anchor.parentElement) : null;
      const editable = target?.closest('[data-slate-editor]');
      if (!target || !editable || document.activeElement !== editable) throw new Error('the editor does not have the caret');
      const transfer = new DataTransfer();
      for (const [type, value] of Object.entries(entries)) transfer.setData(type, value);
      for (const file of fileList) transfer.items.add(new File([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], file.name, { type: file.type }));
      const paste = new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true, composed: true });
      if (!target.dispatchEvent(paste)) return { handledOnPaste: true, handledOnBeforeInput: false };
      const input = new InputEvent('beforeinput', { inputType: 'insertFromPaste', dataTransfer: transfer, bubbles: true, cancelable: true, composed: true });
      return { handledOnPaste: false, handledOnBeforeInput: !target.dispatchEvent(input) };
    },
    [data, files] as const,
  );
}

/**
 * A server process and a browser for a test file: started together before its tests (`started`
 * gets them, before any `beforeAll` registered after this call runs) and stopped after them.
 */
export function browserSuite(started: (server: ServerProcess, browser: Browser) => void): void {
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    const [launchedServer, launchedBrowser] = await Promise.all([startServerProcess(), launchBrowser()]);
    [server, browser] = [launchedServer, launchedBrowser];
    started(launchedServer, launchedBrowser);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}

/**
 * One server (SQLite) and one browser for a test file, with a context signed in as `email`:
 * registers beforeAll/afterAll; `openApp()` opens a tab of that context on the home screen.
 */
export function signedInEditorSuite(email: string, contextOptions: BrowserContextOptions = {}) {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  browserSuite((started, launched) => ([server, browser] = [started, launched]));
  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
    const page = await context.newPage();
    await signInThroughUi(page, server, email);
    await page.close();
  }, 60_000);
  return {
    async openApp(): Promise<Page> {
      const page = await context.newPage();
      await page.goto(server.url + '/');
      await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
      return page;
    },
    /** The signed-in browser context (cookies, offline switch). */
    context: () => context,
    /** The server, e.g. to sign someone else in (`signInThroughUi`). */
    server: () => server,
  };
}

/**
 * One server (SQLite), one browser and two people, each in their own context (1280 × 900) and
 * already signed in through the UI: registers beforeAll/afterAll. Contexts and the server are
 * read through the getters (they exist once beforeAll ran).
 */
export function twoPeopleSuite(emailA: string, emailB: string) {
  let server: ServerProcess;
  let browser: Browser;
  let a: BrowserContext;
  let b: BrowserContext;
  browserSuite((started, launched) => ([server, browser] = [started, launched]));
  beforeAll(async () => {
    a = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    b = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [pa, pb] = await Promise.all([a.newPage(), b.newPage()]);
    await signInThroughUi(pa, server, emailA);
    await signInThroughUi(pb, server, emailB);
    await Promise.all([pa.close(), pb.close()]);
  }, 90_000);
  return {
    server: () => server,
    browser: () => browser,
    first: () => a,
    second: () => b,
  };
}

/** Shares a page with someone by e-mail from a signed-in page (`member/add`): the answer's status. */
export const shareByEmail = (page: Page, pageId: string, email: string, accessLevel: 'read' | 'edit') =>
  page.evaluate(
    async ([id, who, level]) =>
      (
        await fetch(`/api/v3/spaces/element/${id}/member/add`, {
          method: 'POST',
          headers: { 'X-App-Type': 'Web', 'Content-Type': 'application/json' },
          body: JSON.stringify([{ email: who, accessLevel: level }]),
        })
      ).status,
    [pageId, email, accessLevel] as const,
  );

/** Where browser tests put the screenshots people look at (gitignored). */
export const SHOTS_DIR = path.resolve(process.cwd(), '.tmp/shots');

/** A screenshot of the page as it settled (300 ms: transitions end), as .tmp/shots/{name}.png. */
export async function shoot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

/** A new page holding a database made from the slash menu (`command`), its table drawn and saved; the page's address. */
export async function pageWithDatabase(page: Page, title: string, command = '/база'): Promise<string> {
  const url = await newPage(page, title);
  await page.keyboard.type(command);
  await page.locator('.slash-menu').waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.db-scroll').waitFor();
  await saved(page);
  return url;
}

/**
 * Drags the paragraph holding `text` by its handle to the right edge of the paragraph holding
 * `beside` — over its left part first, as a hand would — and lets go once the editor shows its
 * «beside» bar there (the two become columns).
 */
export async function dragBeside(page: Page, text: string, beside: string): Promise<void> {
  await page.getByText(text).hover();
  const from = await page.locator('.block-handle').boundingBox();
  const target = await page.locator('[data-slate-editor] p', { hasText: beside }).boundingBox();
  if (!from || !target) throw new Error('no geometry');
  const middle = target.y + target.height / 2;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + 20, middle, { steps: 6 });
  await page.mouse.move(target.x + target.width - 12, middle, { steps: 10 });
  await page.locator('.block-drop-line.is-beside').waitFor();
  await page.mouse.up();
}
