import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { blocksOf, signedInEditorSuite } from '../helpers/editorPage';

/*
 * The start-workspace wizard in real Chromium against the real server: from the workspace
 * switcher through every step («Для работы», a company type, two templates, a name, an invite)
 * to the new workspace, whose sidebar holds the template pages and whose editor shows their
 * blocks. Screenshots of each step at 1280 and 375 px, light and dark, in .tmp/shots/.
 */

const { openApp } = signedInEditorSuite('wizard@example.com');
const SHOTS = '.tmp/shots';

beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

async function shots(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 760 : 860 });
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      await page.waitForTimeout(150);
      await page.screenshot({ path: `${SHOTS}/wizard-${name}-${width}-${theme}.png` });
    }
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await page.setViewportSize({ width: 1280, height: 860 });
}

const next = (page: Page) => page.getByRole('button', { name: 'Далее' }).click();
const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();

it('creates a work workspace with two templates and an invite, and opens its first page', async () => {
  const page = await openApp();
  await page.locator('.sidebar-workspace').click();
  await page.getByRole('menuitem', { name: 'Создать пространство' }).click();
  await page.waitForURL(/\/new-workspace$/);

  await heading(page, 'Для чего вам пространство?');
  await page.getByRole('radio', { name: /Для работы/ }).click();
  await shots(page, '1-type');
  await next(page);

  await heading(page, 'Сколько человек будет в пространстве?');
  await page.getByRole('radio', { name: '6–20' }).click();
  await shots(page, '2-size');
  await next(page);

  await heading(page, 'Расскажите о вашей команде');
  await page.getByRole('radio', { name: /IT и разработка/ }).click();
  await page.getByRole('radio', { name: 'Руковожу командой' }).click();
  await shots(page, '3-company');
  await next(page);

  await heading(page, 'С чего начнём?');
  const roadmap = page.getByRole('checkbox', { name: /Дорожная карта продукта/ });
  await roadmap.waitFor();
  expect(await roadmap.getAttribute('aria-checked')).toBe('true');
  await page.getByRole('checkbox', { name: /База знаний/ }).click();
  await page.getByText('Выбрано 2 шаблона').waitFor();
  await shots(page, '4-templates');
  await next(page);

  await heading(page, 'Оформите пространство');
  const name = page.getByLabel('Название пространства');
  await name.fill('Мы');
  await page.getByLabel('Ваше имя').fill('Мастер Визардов');
  await page.getByText('Название — не короче 3 символов').waitFor();
  expect(await page.getByRole('button', { name: 'Далее' }).isDisabled()).toBe(true);
  await name.fill('Команда продукта');
  await shots(page, '5-profile');
  await next(page);

  await heading(page, 'Пригласите коллег');
  await page.getByLabel('Адреса почты').fill('colleague@example.com, не-почта');
  await page.getByText('Пригласим 1 человека').waitFor();
  await page.getByText('Не похоже на адрес почты: не-почта').waitFor();
  // A member unless chosen otherwise: made an admin here.
  const role = page.getByLabel('Роль для colleague@example.com');
  await expect(role.inputValue()).resolves.toBe('participant');
  await role.selectOption('admin');
  await shots(page, '6-sharing');

  const created = page.waitForResponse((r) => r.url().endsWith('/api/v3/spaces/workspace') && r.request().method() === 'POST');
  const invited = page.waitForResponse((r) => r.url().endsWith('/members/add'));
  await page.getByRole('button', { name: 'Создать пространство' }).click();
  const workspace = ((await (await created).json()) as { data: { id: string } }).data;
  expect((await invited).status()).toBe(200);
  expect(((await (await invited).request().postDataJSON()) as { members: unknown[] }).members).toEqual([{ email: 'colleague@example.com', role: 'admin' }]);

  // The first template's root page opens in the new workspace, with its blocks in the editor.
  await page.waitForURL(/\/[0-9a-f-]{36}$/);
  await page.locator('.sidebar-workspace-name', { hasText: 'Команда продукта' }).waitFor();
  await page.locator('[data-slate-editor] h1', { hasText: 'Дорожная карта продукта' }).waitFor();
  await page.locator('[data-slate-editor] .block-tableBlock').waitFor();
  const blocks = await blocksOf(page);
  expect(blocks).toContain('heading2Block:0:План по кварталам');
  expect(blocks).toContain('checkboxBlock:0:Собрать требования');

  // Both template roots are in the sidebar; the wiki opens with its blocks and sub-pages.
  await page.locator('.sidebar-page', { hasText: 'Дорожная карта продукта' }).waitFor();
  await page.locator('.sidebar-page', { hasText: 'База знаний' }).click();
  await page.locator('[data-slate-editor] h1', { hasText: 'База знаний' }).waitFor();
  await page.locator('[data-slate-editor]', { hasText: 'Как пополнять вики' }).waitFor();
  expect(await blocksOf(page)).toContain('heading2Block:0:Разделы');
  await page.screenshot({ path: `${SHOTS}/wizard-7-done-1280-light.png` });

  // The colleague is an admin of the new workspace.
  const members = await page.evaluate(async (id) => {
    const res = await fetch(`/api/v3/spaces/workspace/${id}/members`);
    return ((await res.json()) as { data: { role: string; user: { email: string } }[] }).data.map((m) => [m.user.email, m.role]);
  }, workspace.id);
  expect(members).toContainEqual(['colleague@example.com', 'admin']);
}, 120_000);
