import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * A rollup from the browser (issue 38, docs/relations.md «Rollups»): added from «Добавить поле»
 * over a relation to another database, its relation, property and calculation chosen in its
 * dialog (the calculations offered are those of the property's type), the column showing each
 * row's figure; a change of a related row elsewhere shows in the column at once.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;
const cell = (page: Page, row: number, col: number) => page.locator(`.db-scroll [data-row="${row}"] [data-col="${col}"]`);
const text = async (page: Page, row: number, col: number) => ((await cell(page, row, col).textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** A database holder page with these fields and rows; its database id and rows by title. */
async function database(cookie: string, title: string, fields: Record<string, unknown>, rows: Array<{ title: string; values?: Record<string, unknown> }>) {
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  for (const [id, field] of Object.entries(fields))
    await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id, field }) });
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows }),
  });
  return { holder: holder.data.id, db, rows: Object.fromEntries(made.data.map((row) => [row.data.title, row.id])) };
}

it('a rollup added from the browser sums the related rows’ hours and follows a change made elsewhere', async () => {
  const page = await suite.signedIn('rollup.e2e@example.com');
  const cookie = await cookieOf(page);
  const tasks = await database(cookie, 'Задачи', { hours: { name: 'Часы', type: 'number' } }, [
    { title: 'Вёрстка', values: { hours: 3 } },
    { title: 'Тексты', values: { hours: 5 } },
  ]);
  const projects = await database(cookie, 'Проекты', { tasks: { name: 'Задачи', type: 'relation', databaseId: tasks.db } }, [{ title: 'Сайт' }]);
  await fetchJson(`${S()}/row/${projects.rows['Сайт']}/cells/tasks`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ value: [tasks.rows['Вёрстка'], tasks.rows['Тексты']], version: 0 }),
  });
  await page.goto(`${suite.server.url}/${projects.holder}`);
  await page.locator('.db-scroll .db-row').first().waitFor();

  // Added from «Добавить поле»: a name, then «Сводка» (offered: the database has a relation).
  await page.getByRole('button', { name: 'Добавить поле' }).click();
  const adding = page.getByRole('dialog', { name: 'Добавить поле' });
  await adding.getByLabel('Название поля').fill('Всего часов');
  await adding.getByRole('button', { name: /^Сводка/ }).click();
  const header = page.locator('.db-hcell', { hasText: 'Всего часов' });
  await header.waitFor();
  const col = Number(await header.getAttribute('aria-colindex')) - 2;
  // Counting all the related rows at first.
  await eventually(() => text(page, 0, col), '2');

  // Its dialog: the property «Часы» of the tasks, then «Сумма» (offered for numbers).
  await header.locator('.db-hcell-button').click();
  const dialog = page.getByRole('dialog', { name: 'Поле' });
  const property = dialog.getByLabel('Свойство');
  await eventually(() => property.isDisabled(), false);
  await property.selectOption('hours');
  const calculation = dialog.getByLabel('Расчёт');
  await eventually(async () => (await calculation.locator('option').allTextContents()).includes('Сумма'), true);
  const saved = page.waitForResponse(
    (r) => /\/fields\/[^/]+$/.test(r.url()) && r.request().method() === 'POST' && r.request().postData()?.includes('"sum"') === true,
  );
  await calculation.selectOption('sum');
  expect((await saved).status()).toBe(200);
  await eventually(() => text(page, 0, col), '8');
  await shoot(page, 'database-rollup-1280');
  await page.keyboard.press('Escape');

  // A task's hours changed elsewhere (the API, as another person would): the sum follows, no reload.
  const row = await fetchJson<{ data: { versions: Record<string, number> } }>(`${S()}/row/${tasks.rows['Тексты']}`, { cookie });
  await fetchJson(`${S()}/row/${tasks.rows['Тексты']}/cells/hours`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ value: 12, version: row.data.versions.hours }),
  });
  await eventually(() => text(page, 0, col), '15');
  // A percent shows with «%».
  await header.locator('.db-hcell-button').click();
  await dialog.getByLabel('Свойство').selectOption('MAIN_FIELD');
  await dialog.getByLabel('Расчёт').selectOption('percentNotEmpty');
  await eventually(() => text(page, 0, col), '100 %');
});
