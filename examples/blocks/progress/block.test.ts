/** @jest-environment jsdom */
import { createBlockBodySchema, toSlate, toWire, type WireBlock } from '../../../schema/block';
import { BLOCK_WIRE_TYPES, MARKDOWN_SHORTCUTS, definitionForWireType } from '../../../schema/blocks';
import type { BlockUpgrade } from '../../../schema/blocks/definition';
import { parseWith, roundTripHtml } from '../../../schema/blocks/htmlTestUtil';
import { dataVersionOf, upgradeData } from '../../../schema/blocks/versions';
import type { BlockElement } from '../../../schema/slate';
import { clampPercent, progressBarText, progressBlock } from './block';

const tokens = [{ text: 'Перевод ' }, { text: 'главы 3', bold: true }];
const wire: WireBlock = {
  id: 'b',
  contentType: 'Block',
  pageId: 'p',
  type: 'progress',
  version: 1,
  parentId: null,
  placeAfter: null,
  data: { tokens, value: 40 },
};

describe('the progress block (the worked example of a plugin)', () => {
  test('is registered by its one line: the wire type, the lookups and its shortcut', () => {
    expect(BLOCK_WIRE_TYPES).toContain('progress');
    expect(definitionForWireType('progress')).toBe(progressBlock);
    expect(MARKDOWN_SHORTCUTS.get('[%]')).toBe('progressBlock');
    expect(progressBlock.defaultData!()).toEqual({ tokens: [], value: 0 });
  });

  test('its data: whole percents from 0 to 100, and nothing else', () => {
    const valid = (data: unknown) => progressBlock.dataSchema.safeParse(data).success;
    expect(valid({ tokens, value: 0 })).toBe(true);
    expect(valid({ tokens, value: 100 })).toBe(true);
    expect(valid({ tokens, value: 101 })).toBe(false);
    expect(valid({ tokens, value: -1 })).toBe(false);
    expect(valid({ tokens, value: 12.5 })).toBe(false);
    expect(valid({ tokens })).toBe(false);
    expect(valid({ tokens, value: 5, color: 'red' })).toBe(false);
  });

  test('the server checks a write through the same definition', () => {
    const body = (data: unknown) => createBlockBodySchema.safeParse({ pageId: 'p', type: 'progress', data, parentId: null, placeAfter: null });
    expect(body({ tokens, value: 40 }).success).toBe(true);
    expect(body({ tokens, value: 140 }).success).toBe(false);
  });

  test('round-trips through Slate; a block just turned into one is at 0 %', () => {
    const element = toSlate(wire);
    expect(element).toEqual({ type: 'progressBlock', uid: 'b', version: 1, value: 40, children: tokens });
    expect(toWire(element, wire)).toStrictEqual(wire);
    expect(toWire({ type: 'progressBlock', uid: 'c', version: 1, children: [{ text: 'Новое' }] } as BlockElement, wire).data).toStrictEqual({
      tokens: [{ text: 'Новое' }],
      value: 0,
    });
  });

  test('canonical form: tokens joined, as Slate would keep them', () => {
    expect(progressBlock.canonicalize({ tokens: [{ text: 'а' }, { text: 'б' }], value: 7 })).toEqual({ tokens: [{ text: 'аб' }], value: 7 });
  });

  test('HTML: a real <progress> with the text after it, read back exactly', () => {
    const html = progressBlock.html!.serialize({ tokens, value: 40 }, 'Перевод <strong>главы 3</strong>');
    expect(html).toBe('<p data-progress="40"><progress value="40" max="100">40 %</progress> Перевод <strong>главы 3</strong></p>');
    expect(roundTripHtml(progressBlock, { tokens, value: 40 }, 'Перевод <strong>главы 3</strong>')).toEqual({ tokens, value: 40 });
    expect(parseWith(progressBlock, '<p data-progress="250">много</p>')).toEqual({ tokens: [{ text: 'много' }], value: 100 });
    expect(parseWith(progressBlock, '<p>просто абзац</p>')).toBeNull();
  });

  test('Markdown: the bar in plain text, then the text', () => {
    const md = { inline: (t: readonly { text: string }[]) => t.map((x) => x.text).join('') } as Parameters<
      NonNullable<typeof progressBlock.markdown>['serialize']
    >[1];
    expect(progressBlock.markdown!.serialize({ tokens, value: 40 }, md)).toEqual(['▓▓▓▓░░░░░░ 40 % Перевод главы 3']);
    expect(progressBlock.markdown!.serialize({ tokens: [], value: 100 }, md)).toEqual(['▓▓▓▓▓▓▓▓▓▓ 100 %']);
    expect(progressBarText(0)).toBe('░░░░░░░░░░ 0 %');
  });

  test('percents are clamped whole numbers', () => {
    expect([clampPercent(-3), clampPercent(33.6), clampPercent(250), clampPercent(Number.NaN)]).toEqual([0, 34, 100, 0]);
  });

  test('versioned data: a step added later takes old data up, and the server refuses data newer than it knows', () => {
    // The walkthrough's second version (docs/plugins.md): `value` was a fraction 0–1 called `done`.
    const fractionToPercent: BlockUpgrade = {
      name: 'progress: whole percents',
      up: ({ done, ...rest }) => ({ ...rest, value: clampPercent(Number(done) * 100) }),
    };
    const v2 = { ...progressBlock, upgrades: [fractionToPercent] };
    expect(dataVersionOf(progressBlock)).toBe(1);
    expect(dataVersionOf(v2)).toBe(2);
    expect(upgradeData(v2, { tokens, done: 0.4 }, 1)).toEqual({ data: { tokens, value: 40 } });
    expect(upgradeData(v2, { tokens, value: 40 })).toEqual({ data: { tokens, value: 40 } });
    expect(upgradeData(progressBlock, { tokens, value: 40 }, 2)).toEqual({ error: expect.stringContaining('newer than this server') });
  });
});
