/**
 * Three-way merge of a block's content: what the server last had from us (`base`), what we hold
 * now (`local`, with edits the server has not seen) and the newer server copy (`remote`). Used on
 * a version conflict (422) to rebase the unsent local edits onto the server copy, so that neither
 * side's edits are lost (docs/sync.md; issue 6 builds live co-editing on the same merge).
 *
 * Text: both sides' edits are diffs against the base text (@sanity/diff-match-patch). Edits that touch
 * different parts of the text both apply; edits to the same stretch keep both versions, the
 * server's first. Modifiers (bold, links, comments…) follow each character: a character both
 * kept gets the side's modifiers that changed them (ours when both did). Table cells (tokens with
 * a tableAddress) merge cell by cell. Other fields of `data`, and the type, merge as values:
 * ours if we changed it, else the server's.
 */
import { cleanupSemantic, DIFF_DELETE, DIFF_EQUAL, makeDiff, xIndex } from '@sanity/diff-match-patch';
import { canonicalTokens, type Token, type TokenMarks } from './token';

export interface BlockContent {
  type: string;
  data: Record<string, unknown>;
}

/** A slow diff gives up after this long (seconds) with a coarser, still correct answer. */
const DIFF_OPTIONS = { timeout: 0.2 };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One side's change of the base text: base [start, end) becomes `chars`. */
interface Edit {
  start: number;
  end: number;
  chars: Char[];
}
interface Char {
  ch: string;
  marks: TokenMarks;
}

/** One UTF-16 unit per entry, as diff-match-patch counts. */
function charsOf(tokens: readonly Token[]): Char[] {
  const out: Char[] = [];
  for (const { text, ...marks } of tokens) for (let i = 0; i < text.length; i++) out.push({ ch: text[i], marks });
  return out;
}

function tokensOf(chars: readonly Char[]): Token[] {
  return canonicalTokens(chars.map(({ ch, marks }) => ({ ...marks, text: ch })));
}

/** The edits turning `base` into `side` (adjacent deletions and insertions form one), and where each kept base character is in `side`. */
function editsOf(base: Char[], side: Char[]): { edits: Edit[]; kept: Int32Array } {
  const diffs = cleanupSemantic(makeDiff(base.map((c) => c.ch).join(''), side.map((c) => c.ch).join(''), DIFF_OPTIONS));
  const kept = new Int32Array(base.length).fill(-1);
  const edits: Edit[] = [];
  let current: Edit | null = null;
  let b = 0;
  let s = 0;
  for (const [op, text] of diffs) {
    const n = text.length;
    if (op === DIFF_EQUAL) {
      for (let i = 0; i < n; i++) kept[b + i] = s + i;
      b += n;
      s += n;
      current = null;
      continue;
    }
    if (!current) {
      current = { start: b, end: b, chars: [] };
      edits.push(current);
    }
    if (op === DIFF_DELETE) {
      b += n;
      current.end = b;
    } else {
      current.chars.push(...side.slice(s, s + n));
      s += n;
    }
  }
  return { edits, kept };
}

