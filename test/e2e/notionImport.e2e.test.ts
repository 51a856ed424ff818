import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { browserSuite } from '../helpers/browserSuite';
import { SHOTS_DIR } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * Importing a Notion «Markdown & CSV» export (issue 18, docs/import-export.md «Notion») in real
 * Chromium: «Импорт в эту страницу…» takes Notion's zip (its part zip inside), the project page
 * opens, its database is a Database page in the sidebar, and it opens as a table of its rows.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;
const url = (name: string) => name.split('/').map(encodeURIComponent).join('/');

const PROJECT = 'Ремонт офиса 0f1e2d3c4b5a49688776655443322110';
const TASKS = `${PROJECT}/Задачи 1f2e3d4c5b6a49788776655443322111`;
/** A row's file: its title and its Notion id (32 hex digits, the row's number among them). */
const ROW = (title: string, n: number) => `${TASKS}/${title} 3f4e5d6c7b8a4${n}9a8776655443322113.md`;

/** A small Notion export: a page, its database (view CSV and `_all.csv`) and its rows' files, in a part zip inside the zip. */
async function notionZip(): Promise<string> {
  const rows: Array<[string, string, string, string, string]> = [
    ['Снять замеры', 'Готово', '"November 26, 2026"', 'Yes', '12000'],
    ['Купить краску', 'В работе', '"November 28, 2026"', 'No', '"4,500"'],
    ['Покрасить стены', 'В работе', '"December 1, 2026 → December 3, 2026"', 'No', '30000'],
    ['Повесить полки', 'План', '"December 5, 2026"', 'No', ''],
    ['Убрать мусор', 'План', '"December 6, 2026"', 'No', '2000'],
  ];
  const csv = ['Задача,Статус,Срок,Готово,Бюджет', ...rows.map((r) => r.join(','))].join('\n');
  const files: Record<string, Uint8Array> = {
    [`${PROJECT}.md`]: strToU8(`# Ремонт офиса\n\nПлан работ на декабрь.\n\n[Задачи](${url(`${TASKS}.csv`)})\n`),
    [`${TASKS}.csv`]: strToU8(`\uFEFF${csv}\n`),
    [`${TASKS}_all.csv`]: strToU8(`\uFEFF${csv}\n`),
  };
  rows.forEach(([title, status], n) => (files[ROW(title, n)] = strToU8(`# ${title}\n\nСтатус: ${status}\n\nСм. [план](../../${url(PROJECT)}.md).\n`)));
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'notion-')), 'Export-9b2c.zip');
  await fs.writeFile(file, zipSync({ 'Export-9b2c-Part-1.zip': zipSync(files) }));
  return file;
}

it('«Импорт в эту страницу…» takes a Notion export: the page opens, its database is in the sidebar and opens as a table', async () => {
  const page = await suite.signedIn('notion.import@example.com');
  const cookie = await cookieOf(page);
  const place = (await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Из Notion' }) }))
    .data.id;
  await page.goto(`${suite.server.url}/${place}`);
  await page.locator('[data-slate-editor]').waitFor();
  await page.getByRole('button', { name: 'Действия со страницей' }).click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('menuitem', { name: 'Импорт в эту страницу…' }).click()]);
  await chooser.setFiles(await notionZip());
  await page.locator('.toast', { hasText: 'Импортировано 2 страницы' }).waitFor();
  await page.waitForURL((address) => address.pathname !== `/${place}`);
  await page.locator('[data-slate-editor]', { hasText: 'План работ на декабрь.' }).waitFor();

  // The database is a page of its own under the project, in the sidebar; it opens as a table of the rows.
  await page.getByRole('button', { name: 'Развернуть: Ремонт офиса' }).click();
  const sidebarEntry = page.locator('nav.sidebar .sidebar-page', { hasText: 'Задачи' });
  await sidebarEntry.waitFor();
  await fs.mkdir(SHOTS_DIR, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS_DIR, 'notion-import-page-1280.png') });
  await sidebarEntry.click();
  const titles = page.locator('.db-scroll .db-row [data-col="0"]');
  await titles.first().waitFor();
  expect(await titles.evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''))).toEqual([
    'Снять замеры',
    'Купить краску',
    'Покрасить стены',
    'Повесить полки',
    'Убрать мусор',
  ]);
  await expect(page.locator('.db-hcell-name').allTextContents()).resolves.toEqual(['Задача', 'Статус', 'Срок', 'Готово', 'Бюджет']);
  // A row opens with its fields and its content, its link to the project kept.
  await page.locator('.db-row[data-row="0"]').hover();
  await page.locator('.db-scroll [data-row="0"] [data-col="0"]').getByRole('button', { name: 'Открыть' }).click();
  const peek = page.getByRole('dialog', { name: 'Строка базы данных' });
  await peek.locator('[data-slate-editor] a.page-link[data-label="Ремонт офиса"]').waitFor();
  await expect(peek.getByRole('checkbox', { name: 'Готово' }).isChecked()).resolves.toBe(true);
  await page.screenshot({ path: path.join(SHOTS_DIR, 'notion-import-row-1280.png') });
  await page.keyboard.press('Escape');
  await peek.waitFor({ state: 'hidden' });
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS_DIR, `notion-import-database-1280-${theme}.png`) });
  }
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS_DIR, 'notion-import-database-375-dark.png') });
  await page.context().close();
});
