import type { WireBlock } from '../../schema/block';
import { definitionForWireType } from '../../schema/blocks';
import type { BlockElement } from '../../schema/slate';
import { tokenSchema, type Token } from '../../schema/token';
import { limitTokens, makeBlock, soundDepths, type PastedContent } from './content';

/** What this editor writes as CLIPBOARD_MIME (serialize.ts). */
export type ClipboardJson = { format: 'workspace-blocks'; version: 1; blocks: WireBlock[] } | { format: 'workspace-blocks'; version: 1; tokens: Token[] };

const MAX_PASTED_BLOCKS = 10_000;

/**
 * The editor's own clipboard JSON as pasted content. Every block is checked against its type's
 * schema (any page may put anything under this MIME type) and gets a fresh uid; the nesting
 * comes from parentId within the copied set. Null when it is not ours or holds nothing valid.
 */
export function parseClipboardJson(json: string): PastedContent | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || (value as { format?: unknown }).format !== 'workspace-blocks') return null;
  const { tokens, blocks } = value as { tokens?: unknown; blocks?: unknown };
  if (Array.isArray(tokens)) {
    const valid = tokens.flatMap((t) => {
      const parsed = tokenSchema.safeParse(t);
      if (!parsed.success) return [];
      const { tableAddress: _address, comments: _comments, ...rest } = parsed.data;
      return [rest];
    });
    return valid.length > 0 ? { kind: 'inline', tokens: limitTokens(valid) } : null;
  }
  if (!Array.isArray(blocks)) return null;
  const elements: BlockElement[] = [];
  const depths = new Map<string, number>();
  for (const raw of blocks.slice(0, MAX_PASTED_BLOCKS)) {
    if (!raw || typeof raw !== 'object') continue;
    const { id, type, data, parentId } = raw as Partial<WireBlock>;
    if (typeof id !== 'string' || typeof type !== 'string') continue;
    const parentDepth = typeof parentId === 'string' ? depths.get(parentId) : undefined;
    const depth = parentDepth === undefined ? 0 : parentDepth + 1;
    // Types without an HTML form (databases) are not copied, so not pasted either.
    const element = definitionForWireType(type)?.html ? makeBlock(type, withoutComments(data), depth) : null;
    if (!element) continue;
    depths.set(id, depth);
    elements.push(element);
  }
  return elements.length > 0 ? { kind: 'blocks', blocks: soundDepths(elements) } : null;
}

/** Comment threads belong to the copied block, not to its copy: their marks are dropped. */
function withoutComments(data: unknown): unknown {
  if (!data || typeof data !== 'object' || !Array.isArray((data as { tokens?: unknown }).tokens)) return data;
  const tokens = (data as { tokens: unknown[] }).tokens.map((token) => {
    if (!token || typeof token !== 'object') return token;
    const { comments: _comments, ...rest } = token as Record<string, unknown>;
    return rest;
  });
  return { ...data, tokens };
}
