import type { Page } from 'playwright-core';
import { axeViolations } from '../helpers/axe';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * The database screens against axe-core's WCAG 2.2 A/AA rules (issue 37): the table, board,
 * calendar, timeline and chart views and a row page, light and dark, at 1280 and 375 px.
 */

const suite = browserSuite({ timeoutMs: 120_000 });
const S = () => `${suite.server.url}/api/v3/spaces`;

const now = new Date();
const day = (d: number) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** A Database page with a status, a date, a number and a checkbox field, rows, and one view of each kind (made through the API). */
async function databaseWithViews(page: Page) {
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Проект' }),
  });
  const block = (
    await fetchJson<{ data: Array<{ id: string; data: { view: { layouts: Array<{ uid: string }> } } }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })
  ).data[0];
  const db = block.id;
  const fields = {
    stage: {
      name: 'Статус',
      type: 'status',
      options: [
        { id: 'todo', name: 'Сделать', color: 'gray', group: 'todo' },
        { id: 'done', name: 'Готово', color: 'green', group: 'done' },
      ],
    },
    due: { name: 'Срок', type: 'date' },
    cost: { name: 'Цена', type: 'number' },
    ok: { name: 'Проверено', type: 'checkbox' },
  };
  for (const [id, field] of Object.entries(fields))
    await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id, field }) });
  const rows = (
    await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/database/${db}/rows`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({
        rows: [
          { title: 'Макет', values: { stage: 'todo', due: day(10), cost: 120, ok: true } },
          { title: 'Вёрстка', values: { stage: 'done', due: day(12), cost: 80 } },
        ],
      }),
    })
  ).data;
  const views = [
    { uid: 'board', type: 'board', name: 'Доска', orderedFields: [], groupBy: { fieldId: 'stage' } },
    { uid: 'cal', type: 'calendar', name: 'Календарь', orderedFields: [], calendar: { fieldId: 'due' } },
    { uid: 'line', type: 'timeline', name: 'Хронология', orderedFields: [], timeline: { startFieldId: 'due' } },
    { uid: 'chart', type: 'barChart', name: 'Диаграмма', orderedFields: [], chart: { x: { fieldId: 'stage' }, y: { aggregate: 'count' } } },
  ];
  // The table's footer sums the prices (its figure is in the button's name).
  await fetchJson(`${S()}/database/${db}/views/${block.data.view.layouts[0].uid}`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { calculations: { cost: 'sum' } } }),
  });
  for (const layout of views) await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout }) });
  return { holderId: holder.data.id, rowId: rows[0].id };
}

const SCREENS = ['Таблица', 'Доска', 'Календарь', 'Хронология', 'Диаграмма'] as const;
const READY: Record<(typeof SCREENS)[number], string> = {
  Таблица: '.db-scroll .db-row',
  Доска: '.db-card',
  Календарь: '.db-calendar .fc-event',
  Хронология: '.db-timeline-item',
  Диаграмма: '.db-chart svg',
};

/** The violations in light and then in dark (the app follows the system's scheme as it changes), each screenshot taken. */
async function inBothSchemes(page: Page, name: string, include: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator(`html[data-theme="${scheme}"]`).waitFor();
    await shoot(page, `db-a11y-${name}-${scheme}-${page.viewportSize()?.width}`);
    found.push(...(await axeViolations(page, { include })).map((v) => `${name}, ${scheme}: ${v}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

it.each([1280, 375])('the database views and a row page pass axe-core (WCAG 2.2 A/AA), light and dark at %i px', async (width) => {
  const page = await suite.signedIn(`db.axe.${width}@example.com`);
  await page.setViewportSize({ width, height: 900 });
  const { holderId, rowId } = await databaseWithViews(page);
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll .db-row').first().waitFor();
  const found: string[] = [];
  for (const name of SCREENS) {
    const tab = page.getByRole('tab', { name: new RegExp(name) });
    // A click on the tab shown opens its menu.
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    await page.getByRole('tab', { name: new RegExp(name), selected: true }).waitFor();
    await page.locator(READY[name]).first().waitFor();
    // The table with an active cell (the keyboard target naming it).
    if (name === 'Таблица') await page.locator('.db-scroll [data-row="0"] [data-col="0"]').click();
    found.push(...(await inBothSchemes(page, name, ['.db', '.db-sink'])));
    if (name === 'Таблица') {
      // The filter and sort bar, open.
      await page.getByRole('button', { name: 'Фильтр и сортировка' }).click();
      await page.locator('.db-filterbar').waitFor();
      found.push(...(await inBothSchemes(page, 'Таблица с фильтрами', ['.db'])));
      await page.getByRole('button', { name: 'Фильтр и сортировка' }).click();
    }
    if (name === 'Календарь') {
      // A week too.
      await page.getByRole('button', { name: 'Неделя' }).click();
      await page.locator('.db-calendar .fc-timegrid').waitFor();
      found.push(...(await inBothSchemes(page, 'Календарь, неделя', ['.db'])));
    }
  }
  await page.goto(`${suite.server.url}/${rowId}`);
  await page.locator('.db-row-fields').waitFor();
  await page.locator('.page[aria-busy="false"]').waitFor();
  found.push(...(await inBothSchemes(page, 'row page', ['.db-row-fields'])));
  expect(found).toEqual([]);
});
