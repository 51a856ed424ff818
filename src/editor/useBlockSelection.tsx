import { useState, type ReactNode } from 'react';
import { Editor, Range, Transforms } from 'slate';
import { ReactEditor } from 'slate-react';
import { deleteBlocks, duplicateBlock, moveBlockRange, subtreeEnd } from '../../plugins';
import type { BlockElement } from '../../schema/slate';

/** Selected whole blocks: from `anchor` to `focus` (top-level indexes, either order). */
export interface BlockRange {
  anchor: number;
  focus: number;
}

const edges = (range: BlockRange): [number, number] => [Math.min(range.anchor, range.focus), Math.max(range.anchor, range.focus)];

/**
 * Block selection (as in Notion): Escape selects the caret's block as a whole; ↑/↓ move the
 * selection, Shift+↑/↓ extend it; Backspace/Delete delete the selected blocks (with their
 * subtrees), Ctrl/Cmd+D duplicates, Ctrl/Cmd+Shift+↑/↓ moves them, Tab/Shift+Tab indent and
 * outdent, Ctrl/Cmd+C/X copy/cut them through the clipboard code; Enter goes back to the caret,
 * a click anywhere too. Escape again leaves the editor (`onLeave`, false when it lets the Escape go on to the panel around it; the keyboard's way out while
 * Tab indents: issue 37), the caret left at the end of the focused block; so does Escape in the
 * title. The selected blocks are highlighted by one generated style rule (nothing re-renders).
 */
