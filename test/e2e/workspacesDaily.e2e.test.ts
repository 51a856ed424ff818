import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, signInThroughUi } from '../helpers/browser';
import { eventually, SHOTS_DIR } from '../helpers/editorPage';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';

/*
 * Workspaces day to day, in real Chromium against the real server (SQLite): the workspace one was
 * last in comes back after a reload and in another browser; the UI settings follow the user to
 * another browser. Screenshots at 1280 and 375 px, light and dark, in .tmp/shots/.
 */

const HEADERS = { 'X-App-Type': 'Web' };
let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A fresh sign-in code for the e-mail: one printed after `before` codes were (an earlier one is used up). */
async function freshCode(email: string, before: number): Promise<string> {
  const codes = () => [...server.log().matchAll(/sign-in code for ([^:\s]+): (\d{6})/g)].filter((m) => m[1] === email).map((m) => m[2]);
  const until = Date.now() + 10_000;
  while (codes().length <= before) {
    if (Date.now() > until) throw new Error(`no new sign-in code for ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return codes()[codes().length - 1];
}

const codeCount = (email: string) => [...server.log().matchAll(/sign-in code for ([^:\s]+): (\d{6})/g)].filter((m) => m[1] === email).length;

/** A new browser context (its own cookies and localStorage) signed in as `email` through the UI. */
async function signedInContext(email: string, width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: width > 600 ? 900 : 740 } });
  const page = await context.newPage();
  if (codeCount(email) === 0) {
    await signInThroughUi(page, server, email);
  } else {
    await page.goto(server.url + '/');
    await page.waitForURL('**/login');
    await page.getByLabel('Электронная почта').fill(email);
    const before = codeCount(email);
    await page.getByRole('button', { name: 'Получить код' }).click();
    await page.getByLabel('Код из письма').fill(await freshCode(email, before));
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.locator('nav.sidebar, .shell-reopen').first().waitFor();
  }
  await page.close();
  return context;
}

async function openHome(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  await page.goto(server.url + '/');
  await page.locator('.sidebar-workspace-name, .shell-reopen').first().waitFor();
  return page;
}

async function shot(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS_DIR}/${name}-${theme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => delete document.documentElement.dataset.theme);
}

const workspaceName = (page: Page) => page.locator('.sidebar-workspace-name');

it('the workspace one was last in comes back after a reload and in another browser; one left is not restored', async () => {
  const email = 'remember@example.com';
  const first = await signedInContext(email);
  const page = await openHome(first);
  await expect(workspaceName(page).innerText()).resolves.toBe('remember');
  const created = await page.request.post(`${server.url}/api/v3/spaces/workspace`, { data: { name: 'Команда Б' }, headers: HEADERS });
  expect(created.status()).toBe(201);
  const teamId = ((await created.json()) as { data: { id: string } }).data.id;

  // Switch in the sidebar: the choice is saved on the server.
  await page.reload();
  await page.locator('.sidebar-workspace').click();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/settings') && r.request().method() === 'POST');
  await page.getByRole('menuitemradio', { name: /Команда Б/ }).click();
  expect((await saved).request().postDataJSON()).toEqual({ key: 'activeWorkspace', value: teamId });
  await expect(workspaceName(page).innerText()).resolves.toBe('Команда Б');

  // A reload, and another browser of the same user, open it again.
  await page.reload();
  await workspaceName(page).getByText('Команда Б').waitFor();
  const second = await signedInContext(email);
  const other = await openHome(second);
  await workspaceName(other).getByText('Команда Б').waitFor();
  await shot(other, 'workspace-restored-1280');

  // Deleted (or left): the personal workspace again.
  const removed = await page.request.delete(`${server.url}/api/v3/spaces/workspace/${teamId}`, { headers: HEADERS });
  expect(removed.status()).toBe(200);
  await other.reload();
  await workspaceName(other).getByText('remember', { exact: true }).waitFor();
  await Promise.all([first.close(), second.close()]);
});

it('the theme, the sidebar width and the sections follow the user to another browser (saved on the server, one key per call)', async () => {
  const email = 'settings@example.com';
  const first = await signedInContext(email);
  const page = await openHome(first);
  const posts: unknown[] = [];
  page.on('request', (r) => r.url().endsWith('/api/user/settings') && r.method() === 'POST' && posts.push(r.postDataJSON()));

  // The theme, in «Профиль и настройки».
  await page.locator('.sidebar-user').click();
  await page.getByRole('radio', { name: 'Тёмная' }).click();
  await page.keyboard.press('Escape');
  await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
  // The sidebar 48 px wider, with the keyboard; «Избранное» collapsed.
  await page.getByRole('separator', { name: /./ }).focus();
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
  await page.getByRole('button', { name: 'Свернуть раздел «Избранное»' }).click();
  const widthOf = (p: Page) => p.locator('nav.sidebar').evaluate((el) => Math.round(el.getBoundingClientRect().width));
  const width = await widthOf(page);
  expect(width).toBe(348);
  // Debounced: the three width steps are one call; one key per call.
  await eventually(async () => posts.length, 3);
  await page.waitForTimeout(800);
  expect(posts).toEqual(expect.arrayContaining([
    { key: 'theme', value: 'dark' },
    { key: 'treeWidth', value: 348 },
    { key: 'treeSections', value: { favorite: false, all: true, shared: true, private: true } },
  ]));
  expect(posts).toHaveLength(3);

  // Another browser of the same user (nothing cached there) gets all three.
  const second = await signedInContext(email);
  const other = await openHome(second);
  await other.getByRole('button', { name: 'Развернуть раздел «Избранное»' }).waitFor();
  await expect(other.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
  expect(await widthOf(other)).toBe(348);
  await other.screenshot({ path: `${SHOTS_DIR}/settings-followed-1280-dark.png` });
  // And keeps them as its own first-paint cache.
  expect(JSON.parse((await other.evaluate(() => localStorage.getItem('uiSettings'))) ?? '{}')).toMatchObject({ theme: 'dark', pageTree: { width: 348 } });

  // Back to light in the second browser: the first one has it after a reload.
  await other.locator('.sidebar-user').click();
  const saved = other.waitForResponse((r) => r.url().endsWith('/api/user/settings') && r.request().method() === 'POST');
  await other.getByRole('radio', { name: 'Светлая' }).click();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await page.locator('.sidebar-workspace-name').waitFor();
  await eventually(() => page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await Promise.all([first.close(), second.close()]);
});
