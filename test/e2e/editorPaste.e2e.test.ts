import type { Page } from 'playwright-core';
import { blockIdsOf, blocksOf, newPage, pasteData, savedAndReloaded, tableCells, signedInEditorSuite } from '../helpers/editorPage';

/*
 * Paste in real Chromium against the real server (SQLite): HTML as Google Docs puts it on the
 * clipboard, HTML that tries to run code, markdown as plain text, and blocks copied and pasted
 * inside the editor with Ctrl+C / Ctrl+V — the resulting blocks, marks and links as a user sees
 * them, and the same after a reload.
 */

// Ctrl+C / Ctrl+V go through the system clipboard, which a page may use only with these permissions.
const { openApp } = signedInEditorSuite('paster@example.com', { permissions: ['clipboard-read', 'clipboard-write'] });

/** The links in the editor as [text, href]. */
const links = (page: Page) => page.locator('[data-slate-editor] a').evaluateAll((all) => all.map((a) => [a.textContent ?? '', a.getAttribute('href') ?? '']));

const GOOGLE_DOCS_HTML =
  '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b3c4d-7fff-8e9a-bcde-0123456789ab">' +
  '<h1 dir="ltr" style="line-height:1.38;margin-top:20pt;margin-bottom:6pt;"><span style="font-size:20pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;font-style:normal;">План</span></h1>' +
  '<p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">Обычный </span>' +
  '<span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:700;">жирный</span><span style="font-size:11pt;font-weight:400;"> и </span>' +
  '<span style="font-size:11pt;font-weight:400;font-style:italic;">курсив</span><span style="font-size:11pt;font-weight:400;">, </span>' +
  '<a href="https://example.com/a" style="text-decoration:none;"><span style="font-size:11pt;color:#1155cc;font-weight:400;text-decoration:underline;">ссылка</span></a></p>' +
  '<br>' +
  '<ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;">' +
  '<li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" style="line-height:1.38;" role="presentation"><span style="font-size:11pt;font-weight:400;">Первый</span></p></li>' +
  '<ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;">' +
  '<li dir="ltr" style="list-style-type:circle;font-size:11pt;" aria-level="2"><p dir="ltr" role="presentation"><span style="font-weight:400;">Вложенный</span></p></li>' +
  '</ul>' +
  '<li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">Второй</span></p></li>' +
  '</ul><br>' +
  '<div dir="ltr" style="margin-left:0pt;" align="left"><table style="border:none;border-collapse:collapse;"><colgroup><col width="200"><col width="301"></colgroup><tbody>' +
  '<tr style="height:0pt"><td style="border-left:solid #000000 1pt;"><p dir="ltr"><span style="font-weight:700;">Ключ</span></p></td><td><p dir="ltr"><span style="font-weight:400;">Значение</span></p></td></tr>' +
  '<tr style="height:0pt"><td><p dir="ltr"><span>a</span></p></td><td><p dir="ltr"><span>b</span></p></td></tr>' +
  '</tbody></table></div></b><br class="Apple-interchange-newline">';

