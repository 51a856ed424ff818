import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson, namedTeam } from '../helpers/serverProcess';
import { cookieOf, holdNextAnswer } from '../helpers/browser';
import { axeViolations } from '../helpers/axe';
import { TAGS_FIELD } from '../helpers/databaseFixtures';

/*
 * The Board view of a database (issue 17) in real Chromium against the real server: added from
 * the «+» after the tabs, its columns the options of a status field, cards dragged to another
 * column (before a card, or to a column's end) and saved as one move, seen in a second window,
 * a card made in a column, a column folded — and a reader who can look but not move; a board by
 * a person field (a column per person, a card moved to another person), covers on cards, and
 * cards moved with the keyboard.
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

/** A Database page with a status field and rows, made through the API. */
async function boardData(page: Page, title: string, rows: Array<[string, string | null]>) {
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'stage', field: STATUS }) });
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: rows.map(([name, stage]) => ({ title: name, values: stage ? { stage } : {} })) }),
  });
  const serverRows = async () =>
    (await fetchJson<{ data: Array<{ data: { title: string; values: { stage?: string } } }> }>(`${S()}/database/${db}/rows`, { cookie })).data.map((r) => [
      r.data.title,
      r.data.values.stage ?? null,
    ]);
  return { cookie, holderId: holder.data.id, db, ids: Object.fromEntries(made.data.map((r) => [r.data.title, r.id])), serverRows };
}

const column = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true }).and(page.locator('.db-board-column'));
const cardsIn = (page: Page, name: string) => column(page, name).locator('.db-card-title').allTextContents();
const moveSaved = (page: Page) => page.waitForResponse((r) => /\/rows\/move$/.test(r.url()) && r.request().method() === 'POST');

/**
 * Drags the card `title` (of the column `source`, when it is in several) with the mouse, step by
 * step, onto `target`'s upper half (a card; of the column `in`, likewise) or into a column's free space.
 */
async function dragCard(page: Page, title: string, target: { card: string; in?: string } | { column: string }, source?: string): Promise<void> {
  const card = (source ? column(page, source) : page).locator('.db-card', { hasText: title });
  // The board scrolls sideways: the card is brought into view first (its column may be off to the right).
  await card.scrollIntoViewIfNeeded();
  const from = (await card.boundingBox())!;
  // Onto a card's upper half (it says so: is-drop-before), or into a column's free space (is-over).
  const [over, marker] =
    'card' in target
      ? [(target.in ? column(page, target.in) : page).locator('.db-card', { hasText: target.card }), 'is-drop-before']
      : [column(page, target.column).locator('.db-board-cards'), 'is-over'];
  const box = (await over.boundingBox())!;
  const [x, y] = 'card' in target ? [box.x + box.width / 2, box.y + 6] : [box.x + box.width / 2, box.y + box.height - 10];
  await page.mouse.move(from.x + 20, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 30, from.y + from.height / 2 + 10, { steps: 4 });
  await page.mouse.move(x, y, { steps: 10 });
  // Playwright's drag sends the last move's dragover only with the next move.
  await page.mouse.move(x + 1, y);
  await page.mouse.move(x + 2, y);
  await eventually(() => over.getAttribute('class').then((c) => c?.includes(marker)), true);
  await page.mouse.up();
}

