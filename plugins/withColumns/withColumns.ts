import { Editor, Element, Node, Transforms, type Operation, type Path } from 'slate';
import { newId } from '../../schema/ids';
import { depthOf, type BlockElement } from '../../schema/slate';
import { blockAt, parentIndex } from '../queries';
import { moveBlockRange } from '../withBlockActions/blockActions';
import { shiftRange, subtreeEnd } from '../withStructure/withStructure';
import { isApplyingRemote } from '../withBlockSync/withBlockSync';
import type { KeyPress } from '../types';

/** (The structural query lives in plugins/queries.ts; the columns' callers import it from here too.) */
export { parentIndex };

/*
 * The shape of columns (issue 39 §2; plugins/blocks/columns/block.ts): a column list's direct
 * children are columns, a column holds at least one block, a list holds at least two columns.
 * Kept after every change of the page's shape (not typing):
 *
 * - a block that came to sit directly under a list (outdented out of a column, pasted there)
 *   goes into the column before it — or a new first column, when it is the list's first child;
 * - a column with no blocks left goes (deleting a column's last block removes the column);
 * - a list with one column left is unwrapped: the list and the column go, the column's blocks
 *   come up to the list's level; a list with none goes;
 * - a column anywhere but directly under a list goes (its blocks come up).
 *
 * Not while someone else's change is applied (withBlockSync's isApplyingRemote): their editor
 * keeps it sound, and a column of theirs arrives before the block moved into it.
 *
 * Enter in an empty block of a column writes on in the column (it does not leave it, as an
 * empty nested block otherwise would).
 */

export const COLUMN_LIST = 'columnListBlock';
export const COLUMN = 'columnBlock';

const isList = (block: BlockElement | undefined) => block?.type === COLUMN_LIST;
const isColumn = (block: BlockElement | undefined) => block?.type === COLUMN;

/** The index of the column list the block is in (at any depth), or -1. */
export function enclosingList(editor: Editor, index: number): number {
  for (let i = parentIndex(editor, index); i >= 0; i = parentIndex(editor, i)) if (isList(blockAt(editor, i))) return i;
  return -1;
}

function newColumn(depth: number): BlockElement {
  return { type: COLUMN, uid: newId(), version: 1, depth, width: null, children: [{ text: '' }] } as unknown as BlockElement;
}

/**
 * Makes the list at `index` sound (see the file's comment); true when it changed anything (one
 * fix at a time: Slate normalizes again after it).
 */
function fixList(editor: Editor, index: number): boolean {
  const depth = depthOf(blockAt(editor, index));
  const end = subtreeEnd(editor, index);
  const columns: number[] = [];
  for (let i = index + 1; i < end; i++) {
    const block = blockAt(editor, i);
    if (depthOf(block) !== depth + 1) continue;
    if (isColumn(block)) {
      columns.push(i);
      continue;
    }
    // A block directly under the list: into the column before it, or a new first column.
    const blockEnd = subtreeEnd(editor, i);
    if (columns.length === 0) {
      Editor.withoutNormalizing(editor, () => {
        shiftRange(editor, i, blockEnd, 1);
        Transforms.insertNodes(editor, newColumn(depth + 1), { at: [i] });
      });
    } else shiftRange(editor, i, blockEnd, 1);
    return true;
  }
  // A column with nothing in it goes.
  const empty = columns.find((at) => subtreeEnd(editor, at) === at + 1);
  if (empty !== undefined) {
    Transforms.removeNodes(editor, { at: [empty] });
    return true;
  }
  if (columns.length >= 2) return false;
  Editor.withoutNormalizing(editor, () => {
    // One column left: its blocks come up two levels, in place of the list; none: the list goes.
    if (columns.length === 1) {
      shiftRange(editor, columns[0] + 1, end, -2);
      Transforms.removeNodes(editor, { at: [columns[0]] });
    }
    Transforms.removeNodes(editor, { at: [index] });
  });
  return true;
}

function newList(depth: number): BlockElement {
  return { type: COLUMN_LIST, uid: newId(), version: 1, ...(depth > 0 ? { depth } : {}), children: [{ text: '' }] } as unknown as BlockElement;
}

/** The most columns a list takes (plugins/blocks/columns/block.ts MAX_COLUMNS). */
const MAX_COLUMNS = 5;

/**
 * Whether the block at `dragged` (with its subtree) may be dropped beside the block at `target`:
 * not onto itself or into its own subtree, not beside a column list or a column, not into a list
 * that has five columns already.
 */
export function canDropBeside(editor: Editor, dragged: number, target: number): boolean {
  const block = blockAt(editor, target);
  if (!block || target < 1 || dragged < 1 || isList(block) || isColumn(block)) return false;
  if (target >= dragged && target < subtreeEnd(editor, dragged)) return false;
  const parent = parentIndex(editor, target);
  if (!isColumn(blockAt(editor, parent))) return true;
  const list = parentIndex(editor, parent);
  const listDepth = depthOf(blockAt(editor, list));
  let columns = 0;
  for (let i = list + 1; i < editor.children.length && depthOf(blockAt(editor, i)) > listDepth; i++)
    if (depthOf(blockAt(editor, i)) === listDepth + 1 && isColumn(blockAt(editor, i))) columns += 1;
  // Dragged out of the same list, its column may go: then there is room again.
  return columns < MAX_COLUMNS || enclosingList(editor, dragged) === list;
}

