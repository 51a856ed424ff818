import type { Browser } from 'playwright-core';
import { signInThroughUi } from '../helpers/browser';
import { browserSuite, saved, typeFormula } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * The text-like block types in real Chromium against the real server: a to-do ticked by mouse,
 * a formula edited in place, a callout's icon, a code block (newlines, Tab, highlighting,
 * language) — and after a reload all of it is as it was left.
 */

let server: ServerProcess;
let browser: Browser;

browserSuite((started, launched) => ([server, browser] = [started, launched]));

it('to-do, callout, formula and code blocks work and persist', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'blocks@example.com');
  await page.getByRole('button', { name: 'Новая страница' }).first().click();
  await page.waitForURL(/\/[0-9a-f-]{36}$/);
  await page.locator('[data-slate-editor] h1').click();
  await page.keyboard.type('Блоки');
  await page.keyboard.press('Enter');

  // A to-do item, ticked with the mouse.
  await page.keyboard.type('[] Купить хлеб');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByRole('checkbox', { name: 'Купить хлеб' }).click();
  await page.locator('.block-checkboxBlock.is-checked').waitFor();

  // A line of text, then a formula made with /latex and edited in place.
  await page.locator('[data-slate-editor] p').last().click();
  await page.keyboard.type('Важно');
  await page.keyboard.press('Enter');
  await typeFormula(page, 'E = mc^2');

  // The text line becomes a callout (/callout at its start); its icon is changed in the picker.
  await page.getByText('Важно').click();
  await page.keyboard.press('Home');
  await page.keyboard.type('/callout ');
  await page.getByRole('button', { name: 'Сменить значок' }).click();
  await page.getByRole('group', { name: 'Значки' }).getByRole('button', { name: '🔥' }).click();
  await saved(page);

  // A code block (made through the API here; the slash menu is tested elsewhere), edited in the
  // browser: Enter is a new line, Tab two spaces, the language is picked, Enter twice at the end leaves it.
  const pageId = page.url().split('/').pop()!;
  const created = await page.evaluate(async (id) => {
    const response = await fetch('/api/v3/spaces/block', {
      method: 'POST',
      headers: { 'X-App-Type': 'Web', 'Content-Type': 'application/json' },
      body: JSON.stringify({ pageId: id, type: 'code', data: { tokens: [{ text: 'function f() {' }], language: 'javascript' } }),
      credentials: 'same-origin',
    });
    return response.status;
  }, pageId);
  expect(created).toBe(201);
  await page.reload();
  await page.locator('.block-codeBlock .token.keyword').first().waitFor();
  await page.locator('.block-codeBlock pre').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.type('return 1;');
  await page.keyboard.press('Enter');
  await page.keyboard.type('}');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('После кода');
  await page.getByRole('combobox', { name: 'Язык кода' }).selectOption('typescript');

  await saved(page);
  await page.reload();
  await page.locator('[data-slate-editor] h1').waitFor();

  await expect(page.getByRole('checkbox', { name: 'Купить хлеб' }).isChecked()).resolves.toBe(true);
  await expect(page.getByRole('button', { name: 'Сменить значок' }).textContent()).resolves.toBe('🔥');
  await expect(page.locator('.block-calloutBlock .callout-content').textContent()).resolves.toBe('Важно');
  await page.locator('.block-latexBlock .katex-display').waitFor();
  await expect(page.locator('.block-latexBlock annotation').textContent()).resolves.toBe('E = mc^2');
  await expect(page.locator('.block-codeBlock pre').textContent()).resolves.toBe('function f() {\n  return 1;\n}');
  await expect(page.getByRole('combobox', { name: 'Язык кода' }).inputValue()).resolves.toBe('typescript');
  await page.locator('.block-codeBlock .token.keyword').first().waitFor();
  await expect(page.locator('.block-codeBlock + .block-textBlock').textContent()).resolves.toBe('После кода');
  await context.close();
}, 120_000);
