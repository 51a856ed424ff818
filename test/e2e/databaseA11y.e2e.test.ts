import type { Page } from 'playwright-core';
import { databaseWithViews } from '../helpers/a11yContent';
import { axeViolations } from '../helpers/axe';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';
import { cookieOf } from '../helpers/browser';
import { fetchJson } from '../helpers/serverProcess';

/*
 * The database screens against axe-core's WCAG 2.2 A/AA rules (issue 37): the table, board,
 * calendar, timeline and chart views and a row page, light and dark, at 1280 and 375 px.
 */

const suite = browserSuite({ timeoutMs: 120_000 });
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
  const { holderId, rowId } = await databaseWithViews(suite.server.url, await cookieOf(page));
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

it('a grouped table numbers its group headers and rows as drawn (aria-rowindex within aria-rowcount), and passes axe', async () => {
  const page = await suite.signedIn('db.axe.grouped@example.com');
  const cookie = await cookieOf(page);
  const { holderId } = await databaseWithViews(suite.server.url, cookie);
  const blocks = await fetchJson<{ data: Array<{ id: string }> }>(`${suite.server.url}/api/v3/spaces/note/${holderId}/blocks`, { cookie });
  await fetchJson(`${suite.server.url}/api/v3/spaces/database/${blocks.data[0].id}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { uid: 'grouped', type: 'table', name: 'По статусу', orderedFields: [], groupBy: { fieldId: 'stage' } } }),
  });
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.getByRole('tab', { name: /По статусу/ }).click();
  await page.locator('.db-scroll .db-group').first().waitFor();
  await page.locator('.db-scroll .db-row').first().waitFor();
  const rows = await page.locator('.db-scroll[role="grid"]').evaluate((grid) => ({
    count: Number(grid.getAttribute('aria-rowcount')),
    drawn: [...grid.querySelectorAll('[role="row"]')]
      .map((row) => ({
        index: Number(row.getAttribute('aria-rowindex')),
        kind: row.classList.contains('db-group') ? 'group' : row.classList.contains('db-row') ? 'row' : 'other',
        top: row.getBoundingClientRect().top,
      }))
      .sort((a, b) => a.index - b.index),
  }));
  // Two groups of one row each, the column headers and the footer: 1 header, 4 items, 1 footer.
  expect(rows.count).toBe(6);
  expect(rows.drawn.map((r) => [r.index, r.kind])).toEqual([
    [1, 'other'],
    [2, 'group'],
    [3, 'row'],
    [4, 'group'],
    [5, 'row'],
    [6, 'other'],
  ]);
  // Numbered in the order they are drawn, top to bottom.
  const tops = rows.drawn.slice(1, -1).map((r) => r.top);
  expect(tops).toEqual([...tops].sort((a, b) => a - b));
  expect(await axeViolations(page, { include: ['.db', '.db-sink'] })).toEqual([]);
});
