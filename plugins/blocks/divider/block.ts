import type { BlockElementBase } from '../../../schema/slate';
import { z } from 'zod';
import type { BlockDefinition } from '../../../schema/blocks/definition';

/** A divider (void). */
export interface DividerElement extends BlockElementBase {
  type: 'dividerBlock';
}

export const dividerDataSchema = z.object({}).strict();
export type DividerData = z.infer<typeof dividerDataSchema>;

/** A horizontal rule (void, no data). The `---` rule that makes one is in withMarkdownShortcuts. */
export const dividerBlock: BlockDefinition<'divider', DividerData, DividerElement> = {
  wireType: 'divider',
  slateType: 'dividerBlock',
  dataSchema: dividerDataSchema,
  shortcuts: [],
  isVoid: true,
  defaultData: () => ({}),
  canonicalize: () => ({}),
  toSlateFields: () => ({ children: [{ text: '' }] }),
  toWireData: () => ({}),
  markdown: { serialize: () => ['---'] },
  html: {
    serialize: () => '<hr>',
    parse: [{ selector: 'hr', read: () => ({}) }],
  },
};
