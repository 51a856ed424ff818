import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, pageWithDatabase, shoot } from '../helpers/editorPage';
import { fetchJson, signInToProcess } from '../helpers/serverProcess';
import { cookieOf, holdNextAnswer } from '../helpers/browser';

/*
 * The Table view of a database in real Chromium against the real server (SQLite): made from the
 * slash menu, typed into, driven by the keyboard, pasted into, its fields changed, filtered and
 * sorted, rows deleted and brought back, a row opened beside it and as a page — and a reader who
 * can look but not touch.
 */

// Late frames found this suite's bugs (a key typed before the next frame): they stay on here.
const suite = browserSuite({ lateFramesMs: 60 });

const grid = (page: Page) => page.locator('.db-scroll');
const cell = (page: Page, row: number, col: number) => page.locator(`.db-scroll [data-row="${row}"] [data-col="${col}"]`);
const editor = (page: Page) => page.getByLabel('Значение ячейки');
const header = (page: Page, name: string) => page.locator('.db-hcell', { has: page.locator('.db-hcell-name', { hasText: new RegExp(`^${name}$`) }) });
/** The view's titles, top to bottom (what is drawn). */
const titles = (page: Page) => page.locator('.db-scroll .db-row [data-col="0"]').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));
const text = (locator: ReturnType<typeof cell>) => locator.evaluate((c) => (c.textContent ?? '').replace(/Открыть$/, '').replace(/[\u00a0\u202f]/g, ' '));

const signedIn = (email: string, width = 1280): Promise<Page> => suite.signedIn(email, width);

async function addRow(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: /Новая строка/ }).click();
  await editor(page).waitFor();
  await page.keyboard.type(title);
  await page.keyboard.press('Enter');
  await editor(page).waitFor({ state: 'detached' });
}

async function addField(page: Page, name: string, type: string): Promise<void> {
  await page.getByRole('button', { name: 'Добавить поле' }).click();
  const menu = page.getByRole('dialog', { name: 'Добавить поле' });
  await menu.getByLabel('Название поля').fill(name);
  await menu.getByRole('button', { name: type, exact: true }).click();
  await header(page, name).waitFor();
}

async function openFieldMenu(page: Page, name: string) {
  await header(page, name).locator('.db-hcell-button').click();
  return page.getByRole('dialog', { name: 'Поле' });
}

/** Pastes text as a spreadsheet puts it on the clipboard, into the grid's keyboard target. */
async function pasteText(page: Page, value: string): Promise<void> {
  await page.locator('.db-sink').evaluate((sink, data) => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', data);
    sink.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, value);
}

/** Signed in, with a new Database page made through the API (fast set-up); `cookie` for more API calls. */
async function databasePage(email: string, title: string) {
  const api = `${suite.server.url}/api/v3/spaces`;
  const page = await signedIn(email);
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${api}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title }),
  });
  const block = (
    await fetchJson<{ data: Array<{ id: string; data: { view: { layouts: Array<{ uid: string }> } } }> }>(`${api}/note/${holder.data.id}/blocks`, { cookie })
  ).data[0];
  return { page, cookie, S: api, holderId: holder.data.id, db: block.id, block };
}

/** The next answered write of cells (one cell, or several at once). */
const cellWrites = (page: Page) => page.waitForResponse((r) => /\/cells(\/|$)/.test(new URL(r.url()).pathname) && r.request().method() === 'POST');

it('a database from the slash menu: rows typed in, keys move and edit, a number field, all there after a reload', async () => {
  const page = await signedIn('table.writer@example.com');
  await pageWithDatabase(page, 'Задачи');
  await expect(header(page, 'Название').count()).resolves.toBe(1);
  await addRow(page, 'Первая');
  await addRow(page, 'Вторая');
  await addField(page, 'Сумма', 'Число');

  // Keyboard: click the first title, arrow right, type (the character starts the edit), Enter
  // writes and goes down; Tab moves right, Escape cancels an edit.
  await cell(page, 0, 0).click();
  await page.keyboard.press('ArrowRight');
  let written = cellWrites(page);
  await page.keyboard.type('1500');
  await page.keyboard.press('Enter');
  await written;
  await expect(text(cell(page, 0, 1))).resolves.toBe('1 500');
  await expect(cell(page, 1, 1).getAttribute('class')).resolves.toContain('is-active');
  written = cellWrites(page);
  await page.keyboard.type('250,5');
  await page.keyboard.press('Tab');
  await written;
  await expect(text(cell(page, 1, 1))).resolves.toBe('250,5');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(cell(page, 0, 0).getAttribute('class')).resolves.toContain('is-active');
  await page.keyboard.press('Enter');
  await page.keyboard.type(' лишнее');
  await page.keyboard.press('Escape');
  await expect(text(cell(page, 0, 0))).resolves.toBe('Первая');
  // Delete clears the selected cells.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  written = cellWrites(page);
  await page.keyboard.press('Delete');
  await written;
  await eventually(() => text(cell(page, 1, 1)), '');
  await eventually(() => text(cell(page, 0, 1)), '');
  await page.keyboard.press('ArrowUp');
  written = cellWrites(page);
  await page.keyboard.type('42');
  await page.keyboard.press('Enter');
  await written;

  await page.reload();
  await grid(page).waitFor();
  await eventually(() => titles(page), ['Первая', 'Вторая']);
  await expect(text(cell(page, 0, 1))).resolves.toBe('42');
  await page.context().close();
});

it('text that comes without key-downs (a phone keyboard, an IME, dictation) starts editing the selected cell, and none of it is lost', async () => {
  const page = await signedIn('table.insert.text@example.com');
  await pageWithDatabase(page, 'Без клавиш');
  await addRow(page, 'Первая');
  await addField(page, 'Сумма', 'Число');
  await cell(page, 0, 0).click();
  await editor(page).waitFor({ state: 'detached' });
  // Playwright types Cyrillic as inserted text, with no key-down: the word must open the editor whole.
  await page.keyboard.type('Вторая строка');
  await eventually(() => editor(page).inputValue(), 'Вторая строка');
  let written = cellWrites(page);
  await page.keyboard.press('Enter');
  await written;
  await expect(text(cell(page, 0, 0))).resolves.toBe('Вторая строка');
  await cell(page, 0, 1).click();
  written = cellWrites(page);
  await page.keyboard.insertText('12,5');
  await eventually(() => editor(page).inputValue(), '12,5');
  await page.keyboard.press('Enter');
  await written;
  await expect(text(cell(page, 0, 1))).resolves.toBe('12,5');
  // A click on another cell while editing writes the edit and selects the cell clicked.
  await cell(page, 0, 0).click();
  await page.keyboard.type('Третья');
  await editor(page).waitFor();
  written = cellWrites(page);
  await cell(page, 0, 1).click({ position: { x: 8, y: 8 } });
  await written;
  await editor(page).waitFor({ state: 'detached' });
  await expect(text(cell(page, 0, 0))).resolves.toBe('Третья');
  await expect(cell(page, 0, 1).getAttribute('class')).resolves.toContain('is-active');
  await page.reload();
  await grid(page).waitFor();
  await eventually(() => text(cell(page, 0, 0)), 'Третья');
  await expect(text(cell(page, 0, 1))).resolves.toBe('12,5');
  await page.context().close();
});

it('on a phone (375 px, touch) a tap selects a cell and a second tap opens its editor; typing there is written', async () => {
  const page = await suite.signedIn('table.phone.tap@example.com', 1280, { touch: true });
  await pageWithDatabase(page, 'Телефон');
  await addRow(page, 'Первая');
  await addRow(page, 'Вторая');
  await page.setViewportSize({ width: 375, height: 812 });
  // A tap on the cell's text (its middle holds «Открыть», which opens the row as on a computer).
  const tap = (row: number) => cell(page, row, 0).tap({ position: { x: 12, y: 12 } });
  const active = (row: number) =>
    cell(page, row, 0)
      .getAttribute('class')
      .then((c) => c?.includes('is-active'));
  await tap(1);
  await eventually(() => active(1), true);
  await tap(0);
  await eventually(() => active(0), true);
  await expect(editor(page).count()).resolves.toBe(0);
  await tap(0);
  await editor(page).waitFor();
  await eventually(() => editor(page).evaluate((el) => el === document.activeElement), true);
  await page.keyboard.press('End');
  await page.keyboard.type(' и ещё');
  const written = cellWrites(page);
  await page.keyboard.press('Enter');
  await written;
  await expect(text(cell(page, 0, 0))).resolves.toBe('Первая и ещё');
  await shoot(page, 'database-phone-tap');
  await page.context().close();
});

