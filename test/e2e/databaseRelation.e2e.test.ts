import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * A relation field (rows of the same database, a timeline's «blocked by») in real Chromium
 * against the real server: a cell's editor finds rows by their title as typed, a click chooses
 * one, Enter writes the cell, and the cell shows the rows' titles (renamed elsewhere, at once; after
 * a reload too).
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;
const cell = (page: Page, row: number, col: number) => page.locator(`.db-scroll [data-row="${row}"] [data-col="${col}"]`);

it('a relation cell: rows found by title, chosen with a click, written with Enter, shown by their titles', async () => {
  const page = await suite.signedIn('relation.editor@example.com');
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Стройка' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ id: 'blocked', field: { name: 'Заблокировано', type: 'relation' } }),
  });
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'Фундамент' }, { title: 'Стены' }, { title: 'Крыша' }] }),
  });
  const ids = Object.fromEntries(made.data.map((r) => [r.data.title, r.id]));
  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await cell(page, 1, 1).click();
  await page.keyboard.press('Enter');
  const search = page.getByLabel('Найти строку');
  await search.waitFor();
  // The row itself is not offered.
  await eventually(() => page.getByRole('listbox', { name: 'Связанные строки' }).getByRole('option').allTextContents(), ['Фундамент', 'Крыша']);
  await search.fill('фун');
  await eventually(() => page.getByRole('listbox', { name: 'Связанные строки' }).getByRole('option').allTextContents(), ['Фундамент']);
  await page.getByRole('option', { name: 'Фундамент' }).click();
  const saved = page.waitForResponse((r) => /\/row\/[^/]+\/cells\/blocked$/.test(r.url()) && r.request().method() === 'POST');
  await page.keyboard.press('Enter');
  expect((await saved).status()).toBe(200);
  await eventually(() => cell(page, 1, 1).textContent(), 'Фундамент');
  const row = await fetchJson<{ data: { data: { values: { blocked?: string[] } } } }>(`${S()}/row/${ids['Стены']}`, { cookie });
  expect(row.data.data.values.blocked).toEqual([ids['Фундамент']]);
  await shoot(page, 'database-relation-1280');
  // Renamed elsewhere: the chip follows (the realtime change of its title), no reload.
  await fetchJson(`${S()}/row/${ids['Фундамент']}/cells/MAIN_FIELD`, { method: 'POST', cookie, body: JSON.stringify({ value: 'Основание', version: 1 }) });
  await eventually(() => cell(page, 1, 1).textContent(), 'Основание');
  // After a reload the titles are read for the ids (GET …/titles).
  await page.reload();
  await eventually(() => cell(page, 1, 1).textContent(), 'Основание');
});

it('a filter «contains» on a relation: the row chosen by its title with the cell editor; the view shows the rows naming it', async () => {
  const page = await suite.signedIn('relation.filter@example.com');
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Стройка' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ id: 'blocked', field: { name: 'Заблокировано', type: 'relation' } }),
  });
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'Фундамент' }, { title: 'Стены' }, { title: 'Крыша' }, { title: 'Окна' }] }),
  });
  const ids = Object.fromEntries(made.data.map((r) => [r.data.title, r.id]));
  for (const [title, blockers] of [
    ['Стены', ['Фундамент']],
    ['Крыша', ['Стены']],
    ['Окна', ['Стены', 'Фундамент']],
  ] as const) {
    await fetchJson(`${S()}/row/${ids[title]}/cells/blocked`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ value: blockers.map((b) => ids[b]), version: 0 }),
    });
  }
  await page.goto(`${suite.server.url}/${holder.data.id}`);
  const titles = () => page.locator('.db-scroll .db-row [data-col="0"]').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));
  await eventually(titles, ['Фундамент', 'Стены', 'Крыша', 'Окна']);
  await page.getByRole('button', { name: 'Фильтр и сортировка' }).click();
  const bar = page.getByRole('region', { name: 'Фильтры и сортировка' });
  await bar.getByRole('button', { name: '+ Фильтр' }).click();
  await bar.getByLabel('Поле фильтра').selectOption({ label: 'Заблокировано' });
  await bar.getByLabel('Условие', { exact: true }).selectOption({ label: 'содержит' });
  await bar.getByRole('button', { name: 'Значение' }).click();
  await page.getByLabel('Найти строку').fill('стен');
  await page.getByRole('option', { name: 'Стены' }).click();
  await page.keyboard.press('Enter');
  await eventually(titles, ['Крыша', 'Окна']);
  await eventually(() => bar.getByRole('button', { name: 'Значение' }).textContent(), 'Стены');
  await shoot(page, 'database-relation-filter-1280');
  // Another row chosen replaces it.
  await bar.getByRole('button', { name: 'Значение' }).click();
  await page.getByLabel('Найти строку').fill('фунд');
  await page.getByRole('option', { name: 'Фундамент' }).click();
  await page.keyboard.press('Enter');
  await eventually(titles, ['Стены', 'Окна']);
});

