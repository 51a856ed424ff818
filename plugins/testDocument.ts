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
export const anchor = () => jsx('anchor');
export const focus = () => jsx('focus');
/** A block: version 1 and no depth unless `attrs` says; an empty text when it has no children. */
export const blockWith = (type: BlockElementType, uid: unknown, attrs: { version?: number; depth?: number }, ...children: unknown[]) =>
  jsx(
    'element',
    { type, uid, version: attrs.version ?? 1, ...(attrs.depth ? { depth: attrs.depth } : {}) },
    ...(children.length > 0 ? children : [jsx('text', {})]),
  );
export const block = (type: BlockElementType, uid: unknown, ...children: unknown[]) => blockWith(type, uid, {}, ...children);
export const text = (uid: unknown, ...children: unknown[]) => block('textBlock', uid, ...children);
/** The page's title block (page p1), «Plan» unless given. */
export const title = (...children: unknown[]) => block('pageHeadingBlock', 'pageHeading_p1', ...(children.length > 0 ? children : ['Plan']));
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
