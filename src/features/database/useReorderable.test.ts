import { movedItem } from './useReorderable';

const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
const ids = (items: Array<{ id: string }>) => items.map((o) => o.id).join('');

test('an item moves before or after another; unknown ids and itself leave the order', () => {
  expect(ids(movedItem(list, 'c', 'a', 'before'))).toBe('cab');
  expect(ids(movedItem(list, 'a', 'c', 'before'))).toBe('bac');
  expect(ids(movedItem(list, 'a', 'c', 'after'))).toBe('bca');
  expect(ids(movedItem(list, 'c', 'a', 'after'))).toBe('acb');
  expect(ids(movedItem(list, 'b', 'b', 'after'))).toBe('abc');
  expect(ids(movedItem(list, 'x', 'a', 'before'))).toBe('abc');
  expect(ids(movedItem(list, 'a', 'x', 'before'))).toBe('abc');
});

test('several items move together in the order given; a null target puts them first', () => {
  const five = [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }, { id: 'e' }];
  expect(ids(movedItem(five, ['b', 'd'], 'e', 'after'))).toBe('acebd');
  expect(ids(movedItem(five, ['d', 'b'], 'a', 'after'))).toBe('adbce');
  expect(ids(movedItem(five, ['c', 'e'], null, 'after'))).toBe('ceabd');
  expect(ids(movedItem(five, ['c'], null, 'before'))).toBe('cabde');
  // A target among the items moved, or an unknown item: unchanged.
  expect(ids(movedItem(five, ['b', 'c'], 'c', 'after'))).toBe('abcde');
  expect(ids(movedItem(five, ['b', 'x'], 'e', 'after'))).toBe('abcde');
});
