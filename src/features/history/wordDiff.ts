/**
 * Word-level differences between two texts: the one place the history view uses a diff library
 * (@sanity/diff-match-patch, the maintained fork of Google's diff-match-patch). Texts are cut
 * into words, runs of spaces and single other characters; each distinct piece becomes one
 * character (the library's line-mode trick, with words for lines), the characters are diffed and
 * cleaned up for people to read, and turned back into text.
 */
import { cleanupSemantic, DIFF_DELETE, DIFF_EQUAL, DIFF_INSERT, makeDiff } from '@sanity/diff-match-patch';

export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** A word (letters, digits, _), a run of spaces, or any other single character. */
const PIECE = /[\p{L}\p{N}\p{M}_]+|\s+|[^\p{L}\p{N}\p{M}_\s]/gu;
/** Distinct pieces one diff can tell apart: one UTF-16 unit each, from 1, the surrogates skipped. */
const MAX_PIECES = 0xffff - 0x800 - 1;

/** A slow diff gives up after this long (seconds) with a coarser, still correct answer; one character per piece, so no line mode. */
const DIFF_OPTIONS = { timeout: 0.2, checkLines: false };

const KIND = { [DIFF_EQUAL]: 'same', [DIFF_INSERT]: 'added', [DIFF_DELETE]: 'removed' } as const;

const codeOf = (index: number) => String.fromCharCode(index + 1 < 0xd800 ? index + 1 : index + 1 + 0x800);

/**
 * What changed from `before` to `after`, word by word, in order: kept, removed and added runs
 * (a replaced stretch: removed first, then added). Joining the `same` and `removed` parts gives
 * `before`; the `same` and `added` parts, `after`.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  if (before === after) return before ? [{ kind: 'same', text: before }] : [];
  const pieces: string[] = [];
  const codes = new Map<string, string>();
  const encode = (text: string): string | null => {
    let out = '';
    for (const [piece] of text.matchAll(PIECE)) {
      let code = codes.get(piece);
      if (code === undefined) {
        if (pieces.length >= MAX_PIECES) return null;
        code = codeOf(pieces.length);
        codes.set(piece, code);
        pieces.push(piece);
      }
      out += code;
    }
    return out;
  };
  const a = encode(before);
  const b = encode(after);
  // More distinct words than characters to stand for them: the whole text replaced.
  if (a === null || b === null)
    return joined([
      { kind: 'removed', text: before },
      { kind: 'added', text: after },
    ]);
  const diffs = cleanupSemantic(makeDiff(a, b, DIFF_OPTIONS));
  const decode = (text: string) => [...text].map((ch) => pieces[(ch.charCodeAt(0) >= 0xe000 ? ch.charCodeAt(0) - 0x800 : ch.charCodeAt(0)) - 1]).join('');
  return joined(diffs.map(([op, text]) => ({ kind: KIND[op], text: decode(text) })));
}

/** Parts with text only, neighbours of one kind joined (diff-match-patch puts a stretch's removal before its addition). */
function joined(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const part of parts) {
    if (!part.text) continue;
    const last = out[out.length - 1];
    if (last?.kind === part.kind) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}
