import type { DatabaseConfig, DatabaseView, RowValue } from './blocks/database';
import type { EmbedData } from './blocks/embed';
import type { FileData } from './blocks/file';
import type { ImageData } from './blocks/image';
import type { TableLayout } from './blocks/table';
import type { CodeLanguage } from './blocks/code';
import type { Token } from './token';

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
export interface TextElement extends BlockElementBase {
  type: 'textBlock';
}
export interface HeadingElement extends BlockElementBase {
  type: 'heading1Block' | 'heading2Block' | 'heading3Block';
}

/** A database (void): the columns and layouts live on the element; its rows are separate blocks. */
export interface DatabaseElement extends BlockElementBase {
  type: 'databaseBlock';
  config: DatabaseConfig;
  view: DatabaseView;
  /** An inline database's title and description (absent: none). */
  title?: string;
  description?: string;
  /** The row template «Новая строка» starts from (docs/api/databases.md «Row templates»). */
  defaultTemplate?: string | null;
}
/** A database row (void): its title, icon and cell values live on the element. */
export interface DatabaseRowElement extends BlockElementBase {
  type: 'databaseRowBlock';
  title: string;
  icon: string | null;
  values: Record<string, RowValue>;
}
/** A table: the one block with elements inside (rows of cells); see schema/blocks/table.ts. */
export interface TableElement extends Omit<BlockElementBase, 'children'> {
  type: 'tableBlock';
  tableLayout: TableLayout;
  headerRow: boolean;
  headerColumn: boolean;
  children: TableRowElement[];
}

/** An image (void): its uploaded file, crop, scale and alignment live on the element (no upload state: src/editor/upload.ts). */
export interface ImageElement extends BlockElementBase, ImageData {
  type: 'imageBlock';
}
/** A file (void): its uploaded file, or null while empty or uploading. */
export interface FileElement extends BlockElementBase, FileData {
  type: 'fileBlock';
}
/** An embedded page of an allowed host (void); url null while empty. */
export interface EmbedElement extends BlockElementBase, EmbedData {
  type: 'embedBlock';
}
/** A child page shown as a block (void); the block keeps a uuid id, the page id is pageId. */
export interface DocumentElement extends BlockElementBase {
  type: 'documentBlock';
  pageId: string;
}

/** A quote, or a bulleted list item: tokens only. */
export interface QuoteElement extends BlockElementBase {
  type: 'quoteBlock';
}
export interface BulletListElement extends BlockElementBase {
  type: 'bulletListBlock';
}
/** An ordered list item; its number is computed (orderedNumberAt), `forcedOrder` restarts the count. */
export interface OrderedListElement extends BlockElementBase {
  type: 'orderedListBlock';
  forcedOrder?: number;
}
/** A to-do item; absent `checked` (a block just turned into one) is unchecked. */
export interface CheckboxElement extends BlockElementBase {
  type: 'checkboxBlock';
  checked?: boolean;
}
/** Code: plain text with "\n" line breaks; absent `language` is the default one. */
export interface CodeElement extends BlockElementBase {
  type: 'codeBlock';
  language?: CodeLanguage;
}
/** A callout; absent `icon` is the default one. */
export interface CalloutElement extends BlockElementBase {
  type: 'calloutBlock';
  icon?: string;
}
/** A divider (void). */
export interface DividerElement extends BlockElementBase {
  type: 'dividerBlock';
}
/** A formula (void); absent `formula` is empty. */
export interface LatexElement extends BlockElementBase {
  type: 'latexBlock';
  formula?: string;
}

export type BlockElement =
  | PageHeadingElement
  | TextElement
  | HeadingElement
  | DatabaseElement
  | DatabaseRowElement
  | TableElement
  | ImageElement
  | FileElement
  | EmbedElement
  | DocumentElement
  | QuoteElement
  | BulletListElement
  | OrderedListElement
  | CheckboxElement
  | CodeElement
  | CalloutElement
  | DividerElement
  | LatexElement;
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
