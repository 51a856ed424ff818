import type { Page } from 'playwright-core';
import { lateFrames } from '../helpers/browser';
import { blocksOf, eventually, newPage, saved, savedAndReloaded, shoot, signedInEditorSuite } from '../helpers/editorPage';

/*
 * Issue 15, "editor habits", in real Chromium against the real server (SQLite): markdown typed
 * as in other editors (``` fences with a language, `>` quotes, inline **bold**, *italic*,
 * _italic_, `code`, ~~strike~~ and undo of them), each checked again after a reload where it is
 * saved.
 */

const { openApp, context } = signedInEditorSuite('habits@example.com');
// Frames come late, as on CI's loaded cores: the keys right after Ctrl+K must reach the link's card.
beforeAll(() => lateFrames(context()));

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

const codeLanguage = (page: Page, n = 0) =>
  page.locator('[data-slate-editor] .block-codeBlock').nth(n).getByRole('combobox', { name: 'Язык кода' }).inputValue();

it('markdown while typing: ``` + space, ```py + Enter, " quote (`>` is a toggle: toggles.e2e), **bold** *italic* _italic_ `code` ~~strike~~, undo gives the markers back', async () => {
  const page = await openApp();
  await newPage(page, 'Привычки');

  // A fence and a space: an empty code block in the default language; Enter twice leaves it.
  await page.keyboard.type('``` ');
  await page.keyboard.type('let a = 1;');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  // A fence with a language and Enter: the language is set.
  await page.keyboard.type('```py');
  await page.keyboard.press('Enter');
  await page.keyboard.type('print(1)');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('" Цитата');
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

/** Whether the formula's field is open and has the focus. */
const formulaFieldFocused = (page: Page) =>
  page.evaluate(() => document.activeElement instanceof HTMLTextAreaElement && document.activeElement.getAttribute('aria-label') === 'Формула LaTeX');

it("a formula opens with a mouse click and stays open (Slate's selection sync 100 ms later no longer takes the focus) until Escape, a click outside or Ctrl+Enter; KaTeX errors in Russian", async () => {
  const page = await openApp();
  await newPage(page, 'Формулы');
  await page.keyboard.type('/latex ');
  await page.keyboard.type('Текст под формулой');
  const field = page.getByRole('textbox', { name: 'Формула LaTeX' });

  // The empty box: a click opens the editor, which is still open and focused after Slate's throttled selection sync.
  await page.locator('.block-latexBlock').getByText('Добавьте формулу').click();
  await page.waitForTimeout(400);
  await expect(formulaFieldFocused(page)).resolves.toBe(true);
  await page.keyboard.type('a+\\foo');
  await page.waitForTimeout(300);
  await expect(page.locator('.block-latexBlock .latex-error').textContent()).resolves.toBe('Ошибка в формуле: неизвестная команда \\foo (позиция 3)');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('\\frac{1}{2');
  await expect(page.locator('.block-latexBlock .latex-error').textContent()).resolves.toBe('Ошибка в формуле: не хватает закрывающей «}» (в конце формулы)');
  await page.keyboard.type('}');
  // A click inside the field (moving the caret) keeps it open too.
  await field.click();
  await page.waitForTimeout(400);
  await expect(formulaFieldFocused(page)).resolves.toBe(true);
  await page.keyboard.press('End');
  await page.keyboard.type('+b');
  await page.keyboard.press('Escape');
  await expect(field.count()).resolves.toBe(0);
  // Escape gives the focus back to the editor (Slate focuses once its pending operations are applied).
  await eventually(() => page.evaluate(() => document.activeElement?.hasAttribute('data-slate-editor') ?? false), true, 1_000);
  await expect(page.locator('.block-latexBlock annotation').textContent()).resolves.toBe('a+\\frac{1}{2}+b');

  // The rendered formula (now selected after Escape): a click opens it, it stays; a click outside saves and closes.
  await page.locator('.block-latexBlock .katex-display').click();
  await page.waitForTimeout(400);
  await expect(formulaFieldFocused(page)).resolves.toBe(true);
  await page.keyboard.press('End');
  await page.keyboard.type('=c');
  await page.getByText('Текст под формулой').click();
  await expect(field.count()).resolves.toBe(0);
  await expect(page.locator('.block-latexBlock annotation').textContent()).resolves.toBe('a+\\frac{1}{2}+b=c');

  // Clicked from a paragraph again, confirmed with Ctrl+Enter.
  await page.locator('.block-latexBlock .katex-display').click();
  await page.waitForTimeout(400);
  await expect(formulaFieldFocused(page)).resolves.toBe(true);
  await field.fill('E = mc^2');
  await page.keyboard.press('Control+Enter');
  await expect(field.count()).resolves.toBe(0);
  await savedAndReloaded(page);
  await page.locator('.block-latexBlock .katex-display').waitFor();
  await expect(page.locator('.block-latexBlock annotation').textContent()).resolves.toBe('E = mc^2');

  // The error as readers see it, at both widths.
  await page.locator('.block-latexBlock .katex-display').click();
  await page.waitForTimeout(400);
  await field.fill('x^{2');
  await expect(page.locator('.block-latexBlock .latex-error').textContent()).resolves.toBe('Ошибка в формуле: не хватает закрывающей «}» (в конце формулы)');
  await shoot(page, 'habits-formula-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await shoot(page, 'habits-formula-375');
  await page.close();
}, 60_000);

it('leaving a code block: Enter twice on the empty last line, ArrowDown at the end (to the next block, or a new paragraph after the last); Ctrl+Enter and Shift+Enter stay; the hint shows while the caret is in the code', async () => {
  const page = await openApp();
  await newPage(page, 'Код');
  const hint = page.locator('.block-codeBlock .code-hint');
  await page.keyboard.type('```js');
  await page.keyboard.press('Enter');
  await hint.waitFor();
  await expect(hint.textContent()).resolves.toBe('Enter дважды на пустой строке или ↓ в конце — выйти из кода');
  await page.keyboard.type('a');
  await page.keyboard.press('Control+Enter');
  await page.keyboard.type('b');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('c');
  await page.keyboard.press('Enter');
  await shoot(page, 'habits-code-hint-1280');
  await page.keyboard.press('Enter');
  await page.keyboard.type('После кода');
  expect(await blocksOf(page)).toEqual(['codeBlock:0:a\nb\nc', 'textBlock:0:После кода']);
  // The hint goes with the caret.
  await expect(hint.count()).resolves.toBe(0);

  // ArrowDown at the very end of the code goes to the start of the next block.
  await page.locator('.block-codeBlock pre').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  await hint.waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('→ ');
  expect(await blocksOf(page)).toEqual(['codeBlock:0:a\nb\nc', 'textBlock:0:→ После кода']);

  // A code block that is the last block: ArrowDown at its end makes a paragraph after it.
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('``` ');
  await page.keyboard.type('last()');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type('Ниже');
  const expected = ['codeBlock:0:a\nb\nc', 'textBlock:0:→ После кода', 'codeBlock:0:last()', 'textBlock:0:Ниже'];
  expect(await blocksOf(page)).toEqual(expected);
  await savedAndReloaded(page);
  expect(await blocksOf(page)).toEqual(expected);

  // At a phone's width the hint wraps inside the block.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.locator('.block-codeBlock pre').first().click();
  await hint.waitFor();
  await shoot(page, 'habits-code-hint-375');
  await page.close();
}, 60_000);

it("/страница makes a child page and opens it once its block is saved, the caret in the new page's title", async () => {
  const page = await openApp();
  const parentUrl = await newPage(page, 'Родитель');
  await page.keyboard.type('Перед');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/страница');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.toString() !== parentUrl, { timeout: 10_000 });
  const childUrl = page.url();
  expect(childUrl).toMatch(/\/[0-9a-f-]{36}$/);
  // The caret is in the title of the new page: typing names it.
  const caretInTitle = () =>
    page.evaluate(() => {
      const selection = window.getSelection();
      const node = selection?.anchorNode;
      const element = node ? (node instanceof Element ? node : node.parentElement) : null;
      return document.activeElement?.hasAttribute('data-slate-editor') === true && !!element?.closest('[data-slate-editor] h1');
    });
  await eventually(caretInTitle, true);
  await page.keyboard.type('Дочерняя');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Текст внутри');
  await expect(page.locator('[data-slate-editor] h1').textContent()).resolves.toBe('Дочерняя');
  await shoot(page, 'habits-child-page-1280');
  await saved(page);

  // The parent links it (its block was saved before the page opened): after a fresh load too.
  await page.goto(parentUrl);
  const link = page.locator('[data-slate-editor] .block-documentBlock a.document-link');
  await link.getByText('Дочерняя').waitFor();
  // (A void block at the end of the page keeps an empty paragraph after it to write in.)
  expect(await blocksOf(page)).toEqual(['textBlock:0:Перед', 'documentBlock:0:', 'textBlock:0:']);
  await expect(link.getAttribute('href')).resolves.toBe(new URL(childUrl).pathname);
  await page.close();
}, 60_000);

it('the block menu: «Превратить в» only for blocks that hold text (not a database); keyboard: the first item has the focus, ↑/↓ move, Escape closes and gives the editor the focus back', async () => {
  const page = await openApp();
  await newPage(page, 'Меню блока');
  await page.keyboard.type('Абзац');
  await saved(page);
  // A database block, as templates and the API make them (the editor has no way to make one yet).
  const pageId = page.url().split('/').pop()!;
  const status = await page.evaluate(async (id) => {
    const fields = { MAIN_FIELD: { name: 'Название', type: 'text' }, stage: { name: 'Этап', type: 'select', options: [{ id: 'todo', name: 'Сделать' }] } };
    const view = { layouts: [{ uid: 'table-1', type: 'table', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }] }] };
    const response = await fetch('/api/v3/spaces/block', {
      method: 'POST',
      headers: { 'X-App-Type': 'Web', 'Content-Type': 'application/json' },
      body: JSON.stringify({ pageId: id, type: 'database', data: { config: { fields }, view } }),
      credentials: 'same-origin',
    });
    return response.status;
  }, pageId);
  expect(status).toBe(201);
  await page.reload();
  const database = page.locator('[data-slate-editor] .block-databaseBlock');
  await database.waitFor();
  const menu = page.getByRole('menu', { name: 'Действия с блоком' });
  const focusedItem = () =>
    page.evaluate(() => (document.activeElement?.getAttribute('role') === 'menuitem' ? (document.activeElement.firstChild?.textContent ?? '').trim() : null));
  const editorFocused = () => page.evaluate(() => document.activeElement?.hasAttribute('data-slate-editor') ?? false);

  await database.hover();
  await page.getByRole('button', { name: 'Блок: меню и перетаскивание' }).click();
  await menu.waitFor();
  await expect(menu.getByText('Превратить в').count()).resolves.toBe(0);
  await expect(menu.getByRole('menuitem').evaluateAll((all) => all.map((b) => (b.firstChild?.textContent ?? '').trim()))).resolves.toEqual([
    'Дублировать',
    'Переместить выше',
    'Переместить ниже',
    'Удалить',
  ]);
  await shoot(page, 'habits-block-menu-database-1280');
  await expect(focusedItem()).resolves.toBe('Дублировать');
  await page.keyboard.press('ArrowDown');
  await expect(focusedItem()).resolves.toBe('Переместить выше');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(focusedItem()).resolves.toBe('Удалить');
  await page.keyboard.press('Escape');
  await expect(menu.count()).resolves.toBe(0);
  await eventually(editorFocused, true, 1_000);

  // A paragraph is offered «Превратить в»; Escape closes, and typing goes on where the caret was.
  const paragraph = page.locator('[data-slate-editor] .block-textBlock').filter({ hasText: 'Абзац' });
  await paragraph.click();
  await page.keyboard.press('End');
  await paragraph.hover();
  await page.getByRole('button', { name: 'Блок: меню и перетаскивание' }).click();
  await menu.waitFor();
  await expect(menu.getByText('Превратить в').count()).resolves.toBe(1);
  await expect(menu.getByRole('menuitem', { name: 'Заголовок 1' }).count()).resolves.toBe(1);
  await shoot(page, 'habits-block-menu-text-1280');
  await page.keyboard.press('Escape');
  await expect(menu.count()).resolves.toBe(0);
  await eventually(editorFocused, true, 1_000);
  await page.keyboard.type('!');
  await expect(paragraph.textContent()).resolves.toBe('Абзац!');

  await page.setViewportSize({ width: 375, height: 800 });
  await paragraph.hover();
  await page.getByRole('button', { name: 'Блок: меню и перетаскивание' }).click();
  await menu.waitFor();
  await shoot(page, 'habits-block-menu-text-375');
  await page.keyboard.press('Escape');
  await expect(menu.count()).resolves.toBe(0);
  await page.close();
}, 60_000);

it('a link shows its card after 300 ms of hover (address, Открыть, Изменить, Удалить ссылку), also for the caret, reachable with Ctrl+K; dark theme', async () => {
  const page = await openApp();
  await newPage(page, 'Ссылки');
  await page.keyboard.type('Сайт: пример и всё');
  for (let i = 0; i < 6; i += 1) await page.keyboard.press('ArrowLeft');
  for (let i = 0; i < 6; i += 1) await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Control+k');
  await page.getByRole('textbox', { name: 'Ссылка' }).fill('example.com/page');
  await page.keyboard.press('Enter');
  const link = page.locator('[data-slate-editor] a[href]');
  await expect(link.getAttribute('href')).resolves.toBe('https://example.com/page');
  await page.keyboard.press('End');
  const card = page.getByRole('dialog', { name: 'Ссылка' });

  // Hover: the card about 300 ms after the pointer came onto the link (spec: link tooltip
  // debounce), timed in the page — the pointer's arrival and the card's, not this process's round
  // trips, which a loaded machine stretches either way.
  const box = (await link.boundingBox())!;
  await link.evaluate((element) => {
    const times = window as unknown as { hoverAt?: number; cardAt?: number };
    element.addEventListener('mouseenter', () => (times.hoverAt ??= performance.now()), { once: true });
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[role="dialog"][aria-label="Ссылка"]')) return;
      times.cardAt = performance.now();
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await card.waitFor();
  const waited = await page.evaluate(() => {
    const times = window as unknown as { hoverAt?: number; cardAt?: number };
    return (times.cardAt ?? NaN) - (times.hoverAt ?? NaN);
  });
  expect(waited).toBeGreaterThanOrEqual(290);
  expect(waited).toBeLessThan(1_500);
  await expect(card.locator('.link-card-address').textContent()).resolves.toBe('https://example.com/page');
  await expect(card.getByRole('button').allTextContents()).resolves.toEqual(['Открыть', 'Изменить', 'Удалить ссылку']);
  // The card sits under the link.
  const cardBox = (await card.boundingBox())!;
  expect(cardBox.y).toBeGreaterThan(box.y + box.height - 1);
  expect(cardBox.y).toBeLessThan(box.y + box.height + 20);

  // Открыть: a new tab with the address (window.open is watched, not followed: no network here).
  await page.evaluate(() => {
    const opened: unknown[][] = ((window as unknown as { __opened: unknown[][] }).__opened = []);
    window.open = (...args: unknown[]) => {
      opened.push(args);
      return null;
    };
  });
  await card.getByRole('button', { name: 'Открыть' }).click();
  await expect(page.evaluate(() => (window as unknown as { __opened: unknown[][] }).__opened)).resolves.toEqual([
    ['https://example.com/page', '_blank', 'noopener,noreferrer'],
  ]);
  await expect(card.count()).resolves.toBe(0);

  // Moving away hides it.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 200);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await card.waitFor();
  await page.mouse.move(box.x + box.width / 2, box.y + 400);
  await eventually(() => card.count(), 0, 2_000);

  // Изменить: the link field for the whole link, filled with its address.
  await page.mouse.move(box.x + 3, box.y + box.height / 2);
  await card.waitFor();
  await card.getByRole('button', { name: 'Изменить' }).click();
  const field = page.getByRole('textbox', { name: 'Ссылка' });
  await field.waitFor();
  await expect(field.inputValue()).resolves.toBe('https://example.com/page');
  await field.fill('https://example.org/new');
  await page.keyboard.press('Enter');
  await expect(link.getAttribute('href')).resolves.toBe('https://example.org/new');
  await expect(link.textContent()).resolves.toBe('пример');

  // The caret in the link shows the card too; Ctrl+K takes the focus into it, arrows move, Enter acts.
  // The card the pointer opened stays when the caret comes into its link as the pointer leaves.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await card.waitFor();
  await page.mouse.move(box.x + box.width / 2, box.y + 400);
  await page.keyboard.press('End');
  for (let i = 0; i < 9; i += 1) await page.keyboard.press('ArrowLeft');
  await page.waitForTimeout(600);
  await expect(card.count()).resolves.toBe(1);
  // The keys right after Ctrl+K (before the next frame, which comes late on a loaded machine) are the card's.
  await page.keyboard.press('Control+k');
  await page.keyboard.press('ArrowRight');
  const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
  await expect(focused()).resolves.toBe('Изменить');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(focused()).resolves.toBe('Удалить ссылку');
  // Escape goes back to the text, the link unchanged.
  await page.keyboard.press('Escape');
  await eventually(() => page.evaluate(() => document.activeElement?.hasAttribute('data-slate-editor') ?? false), true, 1_000);
  await expect(link.count()).resolves.toBe(1);
  // (The keys right after Ctrl+K were tested above; here the card is let take the focus first: a
  // loaded run once pressed ArrowLeft into the text.)
  // The caret is back in the link once the browser's selection is there again (a loaded machine
  // puts it back a moment after the focus; Ctrl+K before that finds no link at the caret: CI, ddfa0e7).
  await eventually(() => page.evaluate(() => !!window.getSelection()?.anchorNode?.parentElement?.closest('[data-slate-editor] a')), true, 5_000);
  // (Pressed again if the first press found the editor's selection not yet where the browser's is:
  // a loaded CI run, three sessions in a row; alone it passes every time.)
  const inCard = async () => ['Открыть', 'Изменить', 'Удалить ссылку'].includes(await focused());
  for (let attempt = 0; attempt < 3 && !(await inCard()); attempt += 1) {
    await page.keyboard.press('Control+k');
    const until = Date.now() + 2_000;
    while (Date.now() < until && !(await inCard())) await page.waitForTimeout(50);
  }
  await expect(inCard()).resolves.toBe(true);
  await page.keyboard.press('ArrowLeft');
  await expect(focused()).resolves.toBe('Удалить ссылку');
  await page.keyboard.press('Enter');
  // (The link goes with the editor's next render, which a loaded machine may draw a moment later.)
  await eventually(() => link.count(), 0);
  expect(await blocksOf(page)).toEqual(['textBlock:0:Сайт: пример и всё']);
  await eventually(() => page.evaluate(() => document.activeElement?.hasAttribute('data-slate-editor') ?? false), true, 1_000);
  await page.keyboard.type('!');
  expect(await blocksOf(page)).toEqual(['textBlock:0:Сайт: при!мер и всё']);
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await expect(link.count()).resolves.toBe(1);
  await savedAndReloaded(page);
  await expect(link.getAttribute('href')).resolves.toBe('https://example.org/new');

  // Dark theme, at both widths.
  await page.emulateMedia({ colorScheme: 'dark' });
  await eventually(() => page.evaluate(() => document.documentElement.dataset.theme), 'dark', 2_000);
  const again = (await link.boundingBox())!;
  await page.mouse.move(again.x + again.width / 2, again.y + again.height / 2);
  await card.waitFor();
  const colours = await card.evaluate((element) => {
    const style = getComputedStyle(element);
    return { background: style.backgroundColor, text: getComputedStyle(element.querySelector('button')!).color };
  });
  expect(colours.background).not.toBe('rgb(255, 255, 255)');
  expect(colours.text).not.toBe(colours.background);
  await shoot(page, 'habits-link-card-dark-1280');
  await page.mouse.move(again.x, again.y + 400);
  await eventually(() => card.count(), 0, 2_000);
  await page.setViewportSize({ width: 375, height: 800 });
  const narrow = (await link.boundingBox())!;
  await page.mouse.move(narrow.x + narrow.width / 2, narrow.y + narrow.height / 2);
  await card.waitFor();
  const narrowCard = (await card.boundingBox())!;
  expect(narrowCard.x).toBeGreaterThanOrEqual(0);
  expect(narrowCard.x + narrowCard.width).toBeLessThanOrEqual(375);
  await shoot(page, 'habits-link-card-dark-375');
  await page.emulateMedia({ colorScheme: 'light' });
  await shoot(page, 'habits-link-card-light-375');
  await page.close();
}, 90_000);