/**
 * A block dropped at the side of another (issue 39 §2, «drag a block to the side»): beside a
 * block in a column, it becomes a new column of that list, left or right of the block's column;
 * beside any other block, the two become a new list of two columns at the target's place, the
 * dropped one on the side it was dropped. Returns the dropped block's new index, or -1 when it
 * may not go there (canDropBeside). The shape is made sound after (an emptied column goes).
 */
export function dropBeside(editor: Editor, dragged: number, target: number, side: 'left' | 'right'): number {
  if (!canDropBeside(editor, dragged, target)) return -1;
  let at = -1;
  Editor.withoutNormalizing(editor, () => {
    const draggedUid = blockAt(editor, dragged)!.uid;
    const targetUid = blockAt(editor, target)!.uid;
    const indexOf = (uid: string) => editor.children.findIndex((node) => (node as BlockElement).uid === uid);
    const parent = parentIndex(editor, target);
    if (isColumn(blockAt(editor, parent))) {
      // A new column of the list, beside the target's column.
      const columnUid = blockAt(editor, parent)!.uid;
      const columnDepth = depthOf(blockAt(editor, parent));
      const column = indexOf(columnUid);
      const to = side === 'left' ? column : subtreeEnd(editor, column);
      const first = moveBlockRange(editor, dragged, subtreeEnd(editor, dragged), to, columnDepth + 1);
      Transforms.insertNodes(editor, newColumn(columnDepth), { at: [first] });
      at = first + 1;
      return;
    }
    // A new list of two columns where the target is.
    const depth = depthOf(blockAt(editor, target));
    const to = side === 'left' ? target : subtreeEnd(editor, target);
    moveBlockRange(editor, dragged, subtreeEnd(editor, dragged), to, depth);
    const leftUid = side === 'left' ? draggedUid : targetUid;
    const rightUid = side === 'left' ? targetUid : draggedUid;
    const start = indexOf(leftUid);
    const middle = indexOf(rightUid);
    const end = subtreeEnd(editor, middle);
    shiftRange(editor, start, end, 2);
    Transforms.insertNodes(editor, newColumn(depth + 1), { at: [middle] });
    Transforms.insertNodes(editor, [newList(depth), newColumn(depth + 1)], { at: [start] });
    at = indexOf(draggedUid);
  });
  return at;
}

/** Operations that cannot change the page's shape. */
const TEXT_ONLY = new Set<Operation['type']>(['insert_text', 'remove_text', 'set_selection']);

export function withColumns<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E): E {
  const { normalizeNode, getDirtyPaths, insertBreak, onChange } = editor;
  // Whether the page's shape changed since the last change was told (typing alone: the lists are not looked at).
  let shapeChanged = true;

  // A change at the top level may leave the list around it unsound: the block before it is checked too.
  editor.getDirtyPaths = (op: Operation): Path[] => {
    const paths = getDirtyPaths(op);
    if (TEXT_ONLY.has(op.type)) return paths;
    shapeChanged = true;
    if (!('path' in op) || op.path.length !== 1) return paths;
    const index = op.path[0];
    return index > 0 ? [...paths, [index - 1]] : paths;
  };

  editor.normalizeNode = (entry, options) => {
    const [node, path] = entry;
    // Someone else's change is theirs to keep sound (isApplyingRemote says why).
    if (shapeChanged && !isApplyingRemote(editor) && path.length === 1 && Element.isElement(node) && path[0] < editor.children.length) {
      const index = path[0];
      const block = node as BlockElement;
      if (isColumn(block) && !isList(blockAt(editor, parentIndex(editor, index)))) {
        // A column out of a list: it goes, its blocks come up.
        Editor.withoutNormalizing(editor, () => {
          shiftRange(editor, index + 1, subtreeEnd(editor, index), -1);
          Transforms.removeNodes(editor, { at: [index] });
        });
        return;
      }
      const list = isList(block) ? index : enclosingList(editor, index);
      if (list >= 0 && fixList(editor, list)) return;
    }
    normalizeNode(entry, options);
  };

  editor.onChange = (options) => {
    shapeChanged = false;
    onChange(options);
  };

  editor.insertBreak = () => {
    const { selection } = editor;
    const index = selection && selection.anchor.path.length === 2 ? selection.anchor.path[0] : -1;
    const block = blockAt(editor, index);
    // An empty block right in a column: a new one after it, in the column (not out of it).
    if (block && !editor.isVoid(block) && Node.string(block) === '' && isColumn(blockAt(editor, parentIndex(editor, index)))) {
      Transforms.insertNodes(
        editor,
        { type: 'textBlock', uid: newId(), version: 1, depth: depthOf(block), children: [{ text: '' }] } as unknown as BlockElement,
        { at: [index + 1], select: true },
      );
      return;
    }
    insertBreak();
  };

  return editor;
}
