import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';
import { MAIN_FIELD_ID } from '../../schema/blocks/database';

/*
 * Search (issue 18, docs/search.md) in real Chromium against the real server: Ctrl+K opens the
 * finder from a page (with the caret in the editor), the pages opened last before anything is
 * typed, another form of a word finds the page by its text with the words marked and the page's
 * path, ↓ and Enter open it; «Все результаты» opens the results screen, whose filters (the trash)
 * are kept in the address; the sidebar's «Поиск» opens the finder on a phone too.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

async function pageWith(cookie: string, title: string, texts: string[], parentId?: string): Promise<string> {
  const url = parentId ? `${S()}/element/${parentId}/children` : `${S()}/section/private`;
  const made = await fetchJson<{ data: { id: string } }>(url, { method: 'POST', cookie, body: JSON.stringify({ title }) });
  for (const text of texts)
    await fetchJson(`${S()}/block`, { method: 'POST', cookie, body: JSON.stringify({ pageId: made.data.id, type: 'text', data: { tokens: [{ text }] } }) });
  return made.data.id;
}

/** Waits until the server's indexer has what was just written: `q` finds `count` results (the screen asks once, at once). */
async function indexed(cookie: string, q: string, count: number): Promise<void> {
  await eventually(
    async () => (await fetchJson<{ data: unknown[] }>(`${S()}/search/text?q=${encodeURIComponent(JSON.stringify(q))}`, { cookie })).data.length,
    count,
  );
}

const finder = (page: Page) => page.getByRole('dialog', { name: 'Поиск' });
const options = (page: Page) => finder(page).getByRole('option');

it('Ctrl+K from a page: recent pages, then a page found by another form of a word in its text, marked, with its path; Enter opens it; the results screen filters by the trash', async () => {
  const page = await suite.signedIn('search.finder@example.com');
  const cookie = await cookieOf(page);
  const parent = await pageWith(cookie, 'Конференция 2026', ['Общие сведения']);
  const child = await pageWith(cookie, 'Расписание', ['Доклады о программировании и запуске сервисов', 'Кофе-брейк в 11:00'], parent);
  const old = await pageWith(cookie, 'Старые программы', ['Прошлогодние программы докладов']);
  await fetchJson(`${S()}/element/${old}`, { method: 'DELETE', cookie });

  await page.goto(`${suite.server.url}/${parent}`);
  await page.locator('[data-slate-editor] [data-block-id]').nth(1).click();
  await page.keyboard.press('Control+K');
  await finder(page).waitFor();
  // Nothing typed: the pages opened last.
  await eventually(
    () =>
      options(page)
        .allTextContents()
        .then((all) => all.some((text) => text.includes('Конференция 2026'))),
    true,
  );
  // Another form of a word of the text: «докладах» finds «Доклады».
  await page.keyboard.type('докладах');
  await eventually(() => options(page).count(), 2);
  const hit = options(page).first();
  await eventually(() => hit.locator('.search-hit-title').textContent(), 'Расписание');
  expect(await hit.locator('.search-hit-path').textContent()).toBe('Конференция 2026');
  expect(await hit.locator('mark').allTextContents()).toEqual(['Доклады']);
  // The trashed page is not among them.
  expect(await finder(page).textContent()).not.toContain('Старые программы');
  await shoot(page, 'search-finder-1280');
  await page.keyboard.press('Enter');
  // The page opens at the block found, marked a moment; the address keeps only the page.
  await page.locator('[data-block-id].is-found', { hasText: 'Доклады о программировании' }).waitFor();
  await page.waitForURL((url) => url.pathname === `/${child}` && !url.search.includes('block='));
  await expect(finder(page).count()).resolves.toBe(0);

  // Again, and «Все результаты»: the screen with filters; the trash shows the trashed page.
  await page.keyboard.press('Control+K');
  await page.keyboard.type('программы');
  await eventually(() => options(page).count(), 2);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/search\?q=/);
  const results = page.getByRole('list', { name: 'Результаты поиска' });
  await eventually(() => results.locator('.search-hit-title').allTextContents(), ['Расписание']);
  // (A click, not check(): the box follows the address, which a navigation — a transition — changes a moment later.)
  await page.getByLabel('В корзине').click();
  await eventually(() => results.locator('.search-hit-title').allTextContents(), ['Старые программы']);
  expect(page.url()).toContain('trash=1');
  expect(await page.getByLabel('В корзине').isChecked()).toBe(true);
  // The authors one may choose: the workspace's members (the signed-in one alone here).
  await eventually(() => page.getByLabel('Автор').locator('option').allTextContents(), ['Любой', 'search.finder']);
  await shoot(page, 'search-screen-1280');
  await page.reload();
  await eventually(() => results.locator('.search-hit-title').allTextContents(), ['Старые программы']);
  await page.context().close();
});

