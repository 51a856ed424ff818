import { Editor, Element, Node, Point, Range, Text, Transforms } from 'slate';
import { HistoryEditor } from 'slate-history';
import type { BlockElement } from '../../schema/slate';
import type { KeyPress } from '../types';

/** What Tab inserts in code. */
export const CODE_INDENT = '  ';

const TEXT_MARKS = ['bold', 'italic', 'underline', 'struckOut', 'code', 'link', 'comments'] as const;

/** The index of the code block the whole selection is in, or -1. */
function codeBlockOfSelection(editor: Editor): number {
  const { selection } = editor;
  if (!selection) return -1;
  const index = selection.anchor.path[0];
  if (selection.focus.path[0] !== index) return -1;
  const node = editor.children[index];
  return Element.isElement(node) && node.type === 'codeBlock' ? index : -1;
}

/** The caret is collapsed at the very end of the code block at `index`. */
function atCodeEnd(editor: Editor, index: number): boolean {
  const { selection } = editor;
  return !!selection && Range.isCollapsed(selection) && Point.equals(selection.anchor, Editor.end(editor, [index]));
}

/**
 * Code blocks: Enter inserts a line break ("\n") instead of a new block, and so do Shift+Enter
 * and Ctrl/Cmd+Enter; Tab inserts two spaces. Leaving the block (issue 15): Enter on an empty
 * last line (the code ends with a line break, the caret after it) drops that line and goes on in
 * a new paragraph after the block; ArrowDown at the very end goes to the next block, or to a new
 * paragraph when the code is the last block. Code is plain text: marks on its text are removed
 * as it is normalized. (A paste into code goes in as plain text, line breaks included:
 * plugins/withClipboard.)
 */
export function withCodeBlocks<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E): E {
  const { insertBreak, insertSoftBreak, handleKey, normalizeNode } = editor;
  editor.insertBreak = () => {
    const index = codeBlockOfSelection(editor);
    if (index < 0) return insertBreak();
    if (atCodeEnd(editor, index) && Node.string(editor.children[index]).endsWith('\n')) {
      // The second Enter on the empty last line: the line goes, writing goes on below the block.
      const leave = () => {
        Editor.deleteBackward(editor, { unit: 'character' });
        leaveCodeBlock(editor, index);
      };
      if (HistoryEditor.isHistoryEditor(editor)) HistoryEditor.withNewBatch(editor, leave);
      else leave();
      return;
    }
    editor.insertText('\n');
  };

  editor.insertSoftBreak = () => {
    if (codeBlockOfSelection(editor) < 0) return insertSoftBreak();
    editor.insertText('\n');
  };

  editor.handleKey = (event) => {
    const index = codeBlockOfSelection(editor);
    if (index < 0) return handleKey(event);
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey) {
      // Stays in the code: a line break (the browser would do nothing, or leave).
      if (editor.selection && !Range.isCollapsed(editor.selection)) Transforms.delete(editor);
      editor.insertText('\n');
      return true;
    }
    if (event.key === 'ArrowDown' && !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey && atCodeEnd(editor, index)) {
      if (index + 1 < editor.children.length) Transforms.select(editor, Editor.start(editor, [index + 1]));
      else leaveCodeBlock(editor, index);
      return true;
    }
    if (event.key === 'Tab' && !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey) {
      if (editor.selection && !Range.isCollapsed(editor.selection)) Transforms.delete(editor);
      editor.insertText(CODE_INDENT);
      return true;
    }
    return handleKey(event);
  };

  editor.normalizeNode = (entry, options) => {
    const [node, path] = entry;
    if (path.length === 2 && Text.isText(node)) {
      const parent = Node.parent(editor, path);
      if (Element.isElement(parent) && parent.type === 'codeBlock') {
        const marks = TEXT_MARKS.filter((mark) => mark in node);
        if (marks.length > 0) {
          Transforms.unsetNodes(editor, [...marks], { at: path });
          return;
        }
      }
    }
    normalizeNode(entry, options);
  };

  return editor;
}

/** A new empty text block right after the code block (at its depth, before its nested blocks), caret in it. */
export function leaveCodeBlock(editor: Editor, index: number): void {
  const code = editor.children[index] as BlockElement;
  const depth = code.depth ?? 0;
  const block = { type: 'textBlock', uid: '', version: 1, children: [{ text: '' }], ...(depth > 0 ? { depth } : {}) } as BlockElement;
  Editor.withoutNormalizing(editor, () => {
    Transforms.insertNodes(editor, block, { at: [index + 1], select: false });
  });
  Transforms.select(editor, Editor.start(editor, [index + 1]));
}
