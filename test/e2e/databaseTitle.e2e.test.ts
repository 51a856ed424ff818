import { browserSuite } from '../helpers/browserSuite';
import { eventually, pageReady, pageWithDatabase, saved, shoot } from '../helpers/editorPage';

/*
 * An inline database's title (issue 34 §2, docs/web-app.md «Table view»): inserted with «/база»,
 * named in the field above its tabs, still named after a reload, and found by search (Ctrl+K).
 */

const suite = browserSuite();

it('a database inserted with «/база» gets a title typed above its tabs; after a reload it is there, and Ctrl+K finds the page by it', async () => {
  const page = await suite.signedIn('database.title@example.com');
  await pageWithDatabase(page, 'Планы отдела');
  const title = page.getByRole('textbox', { name: 'Название базы данных' });
  await title.waitFor();
  expect(await title.getAttribute('placeholder')).toBe('Без названия');
  await title.click();
  await page.keyboard.type('Квартальные цели');
  await page.keyboard.press('Enter');
  await eventually(() => title.evaluate((el) => el === document.activeElement), false);
  await saved(page);
  await page.locator('.db-heading').hover();
  await shoot(page, 'database-title-light');

  await page.reload();
  await pageReady(page);
  await page.getByRole('textbox', { name: 'Название базы данных' }).waitFor();
  await eventually(() => page.getByRole('textbox', { name: 'Название базы данных' }).inputValue(), 'Квартальные цели');

  await page.locator('[data-slate-editor] [data-block-id]').first().click();
  await page.keyboard.press('Control+K');
  const finder = page.getByRole('dialog', { name: 'Поиск' });
  await finder.waitFor();
  await page.keyboard.type('квартальных');
  const hit = finder.getByRole('option').first();
  await eventually(() => hit.locator('.search-hit-title').textContent(), 'Планы отдела');
  expect(await hit.locator('mark').allTextContents()).toEqual(['Квартальные']);
  await page.context().close();
});

it('a title saved with Enter and a new row typed at once: the letters go into the row, never into the title', async () => {
  const page = await suite.signedIn('database.title.race@example.com');
  await pageWithDatabase(page, 'Гонка');
  const title = page.getByRole('textbox', { name: 'Название базы данных' });
  // A CPU four times slower (as on a loaded machine): a letter typed as the new row's editor opened was lost there.
  await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await title.click();
  await page.keyboard.type('Задачи');
  await page.keyboard.press('Enter');
  // No pause: the title's save and the row's making are both on their way while «Альфа» is typed
  // (Playwright types Cyrillic as text without key-downs, as a phone's keyboard does).
  await page
    .getByRole('button', { name: /Новая строка/ })
    .first()
    .click();
  // A letter every 20 ms: some come while the row is being made, some as its editor opens (one was lost there).
  await page.keyboard.type('Альфа', { delay: 20 });
  await page.locator('.db-editor-text').waitFor();
  await eventually(() => page.locator('.db-editor-text').inputValue(), 'Альфа');
  await page.keyboard.press('Enter');
  await saved(page);
  await eventually(() => title.inputValue(), 'Задачи');
  await eventually(() => page.locator('.db-row').filter({ hasText: 'Альфа' }).count(), 1);
  await page.reload();
  await pageReady(page);
  await eventually(() => page.getByRole('textbox', { name: 'Название базы данных' }).inputValue(), 'Задачи');
  await eventually(() => page.locator('.db-row').filter({ hasText: 'Альфа' }).count(), 1);
  await page.context().close();
});