export function useBlockSelection(editor: Editor, enabled: boolean, onLeave?: () => boolean) {
  const [range, setRange] = useState<BlockRange | null>(null);

  const uidAt = (index: number) => (editor.children[index] as BlockElement | undefined)?.uid;
  const last = () => editor.children.length - 1;
  const clamp = (index: number) => Math.min(Math.max(1, index), last());

  /** The Slate selection over the selected blocks (so copy and cut take them). */
  const selectText = (r: BlockRange) => {
    const [first, lastIndex] = edges(r);
    Transforms.select(editor, { anchor: Editor.start(editor, [first]), focus: Editor.end(editor, [subtreeEnd(editor, lastIndex) - 1]) });
  };

  const exit = (caretAt?: number) => {
    setRange(null);
    if (caretAt !== undefined && editor.children[caretAt]) {
      Transforms.select(editor, Editor.end(editor, [caretAt]));
      ReactEditor.focus(editor as ReactEditor);
    }
  };

  const handleKey = (event: { key: string; shiftKey?: boolean; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }): boolean => {
    if (!enabled) return false;
    const mod = Boolean(event.ctrlKey || event.metaKey);
    if (!range) {
      if (event.key !== 'Escape' || mod) return false;
      const { selection } = editor;
      if (!selection) return false;
      const [start, end] = Range.edges(selection);
      if (start.path[0] === 0) {
        if (!onLeave || end.path[0] !== 0) return false;
        return onLeave();
      }
      const next = { anchor: start.path[0], focus: end.path[0] };
      setRange(next);
      selectText(next);
      return true;
    }
    const [first, lastIndex] = edges(range);
    const key = event.key;
    if (key === 'Escape' && onLeave) {
      setRange(null);
      if (editor.children[range.focus]) Transforms.select(editor, Editor.end(editor, [range.focus]));
      return onLeave();
    }
    if (key === 'Escape' || key === 'Enter') {
      exit(range.focus);
      return true;
    }
    if (key === 'ArrowUp' || key === 'ArrowDown') {
      const step = key === 'ArrowUp' ? -1 : 1;
      if (mod && event.shiftKey) {
        // Move the selected blocks past their neighbour.
        const end = subtreeEnd(editor, lastIndex);
        const to = step < 0 ? first - 1 : subtreeEnd(editor, end);
        if ((step < 0 && first <= 1) || (step > 0 && end > last())) return true;
        const at = moveBlockRange(editor, first, end, step < 0 ? to : Math.min(to, last() + 1));
        const next = { anchor: at, focus: at + (lastIndex - first) };
        setRange(next);
        selectText(next);
        return true;
      }
      const focus = clamp(range.focus + step);
      const next = event.shiftKey ? { anchor: range.anchor, focus } : { anchor: focus, focus };
      setRange(next);
      selectText(next);
      return true;
    }
    if (key === 'Backspace' || key === 'Delete') {
      deleteBlocks(editor, first, lastIndex);
      setRange(null);
      ReactEditor.focus(editor as ReactEditor);
      return true;
    }
    if (mod && (key.toLowerCase() === 'd' || key.toLowerCase() === 'в')) {
      const copy = duplicateBlock(editor, lastIndex);
      const next = { anchor: copy, focus: copy };
      setRange(next);
      selectText(next);
      return true;
    }
    if (mod && (key.toLowerCase() === 'c' || key.toLowerCase() === 'с')) {
      // The browser copies the Slate selection over the blocks (set when they were selected).
      return false;
    }
    if (mod && (key.toLowerCase() === 'x' || key.toLowerCase() === 'ч')) {
      // The browser's cut copies the blocks and removes the selected text, which leaves the first
      // block empty: that one goes too, found again by its uid once the cut is done.
      const firstUid = uidAt(first);
      setRange(null);
      setTimeout(() => {
        const index = editor.children.findIndex((n) => (n as BlockElement).uid === firstUid);
        const block = editor.children[index] as BlockElement | undefined;
        if (index > 0 && block && Editor.isEmpty(editor, block) && editor.children.length > 2) deleteBlocks(editor, index, index);
      }, 0);
      return false;
    }
    if (key === 'Tab') return false;
    if (key === 'Shift' || key === 'Control' || key === 'Meta' || key === 'Alt') return false;
    // Anything else (typing): back to the caret, in the focused block.
    exit(range.focus);
    return true;
  };

  let style: ReactNode = null;
  if (range) {
    const [first, lastIndex] = edges(range);
    const end = subtreeEnd(editor, lastIndex);
    const selectors: string[] = [];
    for (let i = first; i < end && selectors.length < 2000; i++) {
      const uid = uidAt(i);
      if (uid) selectors.push(`.document-editor [data-block-id="${CSS.escape(uid)}"]`);
    }
    style = (
      <style>{`${selectors.join(',\n')} { background: var(--brand-soft); border-radius: 4px; caret-color: transparent; } .document-editor ::selection { background: transparent; }`}</style>
    );
  }

  /**
   * A press in the margin around the blocks (not on a block) starts a drag-select: every block
   * the dragged band crosses is selected as a block.
   */
  const onMouseDown = (event: React.MouseEvent<HTMLElement>) => {
    if (range) setRange(null);
    if (!enabled || event.button !== 0) return;
    const frame = event.currentTarget;
    const target = event.target as HTMLElement;
    if (target.closest('[data-block-id]') || target.closest('button, input, textarea, select, a')) return;
    const startY = event.clientY;
    let dragging = false;
    // Blocks are found with elementFromPoint (no walk over the page).
    const editable = frame.querySelector<HTMLElement>('[data-slate-editor]');
    // Near the right edge of the column: every block (nested ones too) reaches there.
    const x = (editable?.getBoundingClientRect().right ?? frame.getBoundingClientRect().right) - 60;
    const indexAt = (y: number): number => {
      let node = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-block-id]') ?? null;
      while (node?.parentElement?.closest('[data-block-id]')) node = node.parentElement.closest<HTMLElement>('[data-block-id]');
      if (!node) return -1;
      const uid = node.getAttribute('data-block-id');
      return editor.children.findIndex((n) => (n as BlockElement).uid === uid);
    };
    const startIndex = indexAt(startY);
    /** The blocks from the one under the press to the one at `y`. */
    const blocksTo = (y: number): BlockRange | null => {
      const from = startIndex > 0 ? startIndex : indexAt(startY);
      const to = indexAt(y);
      if (from < 1 || to < 1) return from >= 1 ? { anchor: from, focus: from } : null;
      return { anchor: from, focus: to };
    };
    const onMove = (move: MouseEvent) => {
      if (!dragging && Math.abs(move.clientY - startY) < 6) return;
      dragging = true;
      move.preventDefault();
      const next = blocksTo(move.clientY);
      setRange(next);
    };
    const onUp = (up: MouseEvent) => {
      window.removeEventListener('mousemove', onMove);
      window.removeEventListener('mouseup', onUp);
      if (!dragging) return;
      const next = blocksTo(up.clientY);
      setRange(next);
      if (next) {
        selectText(next);
        ReactEditor.focus(editor as ReactEditor);
      }
    };
    window.addEventListener('mousemove', onMove);
    window.addEventListener('mouseup', onUp);
  };

  return {
    range,
    handleKey,
    /** A click in the editor ends block selection; a press in the margin starts a drag-select. */
    onMouseDown,
    select: (r: BlockRange | null) => {
      setRange(r);
      if (r) selectText(r);
    },
    style,
  };
}
