import { mapOffset } from '../../schema/merge';
import { Editor, Element, Node, Path, Point as SlatePoint, Transforms, type Operation, type Point } from 'slate';
import { HistoryEditor } from 'slate-history';
import { positionInFlatList, toSlate, toWire, type WireBlock } from '../../schema/block';
import { slateToTitle } from '../../schema/blocks';
import type { BlockElement, PageHeadingElement } from '../../schema/slate';
import { blockAt } from '../queries';

export interface BlockSyncHandlers {
  /**
   * A block's content, type, existence or place in the tree may have changed; `reordered` when
   * it was moved among its siblings (its parent alone does not say so).
   */
  onBlockChanged(uid: string, change?: { reordered?: boolean }): void;
  /** The page heading changed. */
  onTitleChanged(title: string): void;
}

/** Top-level indexes an operation touches, read before (removals) and after it is applied. */
function touched(op: Operation): { before: number[]; after: number[] } {
  if (op.type === 'set_selection') return { before: [], after: [] };
  const index = op.path[0];
  if (index === undefined) return { before: [], after: [] };
  if (op.path.length > 1 || op.type === 'insert_text' || op.type === 'remove_text' || op.type === 'set_node') {
    return { before: [], after: [index] };
  }
  switch (op.type) {
    case 'insert_node':
      return { before: [], after: [index] };
    case 'remove_node':
      return { before: [index], after: [] };
    case 'split_node':
      return { before: [], after: [index, index + 1] };
    case 'merge_node':
      return { before: [index], after: [index - 1] };
    case 'move_node':
      return { before: [], after: [op.newPath[0]] };
    default:
      return { before: [], after: [] };
  }
}

const depthAt = (editor: Editor, index: number): number => blockAt(editor, index)?.depth ?? 0;

/**
 * A structural change at the top level (a block in, out, split, merged, moved, or its depth
 * changed) can give a new parent to the blocks after it, up to the first block at or above
 * `depth` (docs/adr/0005-flat-blocks.md): those are reported so the queue compares their parent
 * with the server's.
 */
function structuralRegion(op: Operation, editor: Editor): { start: number; depth: number } | null {
  if (!('path' in op) || op.path.length !== 1) return null;
  const index = op.path[0];
  switch (op.type) {
    case 'insert_node':
    case 'split_node':
      return { start: index + 1, depth: depthAt(editor, index) };
    case 'remove_node':
      return { start: index, depth: (op.node as { depth?: number }).depth ?? 0 };
    case 'merge_node':
      return { start: index, depth: depthAt(editor, index - 1) };
    case 'set_node': {
      if (!('depth' in op.newProperties) && !('depth' in op.properties)) return null;
      const old = (op.properties as { depth?: number }).depth ?? 0;
      const next = (op.newProperties as { depth?: number }).depth ?? 0;
      return { start: index, depth: Math.min(old, next) };
    }
    default:
      return null;
  }
}

/**
 * Watches every Slate operation and reports which blocks changed, so the sync queue can send
 * them; page-heading changes are reported as title changes.
 */
/** Operations of someone else's change being applied (not reported to the queue, not undoable). */
const remoteOperations = new WeakMap<Editor, Operation[]>();

