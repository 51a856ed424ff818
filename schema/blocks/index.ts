import { databaseBlock, databaseRowBlock } from './database';
import type { BlockDefinition } from './definition';
import { documentBlock } from './document';
import { embedBlock } from './embed';
import { fileBlock } from './file';
import { heading1Block, heading2Block, heading3Block } from './heading';
import { imageBlock } from './image';
import { tableBlock } from './table';
import { textBlock } from './text';
import { quoteBlock } from './quote';
import { bulletListBlock } from './bulletList';
import { orderedListBlock } from './orderedList';
import { checkboxBlock } from './checkbox';
import { codeBlock } from './code';
import { calloutBlock } from './callout';
import { dividerBlock } from '../../plugins/blocks/divider/block';
import { latexBlock } from './latex';

/** Every block type the product knows, in one table. */
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
] as const;

export type BlockWireType = (typeof BLOCK_DEFINITIONS)[number]['wireType'];
export const BLOCK_WIRE_TYPES = BLOCK_DEFINITIONS.map((d) => d.wireType) as [BlockWireType, ...BlockWireType[]];

const byWireType = new Map<string, BlockDefinition>(BLOCK_DEFINITIONS.map((d) => [d.wireType, d as BlockDefinition]));
const bySlateType = new Map<string, BlockDefinition>(BLOCK_DEFINITIONS.map((d) => [d.slateType, d as BlockDefinition]));

export function definitionForWireType(type: string): BlockDefinition | undefined {
  return byWireType.get(type);
}

export function definitionForSlateType(type: string): BlockDefinition | undefined {
  return bySlateType.get(type);
}

/** Slate element types that are void (no editable text), for the editor's isVoid. */
export const VOID_SLATE_TYPES: ReadonlySet<string> = new Set(BLOCK_DEFINITIONS.filter((d) => d.isVoid).map((d) => d.slateType));

/** Markdown shortcuts collected from the block definitions: trigger text → Slate type. */
export const MARKDOWN_SHORTCUTS: ReadonlyMap<string, BlockDefinition['slateType']> = new Map(
  BLOCK_DEFINITIONS.flatMap((d) => d.shortcuts.map((s) => [s, d.slateType] as const)),
);

/** Markdown fences of the block definitions (``` for code): marker, Slate type, the info word's fields. */
export const MARKDOWN_FENCES: ReadonlyArray<{ marker: string; slateType: BlockDefinition['slateType']; fields(info: string): Record<string, unknown> }> =
  BLOCK_DEFINITIONS.flatMap((d) => {
    const { fence } = d as BlockDefinition;
    return fence ? [{ marker: fence.marker, fields: fence.fields, slateType: d.slateType }] : [];
  });

export * from './database';
export * from './orderedList';
export * from './checkbox';
export * from './code';
export * from './callout';
export * from '../../plugins/blocks/divider/block';
export * from './latex';
export * from './definition';
export * from './versions';
export * from './document';
export * from './embed';
export * from './file';
export * from './image';
export * from './pageHeading';
export * from './table';
