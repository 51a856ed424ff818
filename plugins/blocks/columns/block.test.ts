/** @jest-environment jsdom */
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import { definitionForWireType } from '../../../schema/blocks';
import type { BlockElement } from '../../../schema/slate';
import { blocksToHtml, parseHtml } from '../../../plugins/withClipboard';
import { columnBlock, columnListBlock } from './block';

const para = (uid: string, text: string, depth: number) => ({ type: 'textBlock', uid, version: 1, depth, children: [{ text }] }) as BlockElement;
const page: BlockElement[] = [
  { type: 'columnListBlock', uid: 'l', version: 1, children: [{ text: '' }] } as BlockElement,
  { type: 'columnBlock', uid: 'c1', version: 1, depth: 1, width: 0.6, children: [{ text: '' }] } as BlockElement,
  para('a', 'Плюсы', 2),
  { type: 'columnBlock', uid: 'c2', version: 1, depth: 1, width: 0.4, children: [{ text: '' }] } as BlockElement,
  para('b', 'Минусы', 2),
];

describe('columns', () => {
  test('are registered; offered in the menu as 2–5 columns, each made with its columns and a paragraph in each', () => {
    expect(definitionForWireType('columnList')).toBe(columnListBlock);
    expect(definitionForWireType('column')).toBe(columnBlock);
    expect(columnListBlock.menuVariants!.map((v) => v.id)).toEqual(['columns2', 'columns3', 'columns4', 'columns5']);
    expect(columnListBlock.menuVariants![0].children()).toEqual([
      { type: 'columnBlock', fields: { width: null }, depth: 1 },
      { type: 'textBlock', fields: {}, depth: 2 },
      { type: 'columnBlock', fields: { width: null }, depth: 1 },
      { type: 'textBlock', fields: {}, depth: 2 },
    ]);
  });

  test("a column's share: 0.1–1, two decimals; none is an equal share", () => {
    expect(columnBlock.dataSchema.safeParse({ width: 0.5 }).success).toBe(true);
    expect(columnBlock.dataSchema.safeParse({ width: null }).success).toBe(true);
    expect(columnBlock.dataSchema.safeParse({ width: 0.05 }).success).toBe(false);
    expect(columnBlock.dataSchema.safeParse({ width: 2 }).success).toBe(false);
    expect(columnBlock.canonicalize({ width: 0.33333 })).toEqual({ width: 0.33 });
    const wire: WireBlock = { id: 'c', contentType: 'Block', pageId: 'p', type: 'column', version: 1, parentId: 'l', placeAfter: null, data: { width: 0.4 } };
    expect(toWire(toSlate(wire), wire)).toStrictEqual(wire);
  });

  test('HTML: flex boxes holding their blocks, read back as the same columns', () => {
    const html = blocksToHtml(page);
    expect(html).toContain('<div data-columns style="display:flex;gap:2em"><div data-column data-width="0.6" style="flex:0.6 1 0">');
    const pasted = parseHtml(html);
    if (pasted?.kind !== 'blocks') throw new Error('no blocks read');
    expect(pasted.blocks.map((b) => `${b.type}@${b.depth ?? 0}${'width' in b ? `:${b.width}` : ''}`)).toEqual([
      'columnListBlock@0',
      'columnBlock@1:0.6',
      'textBlock@2',
      'columnBlock@1:0.4',
      'textBlock@2',
    ]);
  });
});