it('a relation to another database: its database chosen in the column dialog, limited to one row, a client picked by title and shown by it', async () => {
  const page = await suite.signedIn('relation.other@example.com');
  const cookie = await cookieOf(page);
  const made = async (title: string, rows: string[]) => {
    const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ type: 'Database', title }),
    });
    const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
    const answer = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ rows: rows.map((t) => ({ title: t })) }),
    });
    return { holder: holder.data.id, db, ids: Object.fromEntries(answer.data.map((r) => [r.data.title, r.id])) };
  };
  const clients = await made('Клиенты', ['Альфа', 'Бета']);
  const projects = await made('Проекты', ['Сайт']);
  await fetchJson(`${S()}/database/${projects.db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ id: 'client', field: { name: 'Клиент', type: 'relation' } }),
  });
  await page.goto(`${suite.server.url}/${projects.holder}`);
  const header = page.locator('.db-hcell', { hasText: 'Клиент' });
  await header.locator('.db-hcell-button').click();
  const dialog = page.getByRole('dialog', { name: 'Поле' });
  const target = dialog.getByLabel('Связанная база');
  await eventually(() => target.locator('option').allTextContents(), ['Эта база', 'Клиенты']);
  let saved = page.waitForResponse((r) => r.url().includes(`/database/${projects.db}/fields/client`) && r.request().method() === 'POST');
  await target.selectOption({ label: 'Клиенты' });
  expect((await saved).status()).toBe(200);
  saved = page.waitForResponse((r) => r.url().includes(`/database/${projects.db}/fields/client`) && r.request().method() === 'POST');
  await dialog.getByLabel('Ограничение').selectOption({ label: 'Одна строка' });
  expect((await saved).status()).toBe(200);
  await shoot(page, 'database-relation-other-field-1280');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  // The cell offers the clients (not the projects); a second pick replaces the first.
  await cell(page, 0, 1).click();
  await page.keyboard.press('Enter');
  await page.getByLabel('Найти строку').waitFor();
  await eventually(() => page.getByRole('listbox', { name: 'Связанные строки' }).getByRole('option').allTextContents(), ['Альфа', 'Бета']);
  await page.getByRole('option', { name: 'Альфа' }).click();
  await page.getByRole('option', { name: 'Бета' }).click();
  const written = page.waitForResponse((r) => /\/row\/[^/]+\/cells\/client$/.test(r.url()) && r.request().method() === 'POST');
  await page.keyboard.press('Enter');
  expect((await written).status()).toBe(200);
  await eventually(() => cell(page, 0, 1).textContent(), 'Бета');
  const row = await fetchJson<{ data: { data: { values: { client?: string[] } } } }>(`${S()}/row/${projects.ids['Сайт']}`, { cookie });
  expect(row.data.data.values.client).toEqual([clients.ids['Бета']]);
  await shoot(page, 'database-relation-other-1280');
  // After a reload the title is read from the clients' database.
  await page.reload();
  await eventually(() => cell(page, 0, 1).textContent(), 'Бета');

  // Two-way: the clients get a «Проекты» column naming the site on Бета's row.
  await page.locator('.db-hcell', { hasText: 'Клиент' }).locator('.db-hcell-button').click();
  const again = page.getByRole('dialog', { name: 'Поле' });
  const paired = page.waitForResponse((r) => r.url().includes(`/database/${projects.db}/fields/client`) && r.request().method() === 'POST');
  await again.getByLabel('Показывать в «Клиенты»').click();
  expect((await paired).status()).toBe(200);
  await eventually(() => again.getByLabel('Показывать в «Клиенты»').isChecked(), true);
  expect(await again.getByLabel('Ограничение').isDisabled()).toBe(true);
  await shoot(page, 'database-relation-two-way-field-1280');
  await page.keyboard.press('Escape');
  await page.goto(`${suite.server.url}/${clients.holder}`);
  const mirror = page.locator('.db-hcell', { hasText: 'Проекты' });
  await mirror.waitFor();
  const beta = page.locator('.db-scroll .db-row', { hasText: 'Бета' });
  await eventually(async () => (await beta.textContent())?.includes('Сайт'), true);
  await shoot(page, 'database-relation-two-way-1280');
});
