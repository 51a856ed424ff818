/** @jest-environment jsdom */
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import { dividerBlock } from './block';
import { parseWith } from '../../../schema/blocks/htmlTestUtil';
import { VOID_SLATE_TYPES } from '../../../schema/blocks/index';

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

describe('divider', () => {
  test('void, no data, <hr>', () => {
    expect(VOID_SLATE_TYPES.has('dividerBlock')).toBe(true);
    expect(dividerBlock.dataSchema.safeParse({}).success).toBe(true);
    expect(dividerBlock.dataSchema.safeParse({ tokens: [] }).success).toBe(false);
    const element = toSlate(wire('divider', {}));
    expect(element).toEqual({ type: 'dividerBlock', uid: 'b', version: 1, children: [{ text: '' }] });
    expect(toWire(element, wire('divider', {})).data).toStrictEqual({});
    expect(dividerBlock.html!.serialize({}, '')).toBe('<hr>');
    expect(parseWith(dividerBlock, '<p>a</p><hr>')).toEqual({});
  });
});