export function withBlockSync<E extends Editor>(editor: E, handlers: BlockSyncHandlers): E {
  const { apply } = editor;
  /** Blocks moved in the current batch of operations (a block moves with its subtree, one node at a time). */
  const movedNow = new Set<string>();

  /**
   * A top-level move: the moved block changed its order — unless it landed right after a block
   * moved in the same batch (a child following its parent, or the next block of a moved range:
   * the server keeps those in order when it moves the first one). The blocks that now follow the
   * old and the new place may have a new parent.
   */
  const reportMove = (from: number, to: number) => {
    const moved = blockAt(editor, to);
    if (!moved || moved.type === 'pageHeadingBlock') return;
    if (movedNow.size === 0) queueMicrotask(() => movedNow.clear());
    const before = blockAt(editor, to - 1);
    const followsMoved = !!before && movedNow.has(before.uid);
    movedNow.add(moved.uid);
    handlers.onBlockChanged(moved.uid, followsMoved ? undefined : { reordered: true });
    for (const index of [from, to + 1]) {
      const next = blockAt(editor, index);
      if (next && next.type !== 'pageHeadingBlock' && !movedNow.has(next.uid)) handlers.onBlockChanged(next.uid);
    }
  };

  editor.apply = (op) => {
    const remote = remoteOperations.get(editor);
    if (remote) {
      remote.push(op);
      apply(op);
      return;
    }
    const { before, after } = touched(op);
    const removed = before.map((i) => blockAt(editor, i)?.uid).filter((uid): uid is string => !!uid);
    apply(op);
    const region = structuralRegion(op, editor);
    if (region) {
      // The block at the start itself (for a depth change) and every block of its subtree region.
      for (let i = region.start; i < editor.children.length; i++) {
        const block = blockAt(editor, i);
        if (!block || block.type === 'pageHeadingBlock') continue;
        if (i > region.start && (block.depth ?? 0) <= region.depth) break;
        handlers.onBlockChanged(block.uid);
      }
    }
    if (op.type === 'move_node' && op.path.length === 1 && op.newPath.length === 1) reportMove(op.path[0], op.newPath[0]);
    let titleChanged = false;
    for (const uid of removed) handlers.onBlockChanged(uid);
    for (const index of after) {
      const block = blockAt(editor, index);
      if (!block) continue;
      if (block.type === 'pageHeadingBlock') titleChanged = true;
      else handlers.onBlockChanged(block.uid);
    }
    if (titleChanged) handlers.onTitleChanged(slateToTitle(blockAt(editor, 0) as PageHeadingElement));
  };

  return editor;
}

/** A block as it is in the editor now, on the wire, with its parent and previous sibling from the depths. */
export function readBlock(editor: Editor, pageId: string, uid: string): WireBlock | null {
  const index = editor.children.findIndex((n) => Element.isElement(n) && n.uid === uid);
  const element = blockAt(editor, index);
  if (!element || element.type === 'pageHeadingBlock') return null;
  const position = positionInFlatList(editor.children as BlockElement[], index, (e) => e.type !== 'pageHeadingBlock');
  return toWire(element, { pageId, ...position });
}

/**
 * A block whose edit the server refused for good goes back to what the server has (`copy`), or
 * away when the server never had it. Unlike a server copy this is an ordinary, undoable change:
 * Ctrl+Z brings the refused text back, to copy it elsewhere (docs/sync.md: nothing is lost
 * silently). The caret stays by its text. A copy with its place (`parentId`, `placeAfter`: a
 * refused move or delete) also puts the block back there, with the blocks nested under it here,
 * or back into the page if it was deleted here.
 */
export function revertRefusedBlock(editor: Editor, uid: string, copy: Pick<WireBlock, 'type' | 'data'> | WireBlock | null): void {
  const index = editor.children.findIndex((n) => Element.isElement(n) && n.uid === uid);
  const current = blockAt(editor, index);
  if (current?.type === 'pageHeadingBlock') return;
  if (copy && 'parentId' in copy) {
    putBack(editor, index, copy);
    return;
  }
  if (!current) return;
  if (!copy) Transforms.removeNodes(editor, { at: [index] });
  else
    replaceBlockAt(editor, index, {
      id: uid,
      contentType: 'Block',
      pageId: '',
      parentId: null,
      placeAfter: null,
      version: current.version,
      ...copy,
    } as WireBlock);
}

/**
 * Where a block under `parentId`, right after `placeAfter`, goes in the flat list: after the
 * subtree of the block it follows, or first under its parent, or first on the page. Null when
 * neither is in the editor.
 */
