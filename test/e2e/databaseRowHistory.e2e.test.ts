import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * A row's property changes (issue 34 §2, docs/history.md «A row's property changes») in real
 * Chromium against the real server (SQLite): a status cell changed twice in the grid, the row's
 * page's «История версий» lists both changes, and «Вернуть» on the older one writes its earlier
 * value back — the grid, open in another tab, shows it live, and a change made there meanwhile
 * appears in the open panel. Every change is its own entry here
 * (HISTORY_CELL_BURST_MS 0): the two changes come seconds apart.
 */

const suite = browserSuite({ env: { HISTORY_CELL_BURST_MS: '0' } });

const cell = (page: Page, row: number, col: number) => page.locator(`.db-scroll [data-row="${row}"] [data-col="${col}"]`);
const titles = (page: Page) => page.locator('.db-scroll .db-row [data-col="0"]').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));

/** Picks a status in the grid: the cell opened with Enter, the option clicked. */
async function pickStatus(page: Page, name: string) {
  await cell(page, 0, 1).click();
  await page.keyboard.press('Enter');
  const list = page.getByRole('listbox', { name: 'Статус' });
  await list.getByRole('option', { name }).dispatchEvent('mousedown');
  await list.waitFor({ state: 'detached' });
}

it("a status changed twice in the grid: the row page's «История версий» lists both; «Вернуть» on the older brings «Не начато» back, live in the grid", async () => {
  const page = await suite.signedIn('rowhistory.anna@example.com');
  const cookie = await cookieOf(page);
  const S = `${suite.server.url}/api/v3/spaces`;
  const call = <T>(method: string, path: string, body?: unknown) =>
    fetchJson<T>(`${S}/${path}`, { method, cookie, body: body === undefined ? undefined : JSON.stringify(body) });
  const me = (await fetchJson<{ data: { id: string } }>(`${suite.server.url}/api/user/current`, { cookie })).data.id;
  await fetchJson(`${suite.server.url}/api/user`, { method: 'POST', cookie, body: JSON.stringify({ id: me, name: 'Анна' }) });
  const holder = (await call<{ data: { id: string } }>('POST', 'section/private', { type: 'Database', title: 'Задачи' })).data.id;
  const db = (await call<{ data: Array<{ id: string }> }>('GET', `note/${holder}/blocks`)).data[0].id;
  await call('POST', `database/${db}/fields`, {
    id: 'status',
    field: {
      name: 'Статус',
      type: 'status',
      options: [
        { id: 'todo', name: 'Не начато', group: 'todo', color: 'gray' },
        { id: 'doing', name: 'В работе', group: 'inProgress', color: 'blue' },
        { id: 'done', name: 'Готово', group: 'done', color: 'green' },
      ],
    },
  });
  const [row] = (await call<{ data: Array<{ id: string }> }>('POST', `database/${db}/rows`, { rows: [{ title: 'Макет', values: { status: 'todo' } }] })).data;
  const stored = async () => (await call<{ data: { data: { values: Record<string, unknown> } } }>('GET', `row/${row.id}`)).data.data.values.status;

  await page.goto(`${suite.server.url}/${holder}`);
  await eventually(() => titles(page), ['Макет']);
  await pickStatus(page, 'В работе');
  await eventually(stored, 'doing');
  await pickStatus(page, 'Готово');
  await eventually(stored, 'done');
  await expect(cell(page, 0, 1).textContent()).resolves.toBe('Готово');

  // The row's own page, in another tab; the grid stays open in the first.
  const rowPage = await page.context().newPage();
  await rowPage.setViewportSize({ width: 1280, height: 900 });
  await rowPage.goto(`${suite.server.url}/${row.id}`);
  await rowPage.getByLabel('Поля строки').waitFor();
  await rowPage.getByRole('button', { name: 'Действия со страницей' }).click();
  await rowPage.getByRole('menuitem', { name: 'История версий' }).click();
  const dialog = rowPage.getByRole('dialog', { name: 'История версий' });
  const changes = dialog.locator('.history-change');
  await eventually(() => changes.count(), 2);
  const lines = () => dialog.locator('.history-change-line').allTextContents();
  const [newer, older] = await lines();
  // The time alone (the day is the heading over them), with its seconds when both fall in one minute.
  expect(newer).toMatch(/^Анна · Статус: В работе → Готово · \d\d:\d\d(:\d\d)?$/);
  expect(older).toMatch(/^Анна · Статус: Не начато → В работе · \d\d:\d\d(:\d\d)?$/);
  // «Вернуть» shows on hover.
  const restore = changes.nth(1).getByRole('button', { name: 'Вернуть' });
  await expect(restore.isVisible()).resolves.toBe(false);
  await changes.nth(1).hover();
  await expect(restore.isVisible()).resolves.toBe(true);
  await shoot(rowPage, 'row-history-1280');
  await rowPage.emulateMedia({ colorScheme: 'dark' });
  await shoot(rowPage, 'row-history-1280-dark');
  await rowPage.emulateMedia({ colorScheme: 'light' });
  await restore.click();
  await rowPage.getByText('Значение «Статус» возвращено. Изменение осталось в истории').waitFor();
  await eventually(stored, 'todo');
  // The restore is the newest entry; the grid in the other tab shows «Не начато» without a reload.
  await eventually(() => changes.count(), 3);
  expect((await lines())[0]).toMatch(/^Анна · Статус: Готово → Не начато · /);
  await eventually(() => cell(page, 0, 1).textContent(), 'Не начато');
  // The row's fields on its page have it too (behind the panel).
  await eventually(
    () =>
      rowPage
        .getByLabel('Поля строки')
        .innerText()
        .then((text) => text.includes('Не начато')),
    true,
  );
  await shoot(rowPage, 'row-history-restored-1280');
  // A change made in the grid while the panel is open appears in it.
  await page.bringToFront();
  await pickStatus(page, 'Готово');
  await rowPage.bringToFront();
  await eventually(() => changes.count(), 4);
  expect((await lines())[0]).toMatch(/^Анна · Статус: Не начато → Готово · /);
  await rowPage.setViewportSize({ width: 375, height: 800 });
  await shoot(rowPage, 'row-history-375');
  await page.context().close();
});
