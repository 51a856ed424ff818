import { htmlToDocument } from './htmlImport';
import { readHtmlFiles } from './htmlRead';
import { ImportError, readExport, type ImportDocument } from './readExport';
import { zipSync } from 'fflate';

/*
 * HTML files as pages (issue 18, docs/import-export.md «HTML»), read on the server (no DOM of
 * its own: jsdom's, in the worker each import starts): titles, the folder layout, links between the
 * files and pictures of the zip, what the clipboard's reader makes of Google Docs' and Notion's
 * HTML, sanitizing, and what cannot be read.
 */

jest.setTimeout(60_000);

const enc = (text: string) => new TextEncoder().encode(text);

/** The files read in this thread (what the worker of htmlToDocument runs; it is tested below and by the routes' tests). */
async function read(files: ReadonlyMap<string, Uint8Array>) {
  const reading = await readHtmlFiles(files);
  if ('refused' in reading) throw new ImportError(reading.refused);
  return reading;
}
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

/** A page's blocks as type, parent (by index) and data: what can be compared exactly. */
function shape(page: ImportDocument['pages'][number]) {
  const index = new Map(page.blocks.map((b, i) => [b.id, i]));
  return page.blocks.map((b) => ({ type: b.type, ...(b.parentId === null ? {} : { parent: index.get(b.parentId) }), data: b.data }));
}

test('a Google Docs «web page» download: <title> names the page; marks from the stylesheet, nested lists, the picture from its folder, the table', async () => {
  const html =
    '<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type"><style type="text/css">' +
    'ul.lst-kix_a1-1{list-style-type:none}.lst-kix_a1-0>li:before{content:"\\0025cf   "}.c2{font-weight:700}.c3{font-style:italic}.c0{font-weight:400;color:#000000}h1{font-weight:700;font-size:20pt}.c9{color:#1155cc;text-decoration:underline}' +
    '</style><title>План на квартал</title></head><body class="c5 doc-content">' +
    '<h1 class="c4" id="h.x1"><span class="c0">Цели</span></h1>' +
    '<p class="c1"><span class="c0">Обычный </span><span class="c2">жирный</span><span class="c0">&nbsp;и </span><span class="c3">курсив</span>' +
    '<span class="c0">, </span><span class="c9"><a class="c8" href="https://www.google.com/url?q=https://example.com/&amp;sa=D">ссылка</a></span></p>' +
    '<ul class="c6 lst-kix_a1-0 start"><li class="c1 li-bullet-0"><span class="c0">Первый</span></li></ul>' +
    '<ul class="c6 lst-kix_a1-1 start"><li class="c1 li-bullet-0"><span class="c0">Вложенный</span></li></ul>' +
    '<ul class="c6 lst-kix_a1-0"><li class="c1 li-bullet-0"><span class="c0">Второй</span></li></ul>' +
    '<p class="c1"><span style="overflow: hidden; display: inline-block; width: 200px;"><img alt="" src="images/image1.png" style="width: 200px;" title=""></span></p>' +
    '<table class="c10"><tr class="c11"><td class="c12"><p class="c1"><span class="c2">Ключ</span></p></td><td class="c12"><p class="c1"><span class="c0">Значение</span></p></td></tr></table>' +
    '</body></html>';
  const { document, problems } = await read(
    new Map([
      ['План.html', enc(html)],
      ['images/image1.png', PNG],
    ]),
  );
  expect(problems).toEqual([]);
  expect(document.pages.map((p) => [p.title, p.parentId])).toEqual([['План на квартал', null]]);
  const fileId = document.files[0].id;
  expect(document.files).toEqual([{ id: fileId, name: 'image1.png', mimeType: 'image/png', size: PNG.length, path: 'images/image1.png' }]);
  expect(shape(document.pages[0])).toEqual([
    // The first <h1> is content here: <title> names the page otherwise.
    { type: 'heading1', data: { tokens: [{ text: 'Цели' }] } },
    {
      type: 'text',
      data: {
        tokens: [
          { text: 'Обычный ' },
          { text: 'жирный', bold: true },
          { text: '\u00a0и ' },
          { text: 'курсив', italic: true },
          { text: ', ' },
          { text: 'ссылка', underline: true, link: { href: 'https://www.google.com/url?q=https://example.com/&sa=D' } },
        ],
      },
    },
    { type: 'bulletList', data: { tokens: [{ text: 'Первый' }] } },
    { type: 'bulletList', parent: 2, data: { tokens: [{ text: 'Вложенный' }] } },
    { type: 'bulletList', data: { tokens: [{ text: 'Второй' }] } },
    { type: 'image', data: { remoteData: { fileId, title: 'image1.png', size: PNG.length, mimeType: 'image/png' }, crop: null, scale: 1, align: 'center' } },
    {
      type: 'table',
      data: expect.objectContaining({
        tokens: [
          { text: 'Ключ', bold: true, tableAddress: { x: 0, y: 0 } },
          { text: 'Значение', tableAddress: { x: 1, y: 0 } },
        ],
      }),
    },
  ]);
});

