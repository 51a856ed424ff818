import type { Page } from 'playwright-core';
import { eventually, saved, signedInEditorSuite } from '../helpers/editorPage';

/*
 * A linked view (a page of type WidgetView) in real Chromium against the real server (SQLite):
 * made from a database view's tab menu, it shows the source's rows, edits them (the source sees
 * the edit, and the linked view sees the source's edits live), links back to the source, and
 * says so in words once the source's database is gone.
 */

jest.setTimeout(90_000);

const suite = signedInEditorSuite('linked-view@example.com');

const pageIdOf = (page: Page) => new URL(page.url()).pathname.slice(1);
const cell = (page: Page, row: number, col: number) => page.locator(`.db-scroll [data-row="${row}"] [data-col="${col}"]`);
const titles = (page: Page) => page.locator('.db-scroll .db-row [data-col="0"]').evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));
const cellWrite = (page: Page) => page.waitForResponse((r) => /\/cells\//.test(r.url()) && r.request().method() === 'POST');

/** The page as the server has it, read with the tab's own session. */
const serverPage = (page: Page, id: string) =>
  page.evaluate(async (pageId) => {
    const { data } = (await (await fetch(`/api/v3/spaces/element/${pageId}`)).json()) as {
      data: { type: string; title: string; defaultLayoutId: string | null; parentId: string | null; section: string | null };
    };
    return data;
  }, id);

/** Replaces a cell's text: Enter opens its editor (Cyrillic letters come as text input, no key to start an edit with). */
async function typeIntoCell(page: Page, row: number, col: number, value: string): Promise<void> {
  await cell(page, row, col).click();
  await page.keyboard.press('Enter');
  await page.getByLabel('Значение ячейки').waitFor();
  await page.keyboard.press('Control+A');
  const written = cellWrite(page);
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
  await written;
}

it('«Создать связанное представление» makes a page of the view: its rows, edited there and seen in the source, live both ways', async () => {
  const source = await suite.openApp();
  // A Database page from the sidebar's «⌄», titled, with one row.
  await source.getByRole('region', { name: 'Личные' }).getByRole('button', { name: 'Выбрать тип новой страницы' }).click();
  await source.getByRole('menu', { name: 'Создать' }).getByRole('menuitem', { name: 'База данных' }).click();
  await source.waitForURL(/\/[0-9a-f-]{36}$/);
  const sourceId = pageIdOf(source);
  await source.locator('.db-scroll').waitFor();
  await source.locator('[data-slate-editor] h1').click();
  await source.keyboard.type('Покупки');
  await source.getByRole('button', { name: /Новая строка/ }).click();
  await source.getByLabel('Значение ячейки').waitFor();
  await source.keyboard.type('Хлеб');
  await source.keyboard.press('Enter');
  await eventually(() => titles(source), ['Хлеб']);
  await saved(source);

  // The view's tab menu: a linked view beside the source (the same section), opened at once.
  await source.locator('.db-tab.is-active').click();
  await source.getByRole('menu', { name: 'Вид' }).getByRole('menuitem', { name: 'Создать связанное представление' }).click();
  await source.waitForURL((url) => !url.pathname.endsWith(sourceId));
  const linked = source;
  const linkedId = pageIdOf(linked);
  await expect(serverPage(linked, linkedId)).resolves.toMatchObject({ type: 'WidgetView', title: 'Покупки · Таблица', parentId: null, section: 'private' });
  await linked.getByRole('textbox', { name: 'Название страницы' }).waitFor();
  await eventually(() => titles(linked), ['Хлеб']);
  await expect(linked.getByRole('link', { name: /Открыть исходную базу/ }).getAttribute('href')).resolves.toBe(`/${sourceId}`);
  await expect(linked.getByRole('tab').allTextContents()).resolves.toEqual(['▦ Таблица']);
  // The sidebar lists it beside the source.
  await linked.getByRole('region', { name: 'Личные' }).locator(`[data-page-id="${linkedId}"]`).waitFor();

  // An edit in the linked view is an edit of the source's row.
  await typeIntoCell(linked, 0, 0, 'Хлеб ржаной');
  await eventually(() => titles(linked), ['Хлеб ржаной']);

  // The source in another tab shows it; its own edit reaches the open linked view live.
  const other = await suite.openApp();
  await other.goto(new URL(`/${sourceId}`, linked.url()).toString());
  await eventually(() => titles(other), ['Хлеб ржаной']);
  await typeIntoCell(other, 0, 0, 'Молоко');
  await eventually(() => titles(linked), ['Молоко'], 10_000);

  // «Открыть исходную базу» goes to the source.
  await linked.getByRole('link', { name: /Открыть исходную базу/ }).click();
  await linked.waitForURL((url) => url.pathname.endsWith(sourceId));
  await eventually(() => titles(linked), ['Молоко']);

  // The source's database deleted (its page to the trash): the linked view says so instead of a broken screen.
  await other.evaluate(async (id) => {
    await fetch(`/api/v3/spaces/element/${id}`, { method: 'DELETE', headers: { 'x-app-type': 'Web' } });
  }, sourceId);
  await linked.goto(new URL(`/${linkedId}`, linked.url()).toString());
  await linked.getByText('Исходное представление удалено').waitFor();
  await expect(linked.locator('.db-scroll').count()).resolves.toBe(0);
  await Promise.all([linked.close(), other.close()]);
});

it('a data page (Widget) opens with its database full width, as a Database page does', async () => {
  const page = await suite.openApp();
  const made = await page.evaluate(async () => {
    const res = await fetch('/api/v3/spaces/section/private', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-type': 'Web' },
      body: JSON.stringify({ type: 'Widget', title: 'Данные', defaultLayoutId: crypto.randomUUID() }),
    });
    return ((await res.json()) as { data: { id: string } }).data.id;
  });
  await page.goto(new URL(`/${made}`, page.url()).toString());
  await page.locator('.page.is-database .db.is-fill .db-scroll').waitFor();
  await expect(page.getByRole('tab').allTextContents()).resolves.toEqual(['▦ Таблица']);
  await page.close();
});
