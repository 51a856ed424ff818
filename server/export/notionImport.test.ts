import { strToU8, zipSync } from 'fflate';
import type { DatabaseData } from '../../schema/blocks/database';
import { detectColumnType } from '../../schema/csvColumns';
import { archiveBudget, ImportError } from './archive';
import { isNotionExport, notionDateText, notionNumber, notionToDocument, relationItems, splitRow } from './notionImport';

/* Reading Notion's «Markdown & CSV» export (docs/import-export.md «Notion»): its values, its rows' files, its layout, the zips' limits. */

const A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2';
const C = 'ccccccccccccccccccccccccccccccc3';
const D = 'ddddddddddddddddddddddddddddddd4';
const files = (entries: Record<string, string | Uint8Array>) =>
  new Map(Object.entries(entries).map(([name, value]) => [name, typeof value === 'string' ? strToU8(value) : value]));

describe("Notion's values", () => {
  test.each([
    ['November 26, 2026', '2026-11-26'],
    ['Nov 6, 2026', '2026-11-06'],
    ['November 26, 2026 10:00 AM', '2026-11-26T10:00:00Z'],
    ['November 26, 2026 12:30 AM', '2026-11-26T00:30:00Z'],
    ['November 26, 2026 9:05 PM (GMT+3)', '2026-11-26T21:05:00+03:00'],
    ['26 ноября 2026 г.', '2026-11-26'],
    ['1 мая 2026 г. 14:30', '2026-05-01T14:30:00Z'],
    ['3 марта 2026', '2026-03-03'],
    ['2026/11/26', '2026-11-26'],
    ['26/11/2026', '2026-11-26'],
    ['November 26, 2026 → November 28, 2026', '2026-11-26 → 2026-11-28'],
    ['November 26, 2026 10:00 AM → 12:00 PM', '2026-11-26T10:00:00Z → 2026-11-26T12:00:00Z'],
    ['February 30, 2026', null],
    ['Smarch 3, 2026', null],
    ['завтра', null],
    ['1200', null],
  ])('%s → %s', (text, date) => expect(notionDateText(text)).toBe(date));

  test('month/day or day/month: as the column says', () => {
    expect(notionDateText('11/26/2026', 'md')).toBe('2026-11-26');
    expect(notionDateText('05/06/2026', 'dm')).toBe('2026-06-05');
  });

  test.each([
    ['1,200.50', '1200.50', ''],
    ['$1,200', '1200', '$'],
    ['-€3.5', '-3.5', '€'],
    ['12%', '12', '%'],
    ['1200', '1200', ''],
  ])('number %s → %s (%s)', (text, digits, symbol) => expect(notionNumber(text)).toEqual({ text: digits, symbol }));
  test('not numbers', () => {
    expect(notionNumber('1,5')).toBeNull();
    expect(notionNumber('двенадцать')).toBeNull();
  });

  test('relations: `Title (link)` to a row file or a Notion address, bare paths; anything else is no relation', () => {
    expect(relationItems(`Смета (Смета%20${A}.md), Закупка (../Задачи%20${C}/Закупка%20${B}.md)`)).toEqual([
      { title: 'Смета', id: A, link: `Смета%20${A}.md` },
      { title: 'Закупка', id: B, link: `../Задачи%20${C}/Закупка%20${B}.md` },
    ]);
    // A title with brackets and a comma; Notion's address (with dashes in its id too).
    expect(relationItems(`Отчёт (черновик), v2 (Отчёт%20(черновик),%20v2%20${A}.md)`)).toEqual([
      { title: 'Отчёт (черновик), v2', id: A, link: `Отчёт%20(черновик),%20v2%20${A}.md` },
    ]);
    expect(relationItems('План (https://www.notion.so/Plan-aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaa1?pvs=21)')?.map((i) => i.id)).toEqual([A]);
    expect(relationItems(`../Events%20${C}/A%20Letter%20${B}.md, Meeting%20${A}.md`)?.map((i) => [i.title, i.id])).toEqual([
      ['A Letter', B],
      ['Meeting', A],
    ]);
    for (const text of ['Готово', 'Иван Петров (бухгалтер)', 'https://example.com', `Смета (Смета%20${A}.md) и ещё`, `x (y.png)`])
      expect(relationItems(text)).toBeNull();
  });

  test("a row's file: its title, its field lines (Notion's and our export's), its content", () => {
    const columns = new Set(['Статус', 'Срок']);
    expect(splitRow('# Смета\n\nСтатус: Готово\nСрок: November 26, 2026\n\nСчитаем.\n', columns)).toEqual({
      title: 'Смета',
      fields: new Map([
        ['Статус', 'Готово'],
        ['Срок', 'November 26, 2026'],
      ]),
      body: '\nСчитаем.\n',
    });
    expect(splitRow('# Смета\n\n- **Статус**: Готово\n\nСчитаем.', columns).fields).toEqual(new Map([['Статус', 'Готово']]));
    // A paragraph that is not all field lines is content.
    expect(splitRow('# Смета\n\nСтатус: Готово\nи ещё строка\n', columns)).toEqual({
      title: 'Смета',
      fields: new Map(),
      body: 'Статус: Готово\nи ещё строка\n',
    });
    expect(splitRow('Заметка: не поле\n', columns)).toEqual({ title: null, fields: new Map(), body: 'Заметка: не поле\n' });
  });

  test('what looks like a Notion export', () => {
    expect(isNotionExport(['Export-1-Part-1.zip'])).toBe(true);
    expect(isNotionExport([`Проект ${A}.md`, `Проект ${A}/x.png`])).toBe(true);
    expect(isNotionExport([`Проект${A}.md`])).toBe(true);
    expect(isNotionExport(['Клиенты.md', 'Клиенты.csv'])).toBe(true);
    expect(isNotionExport(['Отчёт.md', 'Отчёт/Приложение.md', 'files/1b4e28ba-2fa1-11d2-883f-0016d3cca427/a.png'])).toBe(false);
  });
});

