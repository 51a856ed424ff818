import Papa from 'papaparse';
import { MAIN_FIELD_ID, type DatabaseField, type RowValue } from '../../../../schema/blocks/database';
import { textToValue, valueToText } from '../../../../schema/database';
import { CSV_EXPORT_OPTIONS, convertRows, decimalsOf, detectColumnType, fieldFor, optionsOf, unescapeFormula } from '../../../../schema/csvColumns';
import { decodeCsvBytes, detectHeader, parseCsv, parseCsvText, withHeader } from './parseCsv';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Windows-1251 bytes of a text of ASCII and Russian letters (what Excel writes on a Russian Windows). */
function cp1251(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    [...text].map((ch) => {
      const code = ch.codePointAt(0)!;
      if (code < 0x80) return code;
      if (ch === 'Ё') return 0xa8;
      if (ch === 'ё') return 0xb8;
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      throw new Error(`no 1251 byte for ${ch}`);
    }),
  );
}

describe('decoding', () => {
  test('UTF-8 with a BOM: the BOM is not part of the first header', async () => {
    const file = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), utf8('Имя,Возраст\nАня,30\n')]);
    const parsed = await parseCsv(file);
    expect(parsed.encoding).toBe('utf-8');
    expect(parsed.header).toEqual(['Имя', 'Возраст']);
    expect(parsed.rows).toEqual([['Аня', '30']]);
  });

  test('Windows-1251: read as such when UTF-8 breaks it', async () => {
    const bytes = cp1251('Город;Жители\nМосква;13000000\nЁлкино;1200\n');
    expect(decodeCsvBytes(bytes).encoding).toBe('windows-1251');
    const parsed = await parseCsv(new Blob([bytes]));
    expect(parsed.header).toEqual(['Город', 'Жители']);
    expect(parsed.rows).toEqual([
      ['Москва', '13000000'],
      ['Ёлкино', '1200'],
    ]);
  });

  test('a UTF-8 file with one stray broken byte stays UTF-8', () => {
    const text = 'Название,Описание\n' + 'Проект,Очень длинное описание проекта\n'.repeat(50);
    const bytes = new Uint8Array([...utf8(text), 0xff]);
    expect(decodeCsvBytes(bytes)).toMatchObject({ encoding: 'utf-8' });
  });
});

