import type { BlockElementBase } from '../../../schema/slate';
import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import type { BlockDefinition } from '../../../schema/blocks/definition';

/** A formula (void); absent `formula` is empty. */
export interface LatexElement extends BlockElementBase {
  type: 'latexBlock';
  formula?: string;
}

export const LATEX_FORMULA_MAX_LENGTH = 10_000;

export const latexDataSchema = z.object({ formula: z.string().max(LATEX_FORMULA_MAX_LENGTH) }).strict();
export type LatexData = z.infer<typeof latexDataSchema>;

/** A formula (void: edited in its own field, rendered with KaTeX); `/latex` then a space makes one. */
export const latexBlock: BlockDefinition<'latex', LatexData, LatexElement> = {
  wireType: 'latex',
  slateType: 'latexBlock',
  dataSchema: latexDataSchema,
  shortcuts: ['/latex'],
  menuGroup: 'advanced',
  searchText: (data) => data.formula,
  isVoid: true,
  defaultData: () => ({ formula: '' }),
  canonicalize: (data) => ({ formula: data.formula }),
  toSlateFields: (data) => ({ children: [{ text: '' }], formula: data.formula }),
  toWireData: (element) => ({ formula: element.type === 'latexBlock' ? (element.formula ?? '') : '' }),
  markdown: { serialize: (data) => ['$$', data.formula, '$$'] },
  html: {
    serialize: (data) => `<div data-latex="${escapeHtml(data.formula)}">${escapeHtml(data.formula)}</div>`,
    parse: [
      {
        selector: '[data-latex]',
        read: (element) => ({ formula: (element.getAttribute('data-latex') ?? '').slice(0, LATEX_FORMULA_MAX_LENGTH) }),
      },
    ],
  },
};