it('a moment is copied as the grid shows it, in the browser’s time zone (Moscow), and pasted back to the same moment', async () => {
  const page = await suite.signedIn('table.copy.time@example.com', 1280, { timezoneId: 'Europe/Moscow' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
  const api = `${suite.server.url}/api/v3/spaces`;
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${api}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Время' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${api}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${api}/database/${db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ id: 'at', field: { name: 'Когда', type: 'date', withTime: true } }),
  });
  await fetchJson(`${api}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'Созвон', values: { at: '2026-12-01T11:30:00Z' } }, { title: 'Пусто' }] }),
  });
  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await grid(page).waitFor();
  await eventually(() => text(cell(page, 0, 1)), '1 дек. 2026 г., 14:30');
  await cell(page, 0, 1).click();
  await page.keyboard.press('Control+C');
  await eventually(() => page.evaluate(() => navigator.clipboard.readText()), '01.12.2026 14:30');
  await cell(page, 1, 1).click();
  const written = cellWrites(page);
  await pasteText(page, '01.12.2026 14:30');
  await written;
  const rows = await fetchJson<{ data: Array<{ data: { title: string; values: { at?: string } } }> }>(`${api}/database/${db}/rows`, { cookie });
  expect(rows.data.map((r) => [r.data.title, r.data.values.at ?? null])).toEqual([
    ['Созвон', '2026-12-01T11:30:00Z'],
    ['Пусто', '2026-12-01T11:30:00Z'],
  ]);
  await page.context().close();
});

it('Ctrl+D fills a selected range down from its top row, in the browser (not its bookmark key), saved', async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.fill.down@example.com', 'Заполнение');
  await fetchJson(`${S}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'sum', field: { name: 'Сумма', type: 'number' } }) });
  await fetchJson(`${S}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'А', values: { sum: 7 } }, { title: 'Б', values: { sum: 1 } }, { title: 'В' }] }),
  });
  await page.goto(`${suite.server.url}/${holderId}`);
  await grid(page).waitFor();
  await eventually(() => titles(page), ['А', 'Б', 'В']);
  await cell(page, 0, 1).click();
  await cell(page, 2, 1).click({ modifiers: ['Shift'] });
  const written = cellWrites(page);
  await page.keyboard.press('Control+d');
  await written;
  await eventually(
    async () =>
      (await fetchJson<{ data: Array<{ data: { values: { sum?: number } } }> }>(`${S}/database/${db}/rows`, { cookie })).data.map(
        (r) => r.data.values.sum ?? null,
      ),
    [7, 7, 7],
  );
  await expect(text(cell(page, 2, 1))).resolves.toBe('7');
  await page.context().close();
});

it('a TSV block pasted from a spreadsheet fills cells and adds rows; the filter and sort bar; rows deleted together come back with «Отменить»', async () => {
  const page = await signedIn('table.paster@example.com');
  await pageWithDatabase(page, 'Бюджет', '/database');
  await addField(page, 'Сумма', 'Число');
  await addRow(page, 'Черновик');
  await cell(page, 0, 0).click();
  const made = page.waitForResponse((r) => /\/rows$/.test(r.url()) && r.request().method() === 'POST');
  await pasteText(page, 'Альфа\t30\r\nБета\t10\r\nГамма\t20\r\n');
  await made;
  await eventually(() => titles(page), ['Альфа', 'Бета', 'Гамма']);
  await eventually(() => Promise.all([0, 1, 2].map((r) => text(cell(page, r, 1)))), ['30', '10', '20']);

  // Sort by Сумма, then a filter Сумма > 15.
  await page.getByRole('button', { name: 'Фильтр и сортировка' }).click();
  const bar = page.getByRole('region', { name: 'Фильтры и сортировка' });
  await bar.getByRole('button', { name: '+ Сортировка' }).click();
  await bar.getByLabel('Поле сортировки').selectOption({ label: 'Сумма' });
  await eventually(() => titles(page), ['Бета', 'Гамма', 'Альфа']);
  await bar.getByLabel('Порядок').selectOption({ label: 'по убыванию' });
  await eventually(() => titles(page), ['Альфа', 'Гамма', 'Бета']);
  await bar.getByRole('button', { name: '+ Фильтр' }).click();
  await bar.getByLabel('Поле фильтра').selectOption({ label: 'Сумма' });
  await bar.getByLabel('Условие', { exact: true }).selectOption({ label: 'больше' });
  await bar.getByLabel('Значение', { exact: true }).fill('15');
  await eventually(() => titles(page), ['Альфа', 'Гамма']);
  await bar.getByRole('button', { name: 'Убрать условие' }).click();
  await bar.getByRole('button', { name: 'Убрать сортировку' }).click();
  await eventually(() => titles(page), ['Альфа', 'Бета', 'Гамма']);

  // Two rows checked in the gutter, deleted, and brought back.
  await page.locator('.db-row[data-row="0"]').hover();
  await page.locator('.db-row[data-row="0"] [data-check]').click();
  await page.locator('.db-row[data-row="2"]').hover();
  await page.locator('.db-row[data-row="2"] [data-check]').click();
  await expect(page.getByRole('toolbar').innerText()).resolves.toContain('Выбрано 2 строки');
  await page.getByRole('toolbar').getByRole('button', { name: 'Удалить' }).click();
  await eventually(() => titles(page), ['Бета']);
  await page.getByRole('button', { name: 'Отменить' }).click();
  await eventually(() => titles(page), ['Альфа', 'Бета', 'Гамма']);
  await page.reload();
  await grid(page).waitFor();
  await eventually(() => titles(page), ['Альфа', 'Бета', 'Гамма']);
  await page.context().close();
});

it('fields: renamed, retyped after the warning of what is cleared, resized, hidden and deleted', async () => {
  const page = await signedIn('table.fields@example.com');
  await pageWithDatabase(page, 'Поля');
  await addRow(page, 'Один');
  await addRow(page, 'Два');
  await addField(page, 'Заметка', 'Текст');
  await cell(page, 0, 1).click();
  let written = cellWrites(page);
  await page.keyboard.type('abc');
  await page.keyboard.press('Enter');
  await written;
  written = cellWrites(page);
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  await written;

  // Rename.
  let menu = await openFieldMenu(page, 'Заметка');
  await menu.getByLabel('Название поля').fill('Оценка');
  await menu.getByLabel('Название поля').press('Enter');
  await header(page, 'Оценка').waitFor();

  // Retype text → number: «abc» cannot be a number; the dialog says so before anything changes.
  menu = await openFieldMenu(page, 'Оценка');
  await menu.getByRole('button', { name: /^Тип/ }).click();
  await menu.getByRole('button', { name: 'Число', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /Сменить тип поля «Оценка» на «Число»/ });
  await expect(dialog.innerText()).resolves.toMatch(/Будет очищено 1 значение: «abc»/);
  await dialog.getByRole('button', { name: 'Сменить тип' }).click();
  await eventually(() => Promise.all([text(cell(page, 0, 1)), text(cell(page, 1, 1))]), ['', '12']);
  await expect(header(page, 'Оценка').locator('.db-type-icon').innerText()).resolves.toBe('#');

  // Reorder: a new field dragged by its name before «Оценка».
  await addField(page, 'Первое', 'Текст');
  const orderSaved = page.waitForResponse((r) => /\/views\//.test(r.url()) && r.request().method() === 'POST');
  await page.dragAndDrop('.db-hcell[data-field] .db-hcell-button[title="Первое"]', '.db-hcell[data-field] .db-hcell-button[title="Оценка"]', {
    targetPosition: { x: 40, y: 10 },
  });
  await orderSaved;
  await eventually(() => page.locator('.db-hcell-name').allInnerTexts(), ['Название', 'Первое', 'Оценка']);

  // Resize by dragging the header's edge: the width is saved in the view.
  await header(page, 'Оценка').locator('.db-resize').scrollIntoViewIfNeeded();
  const before = (await header(page, 'Оценка').boundingBox())!;
  const handle = (await header(page, 'Оценка').locator('.db-resize').boundingBox())!;
  const viewSaved = page.waitForResponse((r) => /\/views\//.test(r.url()) && r.request().method() === 'POST');
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 60, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.move(handle.x + 120, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.up();
  await viewSaved;
  await page.reload();
  await grid(page).waitFor();
  const after = (await header(page, 'Оценка').boundingBox())!;
  expect(Math.round(after.width - before.width)).toBeGreaterThanOrEqual(110);

  // A row inserted between the two from the first row's gutter.
  await page.locator('.db-row[data-row="0"]').hover();
  await page.locator('.db-row[data-row="0"] [data-insert]').click();
  await editor(page).waitFor();
  await page.keyboard.type('Полтора');
  await page.keyboard.press('Enter');
  await eventually(() => titles(page), ['Один', 'Полтора', 'Два']);

  // Hide, then a field added and deleted.
  menu = await openFieldMenu(page, 'Оценка');
  await menu.getByRole('button', { name: 'Скрыть' }).click();
  await header(page, 'Оценка').waitFor({ state: 'detached' });
  await addField(page, 'Лишнее', 'Флажок');
  menu = await openFieldMenu(page, 'Лишнее');
  await menu.getByRole('button', { name: 'Удалить поле' }).click();
  await page.getByRole('dialog', { name: 'Удалить поле «Лишнее»?' }).getByRole('button', { name: 'Удалить поле' }).click();
  await header(page, 'Лишнее').waitFor({ state: 'detached' });
  await page.reload();
  await grid(page).waitFor();
  await expect(page.locator('.db-hcell-name').allInnerTexts()).resolves.toEqual(['Название', 'Первое']);
  await eventually(() => titles(page), ['Один', 'Полтора', 'Два']);
  await page.context().close();
});

it('a number field may fix its digits after the comma in its menu: the cells show them, kept after a reload', async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.decimals@example.com', 'Смета');
  await fetchJson(`${S}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'sum', field: { name: 'Сумма', type: 'number' } }) });
  await fetchJson(`${S}/database/${db}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows: [{ title: 'Бумага', values: { sum: 9156.3 } }] }) });
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => text(cell(page, 0, 1)), '9 156,3');
  const menu = await openFieldMenu(page, 'Сумма');
  await menu.getByLabel('Знаков после запятой').selectOption('2');
  await eventually(() => text(cell(page, 0, 1)), '9 156,30');
  await page.keyboard.press('Escape');
  await page.reload();
  await eventually(() => text(cell(page, 0, 1)), '9 156,30');
  await page.context().close();
});

it('a row opens beside the table with its fields, and as a page of its own', async () => {
  const page = await signedIn('table.rows@example.com');
  await pageWithDatabase(page, 'Встречи');
  await addField(page, 'Готово', 'Флажок');
  await addRow(page, 'Планёрка');
  // A checkbox cell toggles in place.
  const written = cellWrites(page);
  await cell(page, 0, 1).locator('[data-toggle]').click();
  await written;
  await expect(cell(page, 0, 1).locator('[role="checkbox"]').getAttribute('aria-checked')).resolves.toBe('true');

  await page.locator('.db-row[data-row="0"]').hover();
  await cell(page, 0, 0).getByRole('button', { name: 'Открыть' }).click();
  const peek = page.getByRole('dialog', { name: 'Строка базы данных' });
  await peek.waitFor();
  await expect(peek.getByRole('checkbox', { name: 'Готово' }).isChecked()).resolves.toBe(true);
  await expect(peek.locator('[data-slate-editor] h1').innerText()).resolves.toBe('Планёрка');
  // The table's own page has an address of the same shape: the row's is another one.
  const holder = page.url();
  await peek.getByRole('button', { name: /Открыть как страницу/ }).click();
  await page.waitForURL((url) => /\/[0-9a-f-]{36}$/.test(url.pathname) && url.href !== holder);
  await eventually(() => page.locator('[data-slate-editor] h1').innerText(), 'Планёрка');
  // The row's own page: its fields above its blocks, written like cells.
  const fields = page.getByLabel('Поля строки');
  await expect(fields.getByRole('checkbox', { name: 'Готово' }).isChecked()).resolves.toBe(true);
  const unchecked = cellWrites(page);
  await fields.getByRole('checkbox', { name: 'Готово' }).click();
  await unchecked;
  await page.goBack();
  await grid(page).waitFor();
  await eventually(() => cell(page, 0, 1).locator('[role="checkbox"]').getAttribute('aria-checked'), 'false');
  await page.context().close();
});

it('a reader sees the table but cannot change it', async () => {
  // The reader has an account first (signed in before the page is shared with them).
  const [owner, reader] = await Promise.all([signedIn('table.owner@example.com'), signedIn('table.reader@example.com')]);
  const url = await pageWithDatabase(owner, 'Только чтение');
  await addField(owner, 'Сумма', 'Число');
  await addRow(owner, 'Строка');
  const pageId = url.split('/').pop()!;
  const shared = await owner.evaluate(async (id) => {
    const res = await fetch(`/api/v3/spaces/element/${id}/member/add`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-App-Type': 'Web' },
      body: JSON.stringify([{ email: 'table.reader@example.com', accessLevel: 'read' }]),
    });
    return res.status;
  }, pageId);
  expect(shared).toBeLessThan(300);

  await reader.goto(url);
  await grid(reader).waitFor();
  await eventually(() => titles(reader), ['Строка']);
  const requests: string[] = [];
  reader.on('request', (r) => r.method() !== 'GET' && r.url().includes('/api/v3/spaces/') && requests.push(`${r.method()} ${r.url()}`));
  await cell(reader, 0, 1).click();
  await reader.keyboard.type('5');
  await reader.keyboard.press('Enter');
  await reader.keyboard.press('Delete');
  await expect(editor(reader).count()).resolves.toBe(0);
  await expect(reader.getByRole('button', { name: /Новая строка/ }).count()).resolves.toBe(0);
  await expect(reader.getByRole('button', { name: 'Добавить поле' }).count()).resolves.toBe(0);
  await expect(header(reader, 'Сумма').locator('.db-hcell-button').isDisabled()).resolves.toBe(true);
  await expect(reader.getByRole('button', { name: 'Добавить вид' }).count()).resolves.toBe(0);
  expect(requests).toEqual([]);
  await reader.context().close();
  await owner.context().close();
});

it('a published page shows its database to anyone signed out: rows and the footer, nothing to change or open, no field its view hides', async () => {
  const S = `${suite.server.url}/api/v3/spaces`;
  const cookie = await signInToProcess(suite.server, 'table.publisher@example.com');
  const holder = await fetchJson<{ data: { id: string } }>(`${S}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Опубликовано' }) });
  const db = crypto.randomUUID();
  // `secret` is shown by no view, which filters and sorts by it; no view names `memo` at all (docs/security.md «What a public reader can see»).
  const fields = {
    MAIN_FIELD: { name: 'Название', type: 'text' },
    price: { name: 'Бюджет', type: 'number' },
    secret: { name: 'Тайна', type: 'text' },
    memo: { name: 'Служебное', type: 'text' },
  };
  const layout = {
    uid: 'v1',
    type: 'table',
    name: 'Таблица',
    orderedFields: [
      { fieldId: 'MAIN_FIELD', isWrap: false },
      { fieldId: 'price', isWrap: false },
    ],
    filter: { op: 'and', rules: [{ fieldId: 'secret', condition: 'isNot', value: 'скрыть' }] },
    sorts: [{ fieldId: 'secret', direction: 'asc' }],
    calculations: { price: 'sum', secret: 'filled' },
  };
  await fetchJson(`${S}/block`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ id: db, pageId: holder.data.id, type: 'database', data: { config: { fields }, view: { layouts: [layout] } } }),
  });
  await fetchJson(`${S}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      rows: [
        { title: 'Первая', values: { price: 10, secret: 'тайна-1', memo: 'служебное-1' } },
        { title: 'Вторая', values: { price: 32, secret: 'тайна-2' } },
        { title: 'Отфильтрованная', values: { price: 1000, secret: 'скрыть' } },
      ],
    }),
  });
  await fetchJson(`${S}/element/${holder.data.id}`, { method: 'PATCH', cookie, body: JSON.stringify({ isPublic: true }) });

  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const visitor = await context.newPage();
  visitor.setDefaultTimeout(15_000);
  const writes: string[] = [];
  visitor.on('request', (r) => r.method() !== 'GET' && r.url().includes('/api/v3/spaces/') && writes.push(`${r.method()} ${r.url()}`));
  // Every answer of the page and its database the page reads (the early script's too), and whether any failed.
  const answers: Array<{ url: string; status: number; body: string }> = [];
  visitor.on('response', (r) => {
    if (/\/api\/v3\/spaces\/(database|element\/public)\//.test(r.url())) void r.text().then((body) => answers.push({ url: r.url(), status: r.status(), body }));
  });
  await visitor.goto(`${suite.server.url}/${holder.data.id}`);
  await grid(visitor).waitFor();
  await eventually(() => titles(visitor), ['Первая', 'Вторая']);
  await eventually(() => visitor.locator('.db-fcell-figure').allTextContents(), ['42']);
  await shoot(visitor, 'database-published-1280');
  expect(answers.filter((a) => a.url.includes('/rows')).length).toBeGreaterThan(0);
  expect(answers.filter((a) => a.url.includes('/element/public/')).length).toBeGreaterThan(0);
  for (const answer of answers) {
    expect([answer.url, answer.status]).toEqual([answer.url, 200]);
    for (const hidden of ['тайна', 'Отфильтрованная', 'Служебное', 'служебное-1']) expect(answer.body).not.toContain(hidden);
  }
  await cell(visitor, 0, 0).click();
  await expect(visitor.locator('.db-open').count()).resolves.toBe(0);
  await visitor.keyboard.press('Enter');
  await visitor.keyboard.type('x');
  await expect(editor(visitor).count()).resolves.toBe(0);
  await expect(visitor.getByRole('button', { name: /Новая строка/ }).count()).resolves.toBe(0);
  await expect(visitor.locator('.db-peek').count()).resolves.toBe(0);
  expect(writes).toEqual([]);
  await context.close();
});

it("a field's options: renamed, recoloured, moved, added, and deleted after a second click (its cells empty)", async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.options@example.com', 'Варианты');
  await fetchJson(`${S}/database/${db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      id: 'tag',
      field: {
        name: 'Метка',
        type: 'select',
        options: [
          { id: 'a', name: 'Альфа', color: 'blue' },
          { id: 'b', name: 'Бета', color: 'green' },
        ],
      },
    }),
  });
  await fetchJson(`${S}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      rows: [
        { title: 'Один', values: { tag: 'a' } },
        { title: 'Два', values: { tag: 'b' } },
      ],
    }),
  });
  const options = async () =>
    (
      await fetchJson<{ data: { data: { config: { fields: Record<string, { options: Array<{ name: string; color?: string }> }> } } } }>(`${S}/database/${db}`, {
        cookie,
      })
    ).data.data.config.fields.tag.options;
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(page), ['Один', 'Два']);
  const menu = await openFieldMenu(page, 'Метка');

  // Rename: the cells holding it show the new name.
  await menu.getByRole('textbox', { name: 'Название варианта' }).first().fill('Альфа-2');
  await page.keyboard.press('Enter');
  await eventually(() => text(cell(page, 0, 1)), 'Альфа-2');
  // Recolour from the palette.
  await menu.getByRole('button', { name: 'Цвет варианта «Альфа-2»' }).click();
  await menu.getByRole('button', { name: 'Красный' }).click();
  await eventually(() => cell(page, 0, 1).locator('.db-chip').getAttribute('data-color'), 'red');
  // Moved down with Alt+↓ in its name; a new option at the end.
  await menu.getByRole('textbox', { name: 'Название варианта' }).first().press('Alt+ArrowDown');
  await eventually(async () => (await options()).map((o) => o.name), ['Бета', 'Альфа-2']);
  await menu.getByRole('button', { name: 'Добавить вариант' }).click();
  await eventually(async () => (await options()).map((o) => o.name), ['Бета', 'Альфа-2', 'Вариант']);
  // Delete asks once more; then the cells that held it are empty.
  await menu.getByRole('button', { name: 'Удалить вариант «Бета»' }).click();
  await expect(menu.getByRole('button', { name: 'Удалить вариант «Бета»' }).textContent()).resolves.toBe('Удалить?');
  expect((await options()).length).toBe(3);
  await menu.getByRole('button', { name: 'Удалить вариант «Бета»' }).click();
  await eventually(async () => (await options()).map((o) => o.name), ['Альфа-2', 'Вариант']);
  await eventually(() => text(cell(page, 1, 1)), '');
  await expect(text(cell(page, 0, 1))).resolves.toBe('Альфа-2');
  await page.context().close();
});

it('the search box finds rows by title on the server; Escape shows them all again', async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.search@example.com', 'Поиск');
  await fetchJson(`${S}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: ['Купить молоко', 'Позвонить маме', 'Купить хлеб'].map((title) => ({ title })) }),
  });
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(page), ['Купить молоко', 'Позвонить маме', 'Купить хлеб']);
  await page.getByRole('button', { name: 'Поиск по строкам' }).click();
  const searched = page.waitForResponse((r) => r.url().includes('/rows') && decodeURIComponent(r.url()).includes('"купить"'));
  await page.keyboard.type('купить');
  await searched;
  await eventually(() => titles(page), ['Купить молоко', 'Купить хлеб']);
  await page.keyboard.type(' сыр');
  await eventually(() => page.locator('.db-empty').textContent(), 'Нет строк с «купить сыр» в названии');
  await page.keyboard.press('Escape');
  await eventually(() => titles(page), ['Купить молоко', 'Позвонить маме', 'Купить хлеб']);
  await expect(page.getByRole('searchbox', { name: 'Поиск по строкам' }).count()).resolves.toBe(0);
  await page.context().close();
});

