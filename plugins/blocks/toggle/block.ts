import { textLikeBlock, type BlockDefinition, type TextData } from '../../../schema/blocks/definition';
import type { BlockElementBase } from '../../../schema/slate';
import type { Token } from '../../../schema/token';

/**
 * Toggles (issue 39 §2): a toggle list item and toggle headings of three levels. Their text is a
 * line (a heading's size for the headings); the blocks nested under one (depth, as for every
 * block) fold and unfold with its triangle. Whether a toggle is open is each reader's own
 * (docs/api/blocks.md «Toggle folds»), closed by default: the data holds the text only.
 */
export interface ToggleElement extends BlockElementBase {
  type: 'toggleBlock' | 'toggleHeading1Block' | 'toggleHeading2Block' | 'toggleHeading3Block';
}

const oneLine = (tokens: readonly Token[]) => tokens.map((t) => ({ ...t, text: t.text.replace(/\n/g, ' ') }));
const HEADING_TAGS = ['H1', 'H2', 'H3', 'H4', 'H5', 'H6'];

/** The heading inside a pasted <summary> (Notion writes toggle headings so), or null. */
function summaryHeading(summary: Element): Element | null {
  const first = summary.firstElementChild;
  return first && HEADING_TAGS.includes(first.tagName) ? first : null;
}

function toggle<W extends string>(
  wireType: W,
  slateType: ToggleElement['type'],
  level: 0 | 1 | 2 | 3,
  shortcuts: readonly string[],
): BlockDefinition<W, TextData, ToggleElement> {
  const tag = level === 0 ? null : `h${level}`;
  return {
    ...textLikeBlock(wireType, slateType, shortcuts),
    folds: true,
    ...(level === 0 ? {} : { headingLevel: level }),
    // Enter is the folding rules' (src/editor/folding.ts); Backspace at its start makes it text.
    editing: { backspaceToText: true, pageLinks: true },
    // Markdown has no toggle: a list item or a heading, its children indented under it (as Notion exports them).
    markdown:
      level === 0
        ? { serialize: (data, md) => [`- ${md.inline(data.tokens)}`], list: 'bullet' }
        : { serialize: (data, md) => [`${'#'.repeat(level)} ${md.inline(oneLine(data.tokens))}`] },
    html: {
      // <details> holds its nested blocks (blocksToHtml passes them in), open so they show where pasted.
      nestsChildren: true,
      serialize: (_data, content, children = '') => `<details open><summary>${tag ? `<${tag}>${content}</${tag}>` : content}</summary>${children}</details>`,
      parse: [
        {
          selector: 'summary',
          read: (element, tokens) => {
            const heading = summaryHeading(element);
            if (level === 0) return heading ? null : { tokens };
            // h4–h6 are the third level, as for headings.
            const at = heading ? Math.min(3, HEADING_TAGS.indexOf(heading.tagName) + 1) : 0;
            return at === level ? { tokens } : null;
          },
        },
      ],
    },
  };
}

/** A toggle list item: `>` then a space at the start of a text block makes one. */
export const toggleBlock = toggle('toggle', 'toggleBlock', 0, ['>']);
/** Toggle headings (from the slash menu or «Превратить в»). */
export const toggleHeading1Block = toggle('toggleHeading1', 'toggleHeading1Block', 1, []);
export const toggleHeading2Block = toggle('toggleHeading2', 'toggleHeading2Block', 2, []);
export const toggleHeading3Block = toggle('toggleHeading3', 'toggleHeading3Block', 3, []);
