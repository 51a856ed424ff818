import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { signInThroughUi } from '../helpers/browser';
import { blocksOf, browserSuite, newPage, saved } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * The editor as a keyboard-driven writer uses it, in real Chromium against the real server
 * (SQLite): shortcuts, lists and nesting, the slash menu, marks, undo/redo, block moves — and
 * after a reload everything is as it was left.
 */

const ARTIFACTS = path.resolve(__dirname, 'artifacts');

let server: ServerProcess;
let browser: Browser;

browserSuite((started, launched) => ([server, browser] = [started, launched]));

it('shortcuts, nesting, the slash menu, marks and undo — all still there after a reload', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'writer@example.com');
  const url = await newPage(page, 'Редактор');

  // Lists: "- " bullets, Tab nests, Enter on an empty item comes back up, then ends the list.
  await page.keyboard.type('- Первый пункт');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Вложенный');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Второй пункт');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  // Ordered list and a task.
  await page.keyboard.type('1. Раз');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Два');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('[] Задача');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('" Цитата');
  await page.keyboard.press('Enter');
  // "--" then "-": a divider, and writing goes on below it.
  await page.keyboard.type('---');
  await page.keyboard.type('После линии');
  await page.keyboard.press('Enter');
  // The slash menu filters as you type; Enter picks.
  await page.keyboard.type('/заг');
  await page.locator('.slash-menu').waitFor();
  await expect(page.locator('.slash-menu-item .slash-menu-label').first().textContent()).resolves.toBe('Заголовок 1');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Раздел');
  await page.keyboard.press('Enter');
  // Marks: select a word with Shift+Ctrl+Left and make it bold.
  await page.keyboard.type('Жирное слово');
  await page.keyboard.down('Shift');
  await page.keyboard.press('Control+ArrowLeft');
  await page.keyboard.up('Shift');
  await page.keyboard.press('Control+b');
  await page.keyboard.press('End');
  // Undo after a pause removes only the last word; redo brings it back. The word goes in as one
  // input event: a busy machine stalling the page between two of its keys for over
  // UNDO_MERGE_WINDOW_MS (300 ms) would start a step inside it.
  await page.waitForTimeout(400);
  await page.keyboard.insertText(' лишнее');
  await page.keyboard.press('Control+z');
  await expect(page.locator('[data-slate-editor] strong').allTextContents()).resolves.toEqual(['слово']);

  const before = await blocksOf(page);
  expect(before).toEqual([
    'bulletListBlock:0:Первый пункт',
    'bulletListBlock:1:Вложенный',
    'bulletListBlock:0:Второй пункт',
    'orderedListBlock:0:Раз',
    'orderedListBlock:0:Два',
    'checkboxBlock:0:Задача',
    'quoteBlock:0:Цитата',
    'dividerBlock:0:',
    'textBlock:0:После линии',
    'heading2Block:0:Раздел',
    'textBlock:0:Жирное слово',
  ]);
  await expect(page.locator('.block-orderedListBlock').nth(1).getAttribute('data-number')).resolves.toBe('2');

  // Move "Раздел" above "После линии" with the keyboard.
  await page.locator('.block-heading2Block').click();
  await page.keyboard.press('Control+Shift+ArrowUp');
  await saved(page);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'editor-blocks.png'), fullPage: true });

  await page.reload();
  await page.locator('[data-slate-editor] h1').waitFor();
  const after = await blocksOf(page);
  expect(after).toEqual([
    'bulletListBlock:0:Первый пункт',
    'bulletListBlock:1:Вложенный',
    'bulletListBlock:0:Второй пункт',
    'orderedListBlock:0:Раз',
    'orderedListBlock:0:Два',
    'checkboxBlock:0:Задача',
    'quoteBlock:0:Цитата',
    'dividerBlock:0:',
    'heading2Block:0:Раздел',
    'textBlock:0:После линии',
    'textBlock:0:Жирное слово',
  ]);
  await expect(page.locator('[data-slate-editor] strong').textContent()).resolves.toBe('слово');
  expect(page.url()).toBe(url);
  await context.close();
}, 90_000);

it('blocks as blocks: Escape selects, Shift+↓ extends, Delete removes; the handle menu duplicates; drag moves', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'mover@example.com');
  await newPage(page, 'Блоки');
  for (const text of ['Альфа', 'Бета', 'Гамма', 'Дельта']) {
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Backspace');
  const texts = async () => (await blocksOf(page)).map((b) => b.split(':').slice(2).join(':'));
  expect(await texts()).toEqual(['Альфа', 'Бета', 'Гамма', 'Дельта']);

  await page.getByText('Бета').click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Delete');
  expect(await texts()).toEqual(['Альфа', 'Дельта']);

  await page.getByText('Альфа').hover();
  await page.locator('.block-handle').click();
  await page.getByRole('menuitem', { name: /Дублировать/ }).click();
  expect(await texts()).toEqual(['Альфа', 'Альфа', 'Дельта']);

  // Drag "Дельта" by its handle above the first block.
  await page.getByText('Дельта').hover();
  const handle = page.locator('.block-handle');
  const from = await handle.boundingBox();
  const target = await page.locator('[data-slate-editor] [data-block-id]').nth(1).boundingBox();
  if (!from || !target) throw new Error('no geometry');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 5, target.y + 10, { steps: 8 });
  await page.mouse.move(from.x + 5, target.y + 3, { steps: 2 });
  await page.mouse.up();
  expect(await texts()).toEqual(['Дельта', 'Альфа', 'Альфа']);

  await saved(page);
  await page.reload();
  await page.locator('[data-slate-editor] h1').waitFor();
  expect(await texts()).toEqual(['Дельта', 'Альфа', 'Альфа']);
  await context.close();
}, 90_000);