describe('parsing', () => {
  test('semicolons, Russian numbers and dates', async () => {
    const parsed = await parseCsvText('Товар;Цена;Дата\nЧай;1 234,5;25.11.2026\nКофе;99,9;01.12.2026\n');
    expect(parsed.delimiter).toBe(';');
    expect(parsed.header).toEqual(['Товар', 'Цена', 'Дата']);
    expect(parsed.rows[0]).toEqual(['Чай', '1 234,5', '25.11.2026']);
  });

  test('tabs', async () => {
    const parsed = await parseCsvText('a\tb\n1\t2\n3\t4\n');
    expect(parsed.delimiter).toBe('\t');
    expect(parsed.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  test('quoted newlines, quotes and delimiters stay in their cell', async () => {
    const parsed = await parseCsvText('Заметка,Текст\nпервая,"строка один\nстрока два"\nвторая,"с ""кавычками"", и запятой"\n');
    expect(parsed.rows).toEqual([
      ['первая', 'строка один\nстрока два'],
      ['вторая', 'с "кавычками", и запятой'],
    ]);
  });

  test('short rows are padded to the widest; blank lines are skipped', async () => {
    const parsed = await parseCsvText('a,b,c\n1,2\n\n4,5,6\n');
    expect(parsed.rows).toEqual([
      ['1', '2', ''],
      ['4', '5', '6'],
    ]);
  });

  test('an unclosed quote is reported, not dropped silently', async () => {
    const parsed = await parseCsvText('a,b\n1,"2\n3,4\n');
    expect(parsed.problems.length).toBeGreaterThan(0);
  });

  test('50,000 rows in slices: progress is reported more than once and ends at 1', async () => {
    const lines = ['Номер,Имя,Сумма'];
    for (let i = 0; i < 50_000; i += 1) lines.push(`${i},Имя ${i},"${i},5"`);
    const progress: number[] = [];
    const parsed = await parseCsvText(lines.join('\n'), { onProgress: (p) => progress.push(p.done) });
    expect(parsed.rows).toHaveLength(50_000);
    expect(parsed.rows[49_999]).toEqual(['49999', 'Имя 49999', '49999,5']);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress[progress.length - 1]).toBe(1);
  });

  test('an aborted parse rejects', async () => {
    const controller = new AbortController();
    const text = 'a,b\n' + '1,2\n'.repeat(200_000);
    const parsing = parseCsvText(text, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(parsing).rejects.toBeTruthy();
  });
});

describe('header detection', () => {
  test('names over numbers: a header; numbers over numbers: none', () => {
    expect(
      detectHeader([
        ['Имя', 'Сумма'],
        ['Аня', '10'],
        ['Боря', '20'],
      ]),
    ).toBe(true);
    expect(
      detectHeader([
        ['Аня', '10'],
        ['Боря', '20'],
      ]),
    ).toBe(false);
  });

  test('an empty or repeated first-row cell is not a header', () => {
    expect(
      detectHeader([
        ['Имя', ''],
        ['Аня', 'x'],
      ]),
    ).toBe(false);
    expect(
      detectHeader([
        ['a', 'a'],
        ['b', 'c'],
      ]),
    ).toBe(false);
  });

  test('all text: a first row whose values repeat below is data', () => {
    expect(
      detectHeader([
        ['да', 'Москва'],
        ['нет', 'Москва'],
      ]),
    ).toBe(false);
    expect(
      detectHeader([
        ['Город', 'Страна'],
        ['Москва', 'Россия'],
      ]),
    ).toBe(true);
  });

  test('withHeader moves the first row in and out of the header', async () => {
    const parsed = await parseCsvText('Аня,10\nБоря,20\n');
    expect(parsed.hasHeader).toBe(false);
    const named = withHeader(parsed, true);
    expect(named.header).toEqual(['Аня', '10']);
    expect(named.rows).toEqual([['Боря', '20']]);
    expect(withHeader(named, false).rows).toEqual(parsed.rows);
  });
});

describe('type detection', () => {
  test.each([
    [['1 234,5', '10', '-3.5', '15%'], 'number'],
    [['Да', 'Нет', 'да', ''], 'checkbox'],
    [['0', '1', '1'], 'number'],
    [['25.11.2026', '2026-11-30', '01.01.2027 14:30'], 'date'],
    [['https://example.com/a', 'http://x.ru'], 'url'],
    [['a@b.ru', 'ivan@mail.ru'], 'email'],
    [['+7 (999) 123-45-67', '8 800 555 35 35'], 'phone'],
    [['Новый', 'В работе', 'Новый', 'Готово', 'Новый', 'В работе'], 'select'],
    [['красный, синий', 'синий', 'зелёный, красный', 'синий, зелёный'], 'multiSelect'],
    // Text with commas in it (a CSV quotes it) is text: items too long to be tags, or names that never repeat (issue 34).
    [['Позвонить клиенту, обсудить бюджет на следующий квартал', 'Позвонить клиенту, обсудить бюджет', 'Позвонить клиенту, обсудить бюджет'], 'text'],
    [['Иванов, Пётр', 'Петров, Иван', 'Сидоров, Пётр', 'Кузнецов, Иван'], 'text'],
    [['Москва, ул. Ленина, 5', 'Москва, ул. Мира, 7', 'Москва, пр. Победы, 1', 'Москва, ул. Гагарина, 3'], 'text'],
    [['один', 'два', 'три', 'четыре'], 'text'],
    [['', ' '], 'text'],
    [[...Array.from({ length: 40 }, (_, i) => String(i)), 'много'], 'number'],
    [[...Array.from({ length: 10 }, (_, i) => String(i)), 'много'], 'text'],
    // 95 % to the cell: 38 of 40 fit, 37 of 40 do not (the check stops at the miss too many).
    [[...Array.from({ length: 38 }, (_, i) => String(i)), 'много', 'мало'], 'number'],
    [[...Array.from({ length: 37 }, (_, i) => String(i)), 'много', 'мало', 'нет'], 'text'],
    [['много', ...Array.from({ length: 39 }, (_, i) => String(i))], 'number'],
  ])('%j → %s', (cells, type) => {
    expect(detectColumnType(cells)).toBe(type);
  });

  test('a number column keeps the digits after the comma it was written with (issue 34)', () => {
    expect(decimalsOf(['9 156,30', '80 443,03', '100', ''])).toBe(2);
    expect(fieldFor('Сумма', 'number', ['9 156,30', '80 443,03'])).toEqual({ name: 'Сумма', type: 'number', format: 'plain', decimals: 2 });
    expect(decimalsOf(['1,5', '2,25'])).toBeUndefined();
    expect(decimalsOf(['1', '2', '30'])).toBeUndefined();
    expect(decimalsOf(['1,50 ₽', '3 000,00 руб.'])).toBe(2);
    // «1,234» is thousands as often as a fraction: it decides nothing.
    expect(decimalsOf(['1,234', '5,5'])).toBe(1);
    expect(fieldFor('Число', 'number', ['1', '2'])).toEqual({ name: 'Число', type: 'number', format: 'plain' });
  });

  test('select options keep the first spelling, in order of appearance', () => {
    // Each with a colour of its own, in turn (issue 34).
    expect(optionsOf(['Новый', 'новый', 'Готово'], 'select')).toEqual([
      { id: 'o1', name: 'Новый', color: 'blue' },
      { id: 'o2', name: 'Готово', color: 'green' },
    ]);
  });
});

describe('conversion', () => {
  const columnName = (i: number) => ['Название', 'Сумма', 'Оплачено'][i];
  test('values through textToValue; what does not fit is reported with its line', () => {
    const rows = [
      ['Чай', '1 234,5', 'Да'],
      ['Кофе', 'много', 'может быть'],
    ];
    const { rows: out, problems } = convertRows(
      rows,
      [
        { index: 0, fieldId: MAIN_FIELD_ID, field: { name: 'Название', type: 'text' } },
        { index: 1, fieldId: 'sum', field: { name: 'Сумма', type: 'number' } },
        { index: 2, fieldId: 'paid', field: { name: 'Оплачено', type: 'checkbox' } },
      ],
      { firstLine: 2, columnName },
    );
    expect(out).toEqual([
      { title: 'Чай', values: { sum: 1234.5, paid: true } },
      { title: 'Кофе', values: {} },
    ]);
    expect(problems).toEqual([
      { line: 3, column: 'Сумма', text: 'много', kind: 'number' },
      { line: 3, column: 'Оплачено', text: 'может быть', kind: 'checkbox' },
    ]);
  });

  test('an existing database: new option names get ids through addOption; a full field is reported', () => {
    const field: DatabaseField = { name: 'Статус', type: 'select', options: [{ id: 'a', name: 'Новый' }] };
    const made: string[] = [];
    const { rows, problems } = convertRows(
      [
        ['x', 'новый'],
        ['y', 'Готово'],
        ['z', 'Третий'],
      ],
      [{ index: 1, fieldId: 'st', field }],
      {
        firstLine: 1,
        columnName: () => 'Статус',
        addOption: (_, name) => {
          if (made.length >= 1) return undefined;
          made.push(name);
          return 'b';
        },
      },
    );
    expect(rows.map((r) => r.values.st)).toEqual(['a', 'b', undefined]);
    expect(problems).toEqual([{ line: 3, column: 'Статус', text: 'Третий', kind: 'tooManyOptions' }]);
  });
});

describe('round trip: values → CSV → values', () => {
  const fields: Record<string, DatabaseField> = {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    n: { name: 'Число', type: 'number', format: 'plain' },
    c: { name: 'Готово', type: 'checkbox' },
    d: { name: 'Срок', type: 'date' },
    s: {
      name: 'Статус',
      type: 'select',
      options: [
        { id: 'o1', name: 'Новый' },
        { id: 'o2', name: 'В работе' },
      ],
    },
    m: {
      name: 'Теги',
      type: 'multiSelect',
      options: [
        { id: 'o1', name: 'красный' },
        { id: 'o2', name: 'синий' },
      ],
    },
    u: { name: 'Ссылка', type: 'url' },
    e: { name: 'Почта', type: 'email' },
    p: { name: 'Телефон', type: 'phone' },
  };
  const rows: Array<Record<string, RowValue>> = [
    {
      [MAIN_FIELD_ID]: 'Строка с "кавычками", запятой\nи переносом',
      n: -1234.5,
      c: true,
      d: '2026-11-25',
      s: 'o2',
      m: ['o1', 'o2'],
      u: 'https://example.com/?a=1,2',
      e: 'a@b.ru',
      p: '+7 999 123-45-67',
    },
    {
      [MAIN_FIELD_ID]: 'Вторая',
      n: 0.25,
      c: false,
      d: { start: '2026-11-25', end: '2026-12-01' },
      s: 'o1',
      m: ['o2'],
      u: 'http://x.ru',
      e: 'c@d.com',
      p: '88005553535',
    },
  ];

  test.each([',', ';'])('delimiter %j', async (delimiter) => {
    const ids = Object.keys(fields);
    const csv = Papa.unparse(
      { fields: ids.map((id) => fields[id].name), data: rows.map((row) => ids.map((id) => valueToText(fields[id], row[id]))) },
      { delimiter },
    );
    const parsed = await parseCsvText(csv);
    expect(parsed.hasHeader).toBe(true);
    expect(parsed.header).toEqual(ids.map((id) => fields[id].name));
    const back = parsed.rows.map((cells) =>
      Object.fromEntries(ids.map((id, i) => [id, id === MAIN_FIELD_ID ? cells[i] : (textToValue(fields[id], cells[i]) as { value: RowValue }).value])),
    );
    expect(back).toEqual(rows);
    // Detection reads the same types back from the text.
    expect(ids.slice(1).map((_, i) => detectColumnType(parsed.rows.map((r) => r[i + 1])))).toEqual([
      'number',
      'checkbox',
      'date',
      'text',
      'text',
      'url',
      'email',
      'phone',
    ]);
    expect(
      fieldFor(
        'Теги',
        'multiSelect',
        parsed.rows.map((r) => r[5]),
      ),
    ).toEqual({
      name: 'Теги',
      type: 'multiSelect',
      options: [
        { id: 'o1', name: 'красный', color: 'blue' },
        { id: 'o2', name: 'синий', color: 'green' },
      ],
    });
  });
});

describe('formulas (issue 33): our export escapes them, our import reads them back', () => {
  /** What `GET database/{id}/export.csv` writes (server/routes/importHygiene.int.test.ts checks the server writes exactly this). */
  const exported =
    '\ufeffНазвание,Сумма,"\'-Заметка"\r\n' +
    '"\'=1+2",-5,"\'=HYPERLINK(""http://evil.example"";""клик"")"\r\n' +
    '"\'@Иван",-0.5,"\'+7 999 123-45-67"\r\n' +
    '"\'\'=x",3,"\'-5"\r\n' +
    'Обычный,12,"текст, с запятой"\r\n';

  test('an apostrophe before = + - @ tab or CR is taken off (one of several); numbers are numbers', async () => {
    const parsed = await parseCsvText(exported);
    expect(parsed.header).toEqual(['Название', 'Сумма', '-Заметка']);
    expect(parsed.rows).toEqual([
      ['=1+2', '-5', '=HYPERLINK("http://evil.example";"клик")'],
      ['@Иван', '-0.5', '+7 999 123-45-67'],
      ["'=x", '3', '-5'],
      ['Обычный', '12', 'текст, с запятой'],
    ]);
    expect(detectColumnType(parsed.rows.map((r) => r[1]))).toBe('number');
    const { rows, problems } = convertRows(
      parsed.rows,
      [
        { index: 0, fieldId: MAIN_FIELD_ID, field: { name: 'Название', type: 'text' } },
        { index: 1, fieldId: 'sum', field: { name: 'Сумма', type: 'number' } },
        { index: 2, fieldId: 'note', field: { name: '-Заметка', type: 'text' } },
      ],
      { firstLine: 2, columnName: (i) => parsed.header[i] },
    );
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.title, r.values.sum, r.values.note])).toEqual([
      ['=1+2', -5, '=HYPERLINK("http://evil.example";"клик")'],
      ['@Иван', -0.5, '+7 999 123-45-67'],
      ["'=x", 3, '-5'],
      ['Обычный', 12, 'текст, с запятой'],
    ]);
  });

  const TEXTS = [
    '=1+2',
    '+1',
    '-1',
    '@SUM(A1)',
    '\tтаб',
    '\rперевод',
    "'=x",
    "''+y",
    "'",
    "'текст",
    'текст',
    '',
    ' =с пробелом',
    "-2+3+cmd|' /C calc'!A0",
    'a,=b',
    '"=кавычки"',
    '=\nстроки',
  ];

  test('which cells are escaped: text starting with = + - @ tab or CR, after any apostrophes; numbers never', () => {
    const escaped = TEXTS.filter(
      (text) =>
        Papa.unparse([[text]], CSV_EXPORT_OPTIONS)
          .replace(/^"/, '')
          .startsWith("'") && !text.startsWith("'"),
    );
    expect(escaped).toEqual(['=1+2', '+1', '-1', '@SUM(A1)', '\tтаб', '\rперевод', "-2+3+cmd|' /C calc'!A0", '=\nстроки']);
    expect(Papa.unparse([["'=x", "''+y", "'", "'текст"]], CSV_EXPORT_OPTIONS)).toBe(`"''=x","'''+y",','текст`);
    expect(Papa.unparse([[-5, -0.5, 1e21, '-5']], CSV_EXPORT_OPTIONS)).toBe(`-5,-0.5,1e+21,"'-5"`);
  });

  test.each([',', ';'] as const)('every text, header names too, comes back as it was (delimiter %j)', async (delimiter) => {
    const csv = Papa.unparse({ fields: ['Название', ...TEXTS.map((_, i) => `=к${i}`)], data: [['строка', ...TEXTS]] }, { ...CSV_EXPORT_OPTIONS, delimiter });
    const parsed = await parseCsvText(csv, { delimiter });
    expect(parsed.header).toEqual(['Название', ...TEXTS.map((_, i) => `=к${i}`)]);
    expect(parsed.rows).toEqual([['строка', ...TEXTS]]);
    // One apostrophe comes off, only before what a spreadsheet would run.
    expect(["'=a", "''=a", "'a", "'", "a'=b", "'\t"].map(unescapeFormula)).toEqual(['=a', "'=a", "'a", "'", "a'=b", '\t']);
  });
});
