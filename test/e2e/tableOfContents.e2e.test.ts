import type { Browser } from 'playwright-core';
import { axeViolations } from '../helpers/axe';
import { signInThroughUi } from '../helpers/browser';
import { browserSuite, newPage, saved } from '../helpers/editorPage';
import type { ServerProcess } from '../helpers/serverProcess';

/*
 * The table of contents in real Chromium (issue 39 §2): made from the slash menu, it lists the
 * headings typed after it, live and indented by level; a click scrolls to a heading far below;
 * it is there after a reload.
 */

let server: ServerProcess;
let browser: Browser;

browserSuite((started, launched) => ([server, browser] = [started, launched]));

it('made from the slash menu, follows the headings as they are typed, and takes the reader to one', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'toc@example.com');
  await newPage(page, 'Руководство');

  await page.keyboard.type('/оглав');
  await page.locator('.slash-menu').waitFor();
  await page.keyboard.press('Enter');
  const toc = page.getByRole('navigation', { name: 'Оглавление' });
  await toc.getByText('Добавьте заголовки, и здесь появится оглавление').waitFor();
  // Writing goes on below it (a void block: the caret goes to the next line).
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('# Установка');
  await page.keyboard.press('Enter');
  for (let i = 0; i < 40; i++) {
    await page.keyboard.type(`Шаг ${i + 1}.`);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.type('## Настройка почты');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Готово.');
  await expect(toc.getByRole('link').allTextContents()).resolves.toEqual(['Установка', 'Настройка почты']);
  await expect(toc.getByRole('listitem').evaluateAll((items) => items.map((li) => li.className))).resolves.toEqual(['toc-level-1', 'toc-level-2']);
  await saved(page);

  await page.reload();
  await page.locator('.page[aria-busy="false"] .block-toc').waitFor();
  await expect(axeViolations(page, {}, page.locator('.block-toc'))).resolves.toEqual([]);
  await page.screenshot({ path: '.tmp/shots/table-of-contents-1280.png' });
  await page.getByRole('navigation', { name: 'Оглавление' }).getByRole('link', { name: 'Настройка почты' }).click();
  // Scrolled to it: the heading is in the viewport.
  await page.waitForFunction(() => {
    const heading = [...document.querySelectorAll('[data-slate-editor] h3')].find((h) => h.textContent?.includes('Настройка почты'));
    if (!heading) return false;
    const box = heading.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });
  await page.screenshot({ path: '.tmp/shots/table-of-contents-after-click-1280.png' });
  await context.close();
}, 90_000);
