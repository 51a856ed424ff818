import type { BlockElementBase, SlateText } from '../../../schema/slate';
import { z } from 'zod';
import { canonicalTokens, tokensSchema } from '../../../schema/token';
import { childrenToTokens, tokensToChildren, type BlockDefinition } from '../../../schema/blocks/definition';

/** A to-do item; absent `checked` (a block just turned into one) is unchecked. */
export interface CheckboxElement extends BlockElementBase {
  type: 'checkboxBlock';
  checked?: boolean;
}

export const checkboxDataSchema = z.object({ tokens: tokensSchema, checked: z.boolean() }).strict();
export type CheckboxData = z.infer<typeof checkboxDataSchema>;

const CHECKBOX_SELECTOR = ':scope > input[type="checkbox"], :scope > p > input[type="checkbox"], :scope > label > input[type="checkbox"]';

/** A to-do item: tokens and whether it is done; `[]` or `[ ]` then a space make one. */
export const checkboxBlock: BlockDefinition<'checkbox', CheckboxData, CheckboxElement> = {
  wireType: 'checkbox',
  slateType: 'checkboxBlock',
  dataSchema: checkboxDataSchema,
  shortcuts: ['[]', '[ ]'],
  isVoid: false,
  editing: { enter: 'sameType', backspaceToText: true, pageLinks: true },
  defaultData: () => ({ tokens: [], checked: false }),
  canonicalize: (data) => ({ ...data, tokens: canonicalTokens(data.tokens) }),
  toSlateFields: (data) => ({ children: tokensToChildren(data.tokens), checked: data.checked }),
  // A text block turned into a checkbox by a shortcut has no `checked` yet: it is unchecked.
  toWireData: (element) => ({
    tokens: childrenToTokens(element.children as SlateText[]),
    checked: element.type === 'checkboxBlock' ? element.checked === true : false,
  }),
  markdown: { serialize: (data, md) => [`- [${data.checked ? 'x' : ' '}] ${md.inline(data.tokens)}`], list: 'bullet' },
  html: {
    serialize: (data, content) => `<ul><li><input type="checkbox"${data.checked ? ' checked' : ''} disabled> ${content}</li></ul>`,
    parse: [
      {
        selector: 'li',
        read: (element, tokens) => {
          const box = element.querySelector(CHECKBOX_SELECTOR);
          if (!box) return null;
          return { tokens, checked: box.hasAttribute('checked') || (box as HTMLInputElement).checked === true };
        },
      },
    ],
  },
};
