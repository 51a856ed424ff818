import { newPage, saved, signedInEditorSuite } from '../helpers/editorPage';

/*
 * Leaving a page inside the app with edits not yet on the server: they are sent at once and the
 * app leaves when they are saved (no question); when they cannot be saved (offline) the app asks
 * with the translated dirtyData message, and "Остаться" keeps the page and its text. Real
 * Chromium against the real server (SQLite).
 */

const { openApp, context } = signedInEditorSuite('leave@example.com');
const QUESTION = 'Не все изменения сохранены. Уйти со страницы?';

it('a click away within the 1 s debounce saves first and leaves without asking', async () => {
  const page = await openApp();
  const first = await newPage(page, 'Первая');
  await page.keyboard.type('Текст первой');
  await saved(page);
  await newPage(page, 'Вторая');
  await page.keyboard.type('Только что набрано');
  // Away at once, long before the debounce would have sent it.
  await page.locator('.sidebar-page', { hasText: 'Первая' }).click();
  await page.waitForURL(first);
  await expect(page.getByText(QUESTION).count()).resolves.toBe(0);
  await page.locator('.sidebar-page', { hasText: 'Вторая' }).click();
  await page.getByText('Только что набрано').waitFor();
  await page.close();
});

it('offline, leaving asks with the dirtyData message; "Остаться" keeps the page and the text, and once online it leaves freely', async () => {
  const page = await openApp();
  await newPage(page, 'Офлайн');
  await page.keyboard.type('Сохранено');
  await saved(page);
  const here = page.url();
  await context().setOffline(true);
  await page.keyboard.type(' и не сохранено');
  await page.locator('.sidebar-page', { hasText: 'Первая' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByText(QUESTION).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: 'test/e2e/artifacts/leave-guard.png' });
  await dialog.getByRole('button', { name: 'Остаться' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(page.url()).toBe(here);
  await expect(page.locator('[data-slate-editor]').textContent()).resolves.toContain('Сохранено и не сохранено');

  await context().setOffline(false);
  await saved(page);
  await page.locator('.sidebar-page', { hasText: 'Первая' }).click();
  await page.waitForURL((url) => url.toString() !== here);
  await expect(dialog.count()).resolves.toBe(0);
  await page.goto(here);
  await page.getByText('Сохранено и не сохранено').waitFor();
  await page.close();
});
