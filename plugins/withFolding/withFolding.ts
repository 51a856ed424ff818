import { Editor, Node, Point, Range, Transforms, type Operation } from 'slate';
import { REGISTERED_BLOCKS } from '../../schema/blocks';
import { newId } from '../../schema/ids';
import { depthOf, type BlockElement, type BlockElementType } from '../../schema/slate';
import { blockAt, parentIndex } from '../queries';
import type { FoldingEditor, FoldState, KeyPress } from '../types';

export type { FoldingEditor, FoldState };
import { convertBlock } from '../withMarkdownShortcuts/withMarkdownShortcuts';
import { subtreeEnd } from '../withStructure';

/*
 * Folding (issue 39, toggles): the blocks nested under a block of a type that `folds` (its
 * definition's flag: the toggles) are shown or folded away by its triangle. Whether it is open
 * is each reader's own: the editor asks `editor.folds` (the web app's is kept by the server per
 * person, src/editor/folding.ts; headless, a set in memory), closed by default. Nothing of it is
 * in the document: search, export, copy and history see the folded blocks as any others.
 *
 * The caret is never in a folded-away block (the web app draws those without their text): a toggle
 * closing over it moves it to the end of the toggle's text; a change of the document that brings
 * it into one opens the toggles above it; a move of the caret alone goes on past the fold.
 *
 * Keys: Ctrl+Enter (⌘+Enter) in a folding block opens or closes it. Enter at the start of its
 * text puts an empty one above it. Enter in an open one writes on inside it (a text block one level down, its first child); in a closed one, after everything
 * folded under it (another of its type at its level); in an empty one without children, it
 * becomes text (as an empty list item does). A block made into a folding type here opens, so
 * what is written under it shows.
 */

/** The Slate types of blocks that fold what is nested under them. */
export const FOLDING_TYPES: ReadonlySet<string> = new Set(REGISTERED_BLOCKS.filter((d) => d.folds).map((d) => d.slateType));

export const isFolding = (element: { type: string } | undefined): boolean => element !== undefined && FOLDING_TYPES.has(element.type);

