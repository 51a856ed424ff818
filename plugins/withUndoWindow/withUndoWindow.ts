import type { Editor } from 'slate';
import { HistoryEditor } from 'slate-history';
import { UNDO_MERGE_WINDOW_MS } from '../../schema/constants';
import type { KeyRules } from '../types';

/**
 * Undo steps as the spec has them: consecutive single text changes merge into one step only
 * while they come within UNDO_MERGE_WINDOW_MS (300 ms) of each other; a pause starts a new
 * step. (slate-history keeps the last 100 steps, the spec's UNDO_HISTORY_LIMIT.)
 */
export function withUndoWindow<E extends Editor>(editor: E, now: () => number = () => Date.now()): E {
  const { apply } = editor;
  const keyed = editor as E & Partial<KeyRules>;
  const { handleKey } = keyed;
  if (handleKey) {
    // Ctrl/Cmd+Z undoes; Ctrl/Cmd+Shift+Z and Ctrl/Cmd+Y redo (also on a Russian layout: Я, Н).
    keyed.handleKey = (event) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && HistoryEditor.isHistoryEditor(editor)) {
        const key = event.key.toLowerCase();
        const z = key === 'z' || key === 'я';
        const y = key === 'y' || key === 'н';
        if (z && !event.shiftKey) {
          editor.undo();
          return true;
        }
        if ((z && event.shiftKey) || (y && !event.shiftKey)) {
          editor.redo();
          return true;
        }
      }
      return handleKey(event);
    };
  }
  let lastTextChange = -Infinity;
  editor.apply = (op) => {
    if ((op.type === 'insert_text' || op.type === 'remove_text') && HistoryEditor.isHistoryEditor(editor)) {
      const at = now();
      if (at - lastTextChange > UNDO_MERGE_WINDOW_MS && HistoryEditor.isSaving(editor) !== false) HistoryEditor.setSplittingOnce(editor, true);
      lastTextChange = at;
    }
    apply(op);
  };
  return editor;
}
