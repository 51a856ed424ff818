import { databaseBlock, databaseRowBlock } from './database';
import type { BlockDefinition } from './definition';
import { heading1Block, heading2Block, heading3Block } from './heading';
import { textBlock } from './text';

/** Every block type the product knows, in one table. */
export const BLOCK_DEFINITIONS = [textBlock, heading1Block, heading2Block, heading3Block, databaseBlock, databaseRowBlock] as const;

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

export * from './database';
export * from './definition';
export * from './pageHeading';
