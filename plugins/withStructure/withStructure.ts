import { Editor, Element, Node, Range, Transforms, type Operation, type Path } from 'slate';
import { REGISTERED_BLOCKS, definitionForSlateType, type BlockEditing } from '../../schema/blocks';
import { depthOf, type BlockElement, type BlockElementType } from '../../schema/slate';
import { newId } from '../../schema/ids';
import { blockAt } from '../queries';
import { convertBlock } from '../withMarkdownShortcuts/withMarkdownShortcuts';
import type { KeyPress } from '../types';

/**
 * Nesting in the flat document (docs/adr/0005-flat-blocks.md): every block is a top-level
 * element with a depth. This plugin keeps the depths sound (the first block at the top level,
 * no block more than one level below the block before it), indents and outdents with
 * Tab/Shift+Tab (a block takes its subtree along), and the list rules of the spec: Enter in an
 * empty list item outdents it (or, at the top level, makes it text), Backspace at the start of a
 * list item, quote or checkbox makes it text, Backspace at the start of a nested text block
 * outdents it.
 */

/** What Enter does in each type that says (its definition's `editing.enter`; code has its own rule). */
const ENTER: ReadonlyMap<string, NonNullable<BlockEditing['enter']>> = new Map(
  REGISTERED_BLOCKS.flatMap((d) => (d.editing?.enter ? [[d.slateType, d.editing.enter] as const] : [])),
);
/** Types that Backspace at their start turns into text. */
const TO_TEXT_ON_BACKSPACE: ReadonlySet<string> = new Set(REGISTERED_BLOCKS.filter((d) => d.editing?.backspaceToText).map((d) => d.slateType));
const isListType = (type: string) => ENTER.get(type) === 'sameType';

/** The fields a new block of the type starts with (its default data's), for a list's next item. */
function defaultFieldsOf(type: string): Record<string, unknown> {
  const definition = definitionForSlateType(type);
  if (!definition?.defaultData) return {};
  const { children: _children, ...fields } = definition.toSlateFields(definition.defaultData()) as Record<string, unknown>;
  return fields;
}
/** Fields every element has, which a type's defaults do not touch. */
const ELEMENT_FIELDS = new Set(['type', 'uid', 'version', 'depth', 'children']);

export { depthOf };

/** The deepest a block at `index` may be: one below the block before it (the title counts as -1). */
function maxDepthAt(editor: Editor, index: number): number {
  const previous = blockAt(editor, index - 1);
  if (!previous || previous.type === 'pageHeadingBlock') return 0;
  return depthOf(previous) + 1;
}

/** The end (exclusive) of the subtree of the block at `index`: the following blocks deeper than it. */
export function subtreeEnd(editor: Editor, index: number): number {
  const depth = depthOf(blockAt(editor, index));
  let end = index + 1;
  while (end < editor.children.length && depthOf(blockAt(editor, end)) > depth) end += 1;
  return end;
}

function setDepth(editor: Editor, index: number, depth: number): void {
  if (depth > 0) Transforms.setNodes<BlockElement>(editor, { depth }, { at: [index] });
  else Transforms.unsetNodes(editor, 'depth', { at: [index] });
}

/** Moves the blocks in [start, end) by `delta` levels (their shape kept). */
export function shiftRange(editor: Editor, start: number, end: number, delta: number): void {
  Editor.withoutNormalizing(editor, () => {
    for (let i = start; i < end; i++) setDepth(editor, i, Math.max(0, depthOf(blockAt(editor, i)) + delta));
  });
}

/** Moves the block at `index` and its subtree by `delta` levels. */
function shiftSubtree(editor: Editor, index: number, delta: number): void {
  shiftRange(editor, index, subtreeEnd(editor, index), delta);
}

/** Indents the block (and its subtree) under the block before it. False when it cannot go deeper. */
export function indentBlock(editor: Editor, index: number): boolean {
  const block = blockAt(editor, index);
  if (!block || block.type === 'pageHeadingBlock' || depthOf(block) + 1 > maxDepthAt(editor, index)) return false;
  shiftSubtree(editor, index, 1);
  return true;
}

/** Outdents the block (and its subtree) one level. False at the top level. */
export function outdentBlock(editor: Editor, index: number): boolean {
  const block = blockAt(editor, index);
  if (!block || block.type === 'pageHeadingBlock' || depthOf(block) === 0) return false;
  shiftSubtree(editor, index, -1);
  return true;
}

/** Top-level indexes of the blocks a selection touches (the title excluded). */
function selectedBlockIndexes(editor: Editor): number[] {
  const { selection } = editor;
  if (!selection) return [];
  const [start, end] = Range.edges(selection);
  const out: number[] = [];
  for (let i = Math.max(1, start.path[0]); i <= end.path[0]; i++) out.push(i);
  return out;
}

/** The top-level block of a collapsed caret, with its index, when the caret is in a plain block. */
function caretBlock(editor: Editor): { block: BlockElement; index: number } | null {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection)) return null;
  const index = selection.anchor.path[0];
  const block = blockAt(editor, index);
  // Inside a table the caret sits in a cell: the table's own rules apply.
  if (!block || selection.anchor.path.length !== 2) return null;
  return { block, index };
}

