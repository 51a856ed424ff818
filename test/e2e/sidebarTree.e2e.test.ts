import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { newPage, saved, signedInEditorSuite } from '../helpers/editorPage';

/*
 * The sidebar page tree in real Chromium against the real server (SQLite): two pages, one dragged
 * into the other (POST move), expand/collapse with children loaded lazily, the nesting kept after
 * a reload; the sidebar resized and hidden, both kept after a reload (UI settings in localStorage).
 * Screenshots at 1280 and 375 px, light and dark, in .tmp/shots/.
 */

const { openApp } = signedInEditorSuite('sidebar@example.com');
const SHOTS = '.tmp/shots';

const row = (page: Page, title: string) => page.locator('.tree-row', { has: page.locator('.sidebar-page', { hasText: title }) });
const sidebarWidth = (page: Page) => page.locator('nav.sidebar').evaluate((el) => Math.round(el.getBoundingClientRect().width));

async function shot(page: Page, name: string, theme: 'light' | 'dark') {
  await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
  await page.waitForTimeout(250);
  await page.screenshot({ path: `${SHOTS}/${name}-${theme}.png` });
}

beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

it('nests a page into another by dragging it in the sidebar; the nesting survives a reload', async () => {
  const page = await openApp();
  await newPage(page, 'Родитель');
  await saved(page);
  const childUrl = await newPage(page, 'Ребёнок');
  await page.keyboard.type('Текст ребёнка');
  await saved(page);
  const childId = childUrl.split('/').pop()!;

  // Both are section roots now; drag the child onto the middle of the parent's row.
  const moved = page.waitForResponse((r) => r.url().endsWith(`/element/${childId}/move`) && r.request().method() === 'POST');
  await row(page, 'Ребёнок').dragTo(row(page, 'Родитель'));
  expect((await moved).status()).toBe(200);
  const nested = page.locator('.tree-children .sidebar-page', { hasText: 'Ребёнок' });
  await nested.waitFor();
  await expect(page.locator('.sidebar-pages > .tree-item > .tree-row .sidebar-page', { hasText: 'Ребёнок' }).count()).resolves.toBe(0);
  await page.mouse.move(640, 450);
  await shot(page, 'sidebar-1280', 'light');
  await shot(page, 'sidebar-1280', 'dark');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));

  // Collapse and expand.
  await page.getByRole('button', { name: 'Свернуть: Родитель' }).click();
  await nested.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Развернуть: Родитель' }).click();
  await nested.waitFor();

  // From home after a reload nothing is expanded; expanding loads the children from the server.
  await page.goto(new URL('/', page.url()).toString());
  await row(page, 'Родитель').waitFor();
  await expect(nested.count()).resolves.toBe(0);
  const children = page.waitForResponse((r) => /\/element\/[^/]+\/children$/.test(r.url()) && r.request().method() === 'GET');
  await page.getByRole('button', { name: 'Развернуть: Родитель' }).click();
  await children;
  await nested.waitFor();
  await nested.click();
  await page.waitForURL(childUrl);
  await page.getByText('Текст ребёнка').waitFor();
  await page.close();
});

it('keeps the resized width and the hidden sidebar after a reload', async () => {
  const page = await openApp();
  expect(await sidebarWidth(page)).toBe(300);
  const handle = page.locator('.shell-resizer');
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + 200, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + 200, { steps: 4 });
  await page.mouse.up();
  expect(await sidebarWidth(page)).toBe(380);
  // Never past the maximum.
  await page.mouse.move(box.x + 80 + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + 600, box.y + 200, { steps: 4 });
  await page.mouse.up();
  expect(await sidebarWidth(page)).toBe(480);
  await page.reload();
  await row(page, 'Родитель').waitFor();
  expect(await sidebarWidth(page)).toBe(480);
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('uiSettings')))!).pageTree.width).toBe(480);

  await page.locator('.sidebar-workspace').click();
  await page.getByRole('menu', { name: 'Рабочие пространства' }).waitFor();
  await page.screenshot({ path: `${SHOTS}/sidebar-1280-switcher-light.png` });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Скрыть боковую панель' }).click();
  await expect(page.locator('nav.sidebar').count()).resolves.toBe(0);
  await page.reload();
  await page.getByRole('button', { name: 'Показать боковую панель' }).waitFor();
  await page.getByRole('button', { name: 'Создать страницу' }).waitFor();
  await page.screenshot({ path: `${SHOTS}/sidebar-1280-hidden-light.png` });
  await page.getByRole('button', { name: 'Показать боковую панель' }).click();
  await row(page, 'Родитель').waitFor();
  expect(await sidebarWidth(page)).toBe(480);
  await page.close();
});

it('is a drawer on a phone, closed after navigation', async () => {
  const page = await openApp();
  await page.setViewportSize({ width: 375, height: 812 });
  await page.locator('nav.sidebar').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Открыть меню' }).click();
  await row(page, 'Родитель').waitFor();
  await page.getByRole('button', { name: 'Развернуть: Родитель' }).click();
  await page.locator('.tree-children .sidebar-page', { hasText: 'Ребёнок' }).waitFor();
  await shot(page, 'sidebar-375-drawer', 'light');
  await shot(page, 'sidebar-375-drawer', 'dark');
  await page.locator('.sidebar-page', { hasText: 'Родитель' }).click();
  await page.locator('nav.sidebar').waitFor({ state: 'detached' });
  await page.locator('[data-slate-editor] h1').waitFor();
  await shot(page, 'sidebar-375-page', 'light');
  await page.close();
});
