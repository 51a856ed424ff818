/** @jest-environment jsdom */
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import { parseWith, roundTripHtml } from '../../../schema/blocks/htmlTestUtil';
import { MARKDOWN_SHORTCUTS, VOID_SLATE_TYPES } from '../../../schema/blocks/index';
import { LATEX_FORMULA_MAX_LENGTH, latexBlock } from './block';

const wire = (type: WireBlock['type'], data: object): WireBlock => ({
  id: 'b',
  contentType: 'Block',
  pageId: 'p',
  type,
  version: 1,
  parentId: null,
  placeAfter: null,
  data: data as WireBlock['data'],
});

describe('latex', () => {
  const formula = 'a < b & \\frac{1}{"2"}';

  test('void, /latex makes one, formula up to 10,000 characters', () => {
    expect(VOID_SLATE_TYPES.has('latexBlock')).toBe(true);
    expect(MARKDOWN_SHORTCUTS.get('/latex')).toBe('latexBlock');
    expect(latexBlock.defaultData!()).toEqual({ formula: '' });
    expect(latexBlock.dataSchema.safeParse({ formula: 'x'.repeat(LATEX_FORMULA_MAX_LENGTH) }).success).toBe(true);
    expect(latexBlock.dataSchema.safeParse({ formula: 'x'.repeat(LATEX_FORMULA_MAX_LENGTH + 1) }).success).toBe(false);
    expect(latexBlock.dataSchema.safeParse({}).success).toBe(false);
  });

  test('round-trips through Slate; a block just turned into a formula has an empty one', () => {
    const element = toSlate(wire('latex', { formula }));
    expect(element).toEqual({ type: 'latexBlock', uid: 'b', version: 1, formula, children: [{ text: '' }] });
    expect(toWire(element, wire('latex', {})).data).toStrictEqual({ formula });
    expect(toWire({ type: 'latexBlock', uid: 'c', version: 1, children: [{ text: '' }] }, wire('latex', {})).data).toStrictEqual({ formula: '' });
  });

  test('HTML: <div data-latex> with the formula escaped, both ways', () => {
    expect(latexBlock.html!.serialize({ formula }, '')).toBe(
      '<div data-latex="a &lt; b &amp; \\frac{1}{&quot;2&quot;}">a &lt; b &amp; \\frac{1}{&quot;2&quot;}</div>',
    );
    expect(roundTripHtml(latexBlock, { formula }, '')).toEqual({ formula });
    expect(parseWith(latexBlock, '<div>x</div>')).toBeNull();
  });
});
