import { newPage, savedAndReloaded, signedInEditorSuite } from '../helpers/editorPage';

/*
 * Duplicating a nested-page block duplicates the page, as in Notion: the copy points at a deep
 * copy (its title and text), not at the same page. Real Chromium, real server (SQLite).
 */

const { openApp } = signedInEditorSuite('duplicate@example.com');

it('the block menu’s Дублировать on a nested page makes a second page with the same title and text', async () => {
  const page = await openApp();
  const parentUrl = await newPage(page, 'Родитель');
  await page.keyboard.type('/Страница');
  await page.keyboard.press('Enter');
  const links = page.locator('[data-slate-editor] .block-documentBlock a.document-link');

  // The new child opens with the caret in its title: give it a title and some text, then come back.
  await page.waitForURL((url) => url.toString() !== parentUrl);
  await page.locator('[data-slate-editor] h1').click();
  await page.keyboard.type('Дочерняя');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Текст внутри');
  await savedAndReloaded(page);
  await page.goto(parentUrl);
  await links.first().getByText('Дочерняя').waitFor();

  // Hover the block, open its menu, duplicate.
  await links.first().hover();
  await page.getByRole('button', { name: 'Блок: меню и перетаскивание' }).click();
  await page.getByRole('menuitem', { name: 'Дублировать' }).click();
  await expect(links.count()).resolves.toBe(2);
  await links.nth(1).getByText('Дочерняя').waitFor();
  const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')));
  expect(new Set(hrefs).size).toBe(2);

  await savedAndReloaded(page);
  await expect(links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))).resolves.toEqual(hrefs);
  await page.screenshot({ path: 'test/e2e/artifacts/duplicate-page.png' });
  // The copy is a page of its own with the text.
  await links.nth(1).click();
  await page.waitForURL((url) => url.pathname === hrefs[1]);
  await page.getByText('Текст внутри').waitFor();
  await expect(page.locator('[data-slate-editor] h1').textContent()).resolves.toBe('Дочерняя');
});
