import type { Browser, Page } from 'playwright-core';
import { axeViolations } from '../../../test/helpers/axe';
import { signInThroughUi } from '../../../test/helpers/browser';
import { browserSuite, newPage, saved } from '../../../test/helpers/editorPage';
import type { ServerProcess } from '../../../test/helpers/serverProcess';

/*
 * The worked example's block in real Chromium against the real server: made from the slash menu
 * and by its shortcut, its text typed, its bar moved by keys and by the mouse, kept after a
 * reload; light, dark and a 375 px phone looked at (screenshots in .tmp/shots/).
 */

let server: ServerProcess;
let browser: Browser;

browserSuite((started, launched) => ([server, browser] = [started, launched]));

const sliders = (page: Page) => page.getByRole('slider', { name: 'Выполнено, %' });

it('made from the slash menu and by `[%]`, moved by keys and the mouse, and kept after a reload', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'progress@example.com');
  await newPage(page, 'Планы на квартал');

  // The slash menu offers it by its Russian name.
  await page.keyboard.type('/прогр');
  await page.locator('.slash-menu').waitFor();
  await expect(page.locator('.slash-menu-item .slash-menu-label').first().textContent()).resolves.toBe('Прогресс');
  await page.keyboard.press('Enter');
  await page.locator('.block-progress').waitFor();
  await page.keyboard.type('Перевод книги');
  // The slider: → moves a tenth, Shift+→ one percent.
  await sliders(page).first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(sliders(page).first().getAttribute('aria-valuenow')).resolves.toBe('21');

  // Enter at its end writes on in a text block; `[%]` then a space at its start makes another
  // progress block; a click three quarters along its bar sets 75 %.
  await page.locator('.block-progress .progress-text').first().click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('[%] Вёрстка');
  await sliders(page).nth(1).waitFor();
  const box = (await sliders(page).nth(1).boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
  await expect(sliders(page).nth(1).getAttribute('aria-valuenow')).resolves.toBe('75');

  await saved(page);
  await page.reload();
  await page.locator('.page[aria-busy="false"] .block-progress').first().waitFor();
  await expect(sliders(page).evaluateAll((all) => all.map((s) => s.getAttribute('aria-valuenow')))).resolves.toEqual(['21', '75']);
  await expect(page.locator('.block-progress .progress-text').allTextContents()).resolves.toEqual(['Перевод книги', 'Вёрстка']);
  await expect(axeViolations(page, {}, page.locator('[data-slate-editor]'))).resolves.toEqual([]);
  await page.screenshot({ path: '.tmp/shots/example-progress-1280.png' });

  // Dark, and a phone: the same blocks, drawn to fit.
  const url = page.url();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: '.tmp/shots/example-progress-dark-1280.png' });
  await expect(axeViolations(page, {}, page.locator('[data-slate-editor]'))).resolves.toEqual([]);
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 375, height: 800 });
  await phone.goto(url);
  await phone.locator('.page[aria-busy="false"] .block-progress').first().waitFor();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: '.tmp/shots/example-progress-375.png' });
  await context.close();
});
