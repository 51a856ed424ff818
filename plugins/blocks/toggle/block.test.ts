/** @jest-environment jsdom */
import { MARKDOWN_SHORTCUTS, definitionForWireType } from '../../../schema/blocks';
import type { BlockElement } from '../../../schema/slate';
import { blocksToHtml } from '../../withClipboard/serialize';
import { parseHtml } from '../../withClipboard/parseHtml';
import { toggleBlock, toggleHeading2Block } from './block';

const el = (type: string, uid: string, text: string, depth = 0) =>
  ({ type, uid, version: 1, children: [{ text }], ...(depth ? { depth } : {}) }) as BlockElement;
const shape = (blocks: BlockElement[]) => blocks.map((b) => `${b.type}:${b.depth ?? 0}:${(b.children as { text: string }[]).map((c) => c.text).join('')}`);

describe('toggles', () => {
  test('`>` then a space makes a toggle list item; the four types fold', () => {
    expect(MARKDOWN_SHORTCUTS.get('>')).toBe('toggleBlock');
    for (const type of ['toggle', 'toggleHeading1', 'toggleHeading2', 'toggleHeading3']) expect(definitionForWireType(type)?.folds).toBe(true);
    expect(definitionForWireType('quote')?.folds).toBeUndefined();
  });

  test('HTML: a <details> holding its nested blocks (open, so they show where pasted), read back as the same toggle and children', () => {
    const blocks = [
      el('toggleHeading2Block', 'h', 'Раздел'),
      el('textBlock', 'c', 'внутри', 1),
      el('toggleBlock', 't', 'Ещё', 1),
      el('textBlock', 'd', 'глубже', 2),
      el('textBlock', 'x', 'после'),
    ];
    const html = blocksToHtml(blocks);
    expect(html).toBe(
      '<details open><summary><h2>Раздел</h2></summary><p>внутри</p><details open><summary>Ещё</summary><p>глубже</p></details></details><p>после</p>',
    );
    const pasted = parseHtml(html);
    expect(pasted?.kind).toBe('blocks');
    expect(shape((pasted as { blocks: BlockElement[] }).blocks)).toEqual([
      'toggleHeading2Block:0:Раздел',
      'textBlock:1:внутри',
      'toggleBlock:1:Ещё',
      'textBlock:2:глубже',
      'textBlock:0:после',
    ]);
  });

  test("Notion's toggle headings (<summary><h3>) and h4–h6 as the third level", () => {
    const pasted = parseHtml('<details><summary><h3>Три</h3></summary><p>x</p></details><details><summary><h5>Пять</h5></summary></details>') as {
      blocks: BlockElement[];
    };
    expect(shape(pasted.blocks)).toEqual(['toggleHeading3Block:0:Три', 'textBlock:1:x', 'toggleHeading3Block:0:Пять']);
  });

  test('Markdown: a list item, or a heading, with its children indented under it (as Notion exports toggles)', () => {
    const md = { inline: (t: readonly { text: string }[]) => t.map((x) => x.text).join('') } as Parameters<
      NonNullable<typeof toggleBlock.markdown>['serialize']
    >[1];
    expect(toggleBlock.markdown!.serialize({ tokens: [{ text: 'Подробнее' }] }, md)).toEqual(['- Подробнее']);
    expect(toggleHeading2Block.markdown!.serialize({ tokens: [{ text: 'Раздел\nдва' }] }, md)).toEqual(['## Раздел два']);
  });
});
