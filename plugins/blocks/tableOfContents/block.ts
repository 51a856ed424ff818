import { z } from 'zod';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import type { BlockElementBase } from '../../../schema/slate';

/**
 * A table of contents (issue 39 §2): the page's headings — the types whose definition has a
 * `headingLevel` (headings 1–3, toggle headings; `headingLevelOf` in schema/blocks) — live, each a link to its heading, indented by level. It holds no data: what it shows is read
 * from the page each time (in the editor, and in a Markdown export).
 */
export interface TableOfContentsElement extends BlockElementBase {
  type: 'tableOfContentsBlock';
}

export const tableOfContentsDataSchema = z.object({}).strict();
export type TableOfContentsData = z.infer<typeof tableOfContentsDataSchema>;

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