it('Ctrl+Z undoes a cell edit, a paste and a clear (on the server too); Ctrl+Shift+Z redoes; a cell someone changed since is left alone', async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.undo@example.com', 'Отмена');
  await fetchJson(`${S}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'sum', field: { name: 'Сумма', type: 'number' } }) });
  const made = await fetchJson<{ data: Array<{ id: string }> }>(`${S}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      rows: [
        { title: 'А', values: { sum: 1 } },
        { title: 'Б', values: { sum: 2 } },
      ],
    }),
  });
  const onServer = async () =>
    (await fetchJson<{ data: Array<{ data: { title: string; values: { sum?: number } } }> }>(`${S}/database/${db}/rows`, { cookie })).data.map((r) => [
      r.data.title,
      r.data.values.sum ?? null,
    ]);
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(page), ['А', 'Б']);
  const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

  // One edit, undone and redone.
  await cell(page, 0, 1).click();
  let written = cellWrites(page);
  await page.keyboard.type('10');
  await page.keyboard.press('Enter');
  await written;
  await page.keyboard.press('ArrowUp');
  written = cellWrites(page);
  await page.keyboard.press(`${mod}+z`);
  await written;
  await eventually(onServer, [
    ['А', 1],
    ['Б', 2],
  ]);
  await eventually(() => text(cell(page, 0, 1)), '1');
  // The redo's answer is held back (written on the server, not yet known here) while the next edit
  // clears that cell: the clear goes on from the version the redo made, not refused as someone's change.
  const answer = await holdNextAnswer(page, '**/row/*/cells/sum');
  await page.keyboard.press(`${mod}+Shift+z`);
  await eventually(onServer, [
    ['А', 10],
    ['Б', 2],
  ]);
  await eventually(() => text(cell(page, 0, 1)), '10');

  // A clear of two cells is one call and one step (once the grid shows both selected: on a loaded
  // machine a Delete pressed before that cleared the one cell alone, another call).
  await page.keyboard.press('Shift+ArrowDown');
  await page.locator('[role="gridcell"][aria-selected="true"]').nth(1).waitFor();
  const cleared = page.waitForResponse((r) => /\/database\/[^/]+\/cells$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST');
  await page.keyboard.press('Delete');
  answer.release();
  await cleared;
  await eventually(onServer, [
    ['А', null],
    ['Б', null],
  ]);
  await expect(page.locator('.toast', { hasText: 'изменил другой участник' }).count()).resolves.toBe(0);
  await page.keyboard.press(`${mod}+z`);
  await eventually(onServer, [
    ['А', 10],
    ['Б', 2],
  ]);
  await eventually(() => text(cell(page, 1, 1)), '2');

  // Someone else changes one of them: the next undo (of the clear's undo, i.e. a redo) leaves theirs.
  await fetchJson(`${S}/row/${made.data[1].id}/cells/sum`, { method: 'POST', cookie, body: JSON.stringify({ value: 77, version: 3 }) });
  await eventually(() => text(cell(page, 1, 1)), '77');
  await page.keyboard.press(`${mod}+Shift+z`);
  await eventually(onServer, [
    ['А', null],
    ['Б', 77],
  ]);
  await page.getByText('1 ячейку уже изменили — она оставлена как есть').waitFor();
  await page.context().close();
});

