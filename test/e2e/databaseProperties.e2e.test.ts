import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * «Свойства» (issue 34 §2, docs/web-app.md «Properties»): per view, the fields it shows — a
 * table's columns, a board's cards, a calendar's items — shown, hidden (and shown again: a field
 * hidden from its header's menu had no way back) and reordered, each view on its own.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

const now = new Date();
const day = (d: number) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

async function database(page: Page): Promise<string> {
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Сделки' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  const field = (id: string, body: object) => fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id, field: body }) });
  await field('sum', { name: 'Сумма', type: 'number' });
  await field('stage', { name: 'Этап', type: 'select', options: [{ id: 'new', name: 'Новая' }] });
  await field('due', { name: 'Срок', type: 'date' });
  await fetchJson(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'Поставка', values: { sum: 1500, stage: 'new', due: day(10) } }] }),
  });
  return holder.data.id;
}

const headers = (page: Page) => page.locator('.db-hcell-name').allTextContents();
const panel = (page: Page, name: string) => page.getByRole('dialog', { name });
async function openPanel(page: Page, name: string) {
  await page.getByRole('button', { name: /^Свойства/ }).click();
  await panel(page, name).waitFor();
  return panel(page, name);
}

it('a field hidden from its header is shown again from «Свойства»; a board’s cards and a calendar’s items show what their own view chooses', async () => {
  const page = await suite.signedIn('properties.owner@example.com');
  const holderId = await database(page);
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll').waitFor();
  await eventually(() => headers(page), ['Название', 'Сумма', 'Этап', 'Срок']);

  // Hidden from the header's menu: gone, and «Свойства» counts it and brings it back.
  await page.locator('.db-hcell', { hasText: 'Сумма' }).locator('.db-hcell-button').click();
  await page.getByRole('dialog', { name: 'Поле' }).getByRole('button', { name: 'Скрыть' }).click();
  await eventually(() => headers(page), ['Название', 'Этап', 'Срок']);
  let props = await openPanel(page, 'Свойства представления');
  await shoot(page, 'database-properties-table');
  await props.getByRole('button', { name: 'Показать «Сумма»' }).click();
  await eventually(() => headers(page), ['Название', 'Этап', 'Срок', 'Сумма']);
  // Alt+↑ on it moves it before «Срок».
  await props.getByRole('button', { name: 'Скрыть «Сумма»' }).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await eventually(() => headers(page), ['Название', 'Этап', 'Сумма', 'Срок']);
  await page.keyboard.press('Escape');
  await page.reload();
  await page.locator('.db-scroll').waitFor();
  await eventually(() => headers(page), ['Название', 'Этап', 'Сумма', 'Срок']);

  // A board: its cards show the fields its view lists; hiding one there leaves the table alone.
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Доска' }).click();
  const card = page.locator('.db-card', { hasText: 'Поставка' });
  const cardFields = () => card.locator('.db-card-field').evaluateAll((fields) => fields.map((f) => (f.textContent ?? '').replace(/\s/g, ' ')));
  await eventually(() => cardFields().then((t) => t.includes('1 500')), true);
  props = await openPanel(page, 'Свойства на карточках');
  await props.getByRole('button', { name: 'Скрыть «Сумма»' }).click();
  await eventually(() => cardFields().then((t) => t.includes('1 500')), false);
  expect((await cardFields()).length).toBe(1);
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: /Таблица/ }).click();
  await eventually(() => headers(page), ['Название', 'Этап', 'Сумма', 'Срок']);

  // A calendar: its items show their titles alone, then the properties chosen for them.
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Календарь' }).click();
  const item = page.locator(`.db-calendar .fc-daygrid-day[data-date="${day(10)}"] .db-calendar-event`);
  await eventually(() => item.locator('.db-calendar-title').allTextContents(), ['Поставка']);
  expect(await item.locator('.db-calendar-prop').count()).toBe(0);
  props = await openPanel(page, 'Свойства в календаре');
  await props.getByRole('button', { name: 'Показать «Сумма»' }).click();
  await eventually(
    () =>
      item
        .locator('.db-calendar-prop')
        .allTextContents()
        .then((t) => t.map((x) => x.replace(/\s/g, ' '))),
    ['1 500'],
  );
  await page.keyboard.press('Escape');
  await shoot(page, 'database-properties-calendar');
  // Dark, and on a phone: the panel fits.
  await page.emulateMedia({ colorScheme: 'dark' });
  await openPanel(page, 'Свойства в календаре');
  await shoot(page, 'database-properties-dark');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 375, height: 812 });
  const phone = await openPanel(page, 'Свойства в календаре');
  const box = (await phone.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await shoot(page, 'database-properties-375');
  await page.context().close();
});