it('on a phone, in the dark: the sidebar’s «Поиск» opens the finder; nothing found says so', async () => {
  const page = await suite.signedIn('search.phone@example.com');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const cookie = await cookieOf(page);
  await pageWith(cookie, 'Список покупок', ['Молоко, хлеб, йогурт']);
  await page.goto(`${suite.server.url}/`);
  await page.getByRole('button', { name: 'Открыть меню' }).click();
  await page.getByRole('button', { name: /^Поиск/ }).click();
  await finder(page).waitFor();
  await page.keyboard.type('йогурта');
  await eventually(() => options(page).locator('.search-hit-title').allTextContents(), ['Список покупок']);
  await shoot(page, 'search-finder-375-dark');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('ананас');
  await finder(page).getByText('По запросу «ананас» ничего не нашлось').waitFor();
  await page.keyboard.press('Escape');
  await expect(finder(page).count()).resolves.toBe(0);
  await page.context().close();
});

it('the best first in the finder; a database’s rows as one group with «ещё N строк», the rest of them on the results screen', async () => {
  const page = await suite.signedIn('search.rank@example.com');
  const cookie = await cookieOf(page);
  await pageWith(cookie, 'Документы отдела', ['Список']);
  await pageWith(cookie, 'Документооборот', ['Правила']);
  await pageWith(cookie, 'Аудит', ['Подготовка документов к аудиту завершена']);
  const host = await pageWith(cookie, 'Учёт заказов', []);
  const database = await fetchJson<{ data: { id: string } }>(`${S()}/block`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      pageId: host,
      type: 'database',
      data: {
        title: 'orders',
        config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } },
        view: { layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
      },
    }),
  });
  const rows = Array.from({ length: 30 }, (_, i) => ({ title: `Документ по заказу ${i + 1}` }));
  await fetchJson(`${S()}/database/${database.data.id}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows }) });
  // All 30 rows indexed (a loaded machine's indexer takes them in rounds): the finder asks once per query.
  await eventually(
    async () =>
      (
        await fetchJson<{ data: unknown[] }>(
          `${S()}/search/text?q=${encodeURIComponent(JSON.stringify('документ'))}&database=${encodeURIComponent(JSON.stringify(database.data.id))}&limit=50`,
          {
            cookie,
          },
        )
      ).data.length,
    30,
  );

  await page.goto(`${suite.server.url}/${host}`);
  await page.keyboard.press('Control+K');
  await finder(page).waitFor();
  // Both words above one of them: the page holding «документов» and «аудиту» first.
  await page.keyboard.type('документов аудиту');
  await eventually(() => options(page).first().locator('.search-hit-title').textContent(), 'Аудит');
  // One word: the 30 rows are one group, three of them shown, the rest counted.
  await page.keyboard.press('Control+A');
  await page.keyboard.type('документ');
  const group = finder(page).getByRole('group', { name: 'orders' });
  await eventually(() => group.getByRole('option').count(), 4);
  expect(await group.getByRole('option').last().textContent()).toBe('ещё 27 строк в «orders»');
  expect(await group.locator('.search-hit-title').allTextContents()).toHaveLength(3);
  await shoot(page, 'search-finder-rows-1280');
  await group.getByRole('option').last().click();
  // The results screen with that database's rows alone: 20, then the other 10.
  await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('database') === database.data.id);
  const results = page.getByRole('list', { name: 'Результаты поиска' });
  await eventually(() => results.locator('.search-hit-title').count(), 20);
  // Rows alike for the query in their titles' order (numbers as numbers).
  expect((await results.locator('.search-hit-title').allTextContents()).slice(0, 3)).toEqual([
    'Документ по заказу 1',
    'Документ по заказу 2',
    'Документ по заказу 3',
  ]);
  await shoot(page, 'search-screen-rows-1280');
  await page.getByRole('button', { name: 'Показать ещё' }).click();
  await eventually(async () => new Set(await results.locator('.search-hit-title').allTextContents()).size, 30);
  // Everywhere again: the rows come as one result under the database's name.
  await page.getByRole('button', { name: 'Искать везде' }).click();
  await eventually(() => results.getByRole('list', { name: 'orders' }).locator('.search-hit-title').count(), 3);
  expect(await results.getByRole('list', { name: 'orders' }).getByRole('link').last().textContent()).toBe('ещё 27 строк в «orders»');
  await shoot(page, 'search-screen-grouped-1280');
  await page.context().close();
});

it('the results screen: what kind, the order, and the days typed the Russian way, all kept in the address', async () => {
  const page = await suite.signedIn('search.filters@example.com');
  const cookie = await cookieOf(page);
  await pageWith(cookie, 'Марсоход', ['Колёса и солнечные панели']);
  await pageWith(cookie, 'Марсоход второй', ['Запасной']);
  await indexed(cookie, 'марсоход', 2);
  await page.goto(`${suite.server.url}/search?q=${encodeURIComponent('марсоход')}`);
  const results = page.getByRole('list', { name: 'Результаты поиска' });
  // The best match first: the title that is the query.
  await eventually(() => results.locator('.search-hit-title').allTextContents(), ['Марсоход', 'Марсоход второй']);
  // The last edited first.
  await page.getByLabel('Порядок').selectOption('edited');
  await eventually(() => results.locator('.search-hit-title').allTextContents(), ['Марсоход второй', 'Марсоход']);
  expect(page.url()).toContain('sort=edited');
  // Rows of databases: none here.
  await page.getByLabel('Что').selectOption('rows');
  await page.getByText('По запросу «марсоход» ничего не нашлось').waitFor();
  await page.getByLabel('Что').selectOption('pages');
  await eventually(() => results.locator('.search-hit-title').count(), 2);
  // Days typed as people write them here, whatever the browser's language.
  const today = new Date();
  const ru = (d: Date) => `${String(d.getDate()).padStart(2, '0')}.${String(d.getMonth() + 1).padStart(2, '0')}.${d.getFullYear()}`;
  await page.getByLabel('Изменены с').fill(ru(today));
  await eventually(async () => page.url().includes('after='), true);
  await eventually(() => results.locator('.search-hit-title').count(), 2);
  await page.getByLabel('по', { exact: true }).fill('01.01.2020');
  await page.getByText('По запросу «марсоход» ничего не нашлось').waitFor();
  expect(page.url()).toContain('before=2020-01-01');
  // A text that is no date says so and is not taken.
  await page.getByLabel('по', { exact: true }).fill('32.13.2020');
  await page.getByRole('alert').first().waitFor();
  expect(page.url()).toContain('before=2020-01-01');
  await page.getByLabel('по', { exact: true }).fill('');
  await eventually(() => results.locator('.search-hit-title').count(), 2);
  await shoot(page, 'search-filters-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  // On a phone the menu button covers nothing of the heading.
  const menu = await page.getByRole('button', { name: 'Открыть меню' }).boundingBox();
  const heading = await page.getByRole('heading', { name: 'Поиск', level: 1 }).boundingBox();
  expect(heading!.y).toBeGreaterThanOrEqual(menu!.y + menu!.height);
  await shoot(page, 'search-filters-375');
  // A reload keeps them all.
  await page.reload();
  await eventually(() => results.locator('.search-hit-title').allTextContents(), ['Марсоход второй', 'Марсоход']);
  expect(await page.getByLabel('Что').inputValue()).toBe('pages');
  expect(await page.getByLabel('Изменены с').inputValue()).toBe(ru(today));
  await page.context().close();
});

it('a comment found: «Комментарии» keeps to them, the passage says it is a comment, and the result opens the page with the comment shown', async () => {
  const page = await suite.signedIn('search.comments@example.com');
  const cookie = await cookieOf(page);
  const discussed = await pageWith(cookie, 'Планёрка', ['Повестка без сюрпризов']);
  await pageWith(cookie, 'Ламантины', ['Ламантины едят водоросли']);
  const said = await fetchJson<{ data: { id: string } }>(`${S()}/element/${discussed}/comments`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ content: [{ text: 'Обсудим ламантинов в пятницу' }], attaches: [] }),
  });
  await indexed(cookie, 'ламантины', 2);
  await page.goto(`${suite.server.url}/search?q=${encodeURIComponent('ламантины')}`);
  const results = page.getByRole('list', { name: 'Результаты поиска' });
  await eventually(() => results.locator('.search-hit-title').allTextContents(), ['Ламантины', 'Планёрка']);
  await page.getByLabel('Что').selectOption('comments');
  await eventually(() => results.locator('.search-hit-title').allTextContents(), ['Планёрка']);
  expect(page.url()).toContain('kind=comments');
  expect(await results.locator('.search-hit-snippet').textContent()).toBe('Комментарий: Обсудим ламантинов в пятницу');
  expect(await results.locator('mark').allTextContents()).toEqual(['ламантинов']);
  await shoot(page, 'search-comments-1280');
  await results.locator('.search-hit-title').first().click();
  await page.waitForURL(`**/${discussed}?commentId=${said.data.id}`);
  const panel = page.getByRole('complementary', { name: 'Комментарии' });
  await panel.getByText('Обсудим ламантинов в пятницу').waitFor();
  await shoot(page, 'search-comment-opened-1280');
  await page.context().close();
});