it('HTML from Google Docs: a heading, bold and italic spans, a link, a nested list and a table', async () => {
  const page = await openApp();
  await newPage(page, 'Из Документов');
  const result = await pasteData(page, {
    'text/html': GOOGLE_DOCS_HTML,
    // Google Docs also puts the plain text there; the HTML is read first.
    'text/plain': 'План\nОбычный жирный и курсив, ссылка\nПервый\nВложенный\nВторой\nКлюч\tЗначение\na\tb',
  });
  // Chromium hands a paste with HTML to the editor on `beforeinput`, as for a real Ctrl+V.
  expect(result).toEqual({ handledOnPaste: false, handledOnBeforeInput: true });

  const check = async () => {
    expect(await blocksOf(page)).toEqual([
      'heading1Block:0:План',
      'textBlock:0:Обычный жирный и курсив, ссылка',
      'bulletListBlock:0:Первый',
      'bulletListBlock:1:Вложенный',
      'bulletListBlock:0:Второй',
      'tableBlock:0:КлючЗначениеab',
      // A table is never the last block: a paragraph follows it.
      'textBlock:0:',
    ]);
    // The Docs wrapper (<b style="font-weight:normal">) is not bold; the spans' styles are marks.
    await expect(page.locator('[data-slate-editor] .block-textBlock strong').allTextContents()).resolves.toEqual(['жирный']);
    await expect(page.locator('[data-slate-editor] .block-textBlock em').allTextContents()).resolves.toEqual(['курсив']);
    await expect(page.locator('[data-slate-editor] .block-textBlock u').allTextContents()).resolves.toEqual(['ссылка']);
    expect(await links(page)).toEqual([['ссылка', 'https://example.com/a']]);
    expect(await tableCells(page)).toEqual([
      ['Ключ', 'Значение'],
      ['a', 'b'],
    ]);
    await expect(page.locator('.block-tableBlock strong').allTextContents()).resolves.toEqual(['Ключ']);
    await expect(page.locator('.block-tableBlock col').evaluateAll((cols) => cols.map((c) => (c as HTMLElement).style.width))).resolves.toEqual([
      '200px',
      '301px',
    ]);
  };
  await check();
  await savedAndReloaded(page);
  await check();
  await page.close();
}, 60_000);

