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