function flatPlace(editor: Editor, parentId: string | null, placeAfter: string | null): { index: number; depth: number } | null {
  const indexOf = (id: string) => editor.children.findIndex((n) => Element.isElement(n) && n.uid === id);
  if (placeAfter) {
    const after = indexOf(placeAfter);
    if (after >= 0) {
      const depth = depthAt(editor, after);
      let index = after + 1;
      while (index < editor.children.length && depthAt(editor, index) > depth) index++;
      return { index, depth };
    }
  }
  if (parentId) {
    const parent = indexOf(parentId);
    return parent >= 0 ? { index: parent + 1, depth: depthAt(editor, parent) + 1 } : null;
  }
  return placeAfter ? null : { index: blockAt(editor, 0)?.type === 'pageHeadingBlock' ? 1 : 0, depth: 0 };
}

/**
 * Puts the server's copy of a block at the server's place, with the blocks nested under it here
 * (at the same depth below it), in one undoable change. A block not in the editor comes back.
 */
function putBack(editor: Editor, index: number, copy: WireBlock): void {
  const subtree: BlockElement[] = [];
  if (index >= 0) {
    const depth = depthAt(editor, index);
    for (let i = index; i < editor.children.length && (i === index || depthAt(editor, i) > depth); i++) subtree.push(editor.children[i] as BlockElement);
  }
  Editor.withoutNormalizing(editor, () => {
    for (let i = subtree.length - 1; i >= 0; i--) editor.apply({ type: 'remove_node', path: [index + i], node: subtree[i] });
    const place = flatPlace(editor, copy.parentId, copy.placeAfter) ?? (index >= 0 ? { index, depth: subtree[0].depth ?? 0 } : null);
    if (!place) return;
    const shift = place.depth - (subtree[0]?.depth ?? 0);
    const nodes = [
      { ...toSlate(copy), ...(place.depth > 0 ? { depth: place.depth } : {}) } as BlockElement,
      ...subtree.slice(1).map((node) => ({ ...node, depth: (node.depth ?? 0) + shift })),
    ];
    nodes.forEach((node, i) => {
      if (!node.depth) delete node.depth;
      editor.apply({ type: 'insert_node', path: [place.index + i], node });
    });
  });
}

/** The point at a character offset inside a top-level block (clamped to its end). */
function pointAtOffset(editor: Editor, index: number, offset: number): Point {
  let remaining = offset;
  for (const [text, path] of Node.texts(editor, { from: [index], to: [index] })) {
    if (path[0] !== index) continue;
    if (remaining <= text.text.length) return { path, offset: remaining };
    remaining -= text.text.length;
  }
  return Editor.end(editor, [index]);
}

/**
 * Puts the server's copy of a block in place of the local one, outside the undo history.
 * A caret inside the block stays by the same text.
 */
export function replaceWithServerCopy(editor: Editor, block: WireBlock): void {
  const index = editor.children.findIndex((n) => Element.isElement(n) && n.uid === block.id);
  if (index < 0) return;
  HistoryEditor.withoutSaving(editor as HistoryEditor, () => replaceBlockAt(editor, index, block));
}

/**
 * Replaces the element at `index` with `block` (the wire says nothing about depth: the element
 * keeps its place in the flat list); a caret inside stays by the same text, mapped through what
 * changed around it.
 */
