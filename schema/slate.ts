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

export type BlockElement = PageHeadingElement | TextElement | HeadingElement;
export type BlockElementType = BlockElement['type'];
