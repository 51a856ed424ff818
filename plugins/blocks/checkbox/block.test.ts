/** @jest-environment jsdom */
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import type { BlockElement } from '../../../schema/slate';
import { checkboxBlock } from './block';
import { parseWith, roundTripHtml } from '../../../schema/blocks/htmlTestUtil';
import { MARKDOWN_SHORTCUTS } from '../../../schema/blocks/index';

const tokens = [{ text: 'Купить хлеб' }];

describe('checkbox', () => {
  test('[] and [ ] make a checkbox; a new one is unchecked', () => {
    expect(MARKDOWN_SHORTCUTS.get('[]')).toBe('checkboxBlock');
    expect(MARKDOWN_SHORTCUTS.get('[ ]')).toBe('checkboxBlock');
    expect(checkboxBlock.defaultData!()).toEqual({ tokens: [], checked: false });
  });

  test('checked is required on the wire and a boolean', () => {
    expect(checkboxBlock.dataSchema.safeParse({ tokens, checked: true }).success).toBe(true);
    expect(checkboxBlock.dataSchema.safeParse({ tokens }).success).toBe(false);
    expect(checkboxBlock.dataSchema.safeParse({ tokens, checked: 'yes' }).success).toBe(false);
  });

  test('round-trips through Slate; a block just turned into a checkbox is sent unchecked', () => {
    const wire: WireBlock = {
      id: 'b',
      contentType: 'Block',
      pageId: 'p',
      type: 'checkbox',
      version: 2,
      parentId: null,
      placeAfter: null,
      data: { tokens, checked: true },
    };
    const element = toSlate(wire);
    expect(element).toEqual({ type: 'checkboxBlock', uid: 'b', version: 2, checked: true, children: [{ text: 'Купить хлеб' }] });
    expect(toWire(element, wire)).toStrictEqual(wire);
    const converted = { type: 'checkboxBlock', uid: 'c', version: 1, children: [{ text: 'x' }] } as BlockElement;
    expect(toWire(converted, wire).data).toStrictEqual({ tokens: [{ text: 'x' }], checked: false });
  });

  test('HTML: <ul><li><input type=checkbox checked>, both ways', () => {
    expect(checkboxBlock.html!.serialize({ tokens, checked: true }, 'Купить хлеб')).toBe(
      '<ul><li><input type="checkbox" checked disabled> Купить хлеб</li></ul>',
    );
    expect(roundTripHtml(checkboxBlock, { tokens, checked: true }, 'Купить хлеб')).toEqual({ tokens, checked: true });
    expect(roundTripHtml(checkboxBlock, { tokens, checked: false }, 'Купить хлеб')).toEqual({ tokens, checked: false });
    expect(parseWith(checkboxBlock, '<ul><li>просто пункт</li></ul>')).toBeNull();
    // GitHub's task lists put the box in a <p>.
    expect(parseWith(checkboxBlock, '<ul><li><p><input type="checkbox" checked> Готово</p></li></ul>')).toEqual({
      tokens: [{ text: 'Готово' }],
      checked: true,
    });
  });
});
