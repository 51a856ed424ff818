import fs from 'node:fs';
import path from 'node:path';
import { signedInEditorSuite } from '../helpers/editorPage';

/*
 * Profile and settings, and the error screens, in real Chromium against a real server: the name
 * and avatar are saved to the account, the theme to this browser (kept after a reload); the
 * messenger link explains that this server has no bot; a page that does not exist shows the
 * not-found screen, whose help opens the feedback form.
 */

const SHOTS = path.resolve(__dirname, '../../.tmp/shots');
// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const { openApp } = signedInEditorSuite('profile@example.com');

beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

it('saves the name and avatar, applies and keeps the theme, and explains the messenger link', async () => {
  const page = await openApp();
  await page.getByRole('button', { name: 'profile@example.com' }).click();
  const dialog = page.getByRole('dialog', { name: 'Профиль и настройки' });
  await dialog.waitFor();

  await dialog.getByLabel('Имя').fill('Профиль Тестович');
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await dialog.getByText('Имя сохранено').waitFor();

  await dialog.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await dialog.locator('.profile-avatar img').waitFor();
  const avatar = await dialog.locator('.profile-avatar img').getAttribute('src');
  expect(avatar).toMatch(/^\/api\/file\/[0-9a-f-]+$/);
  expect(await page.evaluate((url) => fetch(url).then((r) => [r.status, r.headers.get('content-type')]), avatar as string)).toEqual([200, 'image/png']);

  await dialog.getByRole('radio', { name: 'Тёмная' }).click();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await dialog.getByRole('button', { name: 'Привязать Telegram' }).click();
  await dialog.getByText('На этом сервере бот не настроен').waitFor();
  await page.screenshot({ path: path.join(SHOTS, 'profile-1280-dark.png') });

  await page.reload();
  await page.getByRole('button', { name: 'Новая страница' }).first().waitFor();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  const me = await page.evaluate(() => fetch('/api/user/current').then((r) => r.json()));
  expect(me.data).toMatchObject({ name: 'Профиль Тестович', avatar_url: avatar });

  await page.getByRole('button', { name: 'profile@example.com' }).click();
  await page.getByRole('radio', { name: 'Светлая' }).click();
  await page.setViewportSize({ width: 375, height: 760 });
  await page.screenshot({ path: path.join(SHOTS, 'profile-375-light.png') });
  await page.close();
});

it('a page that does not exist: the not-found screen, with help through the feedback form', async () => {
  const page = await openApp();
  await page.goto(page.url().replace(/\/$/, '') + '/3f2b8c1e-0000-4000-8000-000000000000');
  await page.getByRole('heading', { name: 'Страница не найдена' }).waitFor();
  await page.getByRole('button', { name: 'Помощь' }).click();
  const form = page.getByRole('dialog', { name: 'Написать нам' });
  await form.waitFor();
  expect(await form.getByLabel('Почта для ответа').inputValue()).toBe('profile@example.com');
  await form.getByLabel('Сообщение').fill('Не нашёл страницу');
  await form.getByRole('button', { name: 'Отправить' }).click();
  await form.getByText('Спасибо! Сообщение отправлено').waitFor();
  await page.screenshot({ path: path.join(SHOTS, 'not-found-feedback-1280.png') });
  await page.close();
});