describe('Notion', () => {
  const page = (title: string, body: string) =>
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"/><title>' +
    title +
    '</title><style>' +
    '.page-title { font-size: 2.5rem; font-weight: 700; } .to-do-children-checked { text-decoration: line-through; opacity: 0.375; } strong { font-weight: 600; }' +
    '</style></head><body><article id="0e1f" class="page sans"><header><div class="page-header-icon undefined"><span class="icon">🎯</span></div><h1 class="page-title">' +
    title +
    '</h1><p class="page-description"></p></header>' +
    '<div class="page-body">' +
    body +
    '</div></article><span class="sans" style="font-size:14px;padding-top:2em"></span></body></html>';
  const id = '0123456789abcdef0123456789abcdef';
  const sub = 'fedcba9876543210fedcba9876543210';

  test('an exported page: the title from h1.page-title, the icon from its header; lists, to-dos, code, quote, callout, the picture and the subpage of the zip', async () => {
    const parent = page(
      'Проект',
      '<h2 id="a1" class="">Задачи</h2><p id="a2" class="">Текст со <strong>смыслом</strong></p>' +
        '<ul id="a3" class="bulleted-list"><li style="list-style-type:disc">Пункт<ul id="a4" class="bulleted-list"><li style="list-style-type:circle">Подпункт</li></ul></li></ul>' +
        '<ul id="a5" class="to-do-list"><li><div class="checkbox checkbox-on"></div> <span class="to-do-children-checked">Сделано</span><div class="indented"></div></li></ul>' +
        '<ul id="a6" class="to-do-list"><li><div class="checkbox checkbox-off"></div> <span class="to-do-children-unchecked">Не сделано</span><div class="indented"></div></li></ul>' +
        '<pre id="a7" class="code"><code class="language-JavaScript">const a = 1;</code></pre>' +
        '<blockquote id="a8" class="">Цитата</blockquote>' +
        '<figure class="block-color-gray_background callout" style="white-space:pre-wrap;display:flex" id="a9"><div style="font-size:1.5em"><span class="icon">💡</span></div><div style="width:100%">Совет</div></figure>' +
        `<figure id="a10" class="image"><a href="%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82%20${id}/image.png"><img style="width:240px" src="%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82%20${id}/image.png"/></a></figure>` +
        `<figure id="a11" class="link-to-page"><a href="%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82%20${id}/%D0%97%D0%B0%D0%BC%D0%B5%D1%82%D0%BA%D0%B8%20${sub}.html"><span class="icon">📄</span>Заметки</a></figure>` +
        '<hr id="a12"/>',
    );
    const files = new Map([
      [`Проект ${id}.html`, enc(parent)],
      [`Проект ${id}/Заметки ${sub}.html`, enc(page('Заметки', '<p id="b1">Вложенная страница</p>'))],
      [`Проект ${id}/image.png`, PNG],
    ]);
    const { document, problems } = await read(files);
    expect(problems).toEqual([]);
    const [top, child] = document.pages;
    // The title and icon of Notion's header are the page's, not blocks.
    expect([top.title, top.icon, top.parentId, child.title, child.parentId]).toEqual(['Проект', '🎯', null, 'Заметки', top.id]);
    const blocks = shape(top);
    expect(blocks.map((b) => b.type)).toEqual([
      'heading2',
      'text',
      'bulletList',
      'bulletList',
      'checkbox',
      'checkbox',
      'code',
      'quote',
      'callout',
      'image',
      'document',
      'divider',
    ]);
    expect(blocks[1].data).toEqual({ tokens: [{ text: 'Текст со ' }, { text: 'смыслом', bold: true }] });
    expect(blocks[3]).toEqual({ type: 'bulletList', parent: 2, data: { tokens: [{ text: 'Подпункт' }] } });
    // Notion's checked to-do is struck out by its stylesheet's looks only: not a mark.
    expect([blocks[4].data, blocks[5].data]).toEqual([
      { tokens: [{ text: 'Сделано' }], checked: true },
      { tokens: [{ text: 'Не сделано' }], checked: false },
    ]);
    expect(blocks[6].data).toMatchObject({ tokens: [{ text: 'const a = 1;' }], language: 'javascript' });
    expect(blocks[8].data).toMatchObject({ tokens: [{ text: 'Совет' }] });
    expect(blocks[9].data).toMatchObject({ remoteData: { fileId: document.files[0].id, title: 'image.png', size: PNG.length } });
    // The link to the subpage is a page block of the imported subpage.
    expect(blocks[10].data).toEqual({ pageId: child.id });
    expect(shape(child)).toEqual([{ type: 'text', data: { tokens: [{ text: 'Вложенная страница' }] } }]);
  });
});

