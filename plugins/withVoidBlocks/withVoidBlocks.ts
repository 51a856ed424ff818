import { Element, type Editor } from 'slate';
import { VOID_SLATE_TYPES } from '../../schema/blocks';

/**
 * Blocks without editable text (databases and their rows, for now) are void: Slate keeps the
 * caret out of them and treats each as one unit, so their data cannot be typed into by accident.
 */
export function withVoidBlocks<E extends Editor>(editor: E): E {
  const { isVoid } = editor;
  editor.isVoid = (element) => (Element.isElement(element) && VOID_SLATE_TYPES.has(element.type)) || isVoid(element);
  return editor;
}
