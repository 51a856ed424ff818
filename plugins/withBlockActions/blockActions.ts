import { Editor, Transforms } from 'slate';
import { newId } from '../../schema/ids';
import type { BlockElement } from '../../schema/slate';
import { blockAt } from '../queries';
import { depthOf, subtreeEnd } from '../withStructure';

/**
 * Whole-block actions of the block menu, the drag handle and block selection, on the flat
 * document (docs/adr/0005-flat-blocks.md): a block always travels with its subtree.
 */

const isContentBlock = (block: BlockElement | undefined): block is BlockElement => !!block && block.type !== 'pageHeadingBlock';

/** The index of the sibling before the block at `index` (same depth, same parent), or -1. */
export function siblingBefore(editor: Editor, index: number): number {
  const depth = depthOf(blockAt(editor, index));
  for (let i = index - 1; i >= 1; i--) {
    const d = depthOf(blockAt(editor, i));
    if (d === depth) return i;
    if (d < depth) return -1;
  }
  return -1;
}

/** The index of the sibling after the block at `index`, or -1. */
export function siblingAfter(editor: Editor, index: number): number {
  const end = subtreeEnd(editor, index);
  const next = blockAt(editor, end);
  return next && depthOf(next) === depthOf(blockAt(editor, index)) ? end : -1;
}

/**
 * Moves the blocks [start, end) to sit before the block now at `to` (an index outside the range;
 * `editor.children.length` for the end), giving the first moved block `depth` and the others
 * their depths shifted alike. Returns the new index of the first moved block.
 */
export function moveBlockRange(editor: Editor, start: number, end: number, to: number, depth?: number): number {
  const count = end - start;
  if (count <= 0 || (to >= start && to <= end)) return start;
  const delta = depth === undefined ? 0 : depth - depthOf(blockAt(editor, start));
  let first = start;
  Editor.withoutNormalizing(editor, () => {
    if (to < start) {
      for (let k = 0; k < count; k++) Transforms.moveNodes(editor, { at: [start + k], to: [to + k] });
      first = to;
    } else {
      for (let k = 0; k < count; k++) Transforms.moveNodes(editor, { at: [start], to: [to - 1] });
      first = to - count;
    }
    if (delta !== 0) {
      for (let i = first; i < first + count; i++) {
        const next = Math.max(0, depthOf(blockAt(editor, i)) + delta);
        if (next > 0) Transforms.setNodes<BlockElement>(editor, { depth: next }, { at: [i] });
        else Transforms.unsetNodes(editor, 'depth', { at: [i] });
      }
    }
  });
  return first;
}

/** Moves the block (with its subtree) above its previous sibling, or below its next one. */
export function moveBlock(editor: Editor, index: number, direction: -1 | 1): number {
  const end = subtreeEnd(editor, index);
  if (direction < 0) {
    const previous = siblingBefore(editor, index);
    return previous < 0 ? index : moveBlockRange(editor, index, end, previous);
  }
  const next = siblingAfter(editor, index);
  return next < 0 ? index : moveBlockRange(editor, index, end, subtreeEnd(editor, next));
}

/**
 * Deep copies of blocks with fresh uids, to be inserted into `editor`. A nested page is copied
 * with its block, as in Notion: the copy points at a copy of the page (`editor.copyPages` makes
 * them under the editor's page).
 */
export function freshCopies(editor: Editor, blocks: readonly BlockElement[]): BlockElement[] {
  const copiedPages: Array<{ from: string; to: string }> = [];
  const copies = blocks.map((node) => {
    const copy = { ...structuredClone(node), uid: newId(), version: 1 };
    if (copy.type === 'documentBlock') {
      const to = newId();
      copiedPages.push({ from: copy.pageId, to });
      copy.pageId = to;
    }
    return copy;
  });
  if (copiedPages.length > 0) editor.copyPages?.(copiedPages);
  return copies;
}

/** A deep copy of the block and its subtree right after them, with fresh uids. Returns its index. */
export function duplicateBlock(editor: Editor, index: number): number {
  const end = subtreeEnd(editor, index);
  Transforms.insertNodes(editor, freshCopies(editor, editor.children.slice(index, end) as BlockElement[]), { at: [end] });
  return end;
}

/** Deletes the blocks from `first` through `last` and their subtrees; a page keeps one block. */
export function deleteBlocks(editor: Editor, first: number, last: number): void {
  const start = Math.max(1, first);
  const end = subtreeEnd(editor, last);
  if (!isContentBlock(blockAt(editor, start))) return;
  Editor.withoutNormalizing(editor, () => {
    for (let i = end - 1; i >= start; i--) Transforms.removeNodes(editor, { at: [i] });
  });
  // (The document-shape rules put an empty paragraph back if nothing is left.)
  const at = Math.min(start, editor.children.length - 1);
  Transforms.select(editor, Editor.end(editor, [at]));
}
