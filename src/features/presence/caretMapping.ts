import { Element, Node, Path, Range, type Editor, type Point } from 'slate';
import type { Caret, CaretPoint } from '../../../schema/realtime';

/*
 * Carets on the wire (docs/realtime.md, `position`) are { blockId, offset }: the uid of a
 * top-level block (the title included) and a character offset in that block's text — the text of
 * its leaves in document order, as Node.string(block) reads it. Every client maps them to and
 * from its own Slate points, so a caret means the same place on every screen even when the
 * blocks' indexes differ (someone above added a block).
 */

/** The wire schema allows offsets up to this (a longer block is capped; the caret then sits at its end). */
const MAX_OFFSET = 1_000_000;

const uidOf = (node: Node | undefined): string | null => (node && Element.isElement(node) ? ((node as { uid?: string }).uid ?? null) : null);

/** A Slate point as { blockId, offset }; null when it is not inside a block with a uid. */
export function toCaretPoint(editor: Editor, point: Point): CaretPoint | null {
  const index = point.path[0];
  const block = index === undefined ? undefined : editor.children[index];
  const blockId = uidOf(block);
  if (!block || !blockId) return null;
  const inner = point.path.slice(1);
  let offset = 0;
  for (const [text, path] of Node.texts(block)) {
    if (Path.equals(path, inner)) {
      offset += Math.min(point.offset, text.text.length);
      return { blockId, offset: Math.min(offset, MAX_OFFSET) };
    }
    if (!Path.isBefore(path, inner)) break;
    offset += text.text.length;
  }
  // The point names no leaf of the block (a stale path): the end of what precedes it.
  return { blockId, offset: Math.min(offset, MAX_OFFSET) };
}

/** The editor's selection as a wire caret (anchor and focus); null without a selection. */
export function toCaret(editor: Editor, selection: Range | null): Caret {
  if (!selection) return null;
  const anchor = toCaretPoint(editor, selection.anchor);
  const focus = Range.isCollapsed(selection) ? anchor : toCaretPoint(editor, selection.focus);
  return anchor && focus ? { anchor, focus } : null;
}

export const sameCaret = (a: Caret | undefined, b: Caret | undefined): boolean =>
  a === b ||
  (!!a &&
    !!b &&
    a.anchor.blockId === b.anchor.blockId &&
    a.anchor.offset === b.anchor.offset &&
    a.focus.blockId === b.focus.blockId &&
    a.focus.offset === b.focus.offset);

/**
 * Top-level indexes of blocks by uid, remembered between calls: a hit is checked against the
 * editor (one comparison) and only a miss walks the children, so mapping the few remote carets
 * on every keystroke stays cheap on a 20,000-block page.
 */
export class BlockIndex {
  private readonly known = new Map<string, number>();

  constructor(private readonly editor: Editor) {}

  indexOf(uid: string): number {
    const { children } = this.editor;
    const hint = this.known.get(uid);
    if (hint !== undefined && uidOf(children[hint]) === uid) return hint;
    // Blocks mostly shift by a few places (a block added or removed above): look near first.
    if (hint !== undefined) {
      for (let delta = 1; delta <= 8; delta++) {
        for (const at of [hint - delta, hint + delta]) {
          if (uidOf(children[at]) === uid) {
            this.known.set(uid, at);
            return at;
          }
        }
      }
    }
    const index = children.findIndex((node) => uidOf(node) === uid);
    if (index >= 0) this.known.set(uid, index);
    else this.known.delete(uid);
    return index;
  }
}

/**
 * The Slate point of { blockId, offset } in this editor: the offset counted through the block's
 * leaves (at the end of a leaf rather than the start of the next; past the end: the block's end).
 * Null when the block is not in the document (deleted, or not here yet).
 */
export function toSlatePoint(editor: Editor, point: CaretPoint, index: BlockIndex = new BlockIndex(editor)): Point | null {
  const at = index.indexOf(point.blockId);
  if (at < 0) return null;
  const block = editor.children[at];
  let remaining = Math.max(0, point.offset);
  let last: Point | null = null;
  for (const [text, path] of Node.texts(block)) {
    if (remaining <= text.text.length) return { path: [at, ...path], offset: remaining };
    remaining -= text.text.length;
    last = { path: [at, ...path], offset: text.text.length };
  }
  return last;
}

/** A wire caret as a Slate range in this editor; null when a block it names is not here. */
export function toSlateRange(editor: Editor, caret: Caret, index: BlockIndex = new BlockIndex(editor)): Range | null {
  if (!caret) return null;
  const focus = toSlatePoint(editor, caret.focus, index);
  if (!focus) return null;
  const anchor = caret.anchor.blockId === caret.focus.blockId && caret.anchor.offset === caret.focus.offset ? focus : toSlatePoint(editor, caret.anchor, index);
  return anchor ? { anchor, focus } : null;
}
