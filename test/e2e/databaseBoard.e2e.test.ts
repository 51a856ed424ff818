import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';

/*
 * The Board view of a database (issue 17) in real Chromium against the real server: added from
 * the «+» after the tabs, its columns the options of a status field, cards dragged to another
 * column (before a card, or to a column's end) and saved as one move, seen in a second window,
 * a card made in a column, a column folded — and a reader who can look but not move.
 */

const suite = browserSuite();
const signedIn = (email: string) => suite.signedIn(email);

const S = () => `${suite.server.url}/api/v3/spaces`;
const STATUS = {
  name: 'Статус',
  type: 'status',
  options: [
    { id: 'todo', name: 'Сделать', color: 'gray', group: 'todo' },
    { id: 'doing', name: 'В работе', color: 'blue', group: 'inProgress' },
    { id: 'done', name: 'Готово', color: 'green', group: 'done' },
  ],
};

const cookieOf = async (page: Page) => (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');

/** A Database page with a status field and rows, made through the API. */
async function boardData(page: Page, title: string, rows: Array<[string, string | null]>) {
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ type: 'Database', title }) });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'stage', field: STATUS }) });
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows: rows.map(([name, stage]) => ({ title: name, values: stage ? { stage } : {} })) }) });
  const serverRows = async () => (await fetchJson<{ data: Array<{ data: { title: string; values: { stage?: string } } }> }>(`${S()}/database/${db}/rows`, { cookie })).data.map((r) => [r.data.title, r.data.values.stage ?? null]);
  return { cookie, holderId: holder.data.id, db, ids: Object.fromEntries(made.data.map((r) => [r.data.title, r.id])), serverRows };
}

const column = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true }).and(page.locator('.db-board-column'));
const cardsIn = (page: Page, name: string) => column(page, name).locator('.db-card-title').allTextContents();
const moveSaved = (page: Page) => page.waitForResponse((r) => /\/rows\/move$/.test(r.url()) && r.request().method() === 'POST');

/** Drags the card `title` with the mouse, step by step, onto `target`'s upper half (a card) or into a column's free space. */
async function dragCard(page: Page, title: string, target: { card: string } | { column: string }): Promise<void> {
  // The board scrolls sideways: the card is brought into view first (its column may be off to the right).
  await page.locator('.db-card', { hasText: title }).scrollIntoViewIfNeeded();
  const from = (await page.locator('.db-card', { hasText: title }).boundingBox())!;
  let x: number;
  let y: number;
  if ('card' in target) {
    const box = (await page.locator('.db-card', { hasText: target.card }).boundingBox())!;
    [x, y] = [box.x + box.width / 2, box.y + 6];
  } else {
    const box = (await column(page, target.column).locator('.db-board-cards').boundingBox())!;
    [x, y] = [box.x + box.width / 2, box.y + box.height - 10];
  }
  await page.mouse.move(from.x + 20, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 30, from.y + from.height / 2 + 10, { steps: 4 });
  await page.mouse.move(x, y, { steps: 10 });
  // Playwright's drag sends the last move's dragover only with the next move.
  await page.mouse.move(x + 1, y);
  await page.mouse.move(x + 2, y);
  if ('card' in target) await eventually(() => page.locator('.db-card', { hasText: target.card }).getAttribute('class').then((c) => c?.includes('is-drop-before')), true);
  else await eventually(() => column(page, target.column).locator('.db-board-cards').getAttribute('class').then((c) => c?.includes('is-over')), true);
  await page.mouse.up();
}

