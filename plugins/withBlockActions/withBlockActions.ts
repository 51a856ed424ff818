import { Editor, Range, Transforms } from 'slate';
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
 * Keyboard block actions: Ctrl/Cmd+Shift+↑/↓ moves the caret's block (with its subtree) past its
 * previous/next sibling, Ctrl/Cmd+D duplicates it. The caret stays at the same offset.
 */
export function withBlockActions<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E): E {
  const { handleKey } = editor;
  editor.handleKey = (event) => {
    const mod = Boolean(event.ctrlKey || event.metaKey) && !event.altKey;
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
