import { z } from 'zod';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import type { BlockElementBase } from '../../../schema/slate';

/*
 * Columns (issue 39 §2): a column list holds 2–5 columns side by side, each column the blocks
 * nested under it — in the flat block model (docs/adr/0005-flat-blocks.md) a `columnList` at
 * depth d, its `column`s at d + 1, their blocks at d + 2 and deeper. Neither has text: both are
 * void, drawn by the view, which lays the columns' blocks out side by side (and one under the
 * other on a phone). plugins/withColumns keeps the shape sound: a column without blocks goes, a
 * list with one column left is unwrapped (its blocks stay where they were, as plain blocks).
 */

export interface ColumnListElement extends BlockElementBase {
  type: 'columnListBlock';
}

export interface ColumnElement extends BlockElementBase {
  type: 'columnBlock';
  /** Its share of the list's width (the shares are taken relative to their sum); null or absent: an equal share. */
  width?: number | null;
}

/** The fewest and most columns a list has (a list of one is unwrapped). */
export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 5;
/** The narrowest share a column may be resized to. */
export const MIN_COLUMN_SHARE = 0.1;

export const columnListDataSchema = z.object({}).strict();
export type ColumnListData = z.infer<typeof columnListDataSchema>;
export const columnDataSchema = z.object({ width: z.number().min(MIN_COLUMN_SHARE).max(1).nullable() }).strict();
export type ColumnData = z.infer<typeof columnDataSchema>;

/** A column's share kept to two decimals (the resize handle writes it). */
const shareOf = (width: number | null | undefined): number | null =>
  typeof width === 'number' && Number.isFinite(width) ? Math.min(1, Math.max(MIN_COLUMN_SHARE, Math.round(width * 100) / 100)) : null;

export const columnListBlock: BlockDefinition<'columnList', ColumnListData, ColumnListElement> = {
  wireType: 'columnList',
  slateType: 'columnListBlock',
  dataSchema: columnListDataSchema,
  shortcuts: [],
  isVoid: true,
  defaultData: () => ({}),
  // Offered as «2 колонки» … «5 колонок», each made with its columns and an empty paragraph in each.
  menuVariants: [2, 3, 4, 5].map((count) => ({
    id: `columns${count}`,
    children: () =>
      Array.from({ length: count }, () => [
        { type: 'columnBlock', fields: { width: null }, depth: 1 },
        { type: 'textBlock', fields: {}, depth: 2 },
      ]).flat(),
  })),
  canonicalize: () => ({}),
  toSlateFields: () => ({ children: [{ text: '' }] }),
  toWireData: () => ({}),
  // The columns' blocks one after the other (Markdown has no columns).
  markdown: { serialize: () => [], childrenUnindented: true },
  html: {
    nestsChildren: true,
    serialize: (_data, _content, children = '') => `<div data-columns style="display:flex;gap:2em">${children}</div>`,
    parse: [{ selector: 'div[data-columns]', read: () => ({}) }],
  },
};

export const columnBlock: BlockDefinition<'column', ColumnData, ColumnElement> = {
  wireType: 'column',
  slateType: 'columnBlock',
  dataSchema: columnDataSchema,
  shortcuts: [],
  isVoid: true,
  canonicalize: (data) => ({ width: shareOf(data.width) }),
  toSlateFields: (data) => ({ children: [{ text: '' }], width: shareOf(data.width) }),
  toWireData: (element) => ({ width: shareOf(element.width) }),
  markdown: { serialize: () => [], childrenUnindented: true },
  html: {
    nestsChildren: true,
    serialize: (data, _content, children = '') =>
      `<div data-column${data.width === null ? '' : ` data-width="${data.width}"`} style="flex:${data.width ?? 1} 1 0">${children}</div>`,
    parse: [{ selector: 'div[data-column]', read: (element) => ({ width: shareOf(Number(element.getAttribute('data-width') ?? Number.NaN)) }) }],
  },
};
