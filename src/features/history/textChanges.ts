/**
 * What changed inside a block's text, for the version view only (docs/history.md «In the web
 * app»): the version's tokens with the words removed since the version before put back where
 * they were, and the runs removed and added (offsets in that text) for the editor to mark.
 * Never stored: the view is read-only.
 */
import type { WireVersionBlock, WireVersionContent } from '../../../schema/history';
import { canonicalTokens, tokensText, type Token } from '../../../schema/token';
import { wordDiff } from './wordDiff';

/** A run of a block's shown text: [start, end) offsets, removed since the version before or added by this one (spaces at its ends not included). */
export interface DiffSpan {
  start: number;
  end: number;
  kind: 'added' | 'removed';
}

/** The tokens of a block kept by a version, or null when it has no text of its own to compare (a picture, a divider, a table's cells). */
export function blockTokens(data: Record<string, unknown> | undefined): Token[] | null {
  const tokens = data?.tokens;
  if (!Array.isArray(tokens)) return null;
  const list = tokens as Token[];
  return list.some((token) => typeof token?.text !== 'string' || token.tableAddress !== undefined) ? null : list;
}

/** The tokens of text [start, end), marks kept. */
export function sliceTokens(tokens: readonly Token[], start: number, end: number): Token[] {
  const out: Token[] = [];
  let at = 0;
  for (const token of tokens) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + token.text.length);
    if (from < to) out.push({ ...token, text: token.text.slice(from - at, to - at) });
    at += token.text.length;
    if (at >= end) break;
  }
  return out;
}

/**
 * A changed block's text: `after`'s tokens with `before`'s removed words put back before the
 * words that replaced them, and where the removed and added runs are. Null when the text did
 * not change.
 */
export function textChanges(before: readonly Token[], after: readonly Token[]): { tokens: Token[]; spans: DiffSpan[] } | null {
  const parts = wordDiff(tokensText(before), tokensText(after));
  if (parts.every((part) => part.kind === 'same')) return null;
  const tokens: Token[] = [];
  const spans: DiffSpan[] = [];
  let inBefore = 0;
  let inAfter = 0;
  let shown = 0;
  for (const { kind, text } of parts) {
    const n = text.length;
    if (kind === 'removed') {
      tokens.push(...sliceTokens(before, inBefore, inBefore + n));
      inBefore += n;
    } else {
      tokens.push(...sliceTokens(after, inAfter, inAfter + n));
      inAfter += n;
      if (kind === 'same') inBefore += n;
    }
    // Marked without the spaces at its ends (a run of spaces alone, marked whole).
    const start = text.trimStart() ? shown + n - text.trimStart().length : shown;
    const end = text.trimEnd() ? shown + text.trimEnd().length : shown + n;
    if (kind !== 'same') spans.push({ start, end, kind });
    shown += n;
  }
  return { tokens: canonicalTokens(tokens), spans };
}

/**
 * A version's blocks as the view shows them: each block it changed whose text changed carries
 * the words removed as well, with its runs in `spans` (by block id). Other blocks as they are.
 */
export function shownVersion(content: Pick<WireVersionContent, 'blocks' | 'changes'>): { blocks: WireVersionBlock[]; spans: Map<string, DiffSpan[]> } {
  const before = new Map(content.changes.filter((c) => c.kind === 'changed' && c.before).map((c) => [c.blockId, c.before!]));
  const spans = new Map<string, DiffSpan[]>();
  const blocks = content.blocks.map((block) => {
    const was = before.get(block.id);
    const old = was ? blockTokens(was.data) : null;
    const now = old ? blockTokens(block.data) : null;
    const changed = old && now ? textChanges(old, now) : null;
    if (!changed) return block;
    spans.set(block.id, changed.spans);
    return { ...block, data: { ...block.data, tokens: changed.tokens } };
  });
  return { blocks, spans };
}