/** A fold state in memory (headless editors, tests; the web app sets its own). */
export function memoryFolds(open: Iterable<string> = []): FoldState {
  const opened = new Set(open);
  const listeners = new Set<() => void>();
  let version = 0;
  return {
    isOpen: (uid) => opened.has(uid),
    setOpen: (uid, value) => {
      if (opened.has(uid) === value) return;
      if (value) opened.add(uid);
      else opened.delete(uid);
      version += 1;
      for (const listener of [...listeners]) listener();
    },
    version: () => version,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Operations that cannot change which blocks are folded away (typing, the caret). */
const TEXT_ONLY = new Set<Operation['type']>(['insert_text', 'remove_text', 'set_selection']);

/**
 * Per editor: `version` counts changes of the page's shape, `folds` the opening and closing of
 * toggles heard while `following` the fold state; `hidden` is the set computed at a shape and a
 * fold state's version (kept whether or not followed); `notified` the counts the listeners last
 * heard; `unfolding`: toggles being opened by `unfoldAround`.
 */
interface FoldingState {
  version: number;
  folds: number;
  hidden?: { version: number; folds: FoldState; foldsVersion: number; set: ReadonlySet<string> };
  notified: { version: number; folds: number };
  listeners: Set<() => void>;
  /**
   * Whether the editor hears the fold state (subscribed to it): only while something listens to
   * it (its drawn blocks), so an editor no longer drawn — a page left, the server's drawing of a
   * page's top — is not kept alive by the app's fold state, which outlives it.
   */
  following: boolean;
  follow?: () => void;
  unfollow?: () => void;
  unfolding: boolean;
}
const states = new WeakMap<Editor, FoldingState>();

function stateOf(editor: Editor): FoldingState {
  let state = states.get(editor);
  if (!state) {
    state = { version: 0, folds: 0, notified: { version: 0, folds: 0 }, listeners: new Set(), following: false, unfolding: false };
    states.set(editor, state);
  }
  return state;
}

/** Tells the listeners once per change of the shape or the folds (a keystroke of typing tells nobody). */
function notify(editor: Editor): void {
  const state = stateOf(editor);
  if (state.notified.version === state.version && state.notified.folds === state.folds) return;
  state.notified = { version: state.version, folds: state.folds };
  for (const listener of [...state.listeners]) listener();
}

/**
 * The uids of the blocks folded away now: every block nested (at any depth) under a closed
 * folding block that is itself shown or folded. Computed once per change of the document's
 * shape or of the folds (not per keystroke of typing), in one pass over the top-level blocks.
 */
export function foldedAway(editor: Editor & FoldingEditor): ReadonlySet<string> {
  const state = stateOf(editor);
  const { folds } = editor;
  const hidden = state.hidden;
  if (hidden && hidden.version === state.version && hidden.folds === folds && hidden.foldsVersion === folds.version()) return hidden.set;
  const set = new Set<string>();
  let foldedAt = -1;
  for (const node of editor.children) {
    const block = node as BlockElement;
    const depth = depthOf(block);
    if (foldedAt >= 0 && depth > foldedAt) {
      set.add(block.uid);
      continue;
    }
    foldedAt = FOLDING_TYPES.has(block.type) && !editor.folds.isOpen(block.uid) ? depth : -1;
  }
  state.hidden = { version: state.version, folds, foldsVersion: folds.version(), set };
  return set;
}

/**
 * Calls `listener` when which blocks are folded away may have changed (the shape or the folds),
 * not on typing. The editor follows the fold state while it has a listener.
 */
export function onFoldedAwayChange(editor: Editor & FoldingEditor, listener: () => void): () => void {
  const state = stateOf(editor);
  state.listeners.add(listener);
  if (state.listeners.size === 1) state.follow?.();
  return () => {
    if (!state.listeners.delete(listener)) return;
    if (state.listeners.size === 0) state.unfollow?.();
  };
}

/** Counts the opening and closing of toggles this editor has heard (a cache of what depends on them: lazyChunks' placeholders). */
export const foldChanges = (editor: Editor): number => stateOf(editor).folds;

/**
 * The closed folding blocks that fold top-level block `index` away, nearest first (its parent,
 * its parent's parent, …: the blocks before it of a smaller depth). Empty when it is shown.
 */
function closedAbove(editor: Editor & FoldingEditor, index: number): number[] {
  const found: number[] = [];
  for (let i = parentIndex(editor, index); i >= 0; i = parentIndex(editor, i)) {
    const block = editor.children[i] as BlockElement;
    if (FOLDING_TYPES.has(block.type) && !editor.folds.isOpen(block.uid)) found.push(i);
  }
  return found;
}

/**
 * Opens every closed toggle that folds top-level block `index` away (a link or a search result
 * leading into one, a heading chosen in a table of contents, the caret brought into one).
 */
export function unfoldAround(editor: Editor & FoldingEditor, index: number): void {
  const state = stateOf(editor);
  // Opened one by one: the caret under the others stays where it is meanwhile (not moved out as by a close).
  state.unfolding = true;
  try {
    for (const at of closedAbove(editor, index)) editor.folds.setOpen((editor.children[at] as BlockElement).uid, true);
  } finally {
    state.unfolding = false;
  }
}

/** Whether the top-level block of `point` is folded away now. */
function pointFoldedAway(editor: Editor & FoldingEditor, point: Point): boolean {
  const block = editor.children[point.path[0]] as BlockElement | undefined;
  return block !== undefined && foldedAway(editor).has(block.uid);
}

/**
 * Where a caret folded away goes instead: back, to the end of the text of the shown toggle that
 * folds it; forward, to the start of the first block shown after that toggle's blocks (at the
 * page's end: back).
 */
function outOfFold(editor: Editor & FoldingEditor, point: Point, forward: boolean): Point {
  const shown = closedAbove(editor, point.path[0]).at(-1)!;
  const after = subtreeEnd(editor, shown);
  return forward && after < editor.children.length ? Editor.start(editor, [after]) : Editor.end(editor, [shown]);
}

/** The index of the caret's top-level block (outside tables), or -1. */
function caretIndex(editor: Editor): number {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection) || selection.anchor.path.length !== 2) return -1;
  return selection.anchor.path[0];
}

