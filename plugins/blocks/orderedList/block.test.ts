/** @jest-environment jsdom */
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import { tokensToHtml } from '../../../schema/html';
import type { BlockElement } from '../../../schema/slate';
import { parseWith, roundTripHtml } from '../../../schema/blocks/htmlTestUtil';
import { orderedListBlock, orderedNumberAt } from './block';

let n = 0;
const item = (depth = 0, forcedOrder?: number): BlockElement =>
  ({
    type: 'orderedListBlock',
    uid: `o${n++}`,
    version: 1,
    children: [{ text: 'x' }],
    ...(depth ? { depth } : {}),
    ...(forcedOrder ? { forcedOrder } : {}),
  }) as BlockElement;
const text = (depth = 0): BlockElement => ({ type: 'textBlock', uid: `t${n++}`, version: 1, children: [{ text: 't' }], ...(depth ? { depth } : {}) });
const title: BlockElement = { type: 'pageHeadingBlock', uid: 'pageHeading_p', version: 1, children: [{ text: 'T' }] };

const numbers = (elements: BlockElement[]) => elements.map((_, i) => orderedNumberAt(elements, i));

describe('orderedNumberAt', () => {
  test('a run counts from 1; another block ends it', () => {
    expect(numbers([title, item(), item(), item(), text(), item(), item()])).toEqual([0, 1, 2, 3, 0, 1, 2]);
  });

  test('forcedOrder restarts the count, also in the middle of a run', () => {
    expect(numbers([item(0, 5), item(), item(0, 2), item()])).toEqual([5, 6, 2, 3]);
  });

  test('children of an item do not break the run; nested runs count on their own', () => {
    const elements = [item(), item(1), item(1), text(1), item(1), item(), item(1, 10), item(2), item(1)];
    expect(numbers(elements)).toEqual([1, 1, 2, 0, 1, 2, 10, 1, 11]);
  });

  test('an outdented block ends the run of the deeper items', () => {
    expect(numbers([item(), item(1), text(), item(1)])).toEqual([1, 1, 0, 1]);
  });

  test('another type at the same depth between items splits the run', () => {
    expect(numbers([item(), { ...text(), type: 'bulletListBlock' } as BlockElement, item()])).toEqual([1, 0, 1]);
  });
});

describe('ordered list data', () => {
  const tokens = [{ text: 'Шаг' }];
  const wire = (data: object): WireBlock => ({
    id: 'b',
    contentType: 'Block',
    pageId: 'p',
    type: 'orderedList',
    version: 1,
    parentId: null,
    placeAfter: null,
    data: data as WireBlock['data'],
  });

  test('forcedOrder is optional, a positive integer', () => {
    const schema = orderedListBlock.dataSchema;
    expect(schema.safeParse({ tokens }).success).toBe(true);
    expect(schema.safeParse({ tokens, forcedOrder: 3 }).success).toBe(true);
    for (const bad of [0, -1, 1.5, '3', null]) expect(schema.safeParse({ tokens, forcedOrder: bad }).success).toBe(false);
    expect(schema.safeParse({ tokens, order: 1 }).success).toBe(false);
  });

  test('round-trips through Slate with and without forcedOrder', () => {
    for (const data of [{ tokens }, { tokens, forcedOrder: 7 }]) {
      const element = toSlate(wire(data));
      expect(element).toEqual({
        type: 'orderedListBlock',
        uid: 'b',
        version: 1,
        children: [{ text: 'Шаг' }],
        ...('forcedOrder' in data ? { forcedOrder: 7 } : {}),
      });
      expect(toWire(element, { pageId: 'p', parentId: null, placeAfter: null }).data).toStrictEqual(data);
    }
  });

  test('HTML: <ol><li>, start ↔ forcedOrder when not 1', () => {
    expect(orderedListBlock.html!.serialize({ tokens }, tokensToHtml(tokens))).toBe('<ol><li>Шаг</li></ol>');
    expect(orderedListBlock.html!.serialize({ tokens, forcedOrder: 4 }, 'Шаг')).toBe('<ol start="4"><li>Шаг</li></ol>');
    expect(roundTripHtml(orderedListBlock, { tokens, forcedOrder: 4 }, 'Шаг')).toEqual({ tokens, forcedOrder: 4 });
    expect(roundTripHtml(orderedListBlock, { tokens, forcedOrder: 1 }, 'Шаг')).toEqual({ tokens });
    // Only the first item of a pasted list starts the count anew.
    expect(parseWith(orderedListBlock, '<ol start="3"><li>a</li><li>b</li></ol>', 'li:last-child')).toEqual({ tokens: [{ text: 'b' }] });
    expect(parseWith(orderedListBlock, '<ul><li>a</li></ul>')).toBeNull();
  });
});