describe('an export as a document', () => {
  test('parts merged, the whole CSV read (not the view), rows only in `.md` files added, a database linked from a page goes under it, a top-level one to the root', () => {
    const part1 = zipSync({
      [`Дом ${A}.md`]: strToU8(`# Дом\n\nСм. [Задачи](Задачи%20${B}.csv)\n`),
      [`Задачи ${B}.csv`]: strToU8('Name,Кто\nРаз,Иван\n'),
      [`Задачи ${B}_all.csv`]: strToU8('Name,Кто\nРаз,Иван\nДва,Пётр\n'),
    });
    const part2 = zipSync({
      [`Задачи ${B}/Раз ${C}.md`]: strToU8('# Раз\n\nКто: Иван\n\nПервая'),
      [`Задачи ${B}/Три ${D}.md`]: strToU8('# Три\n\nКто: Анна\n'),
      [`Задачи ${B}/Раз ${C}/Вложение ${A.replace('1', '5')}.md`]: strToU8('# Вложение\n'),
      [`Склад.csv`]: strToU8('Товар,Остаток\nГвозди,12\n'),
    });
    const { document, problems } = notionToDocument(files({ 'Export-x-Part-1.zip': part1, 'Export-x-Part-2.zip': part2 }));
    expect(problems).toEqual([]);
    expect(document.pages.map((p) => [p.title, p.type, document.pages.find((q) => q.id === p.parentId)?.title ?? null])).toEqual([
      ['Дом', 'Note', null],
      // A row's subpage goes beside the database (rows hold no subpages here).
      ['Вложение', 'Note', 'Дом'],
      ['Задачи', 'Database', 'Дом'],
      ['Склад', 'Database', null],
    ]);
    const rows = document.pages[2].databases![0].rows;
    expect(rows.map((r) => [r.title, Object.values(r.values), r.blocks.length])).toEqual([
      ['Раз', ['Иван'], 1],
      ['Два', ['Пётр'], 0],
      ['Три', ['Анна'], 0],
    ]);
    expect(document.pages[3].databases![0].rows.map((r) => [r.title, Object.values(r.values)])).toEqual([['Гвозди', [12]]]);
  });

  test("a page's attachment (a link alone to a file of the zip) is a file block; a link to it inside text keeps its text, and the file not shown is reported", () => {
    const { document, problems } = notionToDocument(
      files({
        [`П ${A}.md`]: `# П\n\n[Отчёт.pdf](П%20${A}/Отчёт.pdf)\n\nСм. [архив](П%20${A}/old.zip) выше.\n`,
        [`П ${A}/Отчёт.pdf`]: '%PDF',
        [`П ${A}/old.zip`]: 'PK',
      }),
    );
    expect(document.pages[0].blocks.map((b) => [b.type, b.data])).toEqual([
      ['file', { remoteData: { fileId: 'md-file-0', title: 'Отчёт.pdf', size: 4, mimeType: 'application/pdf' } }],
      ['text', { tokens: [{ text: 'См. архив выше.' }] }],
    ]);
    expect(document.files.map((f) => f.path)).toEqual([`П ${A}/Отчёт.pdf`]);
    expect(problems.map((p) => p.message)).toEqual([`«П ${A}/old.zip» is left out: no page shows it`]);
  });

  test("a small database's status column (3 names in 5 rows) is a select, as in Notion (the web CSV import would keep it text)", () => {
    const { document } = notionToDocument(files({ [`Д ${A}.csv`]: 'Name,Статус\nа,Готово\nб,В работе\nв,План\nг,План\nд,В работе\n' }));
    const { config } = document.pages[0].blocks[0].data as unknown as DatabaseData;
    expect(config.fields.f1).toEqual({
      name: 'Статус',
      type: 'select',
      options: [
        { id: 'o1', name: 'Готово', color: 'blue' },
        { id: 'o2', name: 'В работе', color: 'green' },
        { id: 'o3', name: 'План', color: 'orange' },
      ],
    });
    expect(detectColumnType(['Готово', 'В работе', 'План', 'План', 'В работе'])).toBe('text');
  });

  test('what cannot be read is reported: a broken CSV line, cells beyond the columns, files nobody shows', () => {
    const { document, problems } = notionToDocument(files({ [`Д ${A}.csv`]: 'Name,Кол\nРаз,1,лишнее\nДва,"2\n', [`Д ${A}/notes.txt`]: 'x' }));
    expect(document.pages).toHaveLength(1);
    expect(problems.map((p) => p.message)).toEqual([
      `line 3 of «Д ${A}.csv» cannot be read cleanly (MissingQuotes): check that row`,
      `line 2 of «Д ${A}.csv» has more cells than the CSV has columns: those are left out`,
      `«Д ${A}/notes.txt» is left out: no page shows it`,
    ]);
  });

  test('limits: too many files, too many bytes, zips nested too deep, a part that cannot be read — refused whole', () => {
    const small = { entries: 5, bytes: 1000, depth: 2 };
    const md = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`П ${i} ${A}.md`, strToU8('# П')]));
    expect(() => notionToDocument(files({ 'Export-Part-1.zip': zipSync(md(6)) }), archiveBudget(small))).toThrow(/more than 5 files/);
    expect(() => notionToDocument(files({ 'Export-Part-1.zip': zipSync({ [`П ${A}.md`]: new Uint8Array(2000) }) }), archiveBudget(small))).toThrow(
      /more than 1000 bytes unpacked/,
    );
    const deep = zipSync({ 'b.zip': zipSync({ 'c.zip': zipSync({ [`П ${A}.md`]: strToU8('# П') }) }) });
    expect(() => notionToDocument(files({ 'a.zip': deep }), archiveBudget(small))).toThrow(/nested deeper than 2 levels/);
    expect(() => notionToDocument(files({ 'a.zip': strToU8('PK not a zip') }))).toThrow(new ImportError('«a.zip» inside the zip cannot be read'));
    // Within the limits, two levels are read.
    expect(
      notionToDocument(files({ 'a.zip': zipSync({ 'b.zip': zipSync({ [`П ${A}.md`]: strToU8('# П') }) }) }), archiveBudget(small)).document.pages.map(
        (p) => p.title,
      ),
    ).toEqual(['П']);
  });
});