function replaceBlockAt(editor: Editor, index: number, block: WireBlock): void {
  const { selection } = editor;
  // Both ends of a selection inside the block stay by their text (a caret is a selection of one point).
  const offsetOf = (point: Point) => (point.path[0] === index ? Editor.string(editor, { anchor: Editor.start(editor, [index]), focus: point }).length : null);
  const anchor = selection ? offsetOf(selection.anchor) : null;
  const focus = selection ? offsetOf(selection.focus) : null;
  const current = editor.children[index] as BlockElement;
  const replacement: BlockElement = current.depth ? { ...toSlate(block), depth: current.depth } : toSlate(block);
  // A void block of the same type changes in place (set_node): its view is not mounted again, so
  // what it holds (a database's loaded rows, an open menu) survives someone's change of its data.
  if (current.type === replacement.type && editor.isVoid(current)) {
    const before = current as unknown as Record<string, unknown>;
    const after = replacement as unknown as Record<string, unknown>;
    const properties: Record<string, unknown> = {};
    const newProperties: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (key === 'children' || JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
      properties[key] = before[key];
      newProperties[key] = after[key];
    }
    if (Object.keys(newProperties).length > 0) editor.apply({ type: 'set_node', path: [index], properties, newProperties });
    return;
  }
  Editor.withoutNormalizing(editor, () => {
    editor.apply({ type: 'remove_node', path: [index], node: current });
    editor.apply({ type: 'insert_node', path: [index], node: replacement });
  });
  if (!selection || (anchor === null && focus === null)) return;
  const before = Node.string(current);
  const after = Node.string(replacement);
  const mapped = (offset: number | null, original: Point): Point =>
    offset === null
      ? editor.selection
        ? original === selection.anchor
          ? editor.selection.anchor
          : editor.selection.focus
        : original
      : pointAtOffset(editor, index, mapOffset(before, after, offset));
  Transforms.select(editor, { anchor: mapped(anchor, selection.anchor), focus: mapped(focus, selection.focus) });
}

/**
 * Runs `change` as someone else's change: outside the undo history, not reported to the sync
 * queue, and the undo history is kept valid — its operations are moved along with blocks
 * inserted or removed above them; an undo step inside a block that was replaced (and every
 * older step) is dropped, since its offsets no longer fit the new text; redo is cleared.
 */
/**
 * Whether the editor is applying someone else's change now. A plugin that would fix the page's
 * shape (withColumns) leaves such a change alone: its author's editor sends the whole of it, and a
 * state between two of its blocks (a column made, its block not moved in yet) is not to be fixed
 * here — the fix would never reach the server, and this editor would differ from it.
 */
export function isApplyingRemote(editor: Editor): boolean {
  return remoteOperations.has(editor);
}

function asRemoteChange(editor: Editor, change: () => void): void {
  const ops: Operation[] = [];
  remoteOperations.set(editor, ops);
  try {
    if (HistoryEditor.isHistoryEditor(editor)) HistoryEditor.withoutSaving(editor, change);
    else change();
  } finally {
    remoteOperations.delete(editor);
  }
  if (ops.length > 0 && HistoryEditor.isHistoryEditor(editor)) rebaseHistory(editor, ops);
}

function transformOp(op: Operation, through: readonly Operation[]): Operation | null {
  const paths = (candidate: Path): Path | null => {
    let path: Path | null = candidate;
    for (const remote of through) {
      if (!path) return null;
      path = Path.transform(path, remote);
    }
    return path;
  };
  if (op.type === 'set_selection') return op;
  if (op.type === 'split_node' && op.path.length === 1) {
    // Undone by merging the two halves: only while nothing came between them.
    const first = paths(op.path);
    const second = paths(Path.next(op.path));
    return first && second && Path.equals(Path.next(first), second) ? { ...op, path: first } : null;
  }
  if (op.type === 'merge_node' && op.path.length === 1) {
    // Undone by splitting the block it merged into: that block's place decides where.
    const into = paths(Path.previous(op.path));
    return into ? { ...op, path: Path.next(into) } : null;
  }
  const path = paths(op.path);
  if (!path) return null;
  if (op.type === 'move_node') {
    const newPath = paths(op.newPath);
    return newPath ? { ...op, path, newPath } : null;
  }
  return { ...op, path } as Operation;
}

