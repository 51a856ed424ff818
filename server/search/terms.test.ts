import { foldWord, indexTerms, parseQuery, placedWords, stemWord, termMatches, trigrams } from './terms';
import { snippet, titleSimilarity, TITLE_SIMILARITY } from './query';
import { blockSearchText, cellSearchText } from './texts';

test('words are folded (case, ё) and stemmed by language: Russian and English forms meet, other scripts and digits stay', () => {
  expect(foldWord('ЁЛКА')).toBe('елка');
  const same = (a: string, b: string) => expect(stemWord(foldWord(a))).toBe(stemWord(foldWord(b)));
  same('программа', 'программы');
  same('программу', 'Программой');
  same('running', 'run');
  same('Documents', 'document');
  expect(stemWord('2026')).toBe('2026');
  expect(stemWord('東京')).toBe('東京');
  expect(indexTerms('Ёлки-палки, RUNNING docs!')).toBe('елк палк run doc');
});

test('a query: its words stemmed; the last one a prefix while typed (no space after it, 2 letters at least); repeats once', () => {
  expect(parseQuery('Программы запус').terms).toEqual([
    { stem: 'программ', prefix: false },
    { stem: 'запус', prefix: true },
  ]);
  expect(parseQuery('программы ').terms).toEqual([{ stem: 'программ', prefix: false }]);
  expect(parseQuery('я').terms).toEqual([{ stem: 'я', prefix: false }]);
  expect(parseQuery('план план').terms).toEqual([{ stem: 'план', prefix: true }]);
  expect(parseQuery(' — ').terms).toEqual([]);
  expect(parseQuery('a b c d e f g h i j k').terms).toHaveLength(8);
  expect(termMatches({ stem: 'прог', prefix: true }, 'программ')).toBe(true);
  expect(termMatches({ stem: 'прог', prefix: false }, 'программ')).toBe(false);
});

test('trigrams as pg_trgm makes them (each word padded), and a title alike by its best run of words', () => {
  expect(trigrams('План')).toEqual(['  п', ' пл', 'пла', 'лан', 'ан ']);
  expect(titleSimilarity('квртал', 'Отчёт за квартал')).toBeGreaterThanOrEqual(TITLE_SIMILARITY);
  expect(titleSimilarity('Прогрмма конференци', 'Программа конференции')).toBeGreaterThanOrEqual(TITLE_SIMILARITY);
  expect(titleSimilarity('совсем другое', 'Отчёт за квартал')).toBeLessThan(TITLE_SIMILARITY);
});

test('a snippet starts a little before the first word found, on a word, and marks every word found in it', () => {
  const text = `${'Вступление без нужных слов. '.repeat(6)}Здесь программа конференции, и снова программы.`;
  const cut = snippet(text, parseQuery('программа ').terms);
  expect(cut.cutBefore).toBe(true);
  expect(cut.marks.map(([a, b]) => cut.text.slice(a, b))).toEqual(['программа', 'программы']);
  expect(cut.text.startsWith(' ')).toBe(false);
  const whole = snippet('Короткий текст', parseQuery('текст').terms);
  expect(whole).toEqual({ text: 'Короткий текст', marks: [[9, 14]], cutBefore: false, cutAfter: false });
  expect(placedWords('a, bc')).toEqual([
    { start: 0, end: 1, stem: 'a' },
    { start: 3, end: 5, stem: 'bc' },
  ]);
});

test('the text a block and a cell are found by', () => {
  expect(blockSearchText('text', { tokens: [{ text: 'Привет, ' }, { text: 'мир', bold: true }] })).toBe('Привет, мир');
  const cell = (x: number, y: number, text: string) => ({ text, tableAddress: { x, y } });
  expect(blockSearchText('table', { tokens: [cell(0, 0, 'а'), cell(0, 0, 'б'), cell(1, 0, 'в')] })).toBe('аб в');
  expect(blockSearchText('file', { remoteData: { fileId: 'f', title: 'отчёт.pdf', size: 1, mimeType: 'application/pdf' } })).toBe('отчёт.pdf');
  expect(blockSearchText('latex', { formula: 'E=mc^2' })).toBe('E=mc^2');
  expect(blockSearchText('divider', {})).toBe('');
  expect(blockSearchText('image', { remoteData: null })).toBe('');
  // An inline database: its title and description (a database without them: none; its rows are found as pages and cells).
  const database = { config: { fields: {} }, view: { layouts: [] } };
  expect(blockSearchText('database', database)).toBe('');
  expect(blockSearchText('database', { ...database, title: ' Цели ', description: 'На квартал' })).toBe('Цели\nНа квартал');
  expect(blockSearchText('database', { ...database, description: 'Только описание' })).toBe('Только описание');
  expect(cellSearchText({ name: 'Заметка', type: 'text' }, ' звонить ')).toBe('звонить');
  expect(cellSearchText({ name: 'Сумма', type: 'number' }, 5)).toBe('');
  expect(cellSearchText(undefined, 'x')).toBe('');
});

test('a query read: quoted phrases, stop words left out when other words are, the last word a prefix while typed', () => {
  expect(parseQuery('отчёт за квар')).toEqual({
    terms: [
      { stem: 'отчет', prefix: false },
      { stem: 'квар', prefix: true },
    ],
    words: [
      { stem: 'отчет', prefix: false },
      { stem: 'за', prefix: false },
      { stem: 'квар', prefix: true },
    ],
    phrases: [],
  });
  // Only stop words: they are the query.
  expect(parseQuery('за ').terms).toEqual([{ stem: 'за', prefix: false }]);
  const quoted = parseQuery('"план продаж" бюджет');
  expect(quoted.phrases).toEqual([
    [
      { stem: 'план', prefix: false },
      { stem: 'продаж', prefix: false },
    ],
  ]);
  expect(quoted.terms.map((t) => t.stem)).toEqual(['план', 'продаж', 'бюджет']);
  // A quote left open runs to the end; a closing quote ends the typing of the last word.
  expect(parseQuery('"точная фра').phrases).toEqual([
    [
      { stem: 'точн', prefix: false },
      { stem: 'фра', prefix: false },
    ],
  ]);
  expect(parseQuery('"план"').terms).toEqual([{ stem: 'план', prefix: false }]);
});