export function withFolding<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E, folds: FoldState = memoryFolds()): E & FoldingEditor {
  const folding = editor as E & FoldingEditor;
  const state = stateOf(folding);
  const foldsChanged = () => {
    state.folds += 1;
    // A toggle closed over the caret: it goes to the end of the toggle's text, which is shown —
    // never left typing into blocks not drawn. (A selection's edge may stay: its block is drawn
    // whole, hidden, so copying a closed toggle with what it folds works as before.)
    const { selection } = folding;
    if (!state.unfolding && selection && Range.isCollapsed(selection) && pointFoldedAway(folding, selection.anchor)) {
      Transforms.select(folding, outOfFold(folding, selection.anchor, false));
    }
    notify(folding);
  };
  let unsubscribe: (() => void) | null = null;
  state.follow = () => {
    if (unsubscribe) return;
    unsubscribe = folds.subscribe(foldsChanged);
    state.following = true;
    // Toggles may have opened or closed unheard: what depends on them is read again.
    state.folds += 1;
  };
  state.unfollow = () => {
    unsubscribe?.();
    unsubscribe = null;
    state.following = false;
  };
  if (state.listeners.size > 0) state.follow();
  // The app may set its own state after building the editor: follow that one.
  Object.defineProperty(folding, 'folds', {
    get: () => folds,
    set: (next: FoldState) => {
      const following = state.following;
      state.unfollow?.();
      folds = next;
      if (following) state.follow?.();
      foldsChanged();
    },
    configurable: true,
  });

  const { apply, onChange, insertBreak, handleKey } = folding;

  /** The selection at the last change, and whether the document (not only the selection) changed since. */
  let selectionBefore: Range | null = folding.selection;
  let documentChanged = false;
  folding.apply = (op) => {
    if (!TEXT_ONLY.has(op.type)) state.version += 1;
    if (op.type !== 'set_selection') documentChanged = true;
    // Made into a folding type here (a shortcut, the slash menu, «Превратить в»): it opens.
    if (op.type === 'set_node' && op.path.length === 1) {
      const type = (op.newProperties as Partial<BlockElement>).type;
      if (type && FOLDING_TYPES.has(type)) {
        const node = Node.get(folding, op.path) as BlockElement;
        apply(op);
        folds.setOpen(node.uid, true, true);
        return;
      }
    }
    apply(op);
  };

  folding.onChange = (options) => {
    // The caret in a folded-away block, before anything is drawn: brought there by a change of the
    // document (undo, Tab under a closed toggle, another writer moving its block), the toggles
    // above it open; by a move of the caret alone (an arrow key, Ctrl+End, a click below the
    // last block), it goes on past the fold in the way it was going.
    const { selection } = folding;
    if (selection && Range.isCollapsed(selection) && pointFoldedAway(folding, selection.anchor)) {
      if (documentChanged) unfoldAround(folding, selection.anchor.path[0]);
      else {
        const forward = selectionBefore !== null && Point.isAfter(selection.anchor, Range.start(selectionBefore));
        Transforms.select(folding, outOfFold(folding, selection.anchor, forward));
      }
    }
    selectionBefore = folding.selection;
    documentChanged = false;
    onChange(options);
    notify(folding);
  };

  folding.handleKey = (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      const index = caretIndex(folding);
      const block = blockAt(folding, index);
      if (block && FOLDING_TYPES.has(block.type)) {
        folds.setOpen(block.uid, !folds.isOpen(block.uid));
        return true;
      }
    }
    return handleKey(event);
  };

  folding.insertBreak = () => {
    const index = caretIndex(folding);
    const block = blockAt(folding, index);
    if (!block || !FOLDING_TYPES.has(block.type)) return insertBreak();
    const end = subtreeEnd(folding, index);
    const hasChildren = end > index + 1;
    if (!hasChildren && Node.string(block) === '') {
      // An empty toggle with nothing under it: Enter makes it text, as in an empty list item.
      convertBlock(folding, [index], 'textBlock' as BlockElementType);
      return;
    }
    const { selection } = folding;
    if (selection && Node.string(block) !== '' && Editor.isStart(folding, selection.anchor, [index])) {
      // At the start of its text: an empty one goes above it; it keeps its text and what is under it.
      Transforms.insertNodes(
        folding,
        { type: block.type, uid: newId(), version: 1, ...(block.depth ? { depth: block.depth } : {}), children: [{ text: '' }] } as BlockElement,
        { at: [index] },
      );
      return;
    }
    const open = folds.isOpen(block.uid);
    Editor.withoutNormalizing(folding, () => {
      insertBreak();
      const fresh = index + 1;
      if (caretIndex(folding) !== fresh) return;
      if (open) {
        // Open: writing on goes inside it, as its first child.
        convertBlock(folding, [fresh], 'textBlock' as BlockElementType);
        Transforms.setNodes<BlockElement>(folding, { depth: depthOf(block) + 1 }, { at: [fresh] });
      } else if (hasChildren) {
        // Closed: the new one goes after what is folded under it (which stays under the first).
        Transforms.moveNodes(folding, { at: [fresh], to: [end] });
      }
    });
  };

  return folding;
}