it('Ctrl+Z undoes a row added, a paste that added a row and rows deleted (on the server too); Ctrl+Shift+Z redoes; «Отменить» after Ctrl+Z does nothing more', async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.undo-rows@example.com', 'Отмена строк');
  await fetchJson(`${S}/database/${db}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows: [{ title: 'А' }, { title: 'Б' }] }) });
  const onServer = async () =>
    (await fetchJson<{ data: Array<{ data: { title: string } }> }>(`${S}/database/${db}/rows`, { cookie })).data.map((r) => r.data.title);
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(page), ['А', 'Б']);
  const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

  // A row added (its title typed is a step of its own): two undos take the title, then the row.
  await addRow(page, 'В');
  await eventually(onServer, ['А', 'Б', 'В']);
  await page.keyboard.press(`${mod}+z`);
  await eventually(onServer, ['А', 'Б', '']);
  await page.keyboard.press(`${mod}+z`);
  await eventually(onServer, ['А', 'Б']);
  await eventually(() => titles(page), ['А', 'Б']);
  // Redone: the row comes back from the trash (the same row), then its title.
  await page.keyboard.press(`${mod}+Shift+z`);
  await eventually(onServer, ['А', 'Б', '']);
  await page.keyboard.press(`${mod}+Shift+z`);
  await eventually(onServer, ['А', 'Б', 'В']);
  await eventually(() => titles(page), ['А', 'Б', 'В']);

  // A paste from the last row down: one cell written and one row made, undone as one step.
  await cell(page, 2, 0).click();
  const made = page.waitForResponse((r) => /\/rows$/.test(r.url()) && r.request().method() === 'POST');
  await pasteText(page, 'Вэ\r\nГэ\r\n');
  await made;
  await eventually(onServer, ['А', 'Б', 'Вэ', 'Гэ']);
  await page.keyboard.press(`${mod}+z`);
  await eventually(onServer, ['А', 'Б', 'В']);
  await eventually(() => titles(page), ['А', 'Б', 'В']);

  // Rows deleted together: Ctrl+Z brings them back; the toast's «Отменить» then has nothing left to do.
  for (const row of [0, 2]) {
    await page.locator(`.db-row[data-row="${row}"]`).hover();
    await page.locator(`.db-row[data-row="${row}"] [data-check]`).click();
  }
  await page.getByRole('toolbar').getByRole('button', { name: 'Удалить' }).click();
  await eventually(onServer, ['Б']);
  await cell(page, 0, 0).click();
  await page.keyboard.press('Escape');
  await page.keyboard.press(`${mod}+z`);
  await eventually(onServer, ['А', 'Б', 'В']);
  await page.getByRole('button', { name: 'Отменить' }).click();
  await page.waitForTimeout(300);
  expect(await onServer()).toEqual(['А', 'Б', 'В']);
  await expect(page.locator('.toast', { hasText: 'Не удалось' }).count()).resolves.toBe(0);
  // Redone from the grid (the toast's button had the focus).
  await cell(page, 1, 0).click();
  await page.keyboard.press(`${mod}+Shift+z`);
  await eventually(onServer, ['Б']);
  await eventually(() => titles(page), ['Б']);
  await page.context().close();
});

it('a range of 1,200 rows (most never loaded) is copied whole, cleared whole in calls of 1,000 cells, and brought back by one Ctrl+Z', async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.range@example.com', 'Большой диапазон');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
  await fetchJson(`${S}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'sum', field: { name: 'Сумма', type: 'number' } }) });
  const ROWS = 1200;
  for (let at = 0; at < ROWS; at += 600) {
    await fetchJson(`${S}/database/${db}/rows`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ rows: Array.from({ length: 600 }, (_, i) => ({ title: `Строка ${at + i}`, values: { sum: at + i } })) }),
    });
  }
  const onServer = async () => {
    const all: Array<[string, number | null]> = [];
    for (let offset = 0; offset < ROWS; offset += 500) {
      const answer = await fetchJson<{ data: Array<{ data: { title: string; values: { sum?: number } } }> }>(
        `${S}/database/${db}/rows?offset=${offset}&limit=500`,
        { cookie },
      );
      all.push(...answer.data.map((r): [string, number | null] => [r.data.title, r.data.values.sum ?? null]));
    }
    return all;
  };
  const before = await onServer();
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => text(cell(page, 0, 0)), 'Строка 0');
  const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
  await cell(page, 0, 0).click();
  await page.keyboard.press(`${mod}+a`);
  await page.keyboard.press(`${mod}+c`);
  await page.getByText('Скопировано 1200 строк').waitFor();
  const copied = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
  expect(copied).toHaveLength(ROWS);
  // Numbers as the cells show them (a no-break space between thousands), as a Russian spreadsheet reads them.
  expect([copied[0], copied[777], copied[ROWS - 1]]).toEqual(['Строка 0\t0', 'Строка 777\t777', `Строка ${ROWS - 1}\t1\u00a0199`]);
  // The HTML flavour carries the numbers' values (Excel takes them whatever its language).
  const html = await page.evaluate(async () => {
    const [item] = await navigator.clipboard.read();
    return (await item.getType('text/html')).text();
  });
  // (Chromium writes it back sanitized: the no-break space as an entity.)
  expect(html.includes('<td x:num="1199">1&nbsp;199</td>')).toBe(true);

  // Delete on the whole range: 2,400 cells, written in calls of at most 1,000.
  const calls: number[] = [];
  page.on('request', (request) => {
    if (/\/database\/[^/]+\/cells$/.test(new URL(request.url()).pathname)) calls.push((request.postDataJSON() as { cells: unknown[] }).cells.length);
  });
  await page.keyboard.press('Delete');
  await eventually(async () => (await onServer()).every(([title, sum]) => title === '' && sum === null), true, 20_000);
  expect(calls).toEqual([1000, 1000, 400]);
  await page.keyboard.press(`${mod}+z`);
  await eventually(onServer, before, 20_000);
  await eventually(() => text(cell(page, 0, 0)), 'Строка 0');
  await page.context().close();
});

