import type { BLOCK_DEFINITIONS } from './blocks/index';
import type { ElementOf } from './blocks/definition';
import type { Token } from './token';

export type { DatabaseElement, DatabaseRowElement } from '../plugins/blocks/database/block';
export type { TextElement } from '../plugins/blocks/text/block';
export type { HeadingElement } from '../plugins/blocks/heading/block';
export type { TableElement } from '../plugins/blocks/table/block';
export type { ImageElement } from '../plugins/blocks/image/block';
export type { FileElement } from '../plugins/blocks/file/block';
export type { EmbedElement } from '../plugins/blocks/embed/block';
export type { BookmarkElement } from '../plugins/blocks/bookmark/block';
export type { ColumnElement, ColumnListElement } from '../plugins/blocks/columns/block';
export type { DocumentElement } from '../plugins/blocks/document/block';
export type { QuoteElement } from '../plugins/blocks/quote/block';
export type { BulletListElement } from '../plugins/blocks/bulletList/block';
export type { OrderedListElement } from '../plugins/blocks/orderedList/block';
export type { CheckboxElement } from '../plugins/blocks/checkbox/block';
export type { CodeElement } from '../plugins/blocks/code/block';
export type { CalloutElement } from '../plugins/blocks/callout/block';
export type { DividerElement } from '../plugins/blocks/divider/block';
export type { LatexElement } from '../plugins/blocks/latex/block';
export type { ToggleElement } from '../plugins/blocks/toggle/block';
export type { TableOfContentsElement } from '../plugins/blocks/tableOfContents/block';
export type { SyncedElement } from '../plugins/blocks/synced/block';
export type { ProgressElement } from '../examples/blocks/progress/block';

/**
 * Slate element shapes. Each top-level element is one block; its text children are tokens.
 * The editor's CustomTypes (plugins/types.ts) are built from these.
 */
export type SlateText = Token | { text: '' } | (Omit<Token, 'text'> & { text: string });

export interface BlockElementBase {
  /** The block id; for the page heading it is PAGE_HEADING_PREFIX + page id. */
  uid: string;
  /** The version the element was loaded at (the sync queue tracks newer ones). */
  version: number;
  /**
   * How deep the block is nested (0 or absent: top level). The document is flat — one Slate
   * element per block, in document order — and a block's parent is the nearest earlier element
   * one level up (docs/adr/0005-flat-blocks.md). Not on the wire: derived from parentId.
   */
  depth?: number;
  children: SlateText[];
}

export interface PageHeadingElement extends BlockElementBase {
  type: 'pageHeadingBlock';
}

/**
 * Every block's element: the page heading (the title, not a block on the wire) and the element of
 * each registered block type, derived from the registry (schema/blocks/index.ts) — a block type's
 * element interface is declared in its folder, beside its definition (plugins/blocks/<type>/block.ts).
 */
export type BlockElement = PageHeadingElement | ElementOf<(typeof BLOCK_DEFINITIONS)[number]>;
export type BlockElementType = BlockElement['type'];

/**
 * Rows and cells are not blocks: they have no uid or version of their own (the table block has).
 * The optional fields only let code that reads `element.uid` on any element type-check; the
 * table plugin's normalizer drops them if they ever appear.
 */
interface NotABlock {
  uid?: string;
  version?: number;
  depth?: number;
}
/** A table cell: its text (tokens without tableAddress; the cell's place gives the address). */
export interface TableCellElement extends NotABlock {
  type: 'tableCell';
  children: SlateText[];
}
/** A table row: its cells. */
export interface TableRowElement extends NotABlock {
  type: 'tableRow';
  children: TableCellElement[];
}
/** Every Slate element: the blocks, and the rows and cells inside tables. */
export type SlateElement = BlockElement | TableRowElement | TableCellElement;

/** How deep a block is nested (absent: the top level). */
export function depthOf(element: { depth?: number } | undefined): number {
  return element?.depth ?? 0;
}
