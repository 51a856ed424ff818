import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { newPage, saved, signedInEditorSuite } from '../helpers/editorPage';

/*
 * The page header and menu in real Chromium against a real server: icon, cover, favourite,
 * clone, trash and restore, delete forever, publish and the public link seen signed out.
 */

const { openApp, context } = signedInEditorSuite('pagemenu@example.com');
const SHOTS = '.tmp/shots';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${theme}.png` });
    }
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  await page.setViewportSize({ width: 1280, height: 900 });
}

const menu = (page: Page) => page.getByRole('button', { name: 'Действия со страницей' });
const menuItem = async (page: Page, name: string) => {
  await menu(page).click();
  await page.getByRole('menuitem', { name }).click();
};

it('icon, cover, favourite, clone, trash, restore, delete forever, publish', async () => {
  const page = await openApp();
  const url = await newPage(page, 'Маршрут');
  await page.keyboard.type('Текст для всех');
  await saved(page);

  // Icon: hover the header, «Добавить иконку», search, pick.
  await page.locator('.page-header').hover();
  await page.getByRole('button', { name: 'Добавить иконку' }).click();
  await page.getByLabel('Найти эмодзи').fill('ракета');
  await page.getByRole('option', { name: '🚀' }).click();
  await page.getByRole('button', { name: 'Сменить иконку' }).waitFor();

  // Cover from the library.
  await page.locator('.page-header').hover();
  await page.getByRole('button', { name: 'Добавить обложку' }).click();
  await page.getByRole('button', { name: 'Океан' }).click();
  await page.getByTestId('page-cover').waitFor();

  // Favourite.
  await page.getByRole('button', { name: 'Добавить в избранное' }).click();
  await page.getByRole('button', { name: 'Убрать из избранного' }).waitFor();
  await page.waitForTimeout(700); // the cover is saved 500 ms after the change
  await shot(page, 'page-header');

  // Both survive a reload.
  await page.reload();
  await page.getByRole('button', { name: 'Сменить иконку' }).waitFor();
  await page.getByTestId('page-cover').waitFor();
  await page.getByRole('button', { name: 'Убрать из избранного' }).waitFor();

  await menu(page).click();
  await page.getByRole('menu').waitFor();
  await shot(page, 'page-menu');
  await page.keyboard.press('Escape');

  // Clone: the copy opens.
  await menuItem(page, 'Создать копию');
  await page.waitForURL((u) => u.toString() !== url && /\/[0-9a-f-]{36}$/.test(u.pathname));
  await page.getByText('Текст для всех').waitFor();
  const copyUrl = page.url();

  // Trash the copy, then restore it from the trash dialog.
  await menuItem(page, 'Удалить в корзину');
  await page.waitForURL((u) => u.pathname === '/');
  await page.goto(url);
  await menuItem(page, 'Корзина');
  const trash = page.getByRole('dialog', { name: 'Корзина' });
  await trash.getByText('Маршрут').waitFor();
  // When it went there, as the server lists it (trashedAt).
  await trash.getByText(/^Удалено \d+ \S+ в \d\d:\d\d$/).waitFor();
  await trash.getByLabel('Поиск по названию').fill('МАРШ');
  await trash.getByText('Маршрут').waitFor();
  await shot(page, 'trash');
  await trash.getByRole('button', { name: 'Восстановить: Маршрут' }).click();
  await trash.getByText('Ничего не нашлось').waitFor();
  await page.keyboard.press('Escape');
  await page.goto(copyUrl);
  await page.getByText('Текст для всех').waitFor();
  expect(await page.locator('.page-readonly').count()).toBe(0);

  // Trash it again and delete it forever, with the confirmation.
  await menuItem(page, 'Удалить в корзину');
  await page.waitForURL((u) => u.pathname === '/');
  await page.goto(url);
  await menuItem(page, 'Корзина');
  await trash.getByRole('button', { name: 'Удалить навсегда: Маршрут' }).click();
  const confirm = page.getByRole('dialog', { name: 'Удалить навсегда?' });
  await shot(page, 'trash-confirm');
  await confirm.getByRole('button', { name: 'Удалить навсегда' }).click();
  await trash.getByText('Корзина пуста').waitFor();
  await page.keyboard.press('Escape');

  // Publish and read the public link signed out. The publish's answer is held back a little: the
  // menu shows the page public at once, but its link (the alias the publish gives) only once the
  // server has answered — read before, the alias was not there yet and the id was shown for good.
  await page.route('**/api/v3/spaces/element/*', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await menu(page).click();
  await page.getByRole('menuitemcheckbox', { name: 'Опубликовать в интернете' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Снять с публикации' }).waitFor();
  const item = page.getByRole('menuitem', { name: /^Копировать публичную ссылку/ });
  await item.waitFor();
  await page.unroute('**/api/v3/spaces/element/*');
  const link = (await item.locator('.menu-public-url').textContent()) ?? '';
  await shot(page, 'page-menu-public');
  expect(link).toMatch(/\/[a-z0-9]{12}$/);
  await page.keyboard.press('Escape');

  const browser = context().browser();
  if (!browser) throw new Error('no browser');
  const anonymous = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const visitor = await anonymous.newPage();
    await visitor.goto(link);
    await visitor.getByText('Текст для всех').waitFor();
    await visitor.getByRole('button', { name: 'Копировать к себе' }).waitFor();
    expect(await visitor.locator('[data-slate-editor]').getAttribute('contenteditable')).toBe('false');
    expect(await visitor.locator('.sidebar').count()).toBe(0);
    await shot(visitor, 'public');
    // The page link itself shows the public view to a signed-out visitor too.
    await visitor.goto(url);
    await visitor.getByText('Текст для всех').waitFor();
  } finally {
    await anonymous.close();
  }
}, 120_000);
