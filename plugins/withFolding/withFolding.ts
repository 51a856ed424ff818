import { Editor, Node, Range, Transforms, type Operation, type Point } from 'slate';
import { REGISTERED_BLOCKS } from '../../schema/blocks';
import { newId } from '../../schema/ids';
import { depthOf, type BlockElement, type BlockElementType } from '../../schema/slate';
import { blockAt } from '../queries';
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
 * closing over it moves it to the end of the toggle's text; a change that brings it into one opens
 * the toggles above it.
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
  return {
    isOpen: (uid) => opened.has(uid),
    setOpen: (uid, value) => {
      if (opened.has(uid) === value) return;
      if (value) opened.add(uid);
      else opened.delete(uid);
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Operations that cannot change which blocks are folded away (typing, the caret). */
const TEXT_ONLY = new Set<Operation['type']>(['insert_text', 'remove_text', 'set_selection']);

/**
 * Per editor: `version` counts changes of the page's shape, `folds` of the open toggles; `hidden`
 * is the set computed at those counts; `notified` the counts the listeners last heard.
 */
interface FoldingState {
  version: number;
  folds: number;
  hidden?: { version: number; folds: number; set: ReadonlySet<string> };
  notified: { version: number; folds: number };
  listeners: Set<() => void>;
}
const states = new WeakMap<Editor, FoldingState>();

function stateOf(editor: Editor): FoldingState {
  let state = states.get(editor);
  if (!state) {
    state = { version: 0, folds: 0, notified: { version: 0, folds: 0 }, listeners: new Set() };
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
  if (state.hidden && state.hidden.version === state.version && state.hidden.folds === state.folds) return state.hidden.set;
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
  state.hidden = { version: state.version, folds: state.folds, set };
  return set;
}

/** Calls `listener` when which blocks are folded away may have changed (the shape or the folds), not on typing. */
export function onFoldedAwayChange(editor: Editor & FoldingEditor, listener: () => void): () => void {
  const { listeners } = stateOf(editor);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The closed folding blocks that fold top-level block `index` away, nearest first (its parent,
 * its parent's parent, …: the blocks before it of a smaller depth). Empty when it is shown.
 */
function closedAbove(editor: Editor & FoldingEditor, index: number): number[] {
  const found: number[] = [];
  const at = editor.children[index] as BlockElement | undefined;
  let depth = at ? depthOf(at) : 0;
  for (let i = index - 1; i >= 0 && depth > 0; i--) {
    const block = editor.children[i] as BlockElement;
    if (depthOf(block) >= depth) continue;
    depth = depthOf(block);
    if (FOLDING_TYPES.has(block.type) && !editor.folds.isOpen(block.uid)) found.push(i);
  }
  return found;
}

/**
 * Opens every closed toggle that folds top-level block `index` away (a link or a search result
 * leading into one, a heading chosen in a table of contents, the caret brought into one).
 */
export function unfoldAround(editor: Editor & FoldingEditor, index: number): void {
  for (const at of closedAbove(editor, index)) editor.folds.setOpen((editor.children[at] as BlockElement).uid, true);
}

/** Whether the top-level block of `point` is folded away now. */
function pointFoldedAway(editor: Editor & FoldingEditor, point: Point): boolean {
  const block = editor.children[point.path[0]] as BlockElement | undefined;
  return block !== undefined && foldedAway(editor).has(block.uid);
}

/** The index of the caret's top-level block (outside tables), or -1. */
function caretIndex(editor: Editor): number {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection) || selection.anchor.path.length !== 2) return -1;
  return selection.anchor.path[0];
}

export function withFolding<E extends Editor & { handleKey(event: KeyPress): boolean }>(editor: E, folds: FoldState = memoryFolds()): E & FoldingEditor {
  const folding = editor as E & FoldingEditor;
  const foldsChanged = () => {
    stateOf(folding).folds += 1;
    // A toggle closed over the caret (or an edge of the selection): it goes to the end of the
    // toggle's text, which is shown — never left typing into blocks not drawn.
    const { selection } = folding;
    if (selection && (pointFoldedAway(folding, selection.anchor) || pointFoldedAway(folding, selection.focus))) {
      const out = (point: Point): Point => {
        if (!pointFoldedAway(folding, point)) return point;
        const shown = closedAbove(folding, point.path[0]).at(-1)!;
        return Editor.end(folding, [shown]);
      };
      Transforms.select(folding, { anchor: out(selection.anchor), focus: out(selection.focus) });
    }
    notify(folding);
  };
  let unsubscribe = folds.subscribe(foldsChanged);
  // The app may set its own state after building the editor: follow it.
  Object.defineProperty(folding, 'folds', {
    get: () => folds,
    set: (next: FoldState) => {
      unsubscribe();
      folds = next;
      unsubscribe = folds.subscribe(foldsChanged);
      foldsChanged();
    },
    configurable: true,
  });

  const { apply, onChange, insertBreak, handleKey } = folding;

  folding.apply = (op) => {
    if (!TEXT_ONLY.has(op.type)) stateOf(folding).version += 1;
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
    // The caret (or a selection edge) brought into a folded-away block — undo, a block moved under
    // a closed toggle, a program's selection: the toggles above it open, before anything is drawn.
    const { selection } = folding;
    if (selection) {
      for (const point of Range.isCollapsed(selection) ? [selection.anchor] : [selection.anchor, selection.focus]) {
        if (pointFoldedAway(folding, point)) unfoldAround(folding, point.path[0]);
      }
    }
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
