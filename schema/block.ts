import { z } from 'zod';
import { BLOCK_VERSION_START } from './constants';
import {
  BLOCK_WIRE_TYPES,
  definitionForSlateType,
  definitionForWireType,
  type BlockPosition,
  type BlockWireType,
  type DatabaseData,
  type DatabaseRowData,
  type TextData,
} from './blocks';
import type { BlockElement } from './slate';

const idSchema = z.string().min(1).max(64);

/** The data every block type carries (one union member per block type as they are added). */
export type BlockData = TextData | DatabaseData | DatabaseRowData;

/** A block on the wire. */
export interface WireBlock extends BlockPosition {
  id: string;
  contentType: 'Block';
  type: BlockWireType;
  version: number;
  data: BlockData;
}

function checkData(value: { type: string; data?: unknown }, ctx: z.RefinementCtx): void {
  if (value.data === undefined) return;
  const definition = definitionForWireType(value.type);
  const result = definition?.dataSchema.safeParse(value.data);
  if (result && !result.success) {
    for (const issue of result.error.issues) {
      ctx.addIssue({ ...issue, path: ['data', ...issue.path] } as z.core.$ZodRawIssue);
    }
  }
}

export const wireBlockSchema = z
  .object({
    id: idSchema,
    contentType: z.literal('Block'),
    pageId: idSchema,
    type: z.enum(BLOCK_WIRE_TYPES),
    version: z.number().int().min(BLOCK_VERSION_START),
    parentId: idSchema.nullable(),
    placeAfter: idSchema.nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .superRefine(checkData);

/** POST /api/v3/spaces/block: create. The client may choose the id (it must be a fresh uuid). */
export const createBlockBodySchema = z
  .object({
    id: z.uuid().optional(),
    pageId: idSchema,
    type: z.enum(BLOCK_WIRE_TYPES),
    data: z.record(z.string(), z.unknown()),
    parentId: idSchema.nullable().optional(),
    placeAfter: idSchema.nullable().optional(),
  })
  .strict()
  .superRefine(checkData);
export type CreateBlockBody = z.infer<typeof createBlockBodySchema> & { data: BlockData };

/** POST /api/v3/spaces/block/{id}: update. `version` is the version the edit was based on. */
export const updateBlockBodySchema = z
  .object({
    version: z.number().int().min(BLOCK_VERSION_START),
    type: z.enum(BLOCK_WIRE_TYPES),
    data: z.record(z.string(), z.unknown()),
  })
  .strict()
  .superRefine(checkData);
export type UpdateBlockBody = z.infer<typeof updateBlockBodySchema> & { data: BlockData };

/**
 * POST /api/v3/spaces/block/{id}/move: put the block under `parentId` (null or absent: top level),
 * right after `placeAfter` (null or absent: first among the siblings).
 */
export const moveBlockBodySchema = z
  .object({
    parentId: idSchema.nullable().optional(),
    placeAfter: idSchema.nullable().optional(),
  })
  .strict();

/** POST /api/v3/spaces/block/{id}/clone: the copy's id may be chosen by the client (a fresh uuid). */
export const cloneBlockBodySchema = z.object({ id: z.uuid().optional() }).strict();

/** A wire block as a Slate element. */
export function toSlate(block: WireBlock): BlockElement {
  const definition = definitionForWireType(block.type);
  if (!definition) throw new Error(`unknown block type ${block.type}`);
  return {
    type: definition.slateType,
    uid: block.id,
    version: block.version,
    ...definition.toSlateFields(block.data),
  } as BlockElement;
}

/** A Slate element back to a wire block, given where it sits. */
export function toWire(element: BlockElement, position: BlockPosition, version = element.version): WireBlock {
  const definition = definitionForSlateType(element.type);
  if (!definition) throw new Error(`element type ${element.type} is not a block`);
  return {
    id: element.uid,
    contentType: 'Block',
    pageId: position.pageId,
    type: definition.wireType as BlockWireType,
    version,
    parentId: position.parentId,
    placeAfter: position.placeAfter,
    data: definition.toWireData(element) as BlockData,
  };
}
