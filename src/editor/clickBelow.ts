import type { MouseEvent } from 'react';
import { Editor, Node, Transforms } from 'slate';
import { ReactEditor } from 'slate-react';
import { emptyTextBlock } from '../../plugins/withPageHeading';
import type { BlockElement } from '../../schema/slate';

/**
 * A click in the empty space under a page's last block puts the caret in an empty paragraph at the
 * end — the last block when it is one, else a new one (as in Notion). Left to the browser, the
 * caret went to whatever text was nearest: on a row page of a data table, whose fields sit under
 * the title, that was the end of the title, and what was typed renamed the row.
 * Answers whether the click was taken.
 */
export function caretBelowBlocks(editor: Editor, event: MouseEvent<HTMLElement>): boolean {
  if (event.button !== 0 || event.shiftKey || event.defaultPrevented) return false;
  const target = event.target as HTMLElement;
  if (target.closest('[data-block-id], [contenteditable="false"], button, input, textarea, select, a, label')) return false;
  const end = editor.children.length - 1;
  const last = editor.children[end] as BlockElement | undefined;
  const drawn = last ? event.currentTarget.querySelector(`[data-block-id="${CSS.escape(last.uid)}"]`) : null;
  if (!last || !drawn || event.clientY <= drawn.getBoundingClientRect().bottom) return false;
  const emptyParagraph = end > 0 && last.type === 'textBlock' && Node.string(last) === '';
  if (!emptyParagraph) Transforms.insertNodes(editor, emptyTextBlock(), { at: [end + 1] });
  Transforms.select(editor, Editor.start(editor, [emptyParagraph ? end : end + 1]));
  ReactEditor.focus(editor);
  return true;
}
