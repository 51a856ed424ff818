import type { Page } from 'playwright-core';
import { blocksOf, newPage, savedAndReloaded, shoot, signedInEditorSuite } from '../helpers/editorPage';

/*
 * Issue 15, "editor habits", in real Chromium against the real server (SQLite): markdown typed
 * as in other editors (``` fences with a language, `>` quotes, inline **bold**, *italic*,
 * _italic_, `code`, ~~strike~~ and undo of them), each checked again after a reload where it is
 * saved.
 */

const { openApp } = signedInEditorSuite('habits@example.com');

/** The inline HTML of the n-th block after the title, with Slate's attributes stripped. */
const inlineHtml = (page: Page, n: number) =>
  page
    .locator('[data-slate-editor] [data-block-id]')
    .nth(n + 1)
    .evaluate((block) => {
      const clone = block.cloneNode(true) as HTMLElement;
      for (const node of clone.querySelectorAll('[contenteditable="false"]')) node.remove();
      return [...clone.querySelectorAll('[data-slate-leaf]')]
        .map((leaf) => {
          const strip = (element: Element): string =>
            [...element.childNodes]
              .map((child) => {
                if (child.nodeType === 3) return (child.textContent ?? '').replace(/\uFEFF/g, '');
                const el = child as Element;
                const inner = strip(el);
                return ['STRONG', 'EM', 'CODE', 'S', 'U'].includes(el.tagName) ? `<${el.tagName.toLowerCase()}>${inner}</${el.tagName.toLowerCase()}>` : inner;
              })
              .join('');
          return strip(leaf);
        })
        .join('');
    });

const codeLanguage = (page: Page, n = 0) => page.locator('[data-slate-editor] .block-codeBlock').nth(n).getByRole('combobox', { name: 'Язык кода' }).inputValue();

it('markdown while typing: ``` + space, ```py + Enter, > quote, **bold** *italic* _italic_ `code` ~~strike~~, undo gives the markers back', async () => {
  const page = await openApp();
  await newPage(page, 'Привычки');

  // A fence and a space: an empty code block in the default language; Ctrl+Enter leaves it.
  await page.keyboard.type('``` ');
  await page.keyboard.type('let a = 1;');
  await page.keyboard.press('Control+Enter');
  // A fence with a language and Enter: the language is set.
  await page.keyboard.type('```py');
  await page.keyboard.press('Enter');
  await page.keyboard.type('print(1)');
  await page.keyboard.press('Control+Enter');
  await page.keyboard.type('> Цитата');
  // Enter after a quote goes on in a paragraph.
  await page.keyboard.press('Enter');
  await page.keyboard.type('Это **жирный** и *наклон* и _ещё_ и `код` и ~~старое~~ конец');
  await page.keyboard.press('Enter');
  // Mid-word asterisks and an empty pair stay as typed.
  await page.keyboard.type('2*3*4 и ****');
  await page.keyboard.press('Enter');
  // Undo right after the closing marker gives back what was typed.
  await page.keyboard.type('Отмена **тут**');
  await expect(inlineHtml(page, 5)).resolves.toBe('Отмена <strong>тут</strong>');
  await page.keyboard.press('Control+z');
  await expect(inlineHtml(page, 5)).resolves.toBe('Отмена **тут**');
  await page.keyboard.type('!');

  const check = async () => {
    expect(await blocksOf(page)).toEqual([
      'codeBlock:0:let a = 1;',
      'codeBlock:0:print(1)',
      'quoteBlock:0:Цитата',
      'textBlock:0:Это жирный и наклон и ещё и код и старое конец',
      'textBlock:0:2*3*4 и ****',
      'textBlock:0:Отмена **тут**!',
    ]);
    await expect(codeLanguage(page, 0)).resolves.toBe('javascript');
    await expect(codeLanguage(page, 1)).resolves.toBe('python');
    await expect(inlineHtml(page, 3)).resolves.toBe('Это <strong>жирный</strong> и <em>наклон</em> и <em>ещё</em> и <code>код</code> и <s>старое</s> конец');
  };
  await check();
  await savedAndReloaded(page);
  await check();
  await shoot(page, 'habits-markdown-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await shoot(page, 'habits-markdown-375');
  await page.close();
}, 60_000);
