import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../../../test/helpers/axe';
import { signInThroughUi } from '../../../test/helpers/browser';
import { browserSuite, dragBeside, newPage, pageReady, saved, shoot } from '../../../test/helpers/editorPage';
import type { ServerProcess } from '../../../test/helpers/serverProcess';

/*
 * Columns in real Chromium (issue 39 §2): «2 колонки» from the slash menu; what is written in
 * each column sits side by side; the handle between them resizes them (keys); after a reload the
 * same; on a phone they stack; deleting a column's last block removes the column, and the list
 * with it when one is left.
 */

let server: ServerProcess;
let browser: Browser;

browserSuite((started, launched) => ([server, browser] = [started, launched]));

const box = (page: Page, text: string) =>
  page
    .locator('[data-slate-editor] p', { hasText: text })
    .first()
    .evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return { top: Math.round(rect.top), left: Math.round(rect.left), width: Math.round(rect.width) };
    });

it('two columns side by side: written, resized, kept, stacked on a phone; the last block of a column removes it', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'columns@example.com');
  await newPage(page, 'Сравнение');
  await page.keyboard.type('/колон');
  await page
    .locator('.slash-menu')
    .getByRole('option', { name: /2 колонки/ })
    .waitFor();
  await page.keyboard.press('Enter');
  await page.keyboard.type('Плюсы: быстро');
  await page.keyboard.press('Enter');
  await page.keyboard.type('и дёшево');
  // The second column's paragraph: clicked where it is drawn.
  const columns = page.locator('.block-columns');
  await columns.waitFor();
  await page.locator('[data-slate-editor] .block-column').nth(1).waitFor();
  const empty = page.locator('[data-slate-editor] p.is-in-column').nth(2);
  await empty.click();
  await page.keyboard.type('Минусы: шумно');
  await page.locator('[data-slate-editor] p').last().click();
  await page.keyboard.type('Итог под колонками.');
  await saved(page);

  const left = await box(page, 'Плюсы');
  const second = await box(page, 'и дёшево');
  const right = await box(page, 'Минусы');
  const after = await box(page, 'Итог под колонками');
  expect(right.top).toBe(left.top);
  expect(right.left).toBeGreaterThan(left.left + left.width);
  expect(second.top).toBeGreaterThan(left.top);
  expect(second.left).toBe(left.left);
  expect(Math.abs(left.width - right.width)).toBeLessThanOrEqual(2);
  expect(after.top).toBeGreaterThan(second.top);
  await expect(axeViolations(page, {}, columns)).resolves.toEqual([]);
  await shoot(page, 'columns-1280');

  // The handle between them, from the keyboard: the first column grows.
  const handle = page.getByRole('separator', { name: 'Ширина колонок' });
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  // Drawn by the layout after the change: waited for.
  await page.waitForFunction(() => document.querySelector('.column-resize:not([hidden])')?.getAttribute('aria-valuenow') === '60');
  await saved(page);
  await page.reload();
  await pageReady(page);
  await page.locator('[data-slate-editor] p.is-in-column').first().waitFor();
  const wider = await box(page, 'Плюсы');
  const narrower = await box(page, 'Минусы');
  expect(wider.width).toBeGreaterThan(narrower.width * 1.3);
  expect(narrower.top).toBe(wider.top);

  // The handle dragged with the pointer: the boundary follows it (the first column narrower now).
  const bar = await page.locator('.column-resize:not([hidden])').boundingBox();
  if (!bar) throw new Error('no handle');
  await page.mouse.move(bar.x + bar.width / 2, bar.y + 10);
  await page.mouse.down();
  await page.mouse.move(bar.x + bar.width / 2 - 200, bar.y + 10, { steps: 10 });
  await page.mouse.up();
  await page.waitForFunction(() => Number(document.querySelector('.column-resize:not([hidden])')?.getAttribute('aria-valuenow')) < 40);
  const dragged = await box(page, 'Плюсы');
  expect(dragged.width).toBeLessThan(narrower.width);
  expect((await box(page, 'Минусы')).top).toBe(dragged.top);
  await saved(page);

  // A phone: one under the other.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  const stackedLeft = await box(page, 'Плюсы');
  const stackedRight = await box(page, 'Минусы');
  expect(stackedRight.top).toBeGreaterThan(stackedLeft.top);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shoot(page, 'columns-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The second column's only block deleted: the column goes, and with one left the list too.
  await page.locator('[data-slate-editor] p', { hasText: 'Минусы' }).click();
  await page.keyboard.press('End');
  for (let i = 0; i < 'Минусы: шумно'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Delete');
  await page.locator('.block-columns').waitFor({ state: 'detached' });
  await expect(page.locator('[data-slate-editor] p.is-in-column').count()).resolves.toBe(0);
  await expect(page.locator('[data-slate-editor] p', { hasText: 'Плюсы: быстро' }).count()).resolves.toBe(1);
  await saved(page);
  await context.close();
}, 120_000);

it('a block dragged by its handle to the side of another: the two become columns', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'columns-drag@example.com');
  await newPage(page, 'Перетаскивание');
  await page.keyboard.type('Слева будет это');
  await page.keyboard.press('Enter');
  await page.keyboard.type('А это справа');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Останется внизу');
  await saved(page);

  await dragBeside(page, 'А это справа', 'Слева будет это');
  await page.locator('.block-columns').waitFor();
  const left = await box(page, 'Слева будет это');
  const right = await box(page, 'А это справа');
  const below = await box(page, 'Останется внизу');
  expect(right.top).toBe(left.top);
  expect(right.left).toBeGreaterThan(left.left + left.width);
  expect(below.top).toBeGreaterThan(left.top);
  await saved(page);
  await page.reload();
  await pageReady(page);
  await page.locator('[data-slate-editor] p.is-in-column').first().waitFor();
  expect((await box(page, 'А это справа')).top).toBe((await box(page, 'Слева будет это')).top);
  await shoot(page, 'columns-dragged-1280');
  await context.close();
}, 90_000);
