import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * Issue 34 §1 in real Chromium against the real server (SQLite): Boris edits a cell of
 * «Документация» while the row is moved to the top through the API (another client: Anna's
 * move reaches his grid as a realtime event); his Enter writes into «Документация», never into
 * «Выпуск», which now sits where it was. And a row put in the trash meanwhile takes nothing: a
 * note says so, and «Восстановить строку» brings it back with the value.
 */

const suite = browserSuite();

const cell = (page: Page, row: number, col: number) => page.locator(`.db-scroll [data-row="${row}"] [data-col="${col}"]`);
const editor = (page: Page) => page.getByLabel('Значение ячейки');
const titles = (page: Page) => page.locator('.db-scroll .db-row [data-col="0"]').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));
const cellWritten = (page: Page) => page.waitForResponse((r) => /\/cells(\/|$)/.test(new URL(r.url()).pathname) && r.request().method() === 'POST');

interface Row {
  id: string;
  data: { title: string; values: Record<string, unknown> };
}

/** Boris, signed in, with a Database page: rows, a number, a select and a text field (made through the API). */
async function setUp(email: string, names: string[]) {
  const S = `${suite.server.url}/api/v3/spaces`;
  const page = await suite.signedIn(email);
  const cookie = await cookieOf(page);
  const call = <T>(method: string, url: string, body?: unknown) =>
    fetchJson<T>(`${S}/${url}`, { method, cookie, body: body === undefined ? undefined : JSON.stringify(body) });
  const holder = await call<{ data: { id: string } }>('POST', 'section/private', { type: 'Database', title: 'Релиз' });
  const db = (await call<{ data: Array<{ id: string }> }>('GET', `note/${holder.data.id}/blocks`)).data[0].id;
  const field = async (field: unknown) => (await call<{ meta: { fieldId: string } }>('POST', `database/${db}/fields`, { field })).meta.fieldId;
  const sum = await field({ name: 'Сумма', type: 'number' });
  const tag = await field({ name: 'Метка', type: 'select', options: [{ id: 'urgent', name: 'Срочно', color: 'red' }] });
  const note = await field({ name: 'Заметка', type: 'text' });
  const made = await call<{ data: Row[] }>('POST', `database/${db}/rows`, { rows: names.map((title) => ({ title })) });
  const idOf = Object.fromEntries(made.data.map((r) => [r.data.title, r.id]));
  const rows = async () => (await call<{ data: Row[] }>('GET', `database/${db}/rows`)).data;
  const rowOf = async (title: string) => (await rows()).find((r) => r.data.title === title)!;
  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await eventually(() => titles(page), names);
  // The page's channel joined (the realtime events of others' changes reach the grid).
  await page.waitForTimeout(500);
  return { page, call, db, idOf, rows, rowOf, fields: { sum, tag, note } };
}

it('an editor open on «Документация» (a number, a select, a text) while the row is moved to the top: the value lands in «Документация», «Выпуск» is unchanged', async () => {
  const names = ['Выпуск', 'Документация', 'Дизайн', 'Тесты'];
  const { page, call, db, idOf, rowOf, fields } = await setUp('follow.boris@example.com', names);
  const moveToTop = async () => {
    await call('POST', `database/${db}/rows/move`, { ids: [idOf['Документация']], placeAfter: null });
    await eventually(() => titles(page), ['Документация', 'Выпуск', 'Дизайн', 'Тесты']);
  };
  const putBack = async () => {
    await call('POST', `database/${db}/rows/move`, { ids: [idOf['Документация']], placeAfter: idOf['Выпуск'] });
    await eventually(() => titles(page), names);
  };

  // A number.
  await cell(page, 1, 1).click();
  await page.keyboard.press('Enter');
  await editor(page).fill('42');
  await moveToTop();
  await expect(editor(page).inputValue()).resolves.toBe('42');
  let written = cellWritten(page);
  await editor(page).press('Enter');
  expect((await written).status()).toBe(200);
  await expect(cell(page, 0, 1).textContent()).resolves.toBe('42');

  // A select: its option picked after the move.
  await putBack();
  await cell(page, 1, 2).click();
  await page.keyboard.press('Enter');
  const find = page.getByLabel('Найти или создать');
  await find.fill('Сроч');
  await moveToTop();
  written = cellWritten(page);
  await find.press('Enter');
  expect((await written).status()).toBe(200);
  await expect(cell(page, 0, 2).textContent()).resolves.toBe('Срочно');

  // A text.
  await putBack();
  await cell(page, 1, 3).click();
  await page.keyboard.press('Enter');
  await editor(page).fill('черновик готов');
  await moveToTop();
  written = cellWritten(page);
  await editor(page).press('Enter');
  expect((await written).status()).toBe(200);
  // No false «changed by someone else».
  await expect(page.getByText('Эту ячейку только что изменил другой участник', { exact: false }).count()).resolves.toBe(0);

  await page.reload();
  await eventually(() => titles(page), ['Документация', 'Выпуск', 'Дизайн', 'Тесты']);
  await expect(cell(page, 0, 1).textContent()).resolves.toBe('42');
  await expect(cell(page, 0, 3).textContent()).resolves.toBe('черновик готов');
  expect((await rowOf('Документация')).data.values).toEqual({ [fields.sum]: 42, [fields.tag]: 'urgent', [fields.note]: 'черновик готов' });
  const release = (await rowOf('Выпуск')).data.values;
  expect([release[fields.sum] ?? null, release[fields.tag] ?? null, release[fields.note] ?? null]).toEqual([null, null, null]);
  await page.context().close();
});

it('the row put in the trash while its cell is edited: nothing written, a note, and «Восстановить строку» brings it back with the value', async () => {
  const names = ['Выпуск', 'Документация', 'Дизайн'];
  const { page, call, db, idOf, rows, rowOf, fields } = await setUp('follow.trash@example.com', names);
  await cell(page, 1, 1).click();
  await page.keyboard.press('Enter');
  await editor(page).fill('7');
  await call('POST', `database/${db}/rows/delete`, { ids: [idOf['Документация']] });
  await eventually(() => titles(page), ['Выпуск', 'Дизайн']);
  const refused = cellWritten(page);
  await editor(page).press('Enter');
  expect((await refused).status()).toBe(409);
  const note = page.locator('.toast', { hasText: 'Строку удалили, пока вы её редактировали — значение не записано' });
  await note.waitFor();
  expect((await rows()).map((r) => r.data.values[fields.sum] ?? null)).toEqual([null, null]);
  fs.mkdirSync(path.resolve('.tmp'), { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.resolve('.tmp/h6-toast.png') });

  const written = cellWritten(page);
  await note.getByRole('button', { name: 'Восстановить строку' }).click();
  expect((await written).status()).toBe(200);
  await eventually(() => titles(page), names);
  await expect(cell(page, 1, 1).textContent()).resolves.toBe('7');
  expect((await rowOf('Документация')).data.values[fields.sum]).toBe(7);
  expect((await rowOf('Выпуск')).data.values[fields.sum] ?? null).toBeNull();
  await page.context().close();
});