it('a board added from «+»: columns by status with their cards; a card dragged before another card and to a column\'s end, saved in one call and seen in another window; a new card; a folded column', async () => {
  const page = await signedIn('board.mover@example.com');
  const { holderId, serverRows } = await boardData(page, 'Спринт', [
    ['Макет', 'todo'],
    ['Тексты', 'todo'],
    ['Вёрстка', 'doing'],
    ['Сборка', 'doing'],
    ['Идея', null],
  ]);
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll').waitFor();
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Доска' }).click();
  await page.getByRole('tab', { name: /Доска/, selected: true }).waitFor();
  await eventually(() => page.locator('.db-board-column').evaluateAll((all) => all.map((c) => c.getAttribute('aria-label'))), ['Сделать', 'В работе', 'Готово', 'Без значения']);
  await eventually(() => cardsIn(page, 'Сделать'), ['Макет', 'Тексты']);
  await eventually(() => cardsIn(page, 'В работе'), ['Вёрстка', 'Сборка']);
  expect(await cardsIn(page, 'Без значения')).toEqual(['Идея']);
  expect(await column(page, 'Сделать').locator('.db-board-count').textContent()).toBe('2');
  await shoot(page, 'database-board-1280');

  // Another window on the same board.
  const other = await page.context().newPage();
  await other.goto(`${suite.server.url}/${holderId}`);
  await other.getByRole('tab', { name: /Доска/ }).click();
  await eventually(() => cardsIn(other, 'В работе'), ['Вёрстка', 'Сборка']);

  // «Тексты» before «Сборка»: now «В работе», between the two.
  let saved = moveSaved(page);
  await dragCard(page, 'Тексты', { card: 'Сборка' });
  expect((await saved).status()).toBe(200);
  await eventually(() => cardsIn(page, 'В работе'), ['Вёрстка', 'Тексты', 'Сборка']);
  await eventually(() => cardsIn(page, 'Сделать'), ['Макет']);
  expect(await serverRows()).toEqual([
    ['Макет', 'todo'],
    ['Вёрстка', 'doing'],
    ['Тексты', 'doing'],
    ['Сборка', 'doing'],
    ['Идея', null],
  ]);
  await eventually(() => cardsIn(other, 'В работе'), ['Вёрстка', 'Тексты', 'Сборка']);
  await eventually(() => cardsIn(other, 'Сделать'), ['Макет']);

  // «Идея» into the empty «Готово» column's free space: drawn there at once, before the server
  // answers (held back here), and still there after.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/rows/move', async (route) => {
    await held;
    await route.continue();
  });
  saved = moveSaved(page);
  await dragCard(page, 'Идея', { column: 'Готово' });
  await eventually(() => cardsIn(page, 'Готово'), ['Идея']);
  await eventually(() => cardsIn(page, 'Без значения'), []);
  release();
  expect((await saved).status()).toBe(200);
  await page.unroute('**/rows/move');
  await eventually(() => cardsIn(page, 'Готово'), ['Идея']);
  await eventually(() => cardsIn(page, 'Без значения'), []);
  await eventually(() => cardsIn(other, 'Готово'), ['Идея']);

  // A new card at the end of «Сделать».
  await column(page, 'Сделать').getByRole('button', { name: '+ Новая карточка' }).click();
  await page.getByLabel('Название карточки').fill('Тесты');
  const made = page.waitForResponse((r) => /\/rows$/.test(r.url()) && r.request().method() === 'POST');
  await page.getByLabel('Название карточки').press('Enter');
  expect((await made).status()).toBe(201);
  await eventually(() => cardsIn(page, 'Сделать'), ['Макет', 'Тесты']);
  expect((await serverRows()).find(([title]) => title === 'Тесты')).toEqual(['Тесты', 'todo']);

  // A folded column keeps its header and count; unfolded again.
  await column(page, 'В работе').getByRole('button', { name: 'Свернуть группу' }).click();
  await eventually(() => column(page, 'В работе').locator('.db-card').count(), 0);
  expect(await column(page, 'В работе').locator('.db-board-count').textContent()).toBe('3');
  await column(page, 'В работе').getByRole('button', { name: 'Развернуть группу' }).click();
  await eventually(() => cardsIn(page, 'В работе'), ['Вёрстка', 'Тексты', 'Сборка']);

  // A card opens its row beside the board.
  await page.locator('.db-card', { hasText: 'Макет' }).click();
  await page.getByRole('dialog').getByText('Макет').first().waitFor();
  await page.keyboard.press('Escape');

  // The view duplicated from its tab's menu: a board too, right after it, shown.
  await page.getByRole('tab', { name: /Доска/, selected: true }).click();
  await page.getByRole('menuitem', { name: 'Дублировать' }).click();
  await eventually(() => page.getByRole('tab').allTextContents().then((all) => all.map((t) => t.replace(/^[▦▥]\s*/, '').trim())), ['Таблица', 'Доска', 'Доска (копия)']);
  await page.getByRole('tab', { name: /Доска \(копия\)/, selected: true }).waitFor();
  await eventually(() => cardsIn(page, 'Готово'), ['Идея']);

  // A column hidden in the view: gone for everyone (after a reload too), listed at the end, shown again.
  const hid = page.waitForResponse((r) => /\/views\/[^/]+$/.test(r.url()) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Скрыть колонку «Готово»' }).click();
  expect((await hid).status()).toBe(200);
  await eventually(() => column(page, 'Готово').count(), 0);
  await page.reload();
  await page.getByRole('tab', { name: /Доска \(копия\)/ }).click();
  await column(page, 'Сделать').waitFor();
  await expect(column(page, 'Готово').count()).resolves.toBe(0);
  await page.getByRole('button', { name: 'Показать колонку «Готово»' }).click();
  await eventually(() => cardsIn(page, 'Готово'), ['Идея']);
  await expect(page.getByRole('region', { name: 'Скрытые колонки' }).count()).resolves.toBe(0);
  await page.context().close();
});

