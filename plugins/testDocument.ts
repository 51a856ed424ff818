import type { Editor } from 'slate';
import { jsx } from 'slate-hyperscript';
import './types';
import { createWorkspaceEditor } from './index';
import type { BlockElementType } from '../schema/slate';

/*
 * Test fixtures for the plugins: a document with a cursor (slate-hyperscript without JSX
 * syntax), an editor made from it, and keystrokes typed one by one (each in its own tick, as in a
 * browser, so Slate's history sees separate changes).
 */

export const cursor = () => jsx('cursor');
export const block = (type: BlockElementType, uid: string, ...children: unknown[]) =>
  jsx('element', { type, uid, version: 1 }, ...(children.length > 0 ? children : [jsx('text', {})]));
export const title = (...children: unknown[]) => block('pageHeadingBlock', 'pageHeading_p1', ...children);
export const doc = (...blocks: unknown[]) => jsx('editor', {}, ...blocks) as Editor;

/** The workspace editor holding `input`'s document and selection. */
export function editorWith(input: Editor) {
  const editor = createWorkspaceEditor();
  editor.children = input.children;
  editor.selection = input.selection;
  return editor;
}

/** Types each character as its own keystroke, letting Slate flush between them. */
export async function type(editor: Editor, keys: string) {
  for (const key of keys) {
    editor.insertText(key);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