function rebaseHistory(editor: HistoryEditor, remote: readonly Operation[]): void {
  const { undos } = editor.history;
  const kept: typeof undos = [];
  // Newest first: once a step cannot be moved along, it and everything older go.
  for (let i = undos.length - 1; i >= 0; i--) {
    const batch = undos[i];
    const operations = batch.operations.map((op) => transformOp(op, remote));
    if (operations.some((op) => op === null)) break;
    let selectionBefore = batch.selectionBefore;
    if (selectionBefore) {
      const anchor = remote.reduce<Point | null>((p, op) => (p ? SlatePoint.transform(p, op) : null), selectionBefore.anchor);
      const focus = remote.reduce<Point | null>((p, op) => (p ? SlatePoint.transform(p, op) : null), selectionBefore.focus);
      selectionBefore = anchor && focus ? { anchor, focus } : null;
    }
    kept.unshift({ ...batch, operations: operations as Operation[], selectionBefore });
  }
  editor.history.undos = kept;
  editor.history.redos = [];
}

/**
 * Someone else's version of a block (realtime): the block gets this content and, when the
 * server's place (`parentId`, `placeAfter`) differs from where it is here, moves there with the
 * blocks nested under it here; a block the editor does not have is inserted at that place (or
 * at the end of the page when the block it follows is not here yet). The local caret stays by
 * its text; nothing is sent back.
 */
export function applyRemoteBlock(editor: Editor, block: WireBlock): void {
  asRemoteChange(editor, () => {
    const index = editor.children.findIndex((n) => Element.isElement(n) && n.uid === block.id);
    if (index >= 0) {
      const position = positionInFlatList(editor.children as BlockElement[], index, (e) => e.type !== 'pageHeadingBlock');
      if (position.parentId === block.parentId && position.placeAfter === block.placeAfter) {
        if (
          JSON.stringify(toWire(editor.children[index] as BlockElement, { pageId: block.pageId, ...position }).data) !== JSON.stringify(block.data) ||
          blockAt(editor, index)?.type !== toSlate(block).type
        ) {
          replaceBlockAt(editor, index, block);
        }
        return;
      }
    }
    const place = flatPlace(editor, block.parentId, block.placeAfter);
    if (index >= 0 || place) {
      putBack(editor, index, block);
      return;
    }
    // The block it follows has not arrived yet: at the end for now; its own event or the history puts it right.
    Transforms.insertNodes(editor, toSlate(block), { at: [editor.children.length], select: false });
  });
}

/** Blocks someone else deleted leave the editor (the caret, if inside, goes to a neighbour). */
export function removeRemoteBlocks(editor: Editor, uids: readonly string[]): void {
  const gone = new Set(uids);
  asRemoteChange(editor, () => {
    Editor.withoutNormalizing(editor, () => {
      for (let i = editor.children.length - 1; i >= 0; i--) {
        const node = editor.children[i];
        if (Element.isElement(node) && typeof node.uid === 'string' && gone.has(node.uid) && node.type !== 'pageHeadingBlock')
          Transforms.removeNodes(editor, { at: [i] });
      }
    });
  });
}

/**
 * Someone else renamed the page: the title line shows the new title (outside the undo history,
 * not sent back); a caret in it stays by its text.
 */
export function applyRemoteTitle(editor: Editor, title: string): void {
  const heading = editor.children[0] as PageHeadingElement | undefined;
  if (heading?.type !== 'pageHeadingBlock' || slateToTitle(heading) === title) return;
  const { selection } = editor;
  const caret =
    selection && selection.anchor.path[0] === 0 && selection.focus.path[0] === 0
      ? Editor.string(editor, { anchor: Editor.start(editor, [0]), focus: selection.anchor }).length
      : null;
  const before = Node.string(heading);
  asRemoteChange(editor, () => {
    Editor.withoutNormalizing(editor, () => {
      editor.apply({ type: 'remove_node', path: [0], node: heading });
      editor.apply({ type: 'insert_node', path: [0], node: { ...heading, children: [{ text: title }] } as PageHeadingElement });
    });
    if (caret !== null) Transforms.select(editor, pointAtOffset(editor, 0, mapOffset(before, title, caret)));
  });
}
