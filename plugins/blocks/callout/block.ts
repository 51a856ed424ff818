import type { BlockElementBase, SlateText } from '../../../schema/slate';
import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import { canonicalTokens, tokensSchema } from '../../../schema/token';
import { childrenToTokens, tokensToChildren, type BlockDefinition } from '../../../schema/blocks/definition';

/** A callout; absent `icon` is the default one. */
export interface CalloutElement extends BlockElementBase {
  type: 'calloutBlock';
  icon?: string;
}

export const DEFAULT_CALLOUT_ICON = '💡';
/** The icons the picker offers (any short emoji is accepted on the wire). */
export const CALLOUT_ICONS = ['💡', '⚠️', '❗', '❓', 'ℹ️', '✅', '❌', '📌', '🔥', '⭐', '📝', '🚀'] as const;

export const calloutDataSchema = z.object({ tokens: tokensSchema, icon: z.string().min(1).max(16) }).strict();
export type CalloutData = z.infer<typeof calloutDataSchema>;

/**
 * A callout: a tinted box with an icon and text; `/callout` then a space makes one. Its nested
 * blocks are the deeper blocks that follow it (depth), as for every block.
 */
export const calloutBlock: BlockDefinition<'callout', CalloutData, CalloutElement> = {
  wireType: 'callout',
  slateType: 'calloutBlock',
  dataSchema: calloutDataSchema,
  shortcuts: ['/callout'],
  isVoid: false,
  editing: { enter: 'textInside', pageLinks: true },
  defaultData: () => ({ tokens: [], icon: DEFAULT_CALLOUT_ICON }),
  canonicalize: (data) => ({ ...data, tokens: canonicalTokens(data.tokens) }),
  toSlateFields: (data) => ({ children: tokensToChildren(data.tokens), icon: data.icon }),
  // A text block turned into a callout by a shortcut has no icon yet: it gets the default.
  toWireData: (element) => ({
    tokens: childrenToTokens(element.children as SlateText[]),
    icon: (element.type === 'calloutBlock' && element.icon) || DEFAULT_CALLOUT_ICON,
  }),
  markdown: {
    serialize: (data, md) =>
      md
        .inline(data.tokens)
        .split('\n')
        .map((line, i) => `> ${i === 0 && data.icon ? `${data.icon} ` : ''}${line}`),
  },
  html: {
    serialize: (data, content) => `<aside data-callout="${escapeHtml(data.icon)}"><span data-callout-icon>${escapeHtml(data.icon)}</span> ${content}</aside>`,
    parse: [
      {
        // Ours, and Notion's (`<figure class="callout"><div><span class="icon">💡</span></div><div>…</div></figure>`).
        selector: 'aside[data-callout], div[data-callout], figure.callout',
        read: (element, tokens) => {
          const iconNode = element.querySelector('[data-callout-icon], .icon');
          const icon = ((element.getAttribute('data-callout') || iconNode?.textContent) ?? '').trim();
          const iconText = iconNode?.textContent ?? '';
          // The icon is not part of the text.
          const text =
            iconText && tokens.length > 0 && tokens[0].text.startsWith(iconText.trim())
              ? canonicalTokens([{ ...tokens[0], text: tokens[0].text.slice(iconText.trim().length).replace(/^ +/, '') }, ...tokens.slice(1)])
              : tokens;
          return { tokens: text, icon: icon && icon.length <= 16 ? icon : DEFAULT_CALLOUT_ICON };
        },
      },
    ],
  },
};
