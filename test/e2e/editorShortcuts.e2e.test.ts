import type { Page } from 'playwright-core';
import { blocksOf, newPage, savedAndReloaded, tableCells, signedInEditorSuite } from '../helpers/editorPage';

/*
 * The typing shortcuts of the spec that editor.e2e.test.ts does not type (`*`, `[ ]`, `|`,
 * `1)` with a number that follows and one that does not, `#`/`##`/`###`, `/callout`, `/latex`,
 * `/file`, `/embed`, `/table`), redo with Ctrl+Shift+Z and Ctrl+Y, a formula edited twice and a
 * table edited through its toolbar — in real Chromium against the real server (SQLite), each
 * checked again after a reload.
 */

const { openApp } = signedInEditorSuite('shortcuts@example.com');

const numbers = (page: Page) => page.locator('[data-slate-editor] .block-orderedListBlock').evaluateAll((all) => all.map((n) => n.getAttribute('data-number')));
const markers = (page: Page) => page.locator('[data-slate-editor] .block-orderedListBlock .block-list-marker').allTextContents();

it('typed shortcuts: * [ ] | 1) (following and forced numbers) # ## ###, and redo with Ctrl+Shift+Z and Ctrl+Y', async () => {
  const page = await openApp();
  await newPage(page, 'Ярлыки');

  await page.keyboard.type('* Звёздочка');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('[ ] Задача');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('| Черта');
  await page.keyboard.press('Enter');
  // "1)" starts a list at 1; "3)" right after it follows (3), "7)" does not: it starts at 7.
  await page.keyboard.type('1) Раз');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Два');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('3) Три');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('7) Семь');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Восемь');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('# Один');
  await page.keyboard.press('Enter');
  await page.keyboard.type('## Два');
  await page.keyboard.press('Enter');
  await page.keyboard.type('### Три');
  await page.keyboard.press('Enter');

  // Undo and redo, both redo keys. A pause longer than UNDO_MERGE_WINDOW_MS (300 ms) starts a
  // new step; the second word goes in as one input event, so a busy machine stalling the page
  // between two of its keys cannot start a step inside it.
  await page.keyboard.type('Первое');
  await page.waitForTimeout(400);
  await page.keyboard.insertText(' второе');
  const last = page.locator('[data-slate-editor] [data-block-id]').last();
  await page.keyboard.press('Control+z');
  await expect(last.textContent()).resolves.toBe('Первое');
  await page.keyboard.press('Control+Shift+Z');
  await expect(last.textContent()).resolves.toBe('Первое второе');
  await page.keyboard.press('Control+z');
  await expect(last.textContent()).resolves.toBe('Первое');
  await page.keyboard.press('Control+y');
  await expect(last.textContent()).resolves.toBe('Первое второе');

  // An empty item ends its list as an empty paragraph, which the next shortcut turns into its type.
  const expected = [
    'bulletListBlock:0:Звёздочка',
    'checkboxBlock:0:Задача',
    'quoteBlock:0:Черта',
    'orderedListBlock:0:Раз',
    'orderedListBlock:0:Два',
    'orderedListBlock:0:Три',
    'orderedListBlock:0:Семь',
    'orderedListBlock:0:Восемь',
    'heading1Block:0:Один',
    'heading2Block:0:Два',
    'heading3Block:0:Три',
    'textBlock:0:Первое второе',
  ];
  const check = async () => {
    expect(await blocksOf(page)).toEqual(expected);
    expect(await numbers(page)).toEqual(['1', '2', '3', '7', '8']);
    expect(await markers(page)).toEqual(['1.', '2.', '3.', '7.', '8.']);
    await expect(page.getByRole('checkbox', { name: 'Задача' }).isChecked()).resolves.toBe(false);
    // Headings 1–3 are the page's h2–h4 (the title is its h1).
    await expect(page.locator('[data-slate-editor] h2').textContent()).resolves.toBe('Один');
    await expect(page.locator('[data-slate-editor] h3').textContent()).resolves.toBe('Два');
    await expect(page.locator('[data-slate-editor] h4').textContent()).resolves.toBe('Три');
  };
  await check();
  await savedAndReloaded(page);
  await check();
  await page.close();
}, 60_000);