it("a board added from «+»: columns by status with their cards; a card dragged before another card and to a column's end, saved in one call and seen in another window; a new card; a folded column", async () => {
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
  await eventually(
    () => page.locator('.db-board-column').evaluateAll((all) => all.map((c) => c.getAttribute('aria-label'))),
    ['Сделать', 'В работе', 'Готово', 'Без значения'],
  );
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
  // The rows' own order (the Table view's) is as it was: the drag was the board's (docs/api/databases.md «Order per view»).
  expect(await serverRows()).toEqual([
    ['Макет', 'todo'],
    ['Тексты', 'doing'],
    ['Вёрстка', 'doing'],
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
  await eventually(
    () =>
      page
        .getByRole('tab')
        .allTextContents()
        .then((all) => all.map((t) => t.replace(/^[▦▥]\s*/, '').trim())),
    ['Таблица', 'Доска', 'Доска (копия)'],
  );
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

/** The titles of the Table view's rows, top to bottom. */
const tableTitles = (page: Page) => page.locator('.db-scroll .db-row [data-col="0"]').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));

it("a card dragged on the board leaves the Table view's order as it was (issue 34 §2, order per view): after a reload too, and the board keeps its own", async () => {
  const page = await signedIn('board.order@example.com');
  const { cookie, holderId, db } = await boardData(page, 'Два порядка', [
    ['Альфа', 'todo'],
    ['Бета', 'todo'],
    ['Вега', 'todo'],
    ['Гамма', 'doing'],
  ]);
  await fetchJson(`${S()}/database/${db}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      layout: { uid: 'own-board', type: 'board', name: 'Доска', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }], groupBy: { fieldId: 'stage' } },
    }),
  });
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => tableTitles(page), ['Альфа', 'Бета', 'Вега', 'Гамма']);
  await page.getByRole('tab', { name: /Доска/ }).click();
  await eventually(() => cardsIn(page, 'Сделать'), ['Альфа', 'Бета', 'Вега']);

  // «Вега» dragged before «Альфа», within its column: saved as a move of the board's own order.
  const saved = moveSaved(page);
  await dragCard(page, 'Вега', { card: 'Альфа' });
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(answer.request().postDataJSON()).toEqual({ ids: [expect.any(String)], placeBefore: expect.any(String), viewId: 'own-board' });
  await eventually(() => cardsIn(page, 'Сделать'), ['Вега', 'Альфа', 'Бета']);

  // The Table view: as it was.
  await page.getByRole('tab', { name: /Таблица/ }).click();
  await eventually(() => tableTitles(page), ['Альфа', 'Бета', 'Вега', 'Гамма']);
  await page.reload();
  await eventually(() => tableTitles(page), ['Альфа', 'Бета', 'Вега', 'Гамма']);
  await page.getByRole('tab', { name: /Доска/ }).click();
  await eventually(() => cardsIn(page, 'Сделать'), ['Вега', 'Альфа', 'Бета']);
  await shoot(page, 'database-board-own-order-1280');
  await page.context().close();
});

it('a reader sees the board but moves and adds nothing; a board without a status, select or checkbox field asks for one', async () => {
  const owner = await signedIn('board.owner@example.com');
  const { cookie, holderId, db } = await boardData(owner, 'Общая доска', [['Первая', 'todo']]);
  await fetchJson(`${S()}/database/${db}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      layout: { uid: 'b1', type: 'board', name: 'Доска', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }], groupBy: { fieldId: 'stage' } },
    }),
  });
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
  await owner.getByText('Колонки доски — значения поля «Статус», «Выбор», «Флажок» или «Люди».', { exact: false }).waitFor();
  await owner.context().close();
});

/** A key that moves the focused card, pressed: its one move saved. */
async function moveByKey(page: Page, key: string): Promise<void> {
  const saved = moveSaved(page);
  await page.keyboard.press(key);
  expect((await saved).status()).toBe(200);
}

/** A 1×1 PNG (a cover's picture). */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

