import { textLikeBlock, type BlockDefinition, type TextData } from './definition';

/**
 * A paragraph of text. The default block. Pasted <p> and <div> become text (not the divs other
 * types write: formulas, callouts; text comes first in the registry, so it must leave them).
 */
export const textBlock: BlockDefinition<'text', TextData> = {
  ...textLikeBlock('text', 'textBlock'),
  html: {
    serialize: (_data, content) => `<p>${content}</p>`,
    parse: [{ selector: 'p, div:not([data-latex]):not([data-callout])', read: (_element, tokens) => ({ tokens }) }],
  },
};
