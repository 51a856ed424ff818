import { textLikeBlock } from './definition';

/** A paragraph of text. The default block. */
export const textBlock = textLikeBlock('text', 'textBlock');
