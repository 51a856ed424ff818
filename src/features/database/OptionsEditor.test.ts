import { movedOption } from './OptionsEditor';

const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
const ids = (options: Array<{ id: string }>) => options.map((o) => o.id).join('');

test('an option moves before another, or to the end; unknown ids and itself leave the order', () => {
  expect(ids(movedOption(list, 'c', 'a'))).toBe('cab');
  expect(ids(movedOption(list, 'a', 'c'))).toBe('bac');
  expect(ids(movedOption(list, 'a', null))).toBe('bca');
  expect(ids(movedOption(list, 'b', 'b'))).toBe('abc');
  expect(ids(movedOption(list, 'x', 'a'))).toBe('abc');
  expect(ids(movedOption(list, 'a', 'x'))).toBe('bca');
});
