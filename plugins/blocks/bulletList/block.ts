import type { BlockElementBase } from '../../../schema/slate';
import { textLikeBlock, type BlockDefinition, type TextData } from '../../../schema/blocks/definition';

export interface BulletListElement extends BlockElementBase {
  type: 'bulletListBlock';
}

/**
 * A bulleted list item (one block per item; nested items are deeper blocks). `*` or `-` then a
 * space at the start of a text block make one. A list item that holds a checkbox is a checkbox
 * block, so this type does not take those.
 */
export const bulletListBlock: BlockDefinition<'bulletList', TextData, BulletListElement> = {
  ...textLikeBlock('bulletList', 'bulletListBlock', ['*', '-']),
  editing: { enter: 'sameType', backspaceToText: true, pageLinks: true },
  markdown: { serialize: (data, md) => [`- ${md.inline(data.tokens)}`], list: 'bullet' },
  html: {
    serialize: (_data, content) => `<ul><li>${content}</li></ul>`,
    parse: [
      {
        selector: 'ul > li',
        read: (element, tokens) => (element.querySelector(':scope > input[type="checkbox"], :scope > p > input[type="checkbox"]') ? null : { tokens }),
      },
    ],
  },
};