test('our export: the first <h1> is the title; a link to another file is a page link, a file of the zip a file block', async () => {
  const html =
    '<!doctype html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n<title>Отчёт</title>\n</head>\n<body>\n<h1>Отчёт</h1>\n' +
    '<h1>Итоги</h1><p>См. <a href="%D0%9E%D1%82%D1%87%D1%91%D1%82/%D0%9F%D1%80%D0%B8%D0%BB%D0%BE%D0%B6%D0%B5%D0%BD%D0%B8%D0%B5.html" data-page-id="0c6a1d9e-0000-4000-8000-000000000000">↗</a> и <a href="https://example.com/">сайт</a></p>' +
    '<a href="files/f1/%D0%BF%D0%BB%D0%B0%D0%BD.pdf" download="план.pdf" data-file-id="f1" data-size="3" data-mime-type="application/pdf">план.pdf</a>\n</body>\n</html>\n';
  const files = new Map([
    ['Отчёт.html', enc(html)],
    ['Отчёт/Приложение.html', enc('<!doctype html><title>Приложение</title><h1>Приложение</h1>')],
    ['files/f1/план.pdf', enc('pdf')],
  ]);
  const { document, problems } = await read(files);
  expect(problems).toEqual([]);
  const [top, child] = document.pages;
  expect([top.title, child.title, child.parentId, child.blocks]).toEqual(['Отчёт', 'Приложение', top.id, []]);
  expect(shape(top)).toEqual([
    { type: 'heading1', data: { tokens: [{ text: 'Итоги' }] } },
    {
      type: 'text',
      data: {
        tokens: [
          { text: 'См. ' },
          { text: '↗', link: { href: `/${child.id}`, pageId: child.id } },
          { text: ' и ' },
          { text: 'сайт', link: { href: 'https://example.com/' } },
        ],
      },
    },
    { type: 'file', data: { remoteData: { fileId: document.files[0].id, title: 'план.pdf', size: 3, mimeType: 'application/pdf' } } },
  ]);
});

test('scripts, handlers and javascript: links never survive; a picture not in the zip is reported', async () => {
  const html =
    '<title>Опасно</title><script>alert("s1")</script><p onclick="alert(\'s2\')">Текст<img src="x.png" onerror="alert(\'s3\')"></p>' +
    '<a href="javascript:alert(\'s4\')">ссылка</a><iframe srcdoc="<script>alert(\'s5\')</script>"></iframe><style>p{}</style><svg><script>alert("s6")</script></svg>' +
    '<img src="data:image/png;base64,iVBORw0KGgo=" onload="alert(\'s7\')">';
  const { document, problems } = await read(new Map([['a.html', enc(html)]]));
  const stored = JSON.stringify(document);
  expect(stored).not.toMatch(/alert|script|onerror|onclick|onload|javascript/i);
  expect(shape(document.pages[0])).toEqual([
    { type: 'text', data: { tokens: [{ text: 'Текст' }] } },
    { type: 'text', data: { tokens: [{ text: 'ссылка' }] } },
  ]);
  expect(problems.map((p) => p.message)).toEqual([
    'a picture not in the import (x.png) is left out',
    'a picture held in the HTML itself (a data: address) is left out',
  ]);
});

test("pictures inside text are blocks of their own where they stood (a list item's its child); those in a table cell or a quote are reported, their files not imported", async () => {
  const html =
    '<table><tr><td>Фото <img src="c.png"></td></tr></table><blockquote>Цитата <img src="c.png"></blockquote>' +
    '<ul><li>Пункт <img src="a.png"></li></ul><p>До <img src="b.png"> между <span><img src="a.png"></span> после</p><h2>Заголовок <img src="b.png"></h2><div><img src="a.png"></div>';
  const { document, problems } = await read(
    new Map([
      ['p.html', enc(html)],
      ['a.png', PNG],
      ['b.png', PNG],
      ['c.png', PNG],
    ]),
  );
  expect(problems.map((p) => p.message)).toEqual(['2 pictures inside a table cell or a quote (where a picture block cannot be) left out']);
  const blocks = shape(document.pages[0]).map((b) => ({
    ...b,
    data: (b.data.remoteData as { title?: string } | undefined)?.title ?? (b.data.tokens as Array<{ text: string }>).map((t) => t.text).join(''),
  }));
  expect(blocks).toEqual([
    { type: 'table', data: 'Фото' },
    { type: 'quote', data: 'Цитата' },
    { type: 'bulletList', data: 'Пункт' },
    { type: 'image', parent: 2, data: 'a.png' },
    { type: 'text', data: 'До' },
    { type: 'image', data: 'b.png' },
    { type: 'text', data: 'между' },
    { type: 'image', data: 'a.png' },
    { type: 'text', data: 'после' },
    { type: 'heading2', data: 'Заголовок' },
    { type: 'image', data: 'b.png' },
    { type: 'image', data: 'a.png' },
  ]);
  // The files are those shown (not the cell's and the quote's).
  expect(document.files.map((f) => f.path).sort()).toEqual(['a.png', 'b.png']);
});

