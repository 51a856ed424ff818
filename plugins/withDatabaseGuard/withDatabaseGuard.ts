import { Element, type Node } from 'slate';
import { HistoryEditor } from 'slate-history';
import type { DatabaseElement } from '../../schema/slate';
import type { WorkspaceEditor } from '../types';

/** Asks the person whether databases their edit removed may go (with their rows); true keeps the edit. */
export type ConfirmDatabaseRemoval = (databases: DatabaseElement[]) => Promise<boolean>;

function databasesIn(node: Node, found: DatabaseElement[]): void {
  if (!Element.isElement(node)) return;
  if (node.type === 'databaseBlock') found.push(node as DatabaseElement);
  for (const child of node.children) databasesIn(child, found);
}

/**
 * A database is not removed silently by an edit (select all + Backspace, cut, typing over a
 * selection, a drop): when a local edit — one that goes into the undo history — removed a
 * database block, the edit is taken back at once (one undo step, so nothing reaches the server
 * but a create that cancels the delete) and `confirm` asks; a yes redoes it. Remote changes and
 * undo/redo themselves are applied without saving and are not asked about. Deleting a database
 * on the server takes its rows to the trash with it, and an undo brings them back (docs/api/blocks.md).
 */
export function withDatabaseGuard<E extends WorkspaceEditor>(editor: E, confirm: ConfirmDatabaseRemoval): E {
  const { apply, onChange } = editor;
  let removed: DatabaseElement[] = [];
  /** How many undo steps stay when the edit is taken back: those before the first step holding a removal. */
  let keepSteps: number | null = null;
  editor.apply = (op) => {
    const history = HistoryEditor.isHistoryEditor(editor) && HistoryEditor.isSaving(editor) !== false ? editor.history : null;
    const found: DatabaseElement[] = [];
    if (op.type === 'remove_node' && history) databasesIn(op.node, found);
    const before = history?.undos.length ?? 0;
    apply(op);
    if (found.length === 0 || !history) return;
    removed.push(...found);
    // One edit may span several undo steps (a text change after a pause starts a new one,
    // withUndoWindow), and a removal may have joined the step before it.
    const step = history.undos.length > before ? before : before - 1;
    keepSteps = keepSteps === null ? step : Math.min(keepSteps, step);
  };
  let scheduled = false;
  let asking = false;
  const takeBack = () => {
    scheduled = false;
    if (removed.length === 0 || keepSteps === null || !HistoryEditor.isHistoryEditor(editor)) return;
    const databases = removed;
    const keep = keepSteps;
    removed = [];
    keepSteps = null;
    let undone = 0;
    while (editor.history.undos.length > keep) {
      editor.undo();
      undone++;
    }
    // A second removal while the question is open is taken back too, unasked (the open question decides).
    if (asking) return;
    asking = true;
    void confirm(databases).then(
      (yes) => {
        asking = false;
        if (!yes) return;
        for (let i = 0; i < undone; i++) editor.redo();
        // One edit, one undo step: Ctrl+Z brings the database back with the rest of it.
        const steps = editor.history.undos.splice(editor.history.undos.length - undone, undone);
        if (steps.length > 0) editor.history.undos.push({ operations: steps.flatMap((step) => step.operations), selectionBefore: steps[0].selectionBefore });
      },
      () => {
        asking = false;
      },
    );
  };
  editor.onChange = (options) => {
    onChange(options);
    // Taken back once the browser's handling of the key is over: a Backspace is seen as a key
    // and then as an input, and the second must meet the document the first left, not a
    // restored selection of everything.
    if (removed.length > 0 && !scheduled) {
      scheduled = true;
      setTimeout(takeBack, 0);
    }
  };
  return editor;
}
