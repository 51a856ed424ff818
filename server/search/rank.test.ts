import { compareTitles, groupRows, rankPages, type PageFeatures } from './rank';
import { indexTerms, parseQuery } from './terms';

const NOW = Date.parse('2026-12-03T12:00:00Z');
/** A page found; its title's stems as the index gives them (when the title holds a term). */
const page = (pageId: string, title: string, features: Partial<Omit<PageFeatures, 'titleWholeMask'>> = {}): PageFeatures => ({
  pageId,
  title,
  updatedAt: '2026-12-03T11:00:00Z',
  databaseId: null,
  pageMask: 1,
  titleMask: 0,
  oneEntry: false,
  entries: 1,
  phrase: false,
  titleWholeMask: 0,
  ...features,
});
/** As the index gives them for the query: the terms the title holds as whole words. */
const asIndexed = (found: PageFeatures, q: string): PageFeatures => {
  const terms = parseQuery(q).terms;
  const stems = indexTerms(found.title).split(' ');
  const whole = terms.reduce((mask, term, i) => mask | (found.titleMask & (2 ** i) && stems.includes(term.stem) ? 2 ** i : 0), 0);
  return { ...found, titleWholeMask: whole };
};
const order = (found: PageFeatures[], q: string) =>
  rankPages(
    found.map((f) => asIndexed(f, q)),
    parseQuery(q),
    NOW,
  ).map((r) => r.pageId);

test('every term above some of them, whatever the title', () => {
  const q = 'документов аудиту ';
  expect(order([page('loose', 'Документы', { pageMask: 1, titleMask: 1 }), page('all', 'Заметки', { pageMask: 3, oneEntry: true })], q)).toEqual([
    'all',
    'loose',
  ]);
});

test('the title weighs most: the query as the title, then all its terms in it, then one of them, then the text', () => {
  const q = 'план продаж ';
  const found = [
    page('text', 'Заметки', { pageMask: 3, oneEntry: true, entries: 3 }),
    page('some', 'План', { pageMask: 3, titleMask: 1, oneEntry: false }),
    page('all', 'Продаж план на год', { pageMask: 3, titleMask: 3, oneEntry: true }),
    page('exact', 'План продаж', { pageMask: 3, titleMask: 3, oneEntry: true }),
  ];
  expect(order(found, q)).toEqual(['exact', 'all', 'some', 'text']);
});

test('a phrase and one passage with every term rank above the terms apart; a whole word in the title above a word it begins', () => {
  const q = 'план продаж ';
  expect(
    order(
      [
        page('apart', 'A', { pageMask: 3, oneEntry: false }),
        page('one', 'B', { pageMask: 3, oneEntry: true }),
        page('phrase', 'C', { pageMask: 3, oneEntry: true, phrase: true }),
      ],
      q,
    ),
  ).toEqual(['phrase', 'one', 'apart']);
  expect(order([page('begins', 'Документооборот', { titleMask: 1 }), page('whole', 'Документ по заказу', { titleMask: 1 })], 'документ')).toEqual([
    'whole',
    'begins',
  ]);
});

test('fresher a little up, then the newest, then the title, then the id', () => {
  const old = page('old', 'A', { updatedAt: '2024-12-03T12:00:00Z' });
  const fresh = page('fresh', 'A');
  expect(order([old, fresh], 'a')).toEqual(['fresh', 'old']);
  // Fresh does not beat the title.
  expect(order([page('titled', 'Бюджет', { titleMask: 1, updatedAt: '2020-01-01T00:00:00Z' }), fresh], 'бюджет')).toEqual(['titled', 'fresh']);
  expect(order([page('b', 'A'), page('a', 'A')], 'a')).toEqual(['a', 'b']);
  // Changed at once (rows made together): by title, numbers as numbers.
  expect(order([page('x', 'Заказ 10'), page('y', 'Заказ 2'), page('z', 'Заказ 1')], 'заказ')).toEqual(['z', 'y', 'x']);
});

test('a database’s rows are one result at the place of its best row', () => {
  const ranked = rankPages(
    [page('r1', 'Документ 1', { databaseId: 'db', titleMask: 1 }), page('p', 'Архив'), page('r2', 'Документ 2', { databaseId: 'db', titleMask: 1 })],
    parseQuery('документ'),
    NOW,
  );
  expect(groupRows(ranked).map((g) => [g.databaseId, g.pages.map((p) => p.pageId)])).toEqual([
    ['db', ['r1', 'r2']],
    [null, ['p']],
  ]);
});

test('titles compared as people sort them: numbers as numbers', () => {
  const titles = ['Заказ 10', 'Заказ 2', 'Заказ 1', 'Заказ', 'Заказ 2а', 'Заказ 02x', 'Заказы', 'Акт 100', 'Заказ 9 из 10', 'Заказ 9 из 9'];
  expect([...titles].sort(compareTitles)).toEqual([
    'Акт 100',
    'Заказ',
    'Заказ 1',
    'Заказ 2',
    'Заказ 2а',
    'Заказ 02x',
    'Заказ 9 из 9',
    'Заказ 9 из 10',
    'Заказ 10',
    'Заказы',
  ]);
  expect(compareTitles('a', 'a')).toBe(0);
});
