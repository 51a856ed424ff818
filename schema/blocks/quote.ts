import { textLikeBlock, type BlockDefinition, type TextData } from './definition';

/** A quote: tokens; `"`, `|` or `>` (markdown) then a space at the start of a text block make one. */
export const quoteBlock: BlockDefinition<'quote', TextData> = {
  ...textLikeBlock('quote', 'quoteBlock', ['"', '|', '>']),
  html: {
    serialize: (_data, content) => `<blockquote>${content}</blockquote>`,
    parse: [{ selector: 'blockquote', read: (_element, tokens) => ({ tokens }) }],
  },
};
