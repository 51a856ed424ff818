import type { RollupCalculation } from '../blocks/database';
import { ROLLUP_CALCULATIONS } from '../blocks/database';
import { rollupFits, rollupResultType, rollupValue } from './rollup';
import type { FormulaDate, FormulaValue } from './values';

const day = (text: string): FormulaDate => ({ start: Date.parse(`${text}T00:00:00Z`), end: null, time: false });
const run = (calculation: RollupCalculation, values: FormulaValue[]) => rollupValue(calculation, values, 'Europe/Moscow');

describe('rollupValue', () => {
  const numbers: FormulaValue[] = [3, null, 8, 5, 0];
  test.each<[RollupCalculation, FormulaValue]>([
    ['countAll', 5],
    ['countValues', 4],
    ['countUnique', 4],
    ['countEmpty', 1],
    ['countNotEmpty', 4],
    ['percentEmpty', 20],
    ['percentNotEmpty', 80],
    ['sum', 16],
    ['average', 4],
    ['median', 4],
    ['min', 0],
    ['max', 8],
    ['range', 8],
    ['showOriginal', ['3', '8', '5', '0']],
  ])('%s of numbers', (calculation, expected) => {
    expect(run(calculation, numbers)).toEqual(expected);
  });

  test('no related rows: counts and a sum are 0, the rest empty', () => {
    for (const calculation of ROLLUP_CALCULATIONS) {
      const expected = calculation.startsWith('count') || calculation === 'sum' || calculation === 'checked' || calculation === 'unchecked' ? 0 : null;
      expect([calculation, run(calculation, [])]).toEqual([calculation, expected]);
    }
  });

  test('lists are opened: values and unique values of multi-selects, originals flat', () => {
    const tags: FormulaValue[] = [['срочно', 'дизайн'], null, ['дизайн'], []];
    expect(run('countAll', tags)).toBe(4);
    expect(run('countValues', tags)).toBe(3);
    expect(run('countUnique', tags)).toBe(2);
    expect(run('countEmpty', tags)).toBe(2);
    expect(run('showOriginal', tags)).toEqual(['срочно', 'дизайн', 'дизайн']);
  });

  test('checkboxes: checked, unchecked and their percents (of all rows, two decimals)', () => {
    const boxes: FormulaValue[] = [true, false, true];
    expect(run('checked', boxes)).toBe(2);
    expect(run('unchecked', boxes)).toBe(1);
    expect(run('percentChecked', boxes)).toBe(66.67);
    expect(run('percentUnchecked', boxes)).toBe(33.33);
    // False is a value, not an empty one.
    expect(run('countEmpty', boxes)).toBe(0);
  });

  test('dates: earliest, latest (by where a range ends) and the days between', () => {
    const range: FormulaDate = { start: day('2026-12-03').start, end: day('2026-12-20').start, time: false };
    const dates: FormulaValue[] = [day('2026-12-10'), null, range, day('2026-12-01')];
    expect(run('earliest', dates)).toEqual(day('2026-12-01'));
    expect(run('latest', dates)).toEqual(range);
    expect(run('dateRange', dates)).toBe(19);
    expect(run('showOriginal', [day('2026-12-10')])).toEqual([expect.stringContaining('2026')]);
  });

  test('an even count’s median is the mean of the middle two; 50,000 values do not overflow the stack', () => {
    expect(run('median', [4, 1, 3, 2])).toBe(2.5);
    const many = Array.from({ length: 50_000 }, (_, i) => i);
    expect(run('max', many)).toBe(49_999);
    expect(run('min', many)).toBe(0);
  });
});

describe('types', () => {
  test('a rollup gives a number, a date or a list, by its calculation only', () => {
    expect(rollupResultType('sum')).toBe('number');
    expect(rollupResultType('percentChecked')).toBe('number');
    expect(rollupResultType('dateRange')).toBe('number');
    expect(rollupResultType('latest')).toBe('date');
    expect(rollupResultType('showOriginal')).toBe('list');
  });

  test('calculations read the types they can; counts read any', () => {
    expect(rollupFits('sum', 'number')).toBe(true);
    expect(rollupFits('sum', 'date')).toBe(false);
    expect(rollupFits('earliest', 'date')).toBe(true);
    expect(rollupFits('earliest', 'text')).toBe(false);
    expect(rollupFits('checked', 'boolean')).toBe(true);
    expect(rollupFits('checked', 'number')).toBe(false);
    expect(rollupFits('countUnique', 'text')).toBe(true);
    // A list (a rollup of originals, a multi-select) may hold numbers: taken, its items read when computed.
    expect(rollupFits('sum', 'list')).toBe(true);
  });
});