it("a board by a person field: a column per person by name, a card of two people in both; dropped in another's column it is that person's alone; a cover picture tops a card", async () => {
  const page = await signedIn('board.yana@example.com');
  const cookie = await cookieOf(page);
  const url = suite.server.url;
  // Three people of one workspace, named in another order than their e-mails.
  const { ids: people, workspace } = await namedTeam(suite.server, [
    ['board.yana@example.com', 'Яна', cookie],
    ['board.boris@example.com', 'Борис'],
    ['board.anna@example.com', 'Анна'],
  ]);
  const headers = { 'x-workspace-id': workspace };
  const holder = (
    await fetchJson<{ data: { id: string } }>(`${S()}/section/all`, {
      method: 'POST',
      cookie,
      headers,
      body: JSON.stringify({ type: 'Database', title: 'Люди' }),
    })
  ).data.id;
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder}/blocks`, { cookie, headers })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ id: 'owner', field: { name: 'Ответственные', type: 'person' } }),
  });
  await fetchJson(`${S()}/database/${db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ id: 'shots', field: { name: 'Картинки', type: 'files' } }),
  });
  const rows: Array<[string, string[]]> = [
    ['Макет', ['Яна', 'Борис']],
    ['Тексты', ['Борис']],
    ['Сборка', ['Анна']],
    ['Идея', []],
    ['Вёрстка', ['Анна']],
  ];
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: rows.map(([title, who]) => ({ title, values: who.length ? { owner: who.map((name) => people[name]) } : {} })) }),
  });
  const ids = Object.fromEntries(made.data.map((r) => [r.data.title, r.id]));
  // A picture uploaded to «Макет»'s page and put in its files cell.
  const form = new FormData();
  form.append('pageId', ids['Макет']);
  form.append('file', new Blob([Buffer.from(PNG, 'base64')], { type: 'image/png' }), 'обложка.png');
  const uploaded = await fetch(`${url}/api/file/page`, { method: 'POST', body: form, headers: { cookie } });
  const fileId = ((await uploaded.json()) as { data: { data: string } }).data.data;
  await fetchJson(`${S()}/row/${ids['Макет']}/cells/shots`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ value: [{ id: fileId, name: 'обложка.png' }], version: 0 }),
  });
  // The board is the page's first view, its covers from «Картинки».
  const board = {
    uid: 'pb',
    type: 'board',
    name: 'По людям',
    orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }],
    groupBy: { fieldId: 'owner' },
    cover: { fieldId: 'shots' },
  };
  await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout: board, placeAfter: null }) });
  const owners = async () =>
    Object.fromEntries(
      (await fetchJson<{ data: Array<{ data: { title: string; values: { owner?: string[] } } }> }>(`${S()}/database/${db}/rows`, { cookie })).data.map((r) => [
        r.data.title,
        (r.data.values.owner ?? []).map((id) => Object.keys(people).find((name) => people[name] === id)),
      ]),
    );

  // What the board asks for, in order: its groups, then each column's rows.
  const reads: string[] = [];
  page.on('request', (r) => {
    const address = new URL(r.url());
    if (address.pathname.endsWith('/groups')) reads.push('groups');
    else if (address.pathname.endsWith('/rows') && r.method() === 'GET') reads.push(JSON.parse(address.searchParams.get('group') ?? '"?"') ?? 'null');
  });
  await page.goto(`${url}/${holder}`);
  await eventually(
    () => page.locator('.db-board-column').evaluateAll((all) => all.map((c) => c.getAttribute('aria-label'))),
    ['Анна', 'Борис', 'Яна', 'Без значения'],
  );
  await eventually(() => cardsIn(page, 'Анна'), ['Сборка', 'Вёрстка']);
  await eventually(() => cardsIn(page, 'Борис'), ['Макет', 'Тексты']);
  await eventually(() => cardsIn(page, 'Яна'), ['Макет']);
  expect(await cardsIn(page, 'Без значения')).toEqual(['Идея']);
  // Nothing asked early (a person board's columns come from its groups): the groups first, then each column once
  // (all are read again once the page joins its live channel, as every view is).
  expect(reads.slice(0, 5)).toEqual(['groups', people['Анна'], people['Борис'], people['Яна'], 'null']);
  // The header: the person's initial and name.
  expect(await column(page, 'Анна').locator('.db-board-column-head .avatar').textContent()).toBe('А');

  // The cover: the picture, lazily loaded, of a fixed height, on «Макет» only (in both its columns).
  const cover = column(page, 'Борис').locator('.db-card', { hasText: 'Макет' }).locator('img.db-card-cover');
  await eventually(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), true);
  expect(await cover.getAttribute('loading')).toBe('lazy');
  expect(Math.round((await cover.boundingBox())!.height)).toBe(132);
  expect(await column(page, 'Яна').locator('img.db-card-cover').count()).toBe(1);
  expect(await column(page, 'Борис').locator('.db-card', { hasText: 'Тексты' }).locator('img').count()).toBe(0);
  // The card below the covered one is placed below it (heights measured with the cover).
  const [covered, next] = await Promise.all(
    ['Макет', 'Тексты'].map(async (title) => (await column(page, 'Борис').locator('.db-card', { hasText: title }).boundingBox())!),
  );
  expect(next.y).toBeGreaterThanOrEqual(covered.y + covered.height);
  await shoot(page, 'database-board-people-1280');

  // A table grouped by the same field: a group per list of people as stored, named by their names.
  const table = {
    uid: 'pt',
    type: 'table',
    name: 'Таблица людей',
    orderedFields: [
      { fieldId: 'MAIN_FIELD', isWrap: false },
      { fieldId: 'owner', isWrap: false },
    ],
    groupBy: { fieldId: 'owner' },
  };
  await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout: table }) });
  await page.getByRole('tab', { name: /Таблица людей/ }).click();
  const groupNames = () => page.locator('.db-group-label').evaluateAll((all) => all.map((g) => (g.textContent ?? '').replace(/\s*\d+$/, '').trim()).sort());
  await eventually(groupNames, ['Анна', 'Борис', 'Яна, Борис', 'Без значения'].sort());
  await page.getByRole('tab', { name: /По людям/ }).click();
  await eventually(() => cardsIn(page, 'Яна'), ['Макет']);

  // «Тексты» from Борис to before «Вёрстка» in Анна's column: Анна's alone now.
  let saved = moveSaved(page);
  await dragCard(page, 'Тексты', { card: 'Вёрстка' });
  expect((await saved).status()).toBe(200);
  await eventually(() => cardsIn(page, 'Анна'), ['Сборка', 'Тексты', 'Вёрстка']);
  await eventually(() => cardsIn(page, 'Борис'), ['Макет']);
  expect((await owners())['Тексты']).toEqual(['Анна']);
  // «Макет» (Яна's and Борис's) from Яна's column to the top of Анна's: it leaves both, and Яна, who has no card left, has no column.
  saved = moveSaved(page);
  await dragCard(page, 'Макет', { card: 'Сборка' }, 'Яна');
  expect((await saved).status()).toBe(200);
  await eventually(() => cardsIn(page, 'Анна'), ['Макет', 'Сборка', 'Тексты', 'Вёрстка']);
  await eventually(() => page.locator('.db-board-column').evaluateAll((all) => all.map((c) => c.getAttribute('aria-label'))), ['Анна', 'Без значения']);
  expect(await owners()).toEqual({ Макет: ['Анна'], Тексты: ['Анна'], Сборка: ['Анна'], Идея: [], Вёрстка: ['Анна'] });
  await page.context().close();
});

