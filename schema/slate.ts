import type { DatabaseConfig, DatabaseView, RowValue } from './blocks/database';
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
}
/** A database row (void): its title, icon and cell values live on the element. */
export interface DatabaseRowElement extends BlockElementBase {
  type: 'databaseRowBlock';
  title: string;
  icon: string | null;
  values: Record<string, RowValue>;
}

export type BlockElement = PageHeadingElement | TextElement | HeadingElement | DatabaseElement | DatabaseRowElement;
export type BlockElementType = BlockElement['type'];
