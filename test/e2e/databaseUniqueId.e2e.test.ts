import { databaseWithViews } from '../helpers/a11yContent';
import { axeViolations } from '../helpers/axe';
import { cookieOf } from '../helpers/browser';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';

/*
 * A unique ID from the browser (issue 38): added from «Добавить поле» as «ID», its prefix set in
 * the column's dialog, every row shown numbered after it in the order rows were made, a new row
 * getting the next number; the cell cannot be edited; light and dark, axe over the dialog.
 */

const suite = browserSuite({ timeoutMs: 120_000 });

it('an ID field numbers every row after its prefix; a new row takes the next number', async () => {
  const page = await suite.signedIn('unique.id.e2e@example.com');
  const { holderId } = await databaseWithViews(suite.server.url, await cookieOf(page), 'Задачи');
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll .db-row').first().waitFor();
  await page.getByRole('button', { name: 'Добавить поле' }).click();
  const adding = page.getByRole('dialog', { name: 'Добавить поле' });
  await adding.getByLabel('Название поля').fill('Номер');
  await adding.getByRole('button', { name: 'ID', exact: true }).click();
  const header = page.locator('.db-hcell', { hasText: 'Номер' });
  await header.waitFor();
  // «Макет» was made first, «Вёрстка» second.
  await page.waitForFunction(() => [...document.querySelectorAll('.db-scroll .db-row')].some((row) => /\b2\b/.test(row.lastElementChild?.textContent ?? '')));

  // The prefix, in the column's dialog.
  await header.locator('.db-hcell-button').click();
  const dialog = page.getByRole('dialog', { name: 'Поле' });
  const prefix = dialog.getByLabel('Префикс');
  await prefix.fill('A B');
  await dialog.getByRole('alert').waitFor();
  expect(await prefix.getAttribute('aria-invalid')).toBe('true');
  await prefix.fill('ЗАДАЧА');
  expect(await axeViolations(page, {}, dialog)).toEqual([]);
  await shoot(page, 'unique-id-prefix-light-1280');
  await prefix.press('Enter');
  await page.keyboard.press('Escape');
  await page.locator('.db-scroll .db-row', { hasText: 'ЗАДАЧА-2' }).waitFor();
  const texts = await page.locator('.db-scroll .db-row').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
  expect(texts.find((text) => text.includes('Макет'))).toContain('ЗАДАЧА-1');
  expect(texts.find((text) => text.includes('Вёрстка'))).toContain('ЗАДАЧА-2');

  // Not editable in the row's own fields either: its value's button is disabled (as every computed field's).
  const first = page.locator('.db-scroll .db-row', { hasText: 'Макет' });
  await first.hover();
  await first.getByRole('button', { name: 'Открыть' }).click();
  const idValue = page.locator('.db-row-fields .db-row-field', { hasText: 'Номер' }).locator('dd');
  await idValue.waitFor();
  expect(await idValue.textContent()).toContain('ЗАДАЧА-1');
  expect(await idValue.getByRole('button').isDisabled()).toBe(true);
  await page.keyboard.press('Escape');
  await idValue.waitFor({ state: 'detached' });

  // A new row: the next number.
  await page
    .getByRole('button', { name: /^\+?\s*Новая строка$/ })
    .first()
    .click();
  await page.locator('.db-scroll .db-row', { hasText: 'ЗАДАЧА-3' }).waitFor();
  await page.keyboard.press('Escape');
  await shoot(page, 'unique-id-rows-light-1280');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('html[data-theme="dark"]').waitFor();
  await shoot(page, 'unique-id-rows-dark-1280');
  expect(await axeViolations(page, { include: ['.db'] })).toEqual([]);
  await page.context().close();
});
