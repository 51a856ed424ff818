import { Element, type Editor } from 'slate';
import { depthOf, type BlockElement } from '../schema/slate';

/** The top-level block at an index, if there is one. */
export function blockAt(editor: Editor, index: number): BlockElement | undefined {
  const node = editor.children[index];
  return node && Element.isElement(node) ? (node as BlockElement) : undefined;
}

/** The index of the top-level block with this uid; -1 when it is not there. */
export function blockIndexOf(editor: Editor, uid: string): number {
  return editor.children.findIndex((n) => Element.isElement(n) && (n as BlockElement).uid === uid);
}

/** Every top-level block, in document order. */
export function topBlocks(editor: Editor): BlockElement[] {
  return editor.children.filter((n): n is BlockElement => Element.isElement(n));
}

/** The index of the block's parent (the nearest block before it one level up), or -1. */
export function parentIndex(editor: Editor, index: number): number {
  const depth = depthOf(blockAt(editor, index));
  if (depth === 0) return -1;
  for (let i = index - 1; i >= 0; i--) if (depthOf(blockAt(editor, i)) < depth) return i;
  return -1;
}
