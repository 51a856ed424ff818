import { Editor, Element, Node, Range, Text, Transforms, type Path, type Point } from 'slate';
import type { TokenMarks } from '../../schema/token';

/** The marks markdown can set while typing (the names of schema/token.ts and plugins/withMarks). */
export type InlineMark = 'bold' | 'italic' | 'struckOut' | 'code';

/** Markdown's inline markers, longest first (`**` before `*`): typed around text, they mark it. */
export const INLINE_MARKERS: ReadonlyArray<{ marker: string; mark: InlineMark }> = [
  { marker: '**', mark: 'bold' },
  { marker: '~~', mark: 'struckOut' },
  { marker: '*', mark: 'italic' },
  { marker: '_', mark: 'italic' },
  { marker: '`', mark: 'code' },
];

/** The characters that can close an inline marker (what insertText looks out for). */
export const INLINE_MARKER_CHARS: ReadonlySet<string> = new Set(INLINE_MARKERS.map((m) => m.marker[0]));

export interface InlineMatch {
  mark: InlineMark;
  marker: string;
  /** Where the opening marker starts, in the text given. */
  open: number;
  /** Where the closing marker starts (it runs to the end of the text given). */
  close: number;
}

const SPACE = /\s/u;
/** Before an opening marker: the start, a space, punctuation or a symbol (so `2*3*4` stays as typed). */
const OPENS_AFTER = /[\s\p{P}\p{S}]/u;

/**
 * The inline marker `text` (a block's text up to the caret, the last character just typed) ends
 * with, if it closes one: `**bold**`, `*italic*`, `_italic_`, `` `code` ``, `~~strike~~`. The text
 * between must not be empty, nor start or end with a space (code may: it only may not be blank),
 * nor hold the marker's character; the opening marker starts the text or follows a space,
 * punctuation or a symbol other than its own character.
 */
export function closedInlineMarker(text: string): InlineMatch | null {
  for (const { marker, mark } of INLINE_MARKERS) {
    if (!text.endsWith(marker)) continue;
    const char = marker[0];
    const close = text.length - marker.length;
    const open = text.lastIndexOf(marker, close - marker.length);
    if (open < 0) continue;
    const content = text.slice(open + marker.length, close);
    if (content === '' || content.includes(char)) continue;
    if (mark === 'code' ? content.trim() === '' : SPACE.test(content[0]) || SPACE.test(content[content.length - 1])) continue;
    const before = open > 0 ? text[open - 1] : '';
    if (before !== '' && (before === char || !OPENS_AFTER.test(before))) continue;
    return { mark, marker, open, close };
  }
  return null;
}

/** The point `offset` characters into the texts of the element at `path`. */
function pointAt(editor: Editor, path: Path, offset: number): Point {
  let left = offset;
  let last: Point | null = null;
  for (const [text, textPath] of Node.texts(Node.get(editor, path))) {
    const at = [...path, ...textPath];
    if (left <= text.text.length) return { path: at, offset: left };
    left -= text.text.length;
    last = { path: at, offset: text.text.length };
  }
  return last ?? Editor.end(editor, path);
}

/**
 * The element the caret types into, when inline markdown applies there: its children are all
 * text, and it is neither code (plain text) nor the page title. Returns its path and the text
 * before the caret.
 */
export function inlineContext(editor: Editor): { path: Path; before: string } | null {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection)) return null;
  const entry = Editor.above(editor, { at: selection.anchor, match: (n) => Element.isElement(n) && n.children.every((c) => Text.isText(c)) });
  if (!entry) return null;
  const [element, path] = entry as [Element, Path];
  if (element.type === 'codeBlock' || element.type === 'pageHeadingBlock') return null;
  return { path, before: Editor.string(editor, { anchor: Editor.start(editor, path), focus: selection.anchor }) };
}

/**
 * Drops the two markers of `match` from the element at `path` and gives the text between them
 * its mark; the caret ends after that text, and what is typed next is no longer marked.
 */
export function applyInlineMarker(editor: Editor, path: Path, match: InlineMatch): void {
  const length = match.marker.length;
  Editor.withoutNormalizing(editor, () => {
    Transforms.delete(editor, { at: { anchor: pointAt(editor, path, match.close), focus: pointAt(editor, path, match.close + length) } });
    Transforms.delete(editor, { at: { anchor: pointAt(editor, path, match.open), focus: pointAt(editor, path, match.open + length) } });
    const range = { anchor: pointAt(editor, path, match.open), focus: pointAt(editor, path, match.close - length) };
    const rangeRef = Editor.rangeRef(editor, range);
    Transforms.setNodes(editor, { [match.mark]: true } as Partial<TokenMarks>, { at: range, match: Text.isText, split: true });
    const marked = rangeRef.unref();
    if (marked) Transforms.select(editor, Range.end(marked));
  });
  // The caret sits at the end of the marked text: what comes next is typed without the mark.
  const marks = { ...((Editor.marks(editor) ?? {}) as Record<string, unknown>) };
  delete marks[match.mark];
  editor.marks = marks as typeof editor.marks;
}