test('nothing readable: a page left empty and reported; an upload of nothing readable refused', async () => {
  const files = new Map([
    ['Хорошая.html', enc('<p>Текст</p>')],
    ['Пустая.html', enc('<script>alert(1)</script><style>p{}</style>')],
    ['Двоичная.htm', new Uint8Array([0x89, 0, 0, 1, 2])],
  ]);
  const { document, problems } = await read(files);
  expect(document.pages.map((p) => [p.title, p.blocks.length])).toEqual([
    ['Двоичная', 0],
    ['Пустая', 0],
    ['Хорошая', 1],
  ]);
  expect(problems.map((p) => [p.page, p.code, p.message])).toEqual([
    ['Двоичная', 'notText', 'the file is not HTML text: the page is left empty'],
    ['Пустая', 'nothingReadable', 'nothing readable in the file: the page is left empty'],
  ]);
  await expect(read(new Map([['Пустая.html', enc('<div>  </div>')]]))).rejects.toThrow(new ImportError('the HTML holds nothing readable'));
  // Through the worker, as the route reads it: the same refusal.
  await expect(htmlToDocument(new Map([['Пустая.html', enc('<div>  </div>')]]))).rejects.toThrow(new ImportError('the HTML holds nothing readable'));
  await expect(readExport(new Uint8Array([0, 1, 2, 0]), 'x.html')).rejects.toThrow('the HTML holds nothing readable');
  // A title alone is a page, empty by its author's will.
  expect((await read(new Map([['a.html', enc('<title>Только название</title>')]]))).document.pages[0].title).toBe('Только название');
});

test("readExport: one .htm, a zip of HTML, a zip of both HTML and Markdown (each by its extension, links across them), Word's windows-1251", async () => {
  const one = await readExport(enc('<p>Одна</p>'), 'C:\\Users\\me\\Заметка.htm');
  expect([one.document.pages[0].title, [...one.files.keys()]]).toEqual(['Заметка', ['Заметка.htm']]);

  const mixed = zipSync({ 'Раздел.html': enc('<p><a href="Раздел/Глава.md">глава</a></p>'), 'Раздел/Глава.md': enc('# Глава\n\n- пункт\n') });
  const read = await readExport(mixed, 'mixed.zip');
  const [section, chapter] = read.document.pages;
  expect([section.title, chapter.title, chapter.parentId]).toEqual(['Раздел', 'Глава', section.id]);
  expect(section.blocks[0].data).toEqual({ tokens: [{ text: '↗', link: { href: `/${chapter.id}`, pageId: chapter.id } }] });
  expect(chapter.blocks.map((b) => b.type)).toEqual(['bulletList']);

  // «Сохранить как веб-страницу» of Word: windows-1251, said in a <meta>.
  const cp1251 = new Uint8Array([
    ...enc('<html><head><meta http-equiv=Content-Type content="text/html; charset=windows-1251"></head><body><p class=MsoNormal>'),
    0xcf,
    0xf0,
    0xe8,
    0xe2,
    0xe5,
    0xf2,
    ...enc('</p></body></html>'),
  ]);
  expect((await readExport(cp1251, 'word.htm')).document.pages[0].blocks[0].data).toEqual({ tokens: [{ text: 'Привет' }] });
});

test('HTML whose reading needs more memory than the worker may take is refused, the server unharmed', async () => {
  let body = '';
  for (let i = 0; i < 3000; i++) body += `<h2>Раздел ${i}</h2><p>Текст <b>жирный</b> ${'слово '.repeat(20)}</p><ul><li>a<ul><li>b</li></ul></li></ul>`;
  await expect(htmlToDocument(new Map([['big.html', enc(body)]]), { heapLimitMb: 48 })).rejects.toThrow(new ImportError('the HTML is too big to read'));
  // The next import reads as ever, a small page within the same limit.
  expect((await htmlToDocument(new Map([['a.html', enc('<p>ещё</p>')]]), { heapLimitMb: 48 })).document.pages[0].blocks).toHaveLength(1);
});
