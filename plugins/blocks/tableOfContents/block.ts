import { z } from 'zod';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import type { BlockElementBase } from '../../../schema/slate';

/**
 * A table of contents (issue 39 §2): the page's headings — headings 1–3 and toggle headings —
 * live, each a link to its heading, indented by level. It holds no data: what it shows is read
 * from the page each time (in the editor, and in a Markdown export).
 */
export interface TableOfContentsElement extends BlockElementBase {
  type: 'tableOfContentsBlock';
}

export const tableOfContentsDataSchema = z.object({}).strict();
export type TableOfContentsData = z.infer<typeof tableOfContentsDataSchema>;

/** The Slate types whose blocks are listed, with their level. */
export const HEADING_LEVELS: Readonly<Record<string, 1 | 2 | 3>> = {
  heading1Block: 1,
  heading2Block: 2,
  heading3Block: 3,
  toggleHeading1Block: 1,
  toggleHeading2Block: 2,
  toggleHeading3Block: 3,
};
/** The same by wire type (exports read wire blocks). */
export const HEADING_LEVELS_BY_WIRE: Readonly<Record<string, 1 | 2 | 3>> = {
  heading1: 1,
  heading2: 2,
  heading3: 3,
  toggleHeading1: 1,
  toggleHeading2: 2,
  toggleHeading3: 3,
};

export const tableOfContentsBlock: BlockDefinition<'tableOfContents', TableOfContentsData, TableOfContentsElement> = {
  wireType: 'tableOfContents',
  slateType: 'tableOfContentsBlock',
  dataSchema: tableOfContentsDataSchema,
  shortcuts: [],
  isVoid: true,
  defaultData: () => ({}),
  canonicalize: () => ({}),
  toSlateFields: () => ({ children: [{ text: '' }] }),
  toWireData: () => ({}),
  // The headings as a nested list (the shallowest level first in line), each its own text.
  markdown: {
    serialize: (_data, md) => {
      const headings = md.headings();
      if (headings.length === 0) return [];
      const top = Math.min(...headings.map((h) => h.level));
      return headings.map((h) => `${'    '.repeat(h.level - top)}- ${md.inline(h.tokens)}`);
    },
  },
  html: {
    serialize: () => '<nav data-toc></nav>',
    parse: [{ selector: 'nav[data-toc]', read: () => ({}) }],
  },
};
