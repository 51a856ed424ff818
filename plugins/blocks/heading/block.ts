import type { BlockElementBase } from '../../../schema/slate';
import { textLikeBlock, type BlockDefinition, type TextData } from '../../../schema/blocks/definition';
import type { Token } from '../../../schema/token';

export interface HeadingElement extends BlockElementBase {
  type: 'heading1Block' | 'heading2Block' | 'heading3Block';
}

/** A heading's text on one line (Markdown headings have one): its line breaks are spaces. */
const oneLine = (tokens: readonly Token[]) => tokens.map((t) => ({ ...t, text: t.text.replace(/\n/g, ' ') }));

function heading<W extends string>(
  wireType: W,
  slateType: HeadingElement['type'],
  shortcut: string,
  tag: string,
  parseSelector: string,
): BlockDefinition<W, TextData, HeadingElement> {
  return {
    ...textLikeBlock(wireType, slateType, [shortcut]),
    headingLevel: shortcut.length as 1 | 2 | 3,
    markdown: { serialize: (data, md) => [`${shortcut} ${md.inline(oneLine(data.tokens))}`] },
    html: {
      serialize: (_data, content) => `<${tag}>${content}</${tag}>`,
      parse: [{ selector: parseSelector, read: (_element, tokens) => ({ tokens }) }],
    },
  };
}

/** Headings of three levels; `# `, `## `, `### ` at the start of a text block make them. Pasted h4–h6 become heading 3. */
export const heading1Block = heading('heading1', 'heading1Block', '#', 'h1', 'h1');
export const heading2Block = heading('heading2', 'heading2Block', '##', 'h2', 'h2');
export const heading3Block = heading('heading3', 'heading3Block', '###', 'h3', 'h3, h4, h5, h6');
