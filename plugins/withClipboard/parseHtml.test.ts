/** @jest-environment jsdom */
import type { BlockElement } from '../../schema/slate';
import { parseHtml } from './parseHtml';

/** The parsed blocks without uids and versions (fresh ones every time), for exact comparison. */
function shape(html: string): unknown {
  const content = parseHtml(html);
  if (!content) return null;
  if (content.kind === 'inline') return { inline: content.tokens };
  return content.blocks.map(({ uid, version, ...rest }: BlockElement) => {
    expect(uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(version).toBe(1);
    return rest;
  });
}

describe('parseHtml: Google Docs', () => {
  const googleDocs =
    '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b3c4d-7fff-8e9a-bcde-0123456789ab">' +
    '<h1 dir="ltr" style="line-height:1.38;margin-top:20pt;margin-bottom:6pt;"><span style="font-size:20pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;font-style:normal;">План</span></h1>' +
    '<p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">Обычный </span>' +
    '<span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:700;">жирный</span><span style="font-size:11pt;font-weight:400;"> и </span>' +
    '<span style="font-size:11pt;font-weight:400;font-style:italic;">курсив</span>' +
    '<a href="https://example.com/a" style="text-decoration:none;"><span style="font-size:11pt;color:#1155cc;font-weight:400;text-decoration:underline;">ссылка</span></a></p>' +
    '<br>' +
    '<ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;">' +
    '<li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" style="line-height:1.38;" role="presentation"><span style="font-size:11pt;font-weight:400;">Первый</span></p></li>' +
    '<ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;">' +
    '<li dir="ltr" style="list-style-type:circle;font-size:11pt;" aria-level="2"><p dir="ltr" role="presentation"><span style="font-weight:400;">Вложенный</span></p></li>' +
    '</ul>' +
    '<li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">Второй</span></p></li>' +
    '</ul>' +
    '<ol style="margin-top:0;margin-bottom:0;"><li dir="ltr" style="list-style-type:decimal;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">Раз</span></p></li></ol>' +
    '</b><br class="Apple-interchange-newline">';

  test('headings, marks from styles, links, nested lists as depths; the wrapper is not bold', () => {
    expect(shape(googleDocs)).toEqual([
      { type: 'heading1Block', children: [{ text: 'План' }] },
      {
        type: 'textBlock',
        children: [
          { text: 'Обычный ' },
          { text: 'жирный', bold: true },
          { text: ' и ' },
          { text: 'курсив', italic: true },
          { text: 'ссылка', underline: true, link: { href: 'https://example.com/a' } },
        ],
      },
      { type: 'bulletListBlock', children: [{ text: 'Первый' }] },
      { type: 'bulletListBlock', children: [{ text: 'Вложенный' }], depth: 1 },
      { type: 'bulletListBlock', children: [{ text: 'Второй' }] },
      { type: 'orderedListBlock', children: [{ text: 'Раз' }] },
    ]);
  });

  test('a piece of one Google Docs paragraph is inline content, bold only where the span says so', () => {
    const html =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-y"><span style="font-weight:700;">Важно</span><span style="font-weight:400;">: текст</span></b>';
    expect(shape(html)).toEqual({ inline: [{ text: 'Важно', bold: true }, { text: ': текст' }] });
  });

  test('a Google Docs checklist item becomes a checkbox', () => {
    const html =
      '<b style="font-weight:normal;" id="docs-internal-guid-x"><ul><li dir="ltr" role="checkbox" aria-checked="true" aria-level="1"><p dir="ltr" role="presentation"><span style="text-decoration:line-through;">Готово</span></p></li>' +
      '<li dir="ltr" role="checkbox" aria-checked="false" aria-level="1"><p role="presentation"><span>Не готово</span></p></li></ul></b>';
    expect(shape(html)).toEqual([
      { type: 'checkboxBlock', checked: true, children: [{ text: 'Готово', struckOut: true }] },
      { type: 'checkboxBlock', checked: false, children: [{ text: 'Не готово' }] },
    ]);
  });
});

test('a Google Docs table (in its div, with col widths and paragraphs in cells)', () => {
  const html =
    '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-t"><div dir="ltr" style="margin-left:0pt;" align="left">' +
    '<table style="border:none;border-collapse:collapse;"><colgroup><col width="200"><col width="301"></colgroup><tbody>' +
    '<tr style="height:0pt"><td style="border-left:solid #000000 1pt;"><p dir="ltr"><span style="font-weight:700;">Ключ</span></p></td><td><p dir="ltr"><span style="font-weight:400;">Значение</span></p></td></tr>' +
    '<tr style="height:0pt"><td><p dir="ltr"><span>a</span></p></td><td><p dir="ltr"><span>b</span></p></td></tr>' +
    '</tbody></table></div></b>';
  expect(shape(html)).toEqual([
    {
      type: 'tableBlock',
      tableLayout: { columns: 2, rows: 2, columnSizes: [200, 301] },
      headerRow: false,
      headerColumn: false,
      children: [
        {
          type: 'tableRow',
          children: [
            { type: 'tableCell', children: [{ text: 'Ключ', bold: true }] },
            { type: 'tableCell', children: [{ text: 'Значение' }] },
          ],
        },
        {
          type: 'tableRow',
          children: [
            { type: 'tableCell', children: [{ text: 'a' }] },
            { type: 'tableCell', children: [{ text: 'b' }] },
          ],
        },
      ],
    },
  ]);
});

describe('parseHtml: Word', () => {
  const word =
    '<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta name=Generator content="Microsoft Word 15">' +
    '<style><!-- p.MsoNormal {mso-style-parent:""; margin:0cm; font-size:11.0pt;} --></style></head><body lang=RU style="tab-interval:35.4pt">' +
    '<!--StartFragment-->' +
    '<p class=MsoNormal><b><span style="mso-bidi-font-weight:normal">Отчёт</span></b> за <i>март</i><o:p></o:p></p>' +
    '<p class=MsoNormal><o:p>&nbsp;</o:p></p>' +
    "<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-fareast-font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt \"Times New Roman\"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Пункт один<o:p></o:p></p>" +
    "<p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;mso-add-space:auto;text-indent:-18.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='font-family:\"Courier New\"'><span style='mso-list:Ignore'>o<span style='font:7.0pt \"Times New Roman\"'>&nbsp;&nbsp; </span></span></span><![endif]>Подпункт<o:p></o:p></p>" +
    "<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt \"Times New Roman\"'>&nbsp;&nbsp; </span></span></span><![endif]>Пункт два<o:p></o:p></p>" +
    "<table class=MsoTableGrid border=1 cellspacing=0 cellpadding=0 style='border-collapse:collapse;mso-yfti-tbllook:1184'><tr style='mso-yfti-irow:0'>" +
    "<td width=319 valign=top style='width:239.25pt;border:solid windowtext 1.0pt'><p class=MsoNormal>Ячейка<o:p></o:p></p></td>" +
    "<td width=100 valign=top style='width:75pt'><p class=MsoNormal><i>вторая</i><o:p></o:p></p></td></tr></table>" +
    "<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span><span style='mso-list:Ignore'>1.<span style='font:7.0pt \"Times New Roman\"'>&nbsp;&nbsp; </span></span></span><![endif]>Шаг<o:p></o:p></p>" +
    '<!--EndFragment--></body></html>';

  test('MsoNormal paragraphs with marks, empty paragraphs dropped, mso-list paragraphs as nested lists', () => {
    expect(shape(word)).toEqual([
      { type: 'textBlock', children: [{ text: 'Отчёт', bold: true }, { text: ' за ' }, { text: 'март', italic: true }] },
      { type: 'bulletListBlock', children: [{ text: 'Пункт один' }] },
      { type: 'bulletListBlock', children: [{ text: 'Подпункт' }], depth: 1 },
      { type: 'bulletListBlock', children: [{ text: 'Пункт два' }] },
      {
        type: 'tableBlock',
        tableLayout: { columns: 2, rows: 1, columnSizes: [319, 100] },
        headerRow: false,
        headerColumn: false,
        children: [
          {
            type: 'tableRow',
            children: [
              { type: 'tableCell', children: [{ text: 'Ячейка' }] },
              { type: 'tableCell', children: [{ text: 'вторая', italic: true }] },
            ],
          },
        ],
      },
      { type: 'orderedListBlock', children: [{ text: 'Шаг' }] },
    ]);
  });
});

describe('parseHtml: Notion', () => {
  const notion =
    '<meta charset="utf-8"><h2>Задачи</h2><p>Текст с <strong>жирным</strong> и <code>кодом</code></p>' +
    '<ul><li>Пункт<ul><li>Вложенный</li></ul></li></ul>' +
    '<ol start="3"><li>Третий</li><li>Четвёртый</li></ol>' +
    '<ul class="to-do-list"><li><div class="checkbox checkbox-on"></div> <span class="to-do-children-checked">Сделано</span></li></ul>' +
    '<blockquote>Цитата</blockquote><hr>' +
    '<pre><code class="language-typescript">const a = 1;\nconst b = 2;</code></pre>';

  test('Notion callouts and toggles', () => {
    const html =
      '<figure class="block-color-gray_background callout" style="white-space:pre-wrap;display:flex" id="1"><div style="font-size:1.5em"><span class="icon">💡</span></div>' +
      '<div style="width:100%">Совет дня</div></figure>' +
      '<ul id="2" class="toggle"><li><details open=""><summary>Раскрыть</summary><p id="3">Внутри</p></details></li></ul>';
    expect(shape(html)).toEqual([
      { type: 'calloutBlock', icon: '💡', children: [{ text: 'Совет дня' }] },
      { type: 'toggleBlock', children: [{ text: 'Раскрыть' }] },
      { type: 'textBlock', children: [{ text: 'Внутри' }], depth: 1 },
    ]);
  });

  test('headings, lists with start, to-dos, quote, divider and code', () => {
    expect(shape(notion)).toEqual([
      { type: 'heading2Block', children: [{ text: 'Задачи' }] },
      { type: 'textBlock', children: [{ text: 'Текст с ' }, { text: 'жирным', bold: true }, { text: ' и ' }, { text: 'кодом', code: true }] },
      { type: 'bulletListBlock', children: [{ text: 'Пункт' }] },
      { type: 'bulletListBlock', children: [{ text: 'Вложенный' }], depth: 1 },
      { type: 'orderedListBlock', forcedOrder: 3, children: [{ text: 'Третий' }] },
      { type: 'orderedListBlock', children: [{ text: 'Четвёртый' }] },
      { type: 'checkboxBlock', checked: true, children: [{ text: 'Сделано' }] },
      { type: 'quoteBlock', children: [{ text: 'Цитата' }] },
      { type: 'dividerBlock', children: [{ text: '' }] },
      { type: 'codeBlock', language: 'typescript', children: [{ text: 'const a = 1;\nconst b = 2;' }] },
    ]);
  });
});

describe('parseHtml: web pages', () => {
  test('scripts, handlers and javascript: links are dropped; containers are walked through', () => {
    const html =
      '<div class="article"><section><h3 onclick="steal()">Заголовок</h3><script>alert(1)</script>' +
      '<p>Нажми <a href="javascript:alert(2)">сюда</a> или <a href="https://safe.example/">туда</a>' +
      '<img src="x" onerror="alert(3)"></p><style>p{color:red}</style>' +
      '<div><span>Строка в div</span></div></section></div>';
    const content = parseHtml(html)!;
    expect(JSON.stringify(content)).not.toMatch(/alert|steal|javascript|onerror/);
    expect(shape(html)).toEqual([
      { type: 'heading3Block', children: [{ text: 'Заголовок' }] },
      { type: 'textBlock', children: [{ text: 'Нажми сюда или ' }, { text: 'туда', link: { href: 'https://safe.example/' } }] },
      { type: 'textBlock', children: [{ text: 'Строка в div' }] },
    ]);
  });

  test('an image of another site becomes a link to it', () => {
    expect(shape('<p>До</p><p><img src="https://cdn.example/cat.png" alt="Кот"></p>')).toEqual([
      { type: 'textBlock', children: [{ text: 'До' }] },
      { type: 'textBlock', children: [{ text: 'Кот', link: { href: 'https://cdn.example/cat.png' } }] },
    ]);
  });

  test('a table becomes a table block', () => {
    const html = '<table><thead><tr><th>Имя</th><th>Роль</th></tr></thead><tbody><tr><td>Аня</td><td><b>Админ</b></td></tr></tbody></table>';
    expect(shape(html)).toEqual([
      {
        type: 'tableBlock',
        tableLayout: { columns: 2, rows: 2, columnSizes: [120, 120] },
        headerRow: true,
        headerColumn: false,
        children: [
          {
            type: 'tableRow',
            children: [
              { type: 'tableCell', children: [{ text: 'Имя' }] },
              { type: 'tableCell', children: [{ text: 'Роль' }] },
            ],
          },
          {
            type: 'tableRow',
            children: [
              { type: 'tableCell', children: [{ text: 'Аня' }] },
              { type: 'tableCell', children: [{ text: 'Админ', bold: true }] },
            ],
          },
        ],
      },
    ]);
  });

  test('inline-only HTML is inline content', () => {
    expect(shape('<span>просто <em>текст</em></span>')).toEqual({ inline: [{ text: 'просто ' }, { text: 'текст', italic: true }] });
    expect(shape('<p>один абзац</p>')).toEqual({ inline: [{ text: 'один абзац' }] });
  });

  test('a list item with several paragraphs: the first is the item, the rest its children', () => {
    expect(shape('<ul><li><p>Пункт</p><p>Пояснение</p></li></ul>')).toEqual([
      { type: 'bulletListBlock', children: [{ text: 'Пункт' }] },
      { type: 'textBlock', children: [{ text: 'Пояснение' }], depth: 1 },
    ]);
  });

  test('paragraphs inside a table cell or a quote are kept apart by a line break', () => {
    const content = parseHtml('<blockquote><p>Первая</p><p>Вторая</p></blockquote><table><tr><td><p>а</p><p>б</p></td></tr></table>');
    expect(content?.kind === 'blocks' && content.blocks.map((b) => b.children)).toEqual([
      [{ text: 'Первая\nВторая' }],
      [{ type: 'tableRow', children: [{ type: 'tableCell', children: [{ text: 'а\nб' }] }] }],
    ]);
  });

  test('a toggle: the summary is a block, its content nested under it; GitHub task lists are checkboxes', () => {
    expect(shape('<details><summary>Подробнее</summary><p>Скрытое</p></details><p>Дальше</p>')).toEqual([
      { type: 'toggleBlock', children: [{ text: 'Подробнее' }] },
      { type: 'textBlock', children: [{ text: 'Скрытое' }], depth: 1 },
      { type: 'textBlock', children: [{ text: 'Дальше' }] },
    ]);
    const github =
      '<ul class="contains-task-list"><li class="task-list-item"><input type="checkbox" id="" disabled="" class="task-list-item-checkbox" checked=""> Сделано</li>' +
      '<li class="task-list-item"><input type="checkbox" id="" disabled="" class="task-list-item-checkbox"> Нет</li></ul>';
    expect(shape(github)).toEqual([
      { type: 'checkboxBlock', checked: true, children: [{ text: 'Сделано' }] },
      { type: 'checkboxBlock', checked: false, children: [{ text: 'Нет' }] },
    ]);
  });

  test('blocks copied from this app come back by their data attributes (formula, callout, code language)', () => {
    const html =
      '<div data-latex="E=mc^2">E=mc^2</div><aside data-callout="⚠️"><span data-callout-icon>⚠️</span> Осторожно</aside>' +
      '<pre><code class="language-python">print(1)</code></pre>';
    expect(shape(html)).toEqual([
      { type: 'latexBlock', formula: 'E=mc^2', children: [{ text: '' }] },
      { type: 'calloutBlock', icon: '⚠️', children: [{ text: 'Осторожно' }] },
      { type: 'codeBlock', language: 'python', children: [{ text: 'print(1)' }] },
    ]);
  });

  test('nothing readable gives null', () => {
    expect(parseHtml('<script>alert(1)</script>')).toBeNull();
    expect(parseHtml('<p> </p>')).toBeNull();
  });
});