it('a files cell: files uploaded to the row, opened, one taken out again; the cell is written once the editor closes', async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.files@example.com', 'Файлы');
  await fetchJson(`${S}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'att', field: { name: 'Вложения', type: 'files' } }) });
  await fetchJson(`${S}/database/${db}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows: [{ title: 'Договор' }] }) });
  const onServer = async () =>
    (await fetchJson<{ data: Array<{ data: { values: { att?: Array<{ id: string; name: string }> } } }> }>(`${S}/database/${db}/rows`, { cookie })).data[0].data
      .values.att ?? null;
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(page), ['Договор']);
  await cell(page, 0, 1).click();
  await page.keyboard.press('Enter');
  await page.locator('.db-editor-files input[type="file"]').setInputFiles([
    { name: 'договор.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 договор') },
    { name: 'смета.txt', mimeType: 'text/plain', buffer: Buffer.from('смета: 100 ₽') },
  ]);
  await eventually(
    () =>
      page
        .locator('.db-editor-file a')
        .allTextContents()
        .then((all) => all.map((x) => x.trim())),
    ['договор.pdf', 'смета.txt'],
    10_000,
  );
  // The link gives the file back (as the row's readers get it).
  const href = await page.locator('.db-editor-file a').nth(1).getAttribute('href');
  expect(await page.evaluate(async (url) => (await fetch(url!)).text(), href)).toBe('смета: 100 ₽');
  await page.getByRole('button', { name: 'Убрать файл «договор.pdf»' }).click();
  const written = cellWrites(page);
  await page.keyboard.press('Escape');
  await written;
  await eventually(async () => (await onServer())?.map((f) => f.name) ?? null, ['смета.txt']);
  await eventually(() => text(cell(page, 0, 1)), 'смета.txt');
  // The file's sign is an icon, not a character the fonts may lack.
  expect(await cell(page, 0, 1).locator('.db-file svg').count()).toBe(1);
  await page.context().close();
});

