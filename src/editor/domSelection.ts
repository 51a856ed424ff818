import { Range, Transforms, type Editor } from 'slate';
import { ReactEditor } from 'slate-react';

/**
 * Slate learns of the browser's selection on 'selectionchange', throttled: a key pressed or a
 * toolbar button clicked right after Shift+arrows would act on the old selection (a mark applied
 * to all but the last letter selected). Key rules and the toolbar read the current one first.
 */
export function syncSelectionFromDom(editor: Editor): void {
  const domSelection = window.getSelection();
  if (!domSelection || domSelection.rangeCount === 0) return;
  const range = ReactEditor.toSlateRange(editor as ReactEditor, domSelection, { exactMatch: false, suppressThrow: true });
  if (range && !(editor.selection && Range.equals(range, editor.selection))) Transforms.select(editor, range);
}

/**
 * Runs `place` (which reads the DOM of editor nodes) now, or, when slate-react does not know the
 * nodes' DOM yet (texts just split or made: it registers them in effects that run after the
 * caller's), once more after the next frame; `failed` if it still cannot. Returns the cleanup of
 * the frame (for a layout effect).
 */
export function placeNowOrAfterFrame(place: () => void, failed: () => void): (() => void) | undefined {
  try {
    place();
    return undefined;
  } catch {
    const frame = requestAnimationFrame(() => {
      try {
        place();
      } catch {
        failed();
      }
    });
    return () => cancelAnimationFrame(frame);
  }
}