it('cards move with the keyboard: Ctrl+Shift+↑ within a column, Ctrl+Shift+→ to the next column (its top), said aloud; arrows move the focus; Enter opens; kept after a reload', async () => {
  const page = await signedIn('board.keys@example.com');
  const { cookie, holderId, db, serverRows } = await boardData(page, 'Клавиши', [
    ['Макет', 'todo'],
    ['Тексты', 'todo'],
    ['Вёрстка', 'doing'],
    ['Сборка', 'doing'],
  ]);
  await fetchJson(`${S()}/database/${db}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      layout: { uid: 'kb', type: 'board', name: 'Доска', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }], groupBy: { fieldId: 'stage' } },
      placeAfter: null,
    }),
  });
  await page.goto(`${suite.server.url}/${holderId}`);
  await eventually(() => cardsIn(page, 'Сделать'), ['Макет', 'Тексты']);
  await eventually(() => cardsIn(page, 'В работе'), ['Вёрстка', 'Сборка']);
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
  // One Tab stop for the board: the first card.
  // The one card in the tab order follows the focus (a render after it: awaited, not read at once).
  await eventually(() => page.locator('.db-card[tabindex="0"]').allTextContents(), ['Макет']);

  // «Тексты» a place up: first of «Сделать», still focused.
  await page.locator('.db-card', { hasText: 'Тексты' }).focus();
  await moveByKey(page, 'Control+Shift+ArrowUp');
  await eventually(() => cardsIn(page, 'Сделать'), ['Тексты', 'Макет']);
  await eventually(focused, 'Тексты');
  await eventually(() => page.locator('.db-board-live').textContent(), 'Карточка «Тексты» — в колонке «Сделать», место 1 из 2');
  // To the next column, at its top.
  await moveByKey(page, 'Control+Shift+ArrowRight');
  await eventually(() => cardsIn(page, 'В работе'), ['Тексты', 'Вёрстка', 'Сборка']);
  await eventually(() => cardsIn(page, 'Сделать'), ['Макет']);
  await eventually(focused, 'Тексты');
  await eventually(() => page.locator('.db-board-live').textContent(), 'Карточка «Тексты» — в колонке «В работе», место 1 из 3');
  // Down it again, a place: after «Вёрстка». Its answer is held back while an arrow moves the
  // focus on: the answer, when it comes, leaves the focus where the arrow put it.
  const answer = await holdNextAnswer(page, '**/rows/move');
  const downSaved = moveSaved(page);
  await page.keyboard.press('Control+Shift+ArrowDown');
  await eventually(() => cardsIn(page, 'В работе'), ['Вёрстка', 'Тексты', 'Сборка']);
  await eventually(focused, 'Тексты');

  // Arrows move the focus (no move): down, then left to the other column.
  await page.keyboard.press('ArrowDown');
  await eventually(focused, 'Сборка');
  answer.release();
  expect((await downSaved).status()).toBe(200);
  await eventually(() => page.locator('.db-board-live').textContent(), 'Карточка «Тексты» — в колонке «В работе», место 2 из 3');
  expect(await focused()).toBe('Сборка');
  await page.keyboard.press('ArrowLeft');
  await eventually(focused, 'Макет');
  // The one card in the tab order follows the focus (a render after it: awaited, not read at once).
  await eventually(() => page.locator('.db-card[tabindex="0"]').allTextContents(), ['Макет']);
  // Enter opens the card.
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByText('Макет').first().waitFor();
  await page.keyboard.press('Escape');

  // The rows' own order (the Table view's) is as it was: the moves were the board's.
  expect(await serverRows()).toEqual([
    ['Макет', 'todo'],
    ['Тексты', 'doing'],
    ['Вёрстка', 'doing'],
    ['Сборка', 'doing'],
  ]);
  await page.reload();
  await eventually(() => cardsIn(page, 'В работе'), ['Вёрстка', 'Тексты', 'Сборка']);
  expect(await cardsIn(page, 'Сделать')).toEqual(['Макет']);
  await page.context().close();
});

it('a board by a multi-select field (issue 38): a column per option, a card of two options in both; dragged from one to another it swaps that option alone', async () => {
  const page = await signedIn('board.tags.e2e@example.com');
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Теги' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'tags', field: TAGS_FIELD }) });
  await fetchJson(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'Макет', values: { tags: ['ux', 'be'] } }, { title: 'Релиз', values: { tags: ['ux'] } }, { title: 'Идея' }] }),
  });
  const board = { uid: 'tb', type: 'board', name: 'По тегам', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }], groupBy: { fieldId: 'tags' } };
  await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout: board, placeAfter: null }) });
  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await eventually(
    () => page.locator('.db-board-column').evaluateAll((all) => all.map((c) => c.getAttribute('aria-label'))),
    ['Дизайн', 'Сервер', 'Проверка', 'Без значения'],
  );
  await eventually(() => cardsIn(page, 'Дизайн'), ['Макет', 'Релиз']);
  await eventually(() => cardsIn(page, 'Сервер'), ['Макет']);
  expect(await cardsIn(page, 'Без значения')).toEqual(['Идея']);
  // «Макет» from «Дизайн» into the empty «Проверка»: «Дизайн» swapped for «Проверка», «Сервер» kept.
  await dragCard(page, 'Макет', { column: 'Проверка' }, 'Дизайн');
  await eventually(() => cardsIn(page, 'Проверка'), ['Макет']);
  await eventually(() => cardsIn(page, 'Дизайн'), ['Релиз']);
  expect(await cardsIn(page, 'Сервер')).toEqual(['Макет']);
  const values = async () =>
    Object.fromEntries(
      (await fetchJson<{ data: Array<{ data: { title: string; values: { tags?: string[] } } }> }>(`${S()}/database/${db}/rows`, { cookie })).data.map((r) => [
        r.data.title,
        r.data.values.tags ?? [],
      ]),
    );
  expect(await values()).toEqual({ Макет: ['be', 'qa'], Релиз: ['ux'], Идея: [] });
  await shoot(page, 'database-board-multiselect-1280');

  // Someone adds «Сервер» to «Релиз» while it is being dragged from «Дизайн» to «Проверка» (their
  // write lands between the drop and its request): the move, made from «Дизайн» alone, is refused
  // at its version and made again from the cell as it is now — «Сервер» stays.
  await page.route(
    '**/rows/move',
    async (route) => {
      const rows = (
        await fetchJson<{ data: Array<{ id: string; data: { title: string }; versions: Record<string, number> }> }>(`${S()}/database/${db}/rows`, { cookie })
      ).data;
      const release = rows.find((r) => r.data.title === 'Релиз')!;
      await fetchJson(`${S()}/row/${release.id}/cells/tags`, {
        method: 'POST',
        cookie,
        body: JSON.stringify({ value: ['ux', 'be'], version: release.versions.tags }),
      });
      await route.continue();
    },
    { times: 1 },
  );
  await dragCard(page, 'Релиз', { card: 'Макет', in: 'Проверка' }, 'Дизайн');
  await eventually(() => values(), { Макет: ['be', 'qa'], Релиз: ['be', 'qa'], Идея: [] });
  await eventually(() => cardsIn(page, 'Проверка'), ['Релиз', 'Макет']);
  await eventually(async () => (await cardsIn(page, 'Сервер')).sort(), ['Макет', 'Релиз']);
  expect(await cardsIn(page, 'Дизайн')).toEqual([]);
});

it('a board by a relation to rows of its own database (issue 38): a column per related row, named by its title; a card moved leaves the row it came from', async () => {
  const page = await signedIn('board.epics.e2e@example.com');
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Эпики' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'epic', field: { name: 'Эпик', type: 'relation' } }) });
  const epics = await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'Поиск' }, { title: 'Вход' }] }),
  });
  const [search, login] = epics.data.map((r) => r.id);
  await fetchJson(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      rows: [
        { title: 'Индекс', values: { epic: [search] } },
        { title: 'Форма', values: { epic: [login, search] } },
      ],
    }),
  });
  const board = { uid: 'eb', type: 'board', name: 'По эпикам', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }], groupBy: { fieldId: 'epic' } };
  await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout: board, placeAfter: null }) });
  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await eventually(
    () => page.locator('.db-board-column').evaluateAll((all) => all.map((c) => c.getAttribute('aria-label'))),
    ['Вход', 'Поиск', 'Без значения'],
  );
  await eventually(() => cardsIn(page, 'Поиск'), ['Индекс', 'Форма']);
  await eventually(() => cardsIn(page, 'Вход'), ['Форма']);
  // «Форма» from «Вход» onto «Индекс» in «Поиск»: it leaves «Вход», stays in «Поиск».
  await dragCard(page, 'Форма', { card: 'Индекс' }, 'Вход');
  await eventually(() => cardsIn(page, 'Поиск'), ['Форма', 'Индекс']);
  const rows = await fetchJson<{ data: Array<{ data: { title: string; values: { epic?: string[] } } }> }>(`${S()}/database/${db}/rows`, { cookie });
  expect(rows.data.find((r) => r.data.title === 'Форма')!.data.values.epic).toEqual([search]);
  await eventually(() => page.locator('.db-board-column').evaluateAll((all) => all.map((c) => c.getAttribute('aria-label'))), ['Поиск', 'Без значения']);
  await shoot(page, 'database-board-relation-1280');
});

it("a board's swimlanes (issue 38): lanes by a select chosen from the columns menu's «Дорожки», the columns' heads once on top and each lane's cells under them; a card dragged into another lane's column gets both values in one move, kept after a reload; a new card in a cell gets both", async () => {
  const page = await signedIn('board.lanes.e2e@example.com');
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Дорожки' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  const team = {
    name: 'Команда',
    type: 'select',
    options: [
      { id: 'web', name: 'Веб', color: 'blue' },
      { id: 'app', name: 'Приложение', color: 'purple' },
    ],
  };
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'stage', field: STATUS }) });
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'team', field: team }) });
  const made = await fetchJson<{ data: Array<{ id: string; data: { title: string } }> }>(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      rows: [
        { title: 'Вход', values: { stage: 'todo', team: 'web' } },
        { title: 'Поиск', values: { stage: 'todo', team: 'app' } },
        { title: 'Push', values: { stage: 'doing', team: 'app' } },
        { title: 'Идея', values: { team: 'web' } },
        { title: 'Архив', values: { stage: 'done' } },
      ],
    }),
  });
  const ids = Object.fromEntries(made.data.map((r) => [r.data.title, r.id]));
  const board = { uid: 'lb', type: 'board', name: 'Доска', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }], groupBy: { fieldId: 'stage' } };
  await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout: board, placeAfter: null }) });
  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await eventually(
    () => page.locator('.db-board-column').evaluateAll((all) => all.map((c) => c.getAttribute('aria-label'))),
    ['Сделать', 'В работе', 'Готово', 'Без значения'],
  );

  // Lanes chosen from the columns' menu: every field lanes can be by, but the columns' own.
  await page.getByRole('button', { name: 'Колонки: Статус' }).click();
  const lanesMenu = page.getByRole('menu').getByRole('group', { name: 'Дорожки' });
  expect(await lanesMenu.getByRole('menuitemradio').allTextContents()).toEqual(['Без дорожек', 'Команда']);
  await lanesMenu.getByRole('menuitemradio', { name: 'Команда' }).click();
  const lanes = () => page.locator('.db-board-lane').evaluateAll((all) => all.map((lane) => lane.getAttribute('aria-label')));
  await eventually(lanes, ['Дорожка «Веб»', 'Дорожка «Приложение»', 'Дорожка «Без значения»']);
  const laneIn = (on: typeof page, name: string) => on.getByRole('region', { name: `Дорожка «${name}»`, exact: true });
  const cellIn = (on: typeof page, laneName: string, columnName: string) =>
    laneIn(on, laneName).getByRole('listitem', { name: columnName, exact: true }).and(on.locator('.db-board-cell'));
  const lane = (name: string) => laneIn(page, name);
  const cell = (laneName: string, columnName: string) => cellIn(page, laneName, columnName);
  const cardsOf = (laneName: string, columnName: string) => cell(laneName, columnName).locator('.db-card-title').allTextContents();
  await eventually(() => cardsOf('Веб', 'Сделать'), ['Вход']);
  await eventually(() => cardsOf('Веб', 'Без значения'), ['Идея']);
  await eventually(() => cardsOf('Приложение', 'Сделать'), ['Поиск']);
  await eventually(() => cardsOf('Приложение', 'В работе'), ['Push']);
  await eventually(() => cardsOf('Без значения', 'Готово'), ['Архив']);
  expect(await cardsOf('Веб', 'Готово')).toEqual([]);
  // The heads once on top, with each column's cards over every lane; the lanes' cells under them, of the same places.
  expect(
    await page.locator('.db-board-heads .db-board-column-head').evaluateAll((all) => all.map((h) => (h as HTMLElement).innerText.replace(/\s+/g, ' ').trim())),
  ).toEqual(['▾ Сделать 2 ×', '▾ В работе 1 ×', '▾ Готово 1 ×', '▾ Без значения 1 ×']);
  const lefts = (selector: string) => page.locator(selector).evaluateAll((all) => all.map((e) => Math.round(e.getBoundingClientRect().left)));
  const heads = await lefts('.db-board-heads > .db-board-column');
  for (const name of ['Веб', 'Приложение', 'Без значения'])
    expect(
      await lane(name)
        .locator('.db-board-cell')
        .evaluateAll((all) => all.map((e) => Math.round(e.getBoundingClientRect().left))),
    ).toEqual(heads);
  expect(await axeViolations(page, {}, page.locator('.db-board'))).toEqual([]);

  // Another window on the same board, to see the move live.
  const other = await page.context().newPage();
  await other.goto(`${suite.server.url}/${holder.data.id}`);
  await eventually(() => cellIn(other, 'Веб', 'Сделать').locator('.db-card-title').allTextContents(), ['Вход']);
  // «Вход» from «Веб»·«Сделать» into the free space of «Приложение»·«Готово»: one move writes the status and the team.
  const source = cell('Веб', 'Сделать').locator('.db-card', { hasText: 'Вход' });
  const from = (await source.boundingBox())!;
  const box = (await cell('Приложение', 'Готово').locator('.db-board-cards').boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height - 10];
  const saved = moveSaved(page);
  await page.mouse.move(from.x + 20, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 30, from.y + from.height / 2 + 10, { steps: 4 });
  await page.mouse.move(x, y, { steps: 10 });
  await page.mouse.move(x + 1, y);
  await page.mouse.move(x + 2, y);
  await eventually(
    () =>
      cell('Приложение', 'Готово')
        .locator('.db-board-cards')
        .getAttribute('class')
        .then((c) => c?.includes('is-over')),
    true,
  );
  await page.mouse.up();
  await eventually(() => cardsOf('Приложение', 'Готово'), ['Вход']);
  expect(await cardsOf('Веб', 'Сделать')).toEqual([]);
  const move = await saved;
  expect(move.status()).toBe(200);
  expect(move.request().postDataJSON().set).toEqual([
    { fieldId: 'stage', value: 'done' },
    { fieldId: 'team', value: 'app' },
  ]);
  const values = async (rowId: string) =>
    (await fetchJson<{ data: { data: { values: Record<string, unknown> } } }>(`${S()}/row/${rowId}`, { cookie })).data.data.values;
  expect(await values(ids['Вход'])).toMatchObject({ stage: 'done', team: 'app' });
  await eventually(() => cardsOf('Приложение', 'Готово'), ['Вход']);
  // The other window: the card left its lane and column for the new ones, without a reload.
  await eventually(() => cellIn(other, 'Приложение', 'Готово').locator('.db-card-title').allTextContents(), ['Вход']);
  await eventually(() => cellIn(other, 'Веб', 'Сделать').locator('.db-card-title').allTextContents(), []);
  await other.close();
  await eventually(() => page.locator('.db-board-heads .db-board-count').allTextContents(), ['1', '1', '2', '1']);

  // A new card in «Веб»·«Готово»: with both values.
  await cell('Веб', 'Готово').getByRole('button', { name: '+ Новая карточка' }).click();
  await page.keyboard.type('Релиз');
  await page.keyboard.press('Enter');
  await eventually(() => cardsOf('Веб', 'Готово'), ['Релиз']);
  const rows = await fetchJson<{ data: Array<{ id: string; data: { title: string; values: Record<string, unknown> } }> }>(`${S()}/database/${db}/rows`, {
    cookie,
  });
  expect(rows.data.find((r) => r.data.title === 'Релиз')!.data.values).toMatchObject({ stage: 'done', team: 'web' });
  await page.keyboard.press('Escape');
  await shoot(page, 'database-board-lanes-1280');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'database-board-lanes-1280-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  // A column hidden: from the heads and from every lane; shown again from the list under the lanes.
  await page.getByRole('button', { name: 'Скрыть колонку «В работе»' }).click();
  await eventually(() => lane('Приложение').locator('.db-board-cell').count(), 3);
  expect(await lefts('.db-board-heads > .db-board-column')).toEqual(
    await lane('Приложение')
      .locator('.db-board-cell')
      .evaluateAll((all) => all.map((e) => Math.round(e.getBoundingClientRect().left))),
  );
  await shoot(page, 'database-board-lanes-hidden-1280');
  await page.getByRole('button', { name: 'Показать колонку «В работе»' }).click();
  await eventually(() => lane('Приложение').locator('.db-board-cell').count(), 4);

  // After a reload: the lanes and the card where it went.
  await page.reload();
  await eventually(lanes, ['Дорожка «Веб»', 'Дорожка «Приложение»', 'Дорожка «Без значения»']);
  await eventually(() => cardsOf('Приложение', 'Готово'), ['Вход']);
  expect(await cardsOf('Веб', 'Сделать')).toEqual([]);
  // The keys move a card within its lane: Ctrl+Shift+→ to the next column's top, said aloud; ← moves the focus back.
  await cell('Приложение', 'Сделать').locator('.db-card', { hasText: 'Поиск' }).focus();
  await moveByKey(page, 'Control+Shift+ArrowRight');
  await eventually(() => cardsOf('Приложение', 'В работе'), ['Поиск', 'Push']);
  expect(await cardsOf('Приложение', 'Сделать')).toEqual([]);
  await eventually(() => page.locator('.db-board-live').textContent(), 'Карточка «Поиск» — в колонке «В работе» дорожки «Приложение», место 1 из 2');
  await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null), 'Поиск');
  expect(await values(ids['Поиск'])).toMatchObject({ stage: 'doing', team: 'app' });
  // A lane folded: its cells gone, kept after a reload; the lanes off again from the menu.
  await lane('Без значения').getByRole('button', { name: 'Свернуть дорожку «Без значения»' }).click();
  await eventually(() => lane('Без значения').locator('.db-board-cell').count(), 0);
  await page.reload();
  await eventually(() => lane('Приложение').locator('.db-board-cell').count(), 4);
  expect(await lane('Без значения').locator('.db-board-cell').count()).toBe(0);
  await page.getByRole('button', { name: 'Колонки: Статус' }).click();
  await page.getByRole('menu').getByRole('group', { name: 'Дорожки' }).getByRole('menuitemradio', { name: 'Без дорожек' }).click();
  await eventually(() => page.locator('.db-board-lane').count(), 0);
  await eventually(async () => (await cardsIn(page, 'Готово')).sort(), ['Архив', 'Вход', 'Релиз']);
  await page.context().close();
});
