import type { BlockElement, BlockElementBase, SlateText } from '../../../schema/slate';
import { z } from 'zod';
import { canonicalTokens, tokensSchema } from '../../../schema/token';
import { childrenToTokens, tokensToChildren, type BlockDefinition } from '../../../schema/blocks/definition';
import { depthOf } from '../../../schema/slate';

/** An ordered list item; its number is computed (orderedNumberAt), `forcedOrder` restarts the count. */
export interface OrderedListElement extends BlockElementBase {
  type: 'orderedListBlock';
  forcedOrder?: number;
}

/** The largest start number an ordered list takes (and the HTML `start` it reads). */
export const MAX_FORCED_ORDER = 1_000_000;

export const orderedListDataSchema = z.object({ tokens: tokensSchema, forcedOrder: z.number().int().min(1).max(MAX_FORCED_ORDER).optional() }).strict();
export type OrderedListData = z.infer<typeof orderedListDataSchema>;

/**
 * The number shown before the ordered-list item at `index` of the flat element list. It is
 * computed, not stored: the first item of a run of consecutive ordered-list siblings (same
 * depth, no other block between at that depth; deeper blocks between are the items' children)
 * is 1 unless it has `forcedOrder`, and each next item is the previous one + 1 unless it has
 * `forcedOrder`, which starts the count anew. Costs the length of the run before `index`.
 * For an element that is not an ordered-list item it answers 0.
 */
export function orderedNumberAt(elements: readonly BlockElement[], index: number): number {
  const element = elements[index];
  if (!element || element.type !== 'orderedListBlock') return 0;
  const depth = depthOf(element);
  // Walk back over the run to the nearest item with a forced number (or the run's start).
  let added = 0;
  let at = index;
  for (;;) {
    const item = elements[at] as OrderedListElementLike;
    if (item.forcedOrder !== undefined) return item.forcedOrder + added;
    const previous = previousSiblingIndex(elements, at, depth);
    if (previous < 0) return 1 + added;
    added += 1;
    at = previous;
  }
}

interface OrderedListElementLike {
  forcedOrder?: number;
}

/**
 * The index of the previous item of the same run as the item at `index` (depth `depth`), or -1
 * when that item starts its run.
 */
export function previousSiblingIndex(elements: readonly BlockElement[], index: number, depth: number): number {
  for (let i = index - 1; i >= 0; i--) {
    const d = depthOf(elements[i]);
    if (d > depth) continue;
    return d === depth && elements[i].type === 'orderedListBlock' ? i : -1;
  }
  return -1;
}

/** An ordered list item: tokens and an optional forced number. `1.`/`1)` shortcuts live in withMarkdownShortcuts. */
export const orderedListBlock: BlockDefinition<'orderedList', OrderedListData, OrderedListElement> = {
  wireType: 'orderedList',
  slateType: 'orderedListBlock',
  dataSchema: orderedListDataSchema,
  shortcuts: [],
  isVoid: false,
  editing: { enter: 'sameType', backspaceToText: true, pageLinks: true },
  defaultData: () => ({ tokens: [] }),
  canonicalize: (data) => ({ ...data, tokens: canonicalTokens(data.tokens) }),
  toSlateFields: (data) => ({
    children: tokensToChildren(data.tokens),
    ...(data.forcedOrder !== undefined ? { forcedOrder: data.forcedOrder } : {}),
  }),
  toWireData: (element) => {
    const forcedOrder = element.type === 'orderedListBlock' ? element.forcedOrder : undefined;
    return { tokens: childrenToTokens(element.children as SlateText[]), ...(forcedOrder !== undefined ? { forcedOrder } : {}) };
  },
  markdown: { serialize: (data, md) => [`${md.number}. ${md.inline(data.tokens)}`], list: 'numbered', startsAt: (data) => data.forcedOrder },
  html: {
    serialize: (data, content) =>
      `<ol${data.forcedOrder !== undefined && data.forcedOrder !== 1 ? ` start="${data.forcedOrder}"` : ''}><li>${content}</li></ol>`,
    parse: [
      {
        selector: 'ol > li',
        read: (element, tokens) => {
          const list = element.parentElement;
          // Only the first item of a pasted list carries the list's start; the rest follow it.
          if (!list || list.firstElementChild !== element) return { tokens };
          const start = Number(list.getAttribute('start'));
          return Number.isInteger(start) && start > 1 && start <= MAX_FORCED_ORDER ? { tokens, forcedOrder: start } : { tokens };
        },
      },
    ],
  },
};
