import { compareTitles, comparePages, groupRows, type RankedPage, type RankOrder } from './rank';

const found = (pageId: string, title: string, parts: Partial<RankedPage> = {}): RankedPage => ({
  pageId,
  seq: 1,
  title,
  updatedAt: '2026-12-03T11:00:00Z',
  databaseId: null,
  covered: 1,
  score: 1,
  ...parts,
});
const order = (pages: RankedPage[], by: RankOrder = 'relevance') => [...pages].sort(comparePages(by)).map((p) => p.pageId);

test('every term above some of them, then the score, then the newest, then the title as people sort it, then the id', () => {
  expect(order([found('some', 'A', { covered: 1, score: 20 }), found('all', 'B', { covered: 2, score: 1 })])).toEqual(['all', 'some']);
  expect(order([found('low', 'A', { score: 1 }), found('high', 'B', { score: 2 })])).toEqual(['high', 'low']);
  expect(order([found('old', 'A', { updatedAt: '2020-01-01T00:00:00Z' }), found('new', 'B')])).toEqual(['new', 'old']);
  // Changed at once (rows made together): by title, numbers as numbers; then the id.
  expect(order([found('x', 'Заказ 10'), found('y', 'Заказ 2'), found('z', 'Заказ 1')])).toEqual(['z', 'y', 'x']);
  expect(order([found('b', 'A'), found('a', 'A')])).toEqual(['a', 'b']);
});

test('the last edited first: the best match breaks ties', () => {
  const pages = [found('best', 'A', { covered: 2, updatedAt: '2020-01-01T00:00:00Z' }), found('newer', 'B'), found('newer-better', 'C', { score: 5 })];
  expect(order(pages, 'edited')).toEqual(['newer-better', 'newer', 'best']);
  expect(order(pages)).toEqual(['best', 'newer-better', 'newer']);
});

test('a database’s rows are one result at the place of its best row', () => {
  const ranked = [found('r1', 'Документ 1', { databaseId: 'db' }), found('p', 'Архив'), found('r2', 'Документ 2', { databaseId: 'db' })];
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
