import { z } from 'zod';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import { childrenToTokens, tokensToChildren } from '../../../schema/blocks/definition';
import { escapeHtml } from '../../../schema/html';
import type { BlockElementBase } from '../../../schema/slate';
import { canonicalTokens, tokensSchema } from '../../../schema/token';

/*
 * The worked example of a block type written as a plugin (docs/plugins.md «A worked example»):
 * a progress bar — how far along something is, in whole percents, with a line of text beside it.
 * Everything about the type is in this folder; schema/blocks/index.ts names it once.
 */

/** The element in the editor: its text is the children (editable), the percent a field. Absent `value` (a block just turned into one) is 0. */
export interface ProgressElement extends BlockElementBase {
  type: 'progressBlock';
  value?: number;
}

/** The data on the wire and in the database: the text's tokens and the percent, 0–100. */
export const progressDataSchema = z.object({ tokens: tokensSchema, value: z.number().int().min(0).max(100) }).strict();
export type ProgressData = z.infer<typeof progressDataSchema>;

/** A percent from anything a paste or an old client may hold: a whole number within 0–100 (not a number: 0). */
export function clampPercent(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : 0;
}

/** The bar in plain text (Markdown): ten cells, filled by tenths. */
export function progressBarText(value: number): string {
  const filled = Math.round(value / 10);
  return `${'▓'.repeat(filled)}${'░'.repeat(10 - filled)} ${value} %`;
}

export const progressBlock: BlockDefinition<'progress', ProgressData, ProgressElement> = {
  wireType: 'progress',
  slateType: 'progressBlock',
  dataSchema: progressDataSchema,
  // `[%]` then a space at the start of a text block makes one (its text stays, at 0 %).
  shortcuts: ['[%]'],
  isVoid: false,
  // Enter at its end writes on in a text block; Backspace at its start makes it text; page links go in its text.
  editing: { enter: 'text', backspaceToText: true, pageLinks: true },
  defaultData: () => ({ tokens: [], value: 0 }),
  canonicalize: (data) => ({ tokens: canonicalTokens(data.tokens), value: data.value }),
  toSlateFields: (data) => ({ children: tokensToChildren(data.tokens), value: data.value }),
  toWireData: (element) => ({ tokens: childrenToTokens(element.children), value: clampPercent(element.value ?? 0) }),
  markdown: {
    serialize: (data, md) => [`${progressBarText(data.value)}${data.tokens.length > 0 ? ` ${md.inline(data.tokens)}` : ''}`],
  },
  html: {
    // A real <progress> (what other apps show), the text after it; marked, so a paste reads it back exactly.
    serialize: (data, content) =>
      `<p data-progress="${data.value}"><progress value="${data.value}" max="100">${escapeHtml(`${data.value} %`)}</progress> ${content}</p>`,
    parse: [
      {
        selector: '[data-progress]',
        read: (element, tokens) => ({ tokens: withoutPercent(tokens), value: clampPercent(Number(element.getAttribute('data-progress'))) }),
      },
    ],
  },
};

/** The element's text read from HTML includes the <progress>'s own fallback text («40 %»): it is not the block's text. */
function withoutPercent(tokens: ProgressData['tokens']): ProgressData['tokens'] {
  if (tokens.length === 0) return tokens;
  const [first, ...rest] = tokens;
  const text = first.text.replace(/^\s*\d{1,3} %\s*/, '');
  return canonicalTokens(text ? [{ ...first, text }, ...rest] : rest);
}
