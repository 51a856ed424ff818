import type { BlockElementBase } from '../../../schema/slate';
import { textLikeBlock, type BlockDefinition, type TextData } from '../../../schema/blocks/definition';

export interface TextElement extends BlockElementBase {
  type: 'textBlock';
}

/**
 * A paragraph of text. The default block. Pasted <p> and <div> become text (not the divs other
 * types write: formulas, callouts; text comes first in the registry, so it must leave them).
 */
export const textBlock: BlockDefinition<'text', TextData, TextElement> = {
  ...textLikeBlock('text', 'textBlock'),
  markdown: { serialize: (data, md) => md.inline(data.tokens).split('\n') },
  html: {
    serialize: (_data, content) => `<p>${content}</p>`,
    parse: [{ selector: 'p, div:not([data-latex]):not([data-callout])', read: (_element, tokens) => ({ tokens }) }],
  },
};
