import { Editor, Element, Point, Range, Transforms } from 'slate';
import type { KeyPress } from '../types';
import { duplicateBlock, moveBlock } from './blockActions';

/** The top-level index of a collapsed or single-block selection (not the title). */
function caretIndex(editor: Editor): number | null {
  const { selection } = editor;
  if (!selection) return null;
  const [start, end] = Range.edges(selection);
  if (start.path[0] !== end.path[0] || start.path[0] === 0) return null;
  return start.path[0];
}

/**
 * Ctrl/Cmd+A: the text of the caret's block first (a table cell's, a code block's), every block
 * of the page on the second press. The title is not part of that: in the title it selects the
 * title's text, and deleting everything leaves the page its title.
 */
function selectAll(editor: Editor): void {
  const { selection } = editor;
  const block = selection
    ? Editor.above(editor, { at: selection, match: (node) => Element.isElement(node) && Editor.isBlock(editor, node) && Editor.hasInlines(editor, node) })
    : undefined;
  if (block) {
    const range = Editor.range(editor, block[1]);
    const [start, end] = selection ? Range.edges(selection) : [];
    const whole = start && end && Point.equals(start, range.anchor) && Point.equals(end, range.focus);
    if (block[1][0] === 0 || (!whole && Editor.string(editor, block[1]) !== '')) {
      Transforms.select(editor, range);
      return;
    }
  }
  // The blocks as a whole (the model, not the DOM: a big page's far chunks are not drawn).
  if (editor.children.length < 2) return;
  Transforms.select(editor, { anchor: Editor.start(editor, [1]), focus: Editor.end(editor, [editor.children.length - 1]) });
}

/**
 * Keyboard block actions: Ctrl/Cmd+A selects the block's text, then the page; Ctrl/Cmd+Home/End
 * (with Shift: extending the selection) go to the page's start and end; Ctrl/Cmd+Shift+↑/↓ moves the caret's block (with its subtree) past its
 * previous/next sibling, Ctrl/Cmd+D duplicates it. The caret stays at the same offset.
 */
export function withBlockActions<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E): E {
  const { handleKey } = editor;
  editor.handleKey = (event) => {
    const mod = Boolean(event.ctrlKey || event.metaKey) && !event.altKey;
    if (mod && !event.shiftKey && (event.key.toLowerCase() === 'a' || event.key.toLowerCase() === 'ф')) {
      selectAll(editor);
      return true;
    }
    if (mod && (event.key === 'Home' || event.key === 'End')) {
      // The start or end of the page in the model: a big page's far end is not drawn for the browser to find.
      const edge = event.key === 'Home' ? Editor.start(editor, []) : Editor.end(editor, []);
      Transforms.select(editor, event.shiftKey && editor.selection ? { anchor: editor.selection.anchor, focus: edge } : edge);
      return true;
    }
    const index = mod ? caretIndex(editor) : null;
    if (index !== null && event.shiftKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      const selection = editor.selection;
      const moved = moveBlock(editor, index, event.key === 'ArrowUp' ? -1 : 1);
      if (selection && moved !== index) {
        const shift = (point: typeof selection.anchor) => ({ ...point, path: [moved, ...point.path.slice(1)] });
        Transforms.select(editor, { anchor: shift(selection.anchor), focus: shift(selection.focus) });
      }
      return true;
    }
    if (index !== null && !event.shiftKey && (event.key.toLowerCase() === 'd' || event.key.toLowerCase() === 'в')) {
      const copy = duplicateBlock(editor, index);
      Transforms.select(editor, Editor.end(editor, [copy]));
      return true;
    }
    return handleKey(event);
  };
  return editor;
}
