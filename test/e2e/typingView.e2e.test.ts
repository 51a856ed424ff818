import type { Page } from 'playwright-core';
import { blocksOf, eventually, newPage, saved, shoot, signedInEditorSuite } from '../helpers/editorPage';

/*
 * What follows the caret while one types (issue 39's keystroke work made each of them subscribe
 * to the selection narrowly, so typing in a paragraph renders none of them): the empty paragraph's
 * hint, the floating toolbar, and the caret kept in view at the window's bottom edge.
 */

const { openApp } = signedInEditorSuite('typing.view@example.com');

const hint = (page: Page) => page.locator('.block-text-placeholder');
const paragraphs = (page: Page) => page.locator('[data-slate-editor] .block-textBlock');

/** The hint's top is within the n-th paragraph's box. */
async function hintOn(page: Page, n: number): Promise<boolean> {
  const [h, p] = [await hint(page).boundingBox(), await paragraphs(page).nth(n).boundingBox()];
  return !!h && !!p && h.y >= p.y - 1 && h.y < p.y + p.height;
}

it("the empty paragraph's hint: on the new paragraph after Enter, gone with the first character, back when it is emptied, and moved with its paragraph", async () => {
  const page = await openApp();
  await newPage(page, 'Подсказка');
  await page.keyboard.type('Первый');
  await page.keyboard.press('Enter');
  await hint(page).waitFor();
  await eventually(() => hintOn(page, 1), true);
  await page.keyboard.type('В');
  await hint(page).waitFor({ state: 'detached' });
  await page.keyboard.press('Backspace');
  await hint(page).waitFor();
  await eventually(() => hintOn(page, 1), true);
  // Moved up past «Первый» (Ctrl+Shift+↑): the hint goes with the empty paragraph.
  await page.keyboard.press('Control+Shift+ArrowUp');
  await eventually(() => blocksOf(page), ['textBlock:0:', 'textBlock:0:Первый']);
  await eventually(() => hintOn(page, 0), true);
  // Down to the text: no hint; back up to the empty one: the hint again.
  await page.keyboard.press('ArrowDown');
  await hint(page).waitFor({ state: 'detached' });
  await page.keyboard.press('ArrowUp');
  await eventually(() => hintOn(page, 0), true);
  await shoot(page, 'typing-view-hint');
  await saved(page);
  await page.close();
});

it('the floating toolbar: shown for a selection, gone when a character replaces it, back for the next Shift+←', async () => {
  const page = await openApp();
  await newPage(page, 'Панель');
  await page.keyboard.type('Слово за словом');
  const toolbar = page.getByRole('toolbar', { name: 'Оформление текста' });
  for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowLeft');
  await toolbar.waitFor();
  await page.keyboard.type('делом');
  await toolbar.waitFor({ state: 'detached' });
  await eventually(() => blocksOf(page), ['textBlock:0:Слово за делом']);
  await page.keyboard.press('Shift+ArrowLeft');
  await toolbar.waitFor();
  await page.keyboard.press('ArrowRight');
  await toolbar.waitFor({ state: 'detached' });
  await saved(page);
  await page.close();
});

it('the caret stays in view: new lines typed at the bottom of the window scroll the page with them', async () => {
  const page = await openApp();
  await page.setViewportSize({ width: 1000, height: 600 });
  await newPage(page, 'Внизу');
  const viewport = page.viewportSize()!;
  // Lines until the caret is at the bottom of the window, and 15 more.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.type(`Строка ${i + 1}`);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.type('Последняя');
  const caretInView = () =>
    page.evaluate((height) => {
      const selection = window.getSelection();
      if (!selection || selection.rangeCount === 0) return false;
      const rect = selection.getRangeAt(0).getBoundingClientRect();
      return rect.height > 0 && rect.top >= 0 && rect.bottom <= height;
    }, viewport.height);
  await eventually(caretInView, true);
  // The page did scroll: the first line is above the window now.
  expect((await paragraphs(page).first().boundingBox())!.y).toBeLessThan(0);
  await shoot(page, 'typing-view-bottom');
  await saved(page);
  await page.close();
});
