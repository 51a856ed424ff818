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

/** A database «Смета» opened by a new person, a formula field «Итого» added from «Добавить поле», its «Поле» dialog open. */
async function formulaColumn(email: string) {
  const page = await suite.signedIn(email);
  const { holderId } = await databaseWithViews(suite.server.url, await cookieOf(page), 'Смета');
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll .db-row').first().waitFor();
  await page.getByRole('button', { name: 'Добавить поле' }).click();
  const adding = page.getByRole('dialog', { name: 'Добавить поле' });
  await adding.getByLabel('Название поля').fill('Итого');
  await adding.getByRole('button', { name: 'Формула', exact: true }).click();
  const header = page.locator('.db-hcell', { hasText: 'Итого' });
  await header.locator('.db-hcell-button').click();
  const dialog = page.getByRole('dialog', { name: 'Поле' });
  return { page, header, dialog, expression: dialog.getByLabel('Формула', { exact: true }) };
}

it('a formula typed with field names computes every row; a mistake is shown before saving; a row shows its own error', async () => {
  // Added from «Добавить поле» (a name, then the type «Формула»); its dialog: the expression, with a mistake first.
  const { page, header, dialog, expression } = await formulaColumn('formula.e2e@example.com');
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
  // The footer sums a formula that gives numbers (the row in error adds nothing).
  await page.getByRole('button', { name: 'Расчёт Итого', exact: true }).click();
  await page.getByRole('menuitemradio', { name: 'Сумма' }).click();
  await page.getByRole('button', { name: 'Расчёт Итого: Сумма 240' }).waitFor();
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

it('the editor offers fields and functions as a name is typed, underlines a mistake where it is, and shows the first rows’ values', async () => {
  const { page, dialog, expression } = await formulaColumn('formula.editor.e2e@example.com');
  await expression.click();

  // A field by its name: «Це» offers «Цена» (the list is the field's, named to screen readers), Enter takes it.
  await expression.pressSequentially('Це');
  const list = dialog.getByRole('listbox', { name: 'Поля и функции' });
  await list.waitFor();
  expect(await list.getByRole('option').allTextContents()).toEqual([expect.stringContaining('prop("Цена")')]);
  expect(await expression.getAttribute('aria-activedescendant')).toBe(await list.getByRole('option').first().getAttribute('id'));
  await expression.press('Enter');
  expect(await expression.inputValue()).toBe('prop("Цена")');
  await list.waitFor({ state: 'hidden' });

  // A function: «ro» offers round with its signature; ↓ moves, Tab takes; the caret inside its brackets.
  await expression.pressSequentially(' * ro');
  await list.waitFor();
  const options = await list.getByRole('option').allTextContents();
  expect(options[0]).toContain('round');
  expect(options[0]).toContain('Округление');
  await shoot(page, 'formula-suggestions-light-1280');
  await expression.press('Tab');
  expect(await expression.inputValue()).toBe('prop("Цена") * round(');
  // Inside prop(": every other field; Escape closes the list and leaves the dialog open.
  await expression.pressSequentially('prop("');
  await list.waitFor();
  expect(await list.getByRole('option').count()).toBeGreaterThanOrEqual(4);
  await expression.press('Escape');
  await list.waitFor({ state: 'hidden' });
  expect(await dialog.isVisible()).toBe(true);

  // A mistake: underlined in the text where it is, and said.
  await expression.fill('prop("Цена") * "два"');
  const mistake = dialog.locator('mark.db-formula-mistake');
  await mistake.waitFor({ state: 'attached' });
  expect(await mistake.textContent()).toBe('"два"');
  // Where it stands in the text behind the field: the same place as in the field.
  expect(await mistakeStart(page)).toBe('prop("Цена") * '.length);
  await shoot(page, 'formula-mistake-light-1280');

  // The values of the first rows, as the server will compute them.
  await expression.fill('prop("Цена") * 2');
  const preview = dialog.getByRole('table', { name: 'Значения в первых строках' });
  await preview.waitFor();
  const cells = await preview
    .locator('tr')
    .evaluateAll((rows) => rows.map((row) => [row.querySelector('th')?.textContent, row.querySelector('td')?.textContent]));
  expect(cells).toEqual(
    expect.arrayContaining([
      ['Макет', '240'],
      ['Вёрстка', '160'],
    ]),
  );
  await shoot(page, 'formula-preview-light-1280');
  await expression.fill('prop("Проверено")');
  await preview.getByText('да').waitFor();
  expect(await axeViolations(page, {}, dialog)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('html[data-theme="dark"]').waitFor();
  await expression.fill('prop("Цена") * "два"');
  await mistake.waitFor({ state: 'attached' });
  await shoot(page, 'formula-mistake-dark-1280');
  expect(await axeViolations(page, {}, dialog)).toEqual([]);
  await page.context().close();
});

/** Where the underlined mistake starts and ends in the text (the backdrop's text before it, and with it). */
async function mistakeStart(page: import('playwright-core').Page): Promise<number> {
  return page.evaluate(() => {
    const mark = document.querySelector('mark.db-formula-mistake')!;
    let n = 0;
    for (let node = mark.previousSibling; node; node = node.previousSibling) n += node.textContent?.length ?? 0;
    return n;
  });
}