it('view tabs reorder by dragging, and a step at a time from the tab menu', async () => {
  const { page, cookie, S, holderId, db, block } = await databasePage('table.tabs@example.com', 'Виды');
  await fetchJson(`${S}/database/${db}/views/${block.data.view.layouts[0].uid}`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { name: 'Первый' } }),
  });
  for (const name of ['Второй', 'Третий']) {
    await fetchJson(`${S}/database/${db}/views`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ layout: { uid: crypto.randomUUID(), type: 'table', name, orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }] } }),
    });
  }
  const serverOrder = async () =>
    (await fetchJson<{ data: { data: { view: { layouts: Array<{ name: string }> } } } }>(`${S}/database/${db}`, { cookie })).data.data.view.layouts.map(
      (l) => l.name,
    );
  const tabs = () =>
    page
      .locator('.db-tabs [role="tab"]')
      .allTextContents()
      .then((all) => all.map((x) => x.replace('▦', '').trim()));
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(tabs, ['Первый', 'Второй', 'Третий']);
  // The active tab's menu moves it one step.
  await page.getByRole('tab', { name: /Первый/ }).click();
  await page.getByRole('menuitem', { name: 'Сдвинуть вправо' }).click();
  await eventually(tabs, ['Второй', 'Первый', 'Третий']);
  await eventually(serverOrder, ['Второй', 'Первый', 'Третий']);
  // Dragged onto the first tab's left half: first.
  await page.getByRole('tab', { name: /Третий/ }).dragTo(page.getByRole('tab', { name: /Второй/ }), { targetPosition: { x: 4, y: 8 } });
  await eventually(tabs, ['Третий', 'Второй', 'Первый']);
  await eventually(serverOrder, ['Третий', 'Второй', 'Первый']);
  await page.context().close();
});

it('select options made while typing, a footer sum, group headers with counts, and a second view renamed', async () => {
  const page = await signedIn('table.views@example.com');
  await pageWithDatabase(page, 'Виды');
  await addField(page, 'Этап', 'Выбор');
  await addField(page, 'Сумма', 'Число');
  for (const [title, stage, sum] of [
    ['Раз', 'Идея', '10'],
    ['Два', 'В работе', '20'],
    ['Три', 'Идея', '5'],
  ]) {
    await addRow(page, title);
    const row = (await titles(page)).indexOf(title);
    await cell(page, row, 1).click();
    await page.keyboard.press('Enter');
    await page.keyboard.type(stage);
    await page.keyboard.press('Enter');
    // The option is the cell's at once (its field saved meanwhile: the cell's write waits for it).
    await eventually(() => text(cell(page, row, 1)), stage);
    const written = cellWrites(page);
    await page.keyboard.press('Tab');
    await page.keyboard.type(sum);
    await page.keyboard.press('Enter');
    await written;
    await eventually(() => text(cell(page, row, 2)), sum);
  }
  // «Идея» was made once, then picked: the field has two options.
  await cell(page, 0, 1).click();
  await page.keyboard.press('Enter');
  await expect(page.locator('.db-editor-option').allInnerTexts()).resolves.toEqual(['Идея\n✓', 'В работе']);
  await page.keyboard.press('Escape');

  // The footer: the sum of Сумма.
  await page.getByRole('button', { name: 'Расчёт Сумма' }).click();
  await page.getByRole('menuitemradio', { name: 'Сумма' }).click();
  await eventually(
    () =>
      page
        .getByRole('button', { name: 'Расчёт Сумма' })
        .innerText()
        .then((t) => t.replace(/\s+/g, ' ')),
    'Сумма 35',
  );

  // Grouped by Этап: a header per option with its count, rows under their group.
  await page.getByRole('button', { name: 'Группировка' }).click();
  await page.getByRole('menuitemradio', { name: 'Этап' }).click();
  await eventually(
    () =>
      page
        .locator('.db-group-label')
        .allInnerTexts()
        .then((all) => all.map((t) => t.replace(/\s+/g, ' '))),
    ['Идея 2', 'В работе 1'],
  );
  await eventually(() => titles(page), ['Раз', 'Три', 'Два']);

  // A second view: added, renamed, and its own (not grouped).
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Таблица' }).click();
  await eventually(() => page.getByRole('tab').count(), 2);
  await page.getByRole('tab', { selected: true }).click();
  await page.getByRole('menuitem', { name: 'Переименовать' }).click();
  await page.getByLabel('Название вида').fill('Все задачи');
  await page.getByLabel('Название вида').press('Enter');
  await page.getByRole('tab', { name: /Все задачи/ }).waitFor();
  await expect(page.locator('.db-group-label').count()).resolves.toBe(0);
  await eventually(() => titles(page), ['Раз', 'Два', 'Три']);
  await page.reload();
  await grid(page).waitFor();
  await expect(page.getByRole('tab').allInnerTexts()).resolves.toEqual(['▦ Таблица', '▦ Все задачи']);
  await page.context().close();
});

it('two windows on one table: a cell typed, a row added and rows deleted in one show in the other', async () => {
  const first = await signedIn('table.live@example.com');
  const url = await pageWithDatabase(first, 'Вместе');
  await addRow(first, 'Общая');
  const second = await first.context().newPage();
  second.setDefaultTimeout(15_000);
  await second.goto(url);
  await grid(second).waitFor();
  await eventually(() => titles(second), ['Общая']);
  // Joined: the channel answers before the change below is made.
  await second.waitForTimeout(500);

  await cell(first, 0, 0).click();
  const written = cellWrites(first);
  await first.keyboard.press('Enter');
  await first.keyboard.press('End');
  await first.keyboard.type(' строка');
  await first.keyboard.press('Enter');
  await written;
  await eventually(() => titles(second), ['Общая строка']);
  await addRow(first, 'Новая');
  await eventually(() => titles(second), ['Общая строка', 'Новая']);
  await first.locator('.db-row[data-row="0"]').hover();
  await first.locator('.db-row[data-row="0"] [data-check]').click();
  await first.getByRole('toolbar').getByRole('button', { name: 'Удалить' }).click();
  await eventually(() => titles(second), ['Новая']);
  await first.context().close();
});

