import { Editor, Node, type BaseRange } from 'slate';
import type { EarlyKey } from '../app/earlyStart';
import type { BlockElement } from '../../schema/slate';

/**
 * A click kept from the server's drawing of the page (a block and an offset in its text) as a
 * caret in this editor, or null when the block is not in it.
 */
export function clickToRange(editor: Editor, click: { blockId: string; offset: number }): BaseRange | null {
  const index = editor.children.findIndex((node) => (node as BlockElement).uid === click.blockId);
  if (index < 0) return null;
  let left = click.offset;
  let last: { path: number[]; length: number } | null = null;
  for (const [node, path] of Node.texts(editor.children[index])) {
    const at = [index, ...path];
    if (left <= node.text.length) return { anchor: { path: at, offset: left }, focus: { path: at, offset: left } };
    left -= node.text.length;
    last = { path: at, length: node.text.length };
  }
  if (!last) return null;
  return { anchor: { path: last.path, offset: last.length }, focus: { path: last.path, offset: last.length } };
}

/** Keys typed before the editor could take them, typed now at the selection, in order (they are saved as any typing is). */
export function replayKeys(editor: Editor, keys: readonly EarlyKey[]): void {
  for (const key of keys) {
    if (!editor.selection) return;
    if (key === 'Enter') Editor.insertBreak(editor);
    else if (key === 'Backspace') Editor.deleteBackward(editor);
    else Editor.insertText(editor, key);
  }
}
