import { Element, type Editor } from 'slate';
import type { BlockElement } from '../schema/slate';

/** The top-level block at an index, if there is one. */
export function blockAt(editor: Editor, index: number): BlockElement | undefined {
  const node = editor.children[index];
  return node && Element.isElement(node) ? (node as BlockElement) : undefined;
}

/** Every top-level block, in document order. */
export function topBlocks(editor: Editor): BlockElement[] {
  return editor.children.filter((n): n is BlockElement => Element.isElement(n));
}