/** Rows made through the API, and their titles in the Table view's order as the server has it (rows move in that view's own order). */
async function withRows(email: string, title: string, names: string[]) {
  const set = await databasePage(email, title);
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${set.S}/database/${set.db}/rows`, {
    method: 'POST',
    cookie: set.cookie,
    body: JSON.stringify({ rows: names.map((name) => ({ title: name })) }),
  });
  const idOf = Object.fromEntries(made.data.map((r) => [r.data.title, r.id]));
  const viewId = set.block.data.view.layouts[0].uid;
  const serverTitles = async () =>
    (
      await fetchJson<{ data: Array<{ data: { title: string } }> }>(`${set.S}/database/${set.db}/rows?viewId=${encodeURIComponent(JSON.stringify(viewId))}`, {
        cookie: set.cookie,
      })
    ).data.map((r) => r.data.title);
  return { ...set, idOf, viewId, serverTitles };
}

/** Drags row `from`'s handle onto row `to` (its upper or lower half) with the mouse, step by step, as a person does. */
async function dragRow(page: Page, from: number, to: number, half: 'upper' | 'lower'): Promise<void> {
  await page.locator(`.db-row[data-row="${from}"]`).hover();
  const handle = (await page.locator(`.db-row[data-row="${from}"] [data-drag]`).boundingBox())!;
  const target = (await page.locator(`.db-row[data-row="${to}"]`).boundingBox())!;
  const y = half === 'upper' ? target.y + 6 : target.y + target.height - 6;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2 + 10, handle.y + handle.height / 2 + (y > handle.y ? 10 : -10), { steps: 4 });
  await page.mouse.move(target.x + 200, y, { steps: 8 });
  // Playwright's drag sends the last move's dragover only with the next move.
  await page.mouse.move(target.x + 202, y);
  await page.mouse.move(target.x + 204, y);
  // The drop line shows on that side of the row.
  await eventually(
    () =>
      page
        .locator(`.db-row[data-row="${to}"]`)
        .getAttribute('class')
        .then((c) => c?.includes(`is-drop-${half === 'upper' ? 'before' : 'after'}`)),
    true,
  );
  await page.mouse.up();
}

const moveSaved = (page: Page) => page.waitForResponse((r) => /\/rows\/move$/.test(r.url()) && r.request().method() === 'POST');

it('rows move by dragging their handle (rows checked together go together) and by Alt+Shift+↑/↓: saved, and shown in another window', async () => {
  const { page, holderId, idOf, viewId, serverTitles } = await withRows('table.drag@example.com', 'Порядок', ['А', 'Б', 'В', 'Г', 'Д']);
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(page), ['А', 'Б', 'В', 'Г', 'Д']);
  // Another window (its own browser context, the same person) watching the table.
  const other = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await other.addCookies(await page.context().cookies());
  const watcher = await other.newPage();
  watcher.setDefaultTimeout(15_000);
  await watcher.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(watcher), ['А', 'Б', 'В', 'Г', 'Д']);
  await watcher.waitForTimeout(500);

  // «Д» dragged onto the upper half of «Б»: between «А» and «Б».
  let answered = moveSaved(page);
  await dragRow(page, 4, 1, 'upper');
  await expect(titles(page)).resolves.toEqual(['А', 'Д', 'Б', 'В', 'Г']);
  expect((await answered).request().postDataJSON()).toEqual({ ids: [idOf['Д']], placeAfter: idOf['А'], viewId });
  await eventually(serverTitles, ['А', 'Д', 'Б', 'В', 'Г']);
  await eventually(() => titles(watcher), ['А', 'Д', 'Б', 'В', 'Г']);

  // «А» and «Б» checked; «А» dragged below «Г»: both go after it, in their order.
  for (const row of [0, 2]) {
    await page.locator(`.db-row[data-row="${row}"]`).hover();
    await page.locator(`.db-row[data-row="${row}"] [data-check]`).click();
  }
  answered = moveSaved(page);
  await dragRow(page, 0, 4, 'lower');
  await expect(titles(page)).resolves.toEqual(['Д', 'В', 'Г', 'А', 'Б']);
  expect((await answered).request().postDataJSON()).toEqual({ ids: [idOf['А'], idOf['Б']], placeAfter: idOf['Г'], viewId });
  // Dropped in the lower half of the database block: the page's editor did not take the block for
  // something dragged (it would move it after itself and ask whether to delete the database).
  await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  await eventually(serverTitles, ['Д', 'В', 'Г', 'А', 'Б']);
  await eventually(() => titles(watcher), ['Д', 'В', 'Г', 'А', 'Б']);

  // The keyboard: «Д» (not checked) a step down, then back up.
  await page.getByRole('toolbar').getByRole('button', { name: 'Снять выбор' }).click();
  await cell(page, 0, 0).click();
  answered = moveSaved(page);
  await page.keyboard.press('Alt+Shift+ArrowDown');
  await expect(titles(page)).resolves.toEqual(['В', 'Д', 'Г', 'А', 'Б']);
  expect((await answered).request().postDataJSON()).toEqual({ ids: [idOf['Д']], placeAfter: idOf['В'], viewId });
  await eventually(serverTitles, ['В', 'Д', 'Г', 'А', 'Б']);
  await eventually(() => titles(watcher), ['В', 'Д', 'Г', 'А', 'Б']);
  await expect(cell(page, 1, 0).getAttribute('class')).resolves.toContain('is-active');
  await page.reload();
  await eventually(() => titles(page), ['В', 'Д', 'Г', 'А', 'Б']);
  await other.close();
  await page.context().close();
});

it('no drag handle where rows do not move by hand: a sorted view, and for a reader', async () => {
  const { page: owner, S, cookie, holderId, db, block } = await withRows('table.unsorted@example.com', 'Сортировка', ['Б', 'А', 'В']);
  const reader = await signedIn('table.dragreader@example.com');
  const view = block.data.view.layouts[0].uid;
  await owner.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(owner), ['Б', 'А', 'В']);
  await owner.locator('.db-row[data-row="0"]').hover();
  await expect(owner.locator('.db-row[data-row="0"] [data-drag]').isVisible()).resolves.toBe(true);
  await expect(owner.locator('.db-row [data-drag]').count()).resolves.toBe(3);

  // Sorted by title: no handle, and Alt+Shift+↓ says why.
  await fetchJson(`${S}/database/${db}/views/${view}`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { sorts: [{ fieldId: 'MAIN_FIELD', direction: 'asc' }] } }),
  });
  await owner.reload();
  await eventually(() => titles(owner), ['А', 'Б', 'В']);
  await owner.locator('.db-row[data-row="0"]').hover();
  await expect(owner.locator('.db-row [data-drag]').count()).resolves.toBe(0);
  await cell(owner, 0, 0).click();
  await owner.keyboard.press('Alt+Shift+ArrowDown');
  await owner.getByText('Уберите сортировку, чтобы переставлять строки').waitFor();
  await expect(titles(owner)).resolves.toEqual(['А', 'Б', 'В']);

  // A reader of the unsorted view: no handle either.
  await fetchJson(`${S}/database/${db}/views/${view}`, { method: 'POST', cookie, body: JSON.stringify({ layout: { sorts: [] } }) });
  await fetchJson(`${S}/element/${holderId}/member/add`, {
    method: 'POST',
    cookie,
    body: JSON.stringify([{ email: 'table.dragreader@example.com', accessLevel: 'read' }]),
  });
  await reader.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(reader), ['Б', 'А', 'В']);
  await reader.locator('.db-row[data-row="0"]').hover();
  await expect(reader.locator('.db-row [data-drag]').count()).resolves.toBe(0);
  await reader.context().close();
  await owner.context().close();
});

it('a grouped view: a group collapses to its header and opens again; the choice stays in this browser after a reload', async () => {
  const { page, S, cookie, holderId, db, block } = await databasePage('table.collapse@example.com', 'Группы');
  await fetchJson(`${S}/database/${db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      id: 'stage',
      field: {
        name: 'Этап',
        type: 'select',
        options: [
          { id: 'idea', name: 'Идея', color: 'blue' },
          { id: 'work', name: 'В работе', color: 'green' },
        ],
      },
    }),
  });
  const rows = [
    ['Раз', 'idea'],
    ['Два', 'work'],
    ['Три', 'idea'],
    ['Четыре', 'work'],
  ].map(([title, stage]) => ({ title, values: { stage } }));
  await fetchJson(`${S}/database/${db}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows }) });
  await fetchJson(`${S}/database/${db}/views/${block.data.view.layouts[0].uid}`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { groupBy: { fieldId: 'stage' } } }),
  });
  const writes: string[] = [];
  page.on('request', (r) => r.method() !== 'GET' && r.url().includes('/api/v3/spaces/database') && writes.push(`${r.method()} ${r.url()}`));
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => titles(page), ['Раз', 'Три', 'Два', 'Четыре']);
  // Grouped: no drag handles.
  await expect(page.locator('.db-row [data-drag]').count()).resolves.toBe(0);

  const collapse = page.getByRole('button', { name: 'Свернуть группу «Идея»' });
  await expect(collapse.getAttribute('aria-expanded')).resolves.toBe('true');
  await collapse.click();
  await eventually(() => titles(page), ['Два', 'Четыре']);
  const expand = page.getByRole('button', { name: 'Развернуть группу «Идея»' });
  await expect(expand.getAttribute('aria-expanded')).resolves.toBe('false');
  await expect(
    page
      .locator('.db-group-label')
      .allInnerTexts()
      .then((all) => all.map((t) => t.replace(/\s+/g, ' '))),
  ).resolves.toEqual(['Идея 2', 'В работе 2']);
  // The keyboard passes over the hidden rows: ↑ from «Два» stays on it.
  await cell(page, 2, 0).click();
  await page.keyboard.press('ArrowUp');
  await expect(cell(page, 2, 0).getAttribute('class')).resolves.toContain('is-active');
  // The group right under the collapsed one's header: nothing left between.
  const headerBox = (await page.locator('.db-group').first().boundingBox())!;
  const rowBox = (await page.locator('.db-row[data-row="2"]').boundingBox())!;
  expect(Math.round(rowBox.y - headerBox.y)).toBe(2 * 34);

  await page.reload();
  await grid(page).waitFor();
  await eventually(() => titles(page), ['Два', 'Четыре']);
  await page.getByRole('button', { name: 'Развернуть группу «Идея»' }).click();
  await eventually(() => titles(page), ['Раз', 'Три', 'Два', 'Четыре']);
  // Nothing of it went to the server.
  expect(writes).toEqual([]);
  await page.context().close();
});

it('scrolled sideways, every row keeps its gutter and title at the left (rows drawn later too); at the start they are in place; a row checks from its gutter', async () => {
  const { page, cookie, S, holderId, db } = await databasePage('table.pinned@example.com', 'Широкая');
  for (let f = 1; f <= 9; f += 1) {
    await fetchJson(`${S}/database/${db}/fields`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ id: `f${f}`, field: { name: `Поле ${f}`, type: 'text' } }),
    });
  }
  const rows = Array.from({ length: 60 }, (_, i) => ({
    title: `Строка ${i}`,
    values: Object.fromEntries(Array.from({ length: 9 }, (_, f) => [`f${f + 1}`, `т${i}.${f + 1}`])),
  }));
  await fetchJson(`${S}/database/${db}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows }) });
  await page.goto(`${suite.server.url}/${holderId}`);
  await cell(page, 0, 0).waitFor();
  /** Where a drawn row's gutter and title are, against the grid's left edge, and the first cell right of them that shows. */
  const place = (row: number) =>
    page.locator('.db-scroll').evaluate((scroll, r) => {
      const left = scroll.getBoundingClientRect().left;
      const line = scroll.querySelector(`.db-row[data-row="${r}"]`)!;
      const box = (el: Element | null) => (el ? Math.round(el.getBoundingClientRect().left - left) : null);
      return {
        gutter: box(line.querySelector('.db-gutter')),
        title: box(line.querySelector('[data-col="0"]')),
        sideways: scroll.querySelector('.db-canvas.is-sideways') !== null,
      };
    }, row);
  const atStart = await place(0);
  expect(atStart).toEqual({ gutter: 0, title: expect.any(Number), sideways: false });
  await grid(page).evaluate((scroll) => (scroll.scrollLeft = 600));
  await eventually(() => place(0), { ...atStart, sideways: true });
  // The title column's text is what shows at the left, over the scrolled cells.
  const hit = await cell(page, 0, 0).evaluate((title) => {
    const box = title.getBoundingClientRect();
    return (document.elementFromPoint(box.left + 20, box.top + box.height / 2) as HTMLElement).closest('[data-col]')?.getAttribute('data-col');
  });
  expect(hit).toBe('0');
  // Rows drawn after the sideways scroll are pinned as well.
  await grid(page).evaluate((scroll) => (scroll.scrollTop = scroll.scrollHeight));
  await cell(page, 59, 0).waitFor();
  await eventually(() => place(59), { ...atStart, sideways: true });
  await shoot(page, 'database-table-pinned-sideways');
  // Back at the start: in place, nothing sticks.
  await grid(page).evaluate((scroll) => (scroll.scrollLeft = 0));
  await eventually(() => place(59), atStart);
  // The gutter's check (drawn by CSS, a role=checkbox) checks the row and offers the bulk bar.
  const check = page.locator('.db-row[data-row="59"] [data-check]');
  await page.locator('.db-row[data-row="59"] [data-col="1"]').hover();
  await check.click();
  await expect(check.getAttribute('aria-checked')).resolves.toBe('true');
  await page.getByRole('toolbar', { name: 'Выбрана 1 строка' }).waitFor();
  await check.scrollIntoViewIfNeeded();
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'database-table-row-checked-dark');
  await page.context().close();
});

