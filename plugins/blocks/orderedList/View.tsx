import { useRef } from 'react';
import type { Descendant, Editor } from 'slate';
import { ReactEditor, useSlateSelector, type RenderElementProps } from 'slate-react';
import { previousSiblingIndex } from './block';
import type { BlockElement } from '../../../schema/slate';
import '../../../src/editor/blocks/listBlocks.css';
import { blockRootProps, editorT, isEmptyBlock, type BlockViews } from '../../../src/editor/blockView';

/**
 * The numbers of the ordered items of one document state, filled in as items ask: each item
 * costs one step back to the previous item of its run (orderedNumberAt's rule, shared).
 */
const numbersByDocument = new WeakMap<readonly Descendant[], Map<number, number>>();

export function cachedOrderedNumber(children: readonly Descendant[], index: number): number {
  const elements = children as readonly BlockElement[];
  const element = elements[index];
  if (!element || element.type !== 'orderedListBlock') return 0;
  let memo = numbersByDocument.get(children);
  if (!memo) {
    memo = new Map();
    numbersByDocument.set(children, memo);
  }
  const depth = element.depth ?? 0;
  const pending: number[] = [];
  let at = index;
  let number: number;
  for (;;) {
    const known = memo.get(at);
    if (known !== undefined) {
      number = known;
      break;
    }
    const item = elements[at];
    if (item.type === 'orderedListBlock' && item.forcedOrder !== undefined) {
      number = item.forcedOrder;
      memo.set(at, number);
      break;
    }
    const previous = previousSiblingIndex(elements, at, depth);
    if (previous < 0) {
      number = 1;
      memo.set(at, number);
      break;
    }
    pending.push(at);
    at = previous;
  }
  while (pending.length > 0) {
    number += 1;
    memo.set(pending.pop()!, number);
  }
  return memo.get(index)!;
}

function indexOf(editor: Editor, element: BlockElement): number {
  let index = -1;
  try {
    index = ReactEditor.findPath(editor, element)[0];
  } catch {
    // Not in the rendered tree any more: look it up.
  }
  return editor.children[index] === element ? index : editor.children.indexOf(element);
}

/**
 * A numbered list item. Its number is computed from the items before it in its run
 * (plugins/blocks/orderedList/block.ts: orderedNumberAt), so it follows every edit above it.
 */
export function OrderedListView({ element, attributes, children }: RenderElementProps) {
  const last = useRef(1);
  const number = useSlateSelector((editor) => {
    const index = indexOf(editor, element as BlockElement);
    if (index >= 0) last.current = cachedOrderedNumber(editor.children, index);
    return last.current;
  });
  return (
    // A list of its own item, as the bulleted one (BulletListView); the number is read before the text.
    <div {...attributes} {...blockRootProps(element, 'block-list')} data-number={number} role="list">
      <span className="block-list-marker" contentEditable={false}>
        {number}.
      </span>
      <div
        className="block-list-content"
        role="listitem"
        aria-level={(element.depth ?? 0) + 1}
        data-placeholder={isEmptyBlock(element) ? editorT('listPlaceholder') : undefined}
      >
        {children}
      </div>
    </div>
  );
}

export const blockViews: BlockViews = { orderedListBlock: OrderedListView };
