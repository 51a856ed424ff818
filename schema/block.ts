import { z } from 'zod';
import { BLOCK_VERSION_START } from './constants';
import {
  BLOCK_WIRE_TYPES,
  definitionForSlateType,
  definitionForWireType,
  type BlockData,
  type BlockDefinition,
  type BlockPosition,
  type BlockWireType,
} from './blocks';
import type { BlockElement } from './slate';
import { dataVersionOf, upgradeData } from './blocks/versions';

const idSchema = z.string().min(1).max(64);

export type { BlockData };

export interface WireBlock extends BlockPosition {
  id: string;
  contentType: 'Block';
  type: BlockWireType;
  version: number;
  data: BlockData;
}

/** Whether `data` fits its type's schema (at the current version); each issue is reported under `data`. */
function reportDataIssues(definition: BlockDefinition, data: unknown, ctx: z.RefinementCtx): boolean {
  const result = definition.dataSchema.safeParse(data);
  if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: ['data', ...issue.path] } as z.core.$ZodRawIssue);
  return result.success;
}

/** A block as the server sends it: its data is at the current version. */
function checkWireData(value: { type: string; data: unknown }, ctx: z.RefinementCtx): void {
  const definition = definitionForWireType(value.type);
  if (definition) reportDataIssues(definition, value.data, ctx);
}

/**
 * A write's data at the current version of its type, checked as it will be stored: taken up from
 * its `dataVersion` once, then validated (`dataVersion` taken away: what is stored is current).
 */
function toCurrentData<T extends { type: string; data: Record<string, unknown>; dataVersion?: number }>(
  { dataVersion, ...body }: T,
  ctx: z.RefinementCtx,
): Omit<T, 'dataVersion'> {
  const definition = definitionForWireType(body.type);
  if (!definition) return body;
  const upgraded = upgradeData(definition, body.data, dataVersion);
  if ('error' in upgraded) {
    ctx.addIssue({ code: 'custom', path: ['dataVersion'], message: upgraded.error });
    return z.NEVER;
  }
  return reportDataIssues(definition, upgraded.data, ctx) ? { ...body, data: upgraded.data } : z.NEVER;
}

/** A write as the web app sends it: with the version of its data's shape (the server then takes older data up). */
export function versionedWrite<T extends { type: string }>(body: T): T & { dataVersion?: number } {
  const definition = definitionForWireType(body.type);
  return definition ? { ...body, dataVersion: dataVersionOf(definition) } : body;
}

/** The version of a write's `data` shape (schema/blocks/versions.ts); absent: the current one. */
const dataVersionSchema = z.number().int().min(1).optional();

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
  .superRefine(checkWireData);

/** A block to make: its type and data (at `dataVersion`), under `parentId` after `placeAfter`. */
const newBlockFields = {
  type: z.enum(BLOCK_WIRE_TYPES),
  data: z.record(z.string(), z.unknown()),
  dataVersion: dataVersionSchema,
  parentId: idSchema.nullable().optional(),
  placeAfter: idSchema.nullable().optional(),
};

/** POST /api/v3/spaces/block: create. The client may choose the id (it must be a fresh uuid). */
export const createBlockBodySchema = z
  .object({ id: z.uuid().optional(), pageId: idSchema, ...newBlockFields })
  .strict()
  .transform(toCurrentData);
export type CreateBlockBody = z.infer<typeof createBlockBodySchema> & { data: BlockData };

/** Blocks one batch create may make (POST /api/v3/spaces/blocks/create): a paste of hundreds of lines is one request. */
export const MAX_BLOCKS_PER_CREATE = 500;

/**
 * POST /api/v3/spaces/blocks/create: several blocks of one page made in one request, in order,
 * each as POST block would (its id chosen by the client; `placeAfter` may name a block made
 * earlier in the same request).
 */
export const createBlocksBodySchema = z
  .object({
    pageId: idSchema,
    blocks: z
      .array(
        z
          .object({ id: z.uuid(), ...newBlockFields })
          .strict()
          .transform(toCurrentData),
      )
      .min(1)
      .max(MAX_BLOCKS_PER_CREATE),
  })
  .strict();
export type CreateBlocksBody = z.infer<typeof createBlocksBodySchema>;

/**
 * One block's outcome of a batch create: made (the block as stored), or refused as its own POST
 * block would have been (the error's status and code; on 409, the server's block as `block`).
 */
export type CreateBlockOutcome =
  | { id: string; status: 'created'; block: WireBlock }
  | { id: string; status: 'refused'; error: { status: number; code: string; message: string }; block?: WireBlock };

/** POST /api/v3/spaces/block/{id}: update. `version` is the version the edit was based on. */
export const updateBlockBodySchema = z
  .object({
    version: z.number().int().min(BLOCK_VERSION_START),
    type: z.enum(BLOCK_WIRE_TYPES),
    data: z.record(z.string(), z.unknown()),
    dataVersion: dataVersionSchema,
  })
  .strict()
  .transform(toCurrentData);
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

/** Blocks one batch delete may name. */
export const MAX_BLOCKS_PER_DELETE = 1000;

/**
 * POST /api/v3/spaces/blocks/delete: several blocks of one page deleted in one request, each as
 * DELETE block/{id}?version would (the version is optional).
 */
export const deleteBlocksBodySchema = z
  .object({
    pageId: idSchema,
    blocks: z
      .array(z.object({ id: idSchema, version: z.number().int().min(1).optional() }).strict())
      .min(1)
      .max(MAX_BLOCKS_PER_DELETE),
  })
  .strict();
export type DeleteBlocksBody = z.infer<typeof deleteBlocksBodySchema>;

/** One block's outcome of a batch delete: deleted, gone (not a live block of the page), or refused with the block as it is now. */
export type DeleteBlockOutcome = { id: string; status: 'deleted' } | { id: string; status: 'gone' } | { id: string; status: 'conflict'; block: WireBlock };

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

/**
 * A page's blocks, in the document order the API lists them (depth first), as the editor's flat
 * elements: each nested block gets its depth (a block whose parent is not among the earlier
 * blocks is shown at the top level).
 */
export function blocksToSlate(blocks: readonly WireBlock[]): BlockElement[] {
  const depths = new Map<string, number>();
  return blocks.map((block) => {
    const parentDepth = block.parentId === null ? undefined : depths.get(block.parentId);
    const depth = parentDepth === undefined ? 0 : parentDepth + 1;
    depths.set(block.id, depth);
    const element = toSlate(block);
    return depth > 0 ? { ...element, depth } : element;
  });
}

/**
 * Where the block at `index` of a flat element list sits: its parent is the nearest earlier
 * element one level up, the block it follows the nearest earlier one at its own level under the
 * same parent. Elements for which `isBlock` is false (the page heading) are skipped.
 */
export function positionInFlatList<E extends { uid: string; depth?: number }>(
  elements: readonly E[],
  index: number,
  isBlock: (element: E) => boolean = () => true,
): { parentId: string | null; placeAfter: string | null } {
  const depth = elements[index]?.depth ?? 0;
  let placeAfter: string | null = null;
  for (let i = index - 1; i >= 0; i--) {
    const element = elements[i];
    if (!isBlock(element)) break;
    const d = element.depth ?? 0;
    if (d === depth && placeAfter === null) {
      placeAfter = element.uid;
      // At the top level nothing before it can be a parent: done.
      if (depth === 0) return { parentId: null, placeAfter };
    }
    if (d < depth) return { parentId: element.uid, placeAfter };
  }
  return { parentId: null, placeAfter };
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
