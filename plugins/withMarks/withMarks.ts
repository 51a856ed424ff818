import { Editor, Node, Path, Range, Text, Transforms } from 'slate';
import type { TokenMarks } from '../../schema/token';
import { isSafeHref } from '../../schema/token';
import type { KeyPress } from '../types';

/** The on/off marks of a token (links are set with setLink). */
export type ToggleMark = 'bold' | 'italic' | 'underline' | 'struckOut' | 'code';

/** Ctrl/Cmd + key → mark (Ctrl/Cmd+Shift+S strikes through). */
const MARK_KEYS: Record<string, ToggleMark> = { b: 'bold', i: 'italic', u: 'underline', e: 'code' };

/** Whether every text in the selection has the mark (the toolbar shows it pressed). */
export function isMarkActive(editor: Editor, mark: ToggleMark): boolean {
  const { selection } = editor;
  if (!selection) return false;
  if (Range.isCollapsed(selection)) return Boolean((Editor.marks(editor) as TokenMarks | null)?.[mark]);
  const texts = Editor.nodes(editor, { at: selection, match: (n) => Text.isText(n) && n.text !== '' });
  let any = false;
  for (const [node] of texts) {
    any = true;
    if (!(node as TokenMarks)[mark]) return false;
  }
  return any;
}

/**
 * Which marks every text of the selection has, and the first link, in one pass over the selected
 * texts (the toolbar asks once per change instead of once per button).
 */
export function selectionMarks(editor: Editor): { marks: ReadonlySet<ToggleMark>; link: string | null } {
  const all: ToggleMark[] = ['bold', 'italic', 'underline', 'struckOut', 'code'];
  const { selection } = editor;
  if (!selection) return { marks: new Set(), link: null };
  if (Range.isCollapsed(selection)) {
    const current = (Editor.marks(editor) ?? {}) as TokenMarks;
    return { marks: new Set(all.filter((mark) => current[mark])), link: current.link?.href ?? null };
  }
  const on = new Set<ToggleMark>(all);
  let link: string | null = null;
  let any = false;
  for (const [node] of Editor.nodes(editor, { at: selection, match: (n) => Text.isText(n) && n.text !== '' })) {
    any = true;
    const marks = node as TokenMarks;
    for (const mark of on) if (!marks[mark]) on.delete(mark);
    if (link === null && marks.link) link = marks.link.href;
    if (on.size === 0 && link !== null) break;
  }
  return { marks: any ? on : new Set(), link };
}

export function toggleMark(editor: Editor, mark: ToggleMark): void {
  if (isMarkActive(editor, mark)) Editor.removeMark(editor, mark);
  else Editor.addMark(editor, mark, true);
}

/** The link of the selection's first text, if any. */
export function activeLink(editor: Editor): string | null {
  const { selection } = editor;
  if (!selection) return null;
  const [first] = Editor.nodes(editor, { at: selection, match: (n) => Text.isText(n) && 'link' in n && !!(n as TokenMarks).link });
  return first ? ((first[0] as TokenMarks).link?.href ?? null) : null;
}

/**
 * Links the selected text to `href` (http and https only: false otherwise, nothing changes);
 * an empty href removes the link.
 */
export function setLink(editor: Editor, href: string): boolean {
  if (!editor.selection || Range.isCollapsed(editor.selection)) return false;
  const trimmed = href.trim();
  if (trimmed === '') {
    Editor.removeMark(editor, 'link');
    return true;
  }
  const url = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  if (!isSafeHref(url)) return false;
  Editor.addMark(editor, 'link', { href: url });
  return true;
}

/**
 * The whole link the text at `path` is part of: that text and its neighbours in the same element
 * with the same address (a link split by other marks is one link). Null when the text has no link.
 */
export function linkRangeAt(editor: Editor, path: Path): { range: Range; href: string } | null {
  if (!Node.has(editor, path)) return null;
  const node = Node.get(editor, path);
  const href = Text.isText(node) ? (node as TokenMarks).link?.href : undefined;
  if (!href) return null;
  const parent = Node.parent(editor, path);
  const index = path[path.length - 1];
  const same = (i: number) => {
    const child = parent.children[i];
    return Text.isText(child) && (child as TokenMarks).link?.href === href;
  };
  let first = index;
  while (first > 0 && same(first - 1)) first -= 1;
  let last = index;
  while (last < parent.children.length - 1 && same(last + 1)) last += 1;
  const parentPath = Path.parent(path);
  return { range: { anchor: Editor.start(editor, [...parentPath, first]), focus: Editor.end(editor, [...parentPath, last]) }, href };
}

/** The link the caret is in (collapsed selection), or null. */
export function linkAtCaret(editor: Editor): { range: Range; href: string } | null {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection)) return null;
  return linkRangeAt(editor, selection.anchor.path);
}

/** Removes the whole link the text at `path` is part of; its text stays. */
export function removeLinkAt(editor: Editor, path: Path): boolean {
  const link = linkRangeAt(editor, path);
  if (!link) return false;
  Transforms.unsetNodes(editor, 'link', { at: link.range, match: Text.isText, split: true });
  return true;
}

const isMod = (event: KeyPress) => Boolean(event.ctrlKey || event.metaKey);

/** Ctrl/Cmd+B, I, U, E toggle bold, italic, underline and code; Ctrl/Cmd+Shift+S strikes through. */
export function withMarks<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E): E {
  const { handleKey } = editor;
  editor.handleKey = (event) => {
    if (isMod(event) && !event.altKey) {
      const key = event.key.toLowerCase();
      const mark = event.shiftKey ? (key === 's' ? 'struckOut' : undefined) : MARK_KEYS[key];
      // Russian layout: the same physical keys (И, Ш, Г, У) arrive as Cyrillic letters.
      const cyrillic: Record<string, ToggleMark> = { и: 'bold', ш: 'italic', г: 'underline', у: 'code' };
      const chosen = mark ?? (event.shiftKey ? (key === 'ы' ? 'struckOut' : undefined) : cyrillic[key]);
      if (chosen) {
        toggleMark(editor, chosen);
        return true;
      }
    }
    return handleKey(event);
  };
  return editor;
}
