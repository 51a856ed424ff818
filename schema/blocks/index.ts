import type { BlockDefinition, DataOf } from './definition';
import { bulletListBlock } from '../../plugins/blocks/bulletList/block';
import { calloutBlock } from '../../plugins/blocks/callout/block';
import { checkboxBlock } from '../../plugins/blocks/checkbox/block';
import { codeBlock } from '../../plugins/blocks/code/block';
import { columnBlock, columnListBlock } from '../../plugins/blocks/columns/block';
import { databaseBlock, databaseRowBlock } from '../../plugins/blocks/database/block';
import { dividerBlock } from '../../plugins/blocks/divider/block';
import { documentBlock } from '../../plugins/blocks/document/block';
import { bookmarkBlock } from '../../plugins/blocks/bookmark/block';
import { embedBlock } from '../../plugins/blocks/embed/block';
import { fileBlock } from '../../plugins/blocks/file/block';
import { heading1Block, heading2Block, heading3Block } from '../../plugins/blocks/heading/block';
import { imageBlock } from '../../plugins/blocks/image/block';
import { latexBlock } from '../../plugins/blocks/latex/block';
import { orderedListBlock } from '../../plugins/blocks/orderedList/block';
import { quoteBlock } from '../../plugins/blocks/quote/block';
import { tableBlock } from '../../plugins/blocks/table/block';
import { textBlock } from '../../plugins/blocks/text/block';
import { tableOfContentsBlock } from '../../plugins/blocks/tableOfContents/block';
import { syncedBlock } from '../../plugins/blocks/synced/block';
import { toggleBlock, toggleHeading1Block, toggleHeading2Block, toggleHeading3Block } from '../../plugins/blocks/toggle/block';
import { progressBlock } from '../../examples/blocks/progress/block';

/**
 * Every block type the product knows, in one list: the registry. A block type is a folder under
 * plugins/blocks/ (docs/plugins.md); its definition is imported above and named here, once. The
 * wire types, the unions of every element (`BlockElement`, schema/slate.ts) and every data
 * (`BlockData`), the lookups below and the editor's views (src/editor/blocks/index.ts, by folder)
 * follow from it. The order matters where HTML is pasted: rules are tried in this order.
 */
export const BLOCK_DEFINITIONS = [
  textBlock,
  heading1Block,
  heading2Block,
  heading3Block,
  databaseBlock,
  databaseRowBlock,
  tableBlock,
  imageBlock,
  fileBlock,
  bookmarkBlock,
  embedBlock,
  documentBlock,
  quoteBlock,
  bulletListBlock,
  orderedListBlock,
  checkboxBlock,
  codeBlock,
  calloutBlock,
  dividerBlock,
  latexBlock,
  toggleBlock,
  toggleHeading1Block,
  toggleHeading2Block,
  toggleHeading3Block,
  tableOfContentsBlock,
  columnListBlock,
  columnBlock,
  syncedBlock,
  // The worked example of a plugin outside the core folders (docs/plugins.md «A worked example»).
  progressBlock,
] as const;

/** The data of every block type (one member per type), as on the wire. */
export type BlockData = DataOf<(typeof BLOCK_DEFINITIONS)[number]>;
/** The Slate element type of every block type. */
export type BlockSlateType = (typeof BLOCK_DEFINITIONS)[number]['slateType'];
/** A registered block type's definition, seen through what every definition has (lookups, menus). */
export type RegisteredBlock = BlockDefinition & { wireType: BlockWireType; slateType: BlockSlateType };
/** The registry as a list of RegisteredBlock. */
export const REGISTERED_BLOCKS: readonly RegisteredBlock[] = BLOCK_DEFINITIONS;

export type BlockWireType = (typeof BLOCK_DEFINITIONS)[number]['wireType'];
export const BLOCK_WIRE_TYPES = BLOCK_DEFINITIONS.map((d) => d.wireType) as [BlockWireType, ...BlockWireType[]];

const byWireType = new Map<string, RegisteredBlock>(REGISTERED_BLOCKS.map((d) => [d.wireType, d]));
const bySlateType = new Map<string, RegisteredBlock>(REGISTERED_BLOCKS.map((d) => [d.slateType, d]));

export function definitionForWireType(type: string): RegisteredBlock | undefined {
  return byWireType.get(type);
}

export function definitionForSlateType(type: string): RegisteredBlock | undefined {
  return bySlateType.get(type);
}

/** Slate element types that are void (no editable text), for the editor's isVoid. */
export const VOID_SLATE_TYPES: ReadonlySet<string> = new Set(BLOCK_DEFINITIONS.filter((d) => d.isVoid).map((d) => d.slateType));

/** Markdown shortcuts collected from the block definitions: trigger text → Slate type. */
export const MARKDOWN_SHORTCUTS: ReadonlyMap<string, BlockSlateType> = new Map(
  BLOCK_DEFINITIONS.flatMap((d) => d.shortcuts.map((s) => [s, d.slateType] as const)),
);

/** Markdown fences of the block definitions (``` for code): marker, Slate type, the info word's fields. */
export const MARKDOWN_FENCES: ReadonlyArray<{ marker: string; slateType: BlockSlateType; fields(info: string): Record<string, unknown> }> =
  BLOCK_DEFINITIONS.flatMap((d) => {
    const { fence } = d as RegisteredBlock;
    return fence ? [{ marker: fence.marker, fields: fence.fields, slateType: d.slateType }] : [];
  });

export * from './database';
export * from './definition';
export * from './versions';
export * from './pageHeading';
export * from '../../plugins/blocks/bulletList/block';
export * from '../../plugins/blocks/callout/block';
export * from '../../plugins/blocks/checkbox/block';
export * from '../../plugins/blocks/code/block';
export * from '../../plugins/blocks/database/block';
export * from '../../plugins/blocks/divider/block';
export * from '../../plugins/blocks/document/block';
export * from '../../plugins/blocks/embed/block';
export * from '../../plugins/blocks/file/block';
export * from '../../plugins/blocks/heading/block';
export * from '../../plugins/blocks/image/block';
export * from '../../plugins/blocks/latex/block';
export * from '../../plugins/blocks/orderedList/block';
export * from '../../plugins/blocks/quote/block';
export * from '../../plugins/blocks/table/block';
export * from '../../plugins/blocks/text/block';
export * from '../../plugins/blocks/tableOfContents/block';
export * from '../../plugins/blocks/toggle/block';
export * from '../../examples/blocks/progress/block';

const headingLevels = new Map<string, 1 | 2 | 3>(
  REGISTERED_BLOCKS.flatMap((d) =>
    d.headingLevel
      ? [
          [d.wireType, d.headingLevel],
          [d.slateType, d.headingLevel],
        ]
      : [],
  ),
);

/** A heading's level by its wire or Slate type (`headingLevel` of its definition), or undefined for any other block. */
export function headingLevelOf(type: string): 1 | 2 | 3 | undefined {
  return headingLevels.get(type);
}
