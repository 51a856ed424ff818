import type { Page } from 'playwright-core';
import { databaseWithViews } from '../helpers/a11yContent';
import { axeViolations } from '../helpers/axe';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';
import { cookieOf } from '../helpers/browser';

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