it('a reader sees the board but moves and adds nothing; a board without a status, select or checkbox field asks for one', async () => {
  const owner = await signedIn('board.owner@example.com');
  const { cookie, holderId, db } = await boardData(owner, 'Общая доска', [['Первая', 'todo']]);
  await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout: { uid: 'b1', type: 'board', name: 'Доска', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }], groupBy: { fieldId: 'stage' } } }) });
  // The reader on a phone, in the dark.
  const reader = await signedIn('board.reader@example.com');
  await reader.setViewportSize({ width: 375, height: 800 });
  await reader.emulateMedia({ colorScheme: 'dark' });
  const readerId = (await fetchJson<{ data: { id: string } }>(`${suite.server.url}/api/user/current`, { cookie: await cookieOf(reader) })).data.id;
  await fetchJson(`${S()}/element/${holderId}/member/add`, { method: 'POST', cookie, body: JSON.stringify([{ userId: readerId, accessLevel: 'read' }]) });
  await reader.goto(`${suite.server.url}/${holderId}`);
  await reader.getByRole('tab', { name: /Доска/ }).click();
  await eventually(() => cardsIn(reader, 'Сделать'), ['Первая']);
  await expect(reader.getByRole('button', { name: '+ Новая карточка' }).count()).resolves.toBe(0);
  await shoot(reader, 'database-board-375-dark');
  // Dragging does nothing: no move is sent.
  const moves: string[] = [];
  reader.on('request', (r) => /\/rows\/move$/.test(r.url()) && moves.push(r.url()));
  const card = (await reader.locator('.db-card', { hasText: 'Первая' }).boundingBox())!;
  const target = (await column(reader, 'Готово').boundingBox())!;
  await reader.mouse.move(card.x + 20, card.y + 10);
  await reader.mouse.down();
  await reader.mouse.move(target.x + 40, target.y + 60, { steps: 10 });
  await reader.mouse.up();
  await reader.waitForTimeout(300);
  expect(moves).toEqual([]);
  expect(await cardsIn(reader, 'Сделать')).toEqual(['Первая']);
  await reader.context().close();

  // The owner's board once its status field is gone: it asks for a field to make columns of.
  await fetchJson(`${S()}/database/${db}/fields/stage`, { method: 'DELETE', cookie });
  await owner.goto(`${suite.server.url}/${holderId}`);
  await owner.getByRole('tab', { name: /Доска/ }).click();
  await owner.getByText('Колонки доски — значения поля «Статус», «Выбор» или «Флажок».', { exact: false }).waitFor();
  await owner.context().close();
});
