/** @jest-environment jsdom */
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import type { BlockElement } from '../../../schema/slate';
import { CALLOUT_ICONS, calloutBlock } from './block';
import { parseWith, roundTripHtml } from '../../../schema/blocks/htmlTestUtil';
import { MARKDOWN_SHORTCUTS } from '../../../schema/blocks/index';

const tokens = [{ text: 'Важно: ' }, { text: 'сохраните', bold: true }];

describe('callout', () => {
  test('/callout makes one, with a light bulb by default', () => {
    expect(MARKDOWN_SHORTCUTS.get('/callout')).toBe('calloutBlock');
    expect(calloutBlock.defaultData!()).toEqual({ tokens: [], icon: '💡' });
    expect(CALLOUT_ICONS.length).toBeGreaterThanOrEqual(12);
  });

  test('icon: a short non-empty string', () => {
    expect(calloutBlock.dataSchema.safeParse({ tokens, icon: '⚠️' }).success).toBe(true);
    expect(calloutBlock.dataSchema.safeParse({ tokens, icon: '' }).success).toBe(false);
    expect(calloutBlock.dataSchema.safeParse({ tokens, icon: 'x'.repeat(17) }).success).toBe(false);
    expect(calloutBlock.dataSchema.safeParse({ tokens }).success).toBe(false);
  });

  test('round-trips through Slate; a block turned into a callout gets the default icon', () => {
    const wire: WireBlock = {
      id: 'b',
      contentType: 'Block',
      pageId: 'p',
      type: 'callout',
      version: 1,
      parentId: 'x',
      placeAfter: null,
      data: { tokens, icon: '🔥' },
    };
    const element = toSlate(wire);
    expect(element).toEqual({ type: 'calloutBlock', uid: 'b', version: 1, icon: '🔥', children: tokens });
    expect(toWire(element, wire)).toStrictEqual(wire);
    expect(toWire({ type: 'calloutBlock', uid: 'c', version: 1, children: [{ text: '' }] } as BlockElement, wire).data).toStrictEqual({
      tokens: [],
      icon: '💡',
    });
  });

  test("HTML: ours both ways, and Notion's callout figure", () => {
    expect(roundTripHtml(calloutBlock, { tokens, icon: '⚠️' }, 'Важно: <strong>сохраните</strong>')).toEqual({ tokens, icon: '⚠️' });
    expect(parseWith(calloutBlock, '<figure class="callout"><div><span class="icon">🚀</span></div><div>Запуск в пятницу</div></figure>')).toEqual({
      tokens: [{ text: 'Запуск в пятницу' }],
      icon: '🚀',
    });
    expect(parseWith(calloutBlock, '<aside>просто</aside>')).toBeNull();
  });
});
