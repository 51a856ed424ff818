import { fitTitle, textProblem } from './text';

describe('fitTitle: an imported title within the title limit', () => {
  test('a title of 1,000 characters or fewer is kept; a longer one cut to 1,000, never inside a surrogate pair', () => {
    expect(fitTitle('я'.repeat(1000))).toBe('я'.repeat(1000));
    expect(fitTitle('я'.repeat(1500))).toBe('я'.repeat(1000));
    const pair = `${'a'.repeat(999)}😀tail`;
    expect(fitTitle(pair)).toBe('a'.repeat(999));
    expect(textProblem(fitTitle(pair))).toBeNull();
    expect(fitTitle(`${'a'.repeat(998)}😀tail`)).toBe(`${'a'.repeat(998)}😀`);
  });
});
