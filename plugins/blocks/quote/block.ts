import type { BlockElementBase } from '../../../schema/slate';
import { textLikeBlock, type BlockDefinition, type TextData } from '../../../schema/blocks/definition';

/** A quote, or a bulleted list item: tokens only. */
export interface QuoteElement extends BlockElementBase {
  type: 'quoteBlock';
}

/** A quote: tokens; `"` or `|` then a space at the start of a text block make one (`>` makes a toggle, as in Notion). */
export const quoteBlock: BlockDefinition<'quote', TextData, QuoteElement> = {
  ...textLikeBlock('quote', 'quoteBlock', ['"', '|']),
  editing: { enter: 'text', backspaceToText: true, pageLinks: true },
  markdown: {
    serialize: (data, md) =>
      md
        .inline(data.tokens)
        .split('\n')
        .map((line) => `> ${line}`),
  },
  html: {
    serialize: (_data, content) => `<blockquote>${content}</blockquote>`,
    parse: [{ selector: 'blockquote', read: (_element, tokens) => ({ tokens }) }],
  },
};