it('pasted HTML keeps no script, no event handler and no javascript: link', async () => {
  const page = await openApp();
  await newPage(page, 'Опасная вставка');
  await page.evaluate(() => {
    (window as unknown as { __pwned?: number }).__pwned = undefined;
  });
  const result = await pasteData(page, {
    'text/html':
      '<p>Безопасный текст <a href="javascript:window.__pwned=1">плохая ссылка</a> и ' +
      '<a href="https://example.com/ok" onclick="window.__pwned=2">хорошая ссылка</a></p>' +
      '<script>window.__pwned=3</script>' +
      '<p onclick="window.__pwned=4"><img src="x" onerror="window.__pwned=5">Второй абзац <a href="JaVaScRiPt:window.__pwned=6">ещё одна</a></p>' +
      '<iframe src="javascript:window.__pwned=7"></iframe>' +
      '<style>body { display: none }</style>',
    'text/plain': 'Безопасный текст плохая ссылка и хорошая ссылка\nВторой абзац ещё одна',
  });
  expect(result).toEqual({ handledOnPaste: false, handledOnBeforeInput: true });

  const check = async () => {
    expect(await blocksOf(page)).toEqual(['textBlock:0:Безопасный текст плохая ссылка и хорошая ссылка', 'textBlock:0:Второй абзац ещё одна']);
    // Only the http(s) link is a link; the javascript: ones are plain text.
    expect(await links(page)).toEqual([['хорошая ссылка', 'https://example.com/ok']]);
    const leftovers = await page.evaluate(() => ({
      handlers: document.querySelectorAll('[onclick], [onerror]').length,
      scripts: document.querySelectorAll('[data-slate-editor] script, [data-slate-editor] iframe, [data-slate-editor] img, [data-slate-editor] style').length,
      javascriptLinks: [...document.querySelectorAll('a[href]')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
      hidden: getComputedStyle(document.body).display === 'none',
    }));
    expect(leftovers).toEqual({ handlers: 0, scripts: 0, javascriptLinks: 0, hidden: false });
    await page.waitForTimeout(300);
    await expect(page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
  };
  await check();
  await savedAndReloaded(page);
  await check();
  await page.close();
}, 60_000);

it('markdown pasted as plain text: heading, nested list, paragraph with code, task list, code fence, quote', async () => {
  const page = await openApp();
  await newPage(page, 'Из markdown');
  const markdown = [
    '# Заголовок из markdown',
    '',
    '- пункт один',
    '- пункт **два**',
    '  - вложенный',
    '',
    'Абзац с `кодом` и *наклоном*',
    '',
    '- [ ] задача открыта',
    '- [x] задача сделана',
    '',
    '```js',
    'const x = 1;',
    '```',
    '',
    '> цитата из markdown',
  ].join('\n');
  const result = await pasteData(page, { 'text/plain': markdown });
  // Plain text alone is read on `paste` itself (slate-react's own path for it in Chromium).
  expect(result).toEqual({ handledOnPaste: true, handledOnBeforeInput: false });

  const check = async () => {
    expect(await blocksOf(page)).toEqual([
      'heading1Block:0:Заголовок из markdown',
      'bulletListBlock:0:пункт один',
      'bulletListBlock:0:пункт два',
      'bulletListBlock:1:вложенный',
      'textBlock:0:Абзац с кодом и наклоном',
      'checkboxBlock:0:задача открыта',
      'checkboxBlock:0:задача сделана',
      'codeBlock:0:const x = 1;',
      'quoteBlock:0:цитата из markdown',
    ]);
    await expect(page.locator('[data-slate-editor] .block-bulletListBlock strong').allTextContents()).resolves.toEqual(['два']);
    await expect(page.locator('[data-slate-editor] .block-textBlock code').allTextContents()).resolves.toEqual(['кодом']);
    await expect(page.locator('[data-slate-editor] .block-textBlock em').allTextContents()).resolves.toEqual(['наклоном']);
    const boxes = page.getByRole('checkbox', { name: /^задача/ });
    await expect(boxes.evaluateAll((all) => all.map((box) => (box as HTMLInputElement).checked))).resolves.toEqual([false, true]);
    await expect(page.getByRole('combobox', { name: 'Язык кода' }).inputValue()).resolves.toBe('javascript');
    await page.locator('.block-codeBlock .token.keyword').first().waitFor();
  };
  await check();
  // The paste is one undo step: Ctrl+Z takes all of it back, Ctrl+Shift+Z brings it again.
  await page.keyboard.press('Control+z');
  expect(await blocksOf(page)).toEqual(['textBlock:0:']);
  await page.keyboard.press('Control+Shift+Z');
  await check();
  await savedAndReloaded(page);
  await check();
  await page.close();
}, 60_000);

it('blocks selected, copied with Ctrl+C and pasted with Ctrl+V come back as the same blocks with new ids', async () => {
  const page = await openApp();
  await newPage(page, 'Копирование');
  await page.keyboard.type('Альфа');
  await page.keyboard.press('Enter');
  await page.keyboard.type('* Бета');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Вложенная');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('[] Гамма');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByRole('checkbox', { name: 'Гамма' }).click();
  const original = ['textBlock:0:Альфа', 'bulletListBlock:0:Бета', 'bulletListBlock:1:Вложенная', 'checkboxBlock:0:Гамма'];
  expect(await blocksOf(page)).toEqual([...original, 'textBlock:0:']);
  const originalIds = (await blockIdsOf(page)).slice(0, 4);

  // Select the four blocks as blocks (Escape, then Shift+↓), copy, put the caret in the empty
  // paragraph at the end, paste.
  await page.getByText('Альфа').click();
  await page.keyboard.press('Escape');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Control+c');
  await page.locator('[data-slate-editor] [data-block-id]').last().click();
  await page.keyboard.press('Control+v');

  const check = async () => {
    expect(await blocksOf(page)).toEqual([...original, ...original]);
    const boxes = page.getByRole('checkbox', { name: 'Гамма' });
    await expect(boxes.evaluateAll((all) => all.map((box) => (box as HTMLInputElement).checked))).resolves.toEqual([true, true]);
  };
  await check();
  const ids = await blockIdsOf(page);
  expect(ids.slice(0, 4)).toEqual(originalIds);
  expect(new Set(ids).size).toBe(8);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);

  await savedAndReloaded(page);
  await check();
  expect(await blockIdsOf(page)).toEqual(ids);
  await page.close();
}, 60_000);
