import { textLikeBlock } from './definition';

/** Headings of three levels; `# `, `## `, `### ` at the start of a text block make them. */
export const heading1Block = textLikeBlock('heading1', 'heading1Block', ['#']);
export const heading2Block = textLikeBlock('heading2', 'heading2Block', ['##']);
export const heading3Block = textLikeBlock('heading3', 'heading3Block', ['###']);