export function withStructure<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E): E {
  const { normalizeNode, getDirtyPaths, insertBreak, deleteBackward, handleKey } = editor;

  // A change at the top level can leave the block after it too deep: check that one as well.
  editor.getDirtyPaths = (op: Operation): Path[] => {
    const paths = getDirtyPaths(op);
    // Typing inside a block cannot change the document's top-level shape: leave the editor node
    // out, or every keystroke would normalize it — a walk over all of the page's blocks.
    if ((op.type === 'insert_text' || op.type === 'remove_text' || op.type === 'set_node') && op.path.length >= 2) {
      return paths.filter((path) => path.length > 0);
    }
    if (!('path' in op) || op.path.length !== 1) return paths;
    const index = op.path[0];
    switch (op.type) {
      case 'remove_node':
      case 'merge_node':
        return [...paths, [index]];
      case 'insert_node':
      case 'split_node':
        return [...paths, [index + 1]];
      case 'move_node':
        return op.newPath.length === 1 ? [...paths, [index], [op.newPath[0] + 1]] : paths;
      case 'set_node':
        return 'depth' in op.newProperties || 'depth' in op.properties ? [...paths, [index + 1]] : paths;
      default:
        return paths;
    }
  };

  editor.normalizeNode = (entry, options) => {
    const [node, path] = entry;
    if (path.length === 0) {
      // Writing can always go on below the last block: a void block (a divider, an image) is
      // never last.
      const last = blockAt(editor, editor.children.length - 1);
      if (last && last.type !== 'pageHeadingBlock' && editor.isVoid(last)) {
        Transforms.insertNodes(editor, { type: 'textBlock', uid: newId(), version: 1, children: [{ text: '' }] } as BlockElement, {
          at: [editor.children.length],
        });
        return;
      }
    }
    if (path.length === 1 && Element.isElement(node) && node.type !== 'pageHeadingBlock') {
      const depth = depthOf(node as BlockElement);
      const max = maxDepthAt(editor, path[0]);
      if (depth > max) {
        // Too deep for its place (the block above went away or moved): it and its subtree come up.
        shiftSubtree(editor, path[0], max - depth);
        return;
      }
      if ((node as BlockElement).depth === 0) {
        Transforms.unsetNodes(editor, 'depth', { at: path });
        return;
      }
    }
    normalizeNode(entry, options);
  };

  editor.insertBreak = () => {
    const caret = caretBlock(editor);
    if (caret && !editor.isVoid(caret.block) && Node.string(caret.block) === '' && (isListType(caret.block.type) || depthOf(caret.block) > 0)) {
      // An empty item: Enter ends the list here — one level up, or plain text at the top level.
      if (depthOf(caret.block) > 0) outdentBlock(editor, caret.index);
      else convertBlock(editor, [caret.index], 'textBlock' as BlockElementType);
      return;
    }
    const before = caretBlock(editor);
    insertBreak();
    const after = caretBlock(editor);
    if (!before || !after || after.index !== before.index + 1) return;
    const fresh = after.block as BlockElement & Record<string, unknown>;
    const enter = ENTER.get(before.block.type);
    if (enter === 'sameType') {
      // The new block of a split continues the list with the type's default fields: unchecked, counting on.
      const defaults = defaultFieldsOf(fresh.type);
      const stale = Object.keys(fresh).filter((key) => !ELEMENT_FIELDS.has(key) && !(key in defaults));
      const changed = Object.fromEntries(Object.entries(defaults).filter(([key, value]) => fresh[key] !== value));
      if (Object.keys(changed).length > 0) Transforms.setNodes<BlockElement>(editor, changed as Partial<BlockElement>, { at: [after.index] });
      if (stale.length > 0) Transforms.unsetNodes(editor, stale, { at: [after.index] });
      return;
    }
    if (enter === 'textInside') {
      // Writing on from a callout goes inside it: a paragraph one level down.
      convertBlock(editor, [after.index], 'textBlock' as BlockElementType);
      Transforms.setNodes<BlockElement>(editor, { depth: depthOf(before.block) + 1 }, { at: [after.index] });
      return;
    }
    if (enter === 'text' && fresh.type !== 'textBlock') convertBlock(editor, [after.index], 'textBlock' as BlockElementType);
  };

  editor.deleteBackward = (unit) => {
    const caret = caretBlock(editor);
    if (caret && Editor.isStart(editor, editor.selection!.anchor, [caret.index])) {
      if (TO_TEXT_ON_BACKSPACE.has(caret.block.type)) {
        convertBlock(editor, [caret.index], 'textBlock' as BlockElementType);
        return;
      }
      if (caret.block.type === 'textBlock' && depthOf(caret.block) > 0) {
        outdentBlock(editor, caret.index);
        return;
      }
    }
    deleteBackward(unit);
  };

  editor.handleKey = (event) => {
    if (event.key !== 'Tab' || event.ctrlKey || event.metaKey || event.altKey) return handleKey(event);
    const { selection } = editor;
    // A caret inside a table cell (deeper paths) belongs to the table's rules.
    if (!selection || selection.anchor.path.length !== 2 || selection.focus.path.length !== 2) return handleKey(event);
    const indexes = selectedBlockIndexes(editor);
    if (indexes.length === 0) return handleKey(event);
    // The selected blocks move together, and the subtree of the last one follows it.
    const first = indexes[0];
    const end = subtreeEnd(editor, indexes[indexes.length - 1]);
    if (event.shiftKey) {
      if (indexes.some((i) => depthOf(blockAt(editor, i)) === 0)) return true;
      shiftRange(editor, first, end, -1);
    } else {
      if (depthOf(blockAt(editor, first)) + 1 > maxDepthAt(editor, first)) return true;
      shiftRange(editor, first, end, 1);
    }
    return true;
  };

  return editor;
}
