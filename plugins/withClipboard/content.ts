import { definitionForSlateType, definitionForWireType } from '../../schema/blocks';
import { newId } from '../../schema/ids';
import type { BlockElement } from '../../schema/slate';
import { canonicalTokens, type Token } from '../../schema/token';
import { LIMITS } from '../../schema/constants';
import { depthOf } from '../../schema/slate';

/** The MIME type of the editor's own clipboard data (JSON, see serialize.ts). */
export const CLIPBOARD_MIME = 'application/x-workspace-blocks';

/**
 * What a paste brings, whatever format it came in: inline tokens (a piece of one block), or
 * blocks as flat Slate elements (fresh uids) whose depths start at 0 (docs/adr/0005-flat-blocks.md).
 */
export type PastedContent = { kind: 'inline'; tokens: Token[] } | { kind: 'blocks'; blocks: BlockElement[] };

/**
 * A new Slate element of a wire type from data of unknown quality: validated against the
 * type's schema and canonicalized. Null when the type is unknown or the data is not valid
 * (a text-like block whose text is too long is cut to the limit instead).
 */
export function makeBlock(wireType: string, data: unknown, depth = 0): BlockElement | null {
  const definition = definitionForWireType(wireType);
  if (!definition) return null;
  let parsed = definition.dataSchema.safeParse(data);
  if (!parsed.success && data && typeof data === 'object' && Array.isArray((data as { tokens?: unknown }).tokens)) {
    parsed = definition.dataSchema.safeParse({ ...data, tokens: limitTokens((data as { tokens: Token[] }).tokens) });
  }
  if (!parsed.success) return null;
  const fields = definition.toSlateFields(definition.canonicalize(parsed.data));
  return { type: definition.slateType, uid: newId(), version: 1, ...fields, ...(depth > 0 ? { depth } : {}) } as BlockElement;
}

/** Tokens cut to the block limits (characters and number of tokens). */
export function limitTokens(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  let room = LIMITS.blockTextLength;
  for (const token of canonicalTokens(tokens)) {
    if (room <= 0 || out.length >= LIMITS.tokensPerBlock) break;
    const text = token.text.slice(0, room);
    room -= text.length;
    out.push({ ...token, text });
  }
  return out;
}

/** A text block of tokens (cut to the limits). */
export function paragraph(tokens: readonly Token[], depth = 0): BlockElement {
  return makeBlock('text', { tokens: limitTokens(tokens) }, depth)!;
}

/**
 * Depths made sound for a flat list: the first block at 0, each at most one below the one
 * before it; `base` is added to all of them.
 */
export function soundDepths(blocks: readonly BlockElement[], base = 0): BlockElement[] {
  let previous = -1;
  return blocks.map((block) => {
    const depth = Math.max(0, Math.min(depthOf(block), previous + 1));
    previous = depth;
    const { depth: _old, ...rest } = block;
    return (depth + base > 0 ? { ...rest, depth: depth + base } : rest) as BlockElement;
  });
}

/** True for the types whose content is tokens the user types (text, headings, lists, quote, callout…). */
export function isTextLike(element: BlockElement): boolean {
  if (element.type === 'codeBlock' || element.type === 'tableBlock' || element.type === 'pageHeadingBlock') return false;
  const definition = definitionForSlateType(element.type);
  return Boolean(definition && !definition.isVoid && (element.children as unknown[]).every((c) => typeof (c as { text?: unknown }).text === 'string'));
}

/** Tokens split at line breaks: one token list per line. */
export function splitLines(tokens: readonly Token[]): Token[][] {
  const lines: Token[][] = [[]];
  for (const token of tokens) {
    const parts = token.text.split(/\r\n|\r|\n/);
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1].push({ ...token, text: part });
    });
  }
  return lines.map((line) => canonicalTokens(line));
}

/** Line breaks at the start and end of a token list are layout (a trailing <br>), not text. */
export function trimBreaks(tokens: readonly Token[]): Token[] {
  const out = tokens.map((t) => ({ ...t }));
  while (out.length > 0) {
    out[0].text = out[0].text.replace(/^[\n \u00a0]+/, '');
    if (out[0].text !== '') break;
    out.shift();
  }
  while (out.length > 0) {
    const last = out[out.length - 1];
    last.text = last.text.replace(/[\n \u00a0]+$/, '');
    if (last.text !== '') break;
    out.pop();
  }
  return canonicalTokens(out);
}
