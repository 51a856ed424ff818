import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';

/*
 * Issue 33, items 9 and 12, in real Chromium against the real server: a search refused by the
 * per-user limit (SEARCH_LIMIT_PER_10_S, here 3) is a calm line in the Ctrl+K finder, which goes on
 * working; an admin adds a team from a CSV file in the workspace settings («Добавить списком…»):
 * the preview of the addresses found and the one that is no address, then the outcome, and the
 * members are in the list.
 */

const SEARCHES = 3;
const suite = browserSuite({ env: { SEARCH_LIMIT_PER_10_S: String(SEARCHES) } });

const finder = (page: Page) => page.getByRole('dialog', { name: 'Поиск' });

it('the finder past the search limit: «Слишком много запросов. Попробуйте через N с», the field kept', async () => {
  const page = await suite.signedIn('limits.finder@example.com');
  await page.keyboard.press('Control+K');
  await finder(page).waitFor();
  const field = finder(page).getByRole('combobox');
  const alert = finder(page).getByRole('alert');
  // Each query waits out the finder's pause, so each is one search.
  for (const q of ['отчёт', 'план', 'встреча']) {
    await field.fill(q);
    await finder(page).getByText(`По запросу «${q}» ничего не нашлось`).waitFor();
  }
  await field.fill('итоги');
  await alert.waitFor();
  expect(await alert.textContent()).toMatch(/^Слишком много запросов\. Попробуйте через (10|[1-9]) с$/);
  expect(await field.inputValue()).toBe('итоги');
  await shoot(page, 'search-rate-limited-1280-light');
}, 60_000);

it('an admin adds 120 people from a CSV file: the preview, the outcome, the members listed', async () => {
  const admin = 'limits.admin@example.com';
  const page = await suite.signedIn(admin);
  await page.locator('.sidebar-workspace').click();
  await page.getByRole('menuitem', { name: 'Настройки пространства' }).click();
  const settings = page.getByRole('dialog', { name: 'Настройки пространства' });
  await settings.locator('.share-member').first().waitFor();
  await settings.getByRole('button', { name: 'Добавить списком…' }).click();
  const list = page.getByRole('dialog', { name: 'Добавить участников списком' });

  const team = Array.from({ length: 120 }, (_, i) => `colleague${i}.limits@example.com`);
  const csv = ['Имя;Почта;Отдел', ...team.map((email, i) => `Сотрудник ${i};${email};Отдел ${i % 5}`), `Я;${admin};`, 'Кто-то;нет@адреса;'].join('\r\n');
  await list.getByLabel('Файл CSV со списком адресов').setInputFiles({ name: 'команда.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await list.getByText('Найдено адресов: 121. Не похоже на адрес: 1').waitFor();
  expect(await list.getByRole('list', { name: 'Не похоже на адрес — пропустим' }).textContent()).toBe('нет@адреса');
  await list.getByLabel('Роль новых участников').selectOption('guest');
  await shoot(page, 'member-list-preview-1280-light');

  await list.getByRole('button', { name: 'Добавить 121 адрес' }).click();
  await list.getByText('Добавлено: 120. Уже были в пространстве: 1. Не добавлены (не адреса): 1').waitFor();
  expect(await list.getByRole('list', { name: 'Добавлены', exact: true }).getByRole('listitem').count()).toBe(120);
  expect(await list.getByRole('list', { name: 'Уже были в пространстве' }).textContent()).toBe(admin);
  await shoot(page, 'member-list-outcome-1280-light');
  await list.getByRole('button', { name: 'Готово' }).click();

  // The settings' member list is read again: the team is in it, as guests.
  const member = settings.locator(`.share-member[data-email="${team[119]}"]`);
  await member.waitFor();
  expect(await member.locator('select').inputValue()).toBe('guest');
  expect(await settings.locator('.share-member').count()).toBeGreaterThanOrEqual(50);
}, 90_000);