it('in a long table the editor opens on the cell it edits: a new row made below the fold, and the last row reached by the keyboard', async () => {
  const { page, holderId } = await withRows(
    'table.long.edit@example.com',
    'Длинная',
    Array.from({ length: 80 }, (_, i) => `Строка ${i}`),
  );
  await page.goto(`${suite.server.url}/${holderId}`);
  await cell(page, 0, 0).waitFor();
  /** The editor's top against its cell's (the editor is drawn over the cell it edits). */
  const offset = (row: number) =>
    page.evaluate((r) => {
      const target = document.querySelector(`.db-scroll [data-row="${r}"] [data-col="0"]`)!.getBoundingClientRect();
      const floating = document.querySelector('.db-editor')!.getBoundingClientRect();
      return Math.round(Math.abs(floating.top - target.top) + Math.abs(floating.left - target.left));
    }, row);
  // «Новая строка»: the row is made past the rows drawn, the grid scrolls to it, the editor opens there.
  await page.getByRole('button', { name: /Новая строка/ }).click();
  await editor(page).waitFor();
  await cell(page, 80, 0).waitFor();
  await eventually(() => offset(80), 0);
  await page.keyboard.type('Восемьдесят');
  await page.keyboard.press('Enter');
  await editor(page).waitFor({ state: 'detached' });
  await eventually(() => text(cell(page, 80, 0)), 'Восемьдесят');
  // Back to the top, then Ctrl+↓ to the last row (scrolled to) and Enter: the editor is on it.
  await cell(page, 80, 0).click();
  await page.keyboard.press('Control+ArrowUp');
  await eventually(() => grid(page).evaluate((g) => g.scrollTop), 0);
  await page.keyboard.press('Control+ArrowDown');
  await page.keyboard.press('Enter');
  await editor(page).waitFor();
  await eventually(() => offset(80), 0);
  await page.keyboard.press('Escape');
  await page.context().close();
});
