/**
 * Three-way merge of a block's content: what the server last had from us (`base`), what we hold
 * now (`local`, with edits the server has not seen) and the newer server copy (`remote`). Used on
 * a version conflict (422) to rebase the unsent local edits onto the server copy, so that neither
 * side's edits are lost (docs/sync.md; issue 6 builds live co-editing on the same merge).
 *
 * Text: both sides' edits are diffs against the base text (@sanity/diff-match-patch), merged
 * character by character: everything either side inserted is kept (at one point the server's
 * first, the same text on both sides once), and a base character is kept only when neither side
 * deleted it. Nothing typed is lost and nothing is doubled: a stretch one side deleted or moved
 * away (a split sends a block's tail to a new block) is not brought back by the other's edits in
 * it. Modifiers (bold, links, comments…) follow each character: a character both kept gets the
 * side's modifiers that changed them (ours when both did). Table cells (tokens with
 * a tableAddress) merge cell by cell. Other fields of `data`, and the type, merge as values:
 * ours if we changed it, else the server's.
 */
import { DIFF_DELETE, DIFF_EQUAL, makeDiff, xIndex } from '@sanity/diff-match-patch';
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
  // The plain (shortest) diff, not a semantic cleanup of it: a character kept is kept, never
  // counted deleted and inserted again (both sides doing that would double it).
  const diffs = makeDiff(base.map((c) => c.ch).join(''), side.map((c) => c.ch).join(''), DIFF_OPTIONS);
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

/** What one side inserted before each base position (0..n), from its edits. */
function insertsOf(edits: readonly Edit[], n: number): Array<Char[] | undefined> {
  const out = new Array<Char[] | undefined>(n + 1);
  for (const edit of edits) if (edit.chars.length > 0) out[edit.start] = [...(out[edit.start] ?? []), ...edit.chars];
  return out;
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
  const n = baseChars.length;
  const ourInserts = insertsOf(ours.edits, n);
  const theirInserts = insertsOf(theirs.edits, n);

  // A base character both kept: with the modifiers of the side that changed them (ours when both did).
  const keptChar = (i: number): Char => {
    const l = localChars[ours.kept[i]];
    const r = remoteChars[theirs.kept[i]];
    return same(l.marks, baseChars[i].marks) ? r : l;
  };

  // Character by character: what either side inserted stays (the server's first where both
  // inserted at one point; the same text inserted on both sides once), and a base character stays
  // only if neither side deleted it. So a stretch one side deleted (a block split: its tail went
  // to a new block) is not brought back by the other side's typing in it, only what was typed is.
  const out: Char[] = [];
  for (let i = 0; i <= n; i++) {
    const mine = ourInserts[i];
    const yours = theirInserts[i];
    if (yours) out.push(...yours);
    if (mine && !(yours && same(mine.map((c) => c.ch).join(''), yours.map((c) => c.ch).join('')))) out.push(...mine);
    if (i < n && ours.kept[i] >= 0 && theirs.kept[i] >= 0) out.push(keptChar(i));
  }
  return tokensOf(out);
}

/**
 * Whether a write whose answer was lost (`sent`, based on `base`) may be taken as having reached the
 * server, whose copy is `now`: everything it inserted is in `now` still — or, when it only deleted,
 * everything it deleted is gone from `now`. False when it changed nothing (nothing tells).
 *
 * A write that only deleted matters too: a split sends the block without its tail (the tail goes
 * to the new block); joined back before the answer came, the tail is in the editor again. Merged
 * from the older `base`, that tail would look untouched here and deleted there — and be lost.
 * Taken from `sent`, it is typed here: kept. (Not doubled: `now` does not hold it.)
 */
export function insertionsKept(base: readonly Token[], sent: readonly Token[], now: readonly Token[]): boolean {
  const baseChars = charsOf(base);
  const sentChars = charsOf(sent);
  const fromBase = new Uint8Array(sentChars.length);
  const toSent = editsOf(baseChars, sentChars).kept;
  for (const j of toSent) if (j >= 0) fromBase[j] = 1;
  const later = editsOf(sentChars, charsOf(now)).kept;
  let inserted = false;
  for (let j = 0; j < sentChars.length; j++) {
    if (fromBase[j]) continue;
    if (later[j] < 0) return false;
    inserted = true;
  }
  if (inserted) return true;
  // Only deletions: each deleted character is gone from `now` too.
  const toNow = editsOf(baseChars, charsOf(now)).kept;
  let deleted = false;
  for (let i = 0; i < baseChars.length; i++) {
    if (toSent[i] >= 0) continue;
    if (toNow[i] >= 0) return false;
    deleted = true;
  }
  return deleted;
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