/** Merges two sides' edits of one text; see the module comment. */
export function mergeTokens(base: readonly Token[], local: readonly Token[], remote: readonly Token[]): Token[] {
  if (same(local, base)) return [...remote];
  if (same(remote, base) || same(remote, local)) return [...local];
  const baseChars = charsOf(base);
  const localChars = charsOf(local);
  const remoteChars = charsOf(remote);
  const ours = editsOf(baseChars, localChars);
  const theirs = editsOf(baseChars, remoteChars);

  // A kept base character's modifiers: ours if we changed them, else the server's.
  const keptChar = (i: number, side: 'local' | 'remote' | 'both'): Char => {
    const l = ours.kept[i] >= 0 ? localChars[ours.kept[i]] : null;
    const r = theirs.kept[i] >= 0 ? remoteChars[theirs.kept[i]] : null;
    const baseMarks = baseChars[i].marks;
    if (side === 'local' && l) return l;
    if (side === 'remote' && r) return r;
    if (l && !same(l.marks, baseMarks)) return l;
    return r ?? l ?? baseChars[i];
  };

  /** One side's version of base [start, end): its edits there, and the characters it kept. */
  const versionOf = (edits: Edit[], side: 'local' | 'remote', start: number, end: number): Char[] => {
    const out: Char[] = [];
    let i = start;
    for (const edit of edits) {
      for (; i < edit.start; i++) out.push(keptChar(i, side));
      out.push(...edit.chars);
      i = Math.max(i, edit.end);
    }
    for (; i < end; i++) out.push(keptChar(i, side));
    return out;
  };

  const all = [...ours.edits.map((e) => ({ e, side: 'local' as const })), ...theirs.edits.map((e) => ({ e, side: 'remote' as const }))].sort(
    (a, b) => a.e.start - b.e.start || a.e.end - a.e.start - (b.e.end - b.e.start),
  );
  const out: Char[] = [];
  let position = 0;
  let k = 0;
  while (k < all.length) {
    // A group: edits that overlap (an insertion at the same point as another counts).
    const first = all[k];
    let start = first.e.start;
    let end = first.e.end;
    const group = [first];
    k++;
    while (k < all.length) {
      const next = all[k].e;
      const overlaps = next.start < end || (next.start === start && start === end && next.end === next.start);
      if (!overlaps) break;
      end = Math.max(end, next.end);
      start = Math.min(start, next.start);
      group.push(all[k]);
      k++;
    }
    for (; position < start; position++) out.push(keptChar(position, 'both'));
    const sides = new Set(group.map((g) => g.side));
    const local = versionOf(
      group.filter((g) => g.side === 'local').map((g) => g.e),
      'local',
      start,
      end,
    );
    const remote = versionOf(
      group.filter((g) => g.side === 'remote').map((g) => g.e),
      'remote',
      start,
      end,
    );
    if (sides.size === 1) out.push(...(sides.has('local') ? local : remote));
    else if (same(local, remote)) out.push(...remote);
    else out.push(...remote, ...local);
    position = Math.max(position, end);
  }
  for (; position < baseChars.length; position++) out.push(keptChar(position, 'both'));
  return tokensOf(out);
}

const cellKey = (address: { x: number; y: number }) => `${address.y}:${address.x}`;

/** Table tokens, merged cell by cell (a cell's text is the tokens with its address; no tokens is an empty cell). */
function mergeTableTokens(base: readonly Token[], local: readonly Token[], remote: readonly Token[]): Token[] {
  const addresses = new Map<string, { x: number; y: number }>();
  const byCell = (tokens: readonly Token[]) => {
    const cells = new Map<string, Token[]>();
    for (const { tableAddress, ...rest } of tokens) {
      if (!tableAddress) continue;
      const key = cellKey(tableAddress);
      addresses.set(key, tableAddress);
      cells.set(key, [...(cells.get(key) ?? []), rest]);
    }
    return cells;
  };
  const [b, l, r] = [byCell(base), byCell(local), byCell(remote)];
  const ordered = [...addresses.values()].sort((p, q) => p.y - q.y || p.x - q.x);
  return ordered.flatMap((tableAddress) => {
    const key = cellKey(tableAddress);
    return mergeTokens(b.get(key) ?? [], l.get(key) ?? [], r.get(key) ?? []).map((token) => ({ ...token, tableAddress }));
  });
}

/** Merges a block's type and data; see the module comment. */
export function mergeBlockContent(base: BlockContent, local: BlockContent, remote: BlockContent): BlockContent {
  const type = same(local.type, base.type) ? remote.type : local.type;
  const data: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(base.data), ...Object.keys(local.data), ...Object.keys(remote.data)]);
  for (const key of keys) {
    const [b, l, r] = [base.data[key], local.data[key], remote.data[key]];
    let value: unknown;
    if (key === 'tokens' && Array.isArray(l) && Array.isArray(r)) {
      const baseTokens = (Array.isArray(b) ? b : []) as Token[];
      const table = [...(l as Token[]), ...(r as Token[])].some((t) => t.tableAddress);
      value = table ? mergeTableTokens(baseTokens, l as Token[], r as Token[]) : mergeTokens(baseTokens, l as Token[], r as Token[]);
    } else {
      value = same(l, b) ? r : l;
    }
    if (value !== undefined) data[key] = value;
  }
  // Cells outside the merged table (a row or column removed on one side) go with it.
  const layout = data.tableLayout as { columns?: number; rows?: number } | undefined;
  if (layout && Array.isArray(data.tokens)) {
    data.tokens = (data.tokens as Token[]).filter(
      (t) => !t.tableAddress || (t.tableAddress.x < (layout.columns ?? Infinity) && t.tableAddress.y < (layout.rows ?? Infinity)),
    );
  }
  return { type, data };
}

/** Where character `offset` of `before` is in `after` (a caret kept across a replaced text). */
export function mapOffset(before: string, after: string, offset: number): number {
  if (before === after) return offset;
  return xIndex(makeDiff(before, after, DIFF_OPTIONS), offset);
}
