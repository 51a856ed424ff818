import { databaseWithViews } from '../helpers/a11yContent';
import { axeViolations } from '../helpers/axe';
import { cookieOf } from '../helpers/browser';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';

/*
 * A formula field from the browser (issue 38, docs/formulas.md): added from «Добавить поле», its
 * expression typed with the fields' names in the column's dialog, a mistake shown where it is
 * before anything is saved, Ctrl+Enter saves, and every row shows its value — a row's own error
 * too; light and dark, axe over the dialog.
 */

const suite = browserSuite({ timeoutMs: 120_000 });

it('a formula typed with field names computes every row; a mistake is shown before saving; a row shows its own error', async () => {
  const page = await suite.signedIn('formula.e2e@example.com');
  const { holderId } = await databaseWithViews(suite.server.url, await cookieOf(page), 'Смета');
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll .db-row').first().waitFor();

  // Added from «Добавить поле»: a name, then the type «Формула».
  await page.getByRole('button', { name: 'Добавить поле' }).click();
  const adding = page.getByRole('dialog', { name: 'Добавить поле' });
  await adding.getByLabel('Название поля').fill('Итого');
  await adding.getByRole('button', { name: 'Формула', exact: true }).click();
  const header = page.locator('.db-hcell', { hasText: 'Итого' });
  await header.waitFor();

  // Its dialog: the expression, with a mistake first.
  await header.locator('.db-hcell-button').click();
  const dialog = page.getByRole('dialog', { name: 'Поле' });
  const expression = dialog.getByLabel('Формула', { exact: true });
  await expression.fill('prop("Цена") * "два"');
  const problem = dialog.getByRole('alert');
  await problem.waitFor();
  expect(await problem.textContent()).toContain('«*» работает с числами, а здесь текст');
  expect(await expression.getAttribute('aria-invalid')).toBe('true');
  expect(await dialog.getByRole('button', { name: 'Сохранить формулу' }).isDisabled()).toBe(true);
  await shoot(page, 'formula-problem-light-1280');

  // Fixed, and saved with Ctrl+Enter: every row computes.
  await expression.fill('if(prop("Проверено"), prop("Цена") * 2, prop("Цена") / (prop("Цена") - 80))');
  await dialog.locator('.db-formula-hint').waitFor();
  expect(await axeViolations(page, {}, dialog)).toEqual([]);
  await expression.press('Control+Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('.db-row')].some((row) => row.textContent?.includes('240')));
  await page.keyboard.press('Escape');
  const texts = await page.locator('.db-scroll .db-row').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
  // «Макет»: checked, 120 × 2; «Вёрстка»: 80 / (80 − 80) — the row's own error.
  expect(texts.find((text) => text.includes('Макет'))).toContain('240');
  expect(texts.find((text) => text.includes('Вёрстка'))).toContain('Деление на ноль');
  // The error is the cell's own mark (red, its message on hover), not text in another column.
  const error = page.locator('.db-row', { hasText: 'Вёрстка' }).locator('.db-formula-error');
  expect(await error.getAttribute('title')).toBe('Деление на ноль');
  await shoot(page, 'formula-values-light-1280');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('html[data-theme="dark"]').waitFor();
  await shoot(page, 'formula-values-dark-1280');
  expect(await axeViolations(page, { include: ['.db'] })).toEqual([]);

  // Shown again with the names, as typed.
  await header.locator('.db-hcell-button').click();
  expect(await dialog.getByLabel('Формула', { exact: true }).inputValue()).toBe('if(prop("Проверено"), prop("Цена") * 2, prop("Цена") / (prop("Цена") - 80))');
  await page.context().close();
});