it('/callout, /latex (edited, and edited again after a reload), /file and /embed show their blocks and empty states', async () => {
  const page = await openApp();
  await newPage(page, 'Команды');

  await page.keyboard.type('/callout ');
  await page.keyboard.type('Внимание');
  await page.keyboard.press('Enter');
  // Enter in a callout writes on inside it (one level down); Enter on that empty line comes out.
  await page.keyboard.press('Enter');
  await page.keyboard.type('/latex ');
  await page.keyboard.type('/file ');
  await page.keyboard.type('/embed ');
  await page.keyboard.type('Конец');

  expect(await blocksOf(page)).toEqual(['calloutBlock:0:Внимание', 'latexBlock:0:', 'fileBlock:0:', 'embedBlock:0:', 'textBlock:0:Конец']);
  await page.locator('.block-latexBlock').getByText('Добавьте формулу').click();
  await page.getByRole('textbox', { name: 'Формула LaTeX' }).fill('\\frac{a}{b}');
  await page.keyboard.press('Escape');
  await page.locator('.block-latexBlock .katex-display').waitFor();

  const emptyStates = async () => {
    await expect(page.locator('.block-calloutBlock .callout-content').textContent()).resolves.toBe('Внимание');
    await expect(page.locator('.block-fileBlock .media-panel-title').textContent()).resolves.toBe('Файл: загрузите его или перетащите сюда');
    await expect(page.locator('.block-fileBlock').getByText('Выбрать файл').isVisible()).resolves.toBe(true);
    await expect(page.locator('.block-embedBlock .media-panel-title').textContent()).resolves.toBe('Встраивание: вставьте ссылку');
    await expect(page.getByRole('textbox', { name: 'Ссылка для встраивания' }).isVisible()).resolves.toBe(true);
  };
  await emptyStates();
  await savedAndReloaded(page);
  expect(await blocksOf(page)).toEqual(['calloutBlock:0:Внимание', 'latexBlock:0:', 'fileBlock:0:', 'embedBlock:0:', 'textBlock:0:Конец']);
  await emptyStates();
  await page.locator('.block-latexBlock .katex-display').waitFor();
  await expect(page.locator('.block-latexBlock annotation').textContent()).resolves.toBe('\\frac{a}{b}');

  // The formula edited again: click it, change it, Ctrl+Enter.
  await page.locator('.block-latexBlock .latex-view').click();
  const field = page.getByRole('textbox', { name: 'Формула LaTeX' });
  await expect(field.inputValue()).resolves.toBe('\\frac{a}{b}');
  await field.fill('a^2 + b^2 = c^2');
  await page.keyboard.press('Control+Enter');
  await expect(field.count()).resolves.toBe(0);
  await savedAndReloaded(page);
  await page.locator('.block-latexBlock .katex-display').waitFor();
  await expect(page.locator('.block-latexBlock annotation').textContent()).resolves.toBe('a^2 + b^2 = c^2');
  await page.close();
}, 60_000);

it('/table: cells typed with Tab, a row and a column added from the toolbar, the header row on — all back after a reload', async () => {
  const page = await openApp();
  await newPage(page, 'Таблица');

  await page.keyboard.type('/table ');
  // 2 columns × 3 rows; the caret is in the first cell.
  expect(await tableCells(page)).toEqual([
    ['', ''],
    ['', ''],
    ['', ''],
  ]);
  for (const [i, text] of ['Имя', 'Возраст', 'Анна', '30', 'Борис', '41'].entries()) {
    if (i > 0) await page.keyboard.press('Tab');
    await page.keyboard.type(text);
  }
  const toolbar = page.getByRole('toolbar', { name: 'Действия с таблицей' });
  await toolbar.getByRole('button', { name: 'Строка ниже' }).click();
  await toolbar.getByRole('button', { name: 'Столбец справа' }).click();
  await toolbar.getByRole('button', { name: 'Строка заголовков' }).click();
  await expect(toolbar.getByRole('button', { name: 'Строка заголовков' }).getAttribute('aria-pressed')).resolves.toBe('true');
  // The caret stayed in "41": Tab goes to the new column's cell of that row, then to the new row.
  await page.keyboard.press('Tab');
  await page.keyboard.type('Москва');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Вера');
  await page.locator('.block-tableBlock tr').nth(0).locator('td').nth(2).click();
  await page.keyboard.type('Город');

  const grid = [
    ['Имя', 'Возраст', 'Город'],
    ['Анна', '30', ''],
    ['Борис', '41', 'Москва'],
    ['Вера', '', ''],
  ];
  const check = async () => {
    expect(await tableCells(page)).toEqual(grid);
    await expect(page.locator('.block-tableBlock').getAttribute('data-header-row')).resolves.toBe('');
    await expect(page.locator('.block-tableBlock').getAttribute('data-header-column')).resolves.toBeNull();
    // The header row looks like one: bold, unlike the rows under it.
    const weights = await page.locator('.block-tableBlock tr').evaluateAll((rows) => rows.map((row) => getComputedStyle(row.querySelector('td')!).fontWeight));
    expect(weights).toEqual(['600', '400', '400', '400']);
  };
  await check();
  await savedAndReloaded(page);
  await check();
  // With the caret in a cell the toolbar shows the header row as on.
  await page.locator('.block-tableBlock td').first().click();
  await expect(toolbar.getByRole('button', { name: 'Строка заголовков' }).getAttribute('aria-pressed')).resolves.toBe('true');
  await expect(toolbar.getByRole('button', { name: 'Столбец заголовков' }).getAttribute('aria-pressed')).resolves.toBe('false');
  await page.close();
}, 60_000);
