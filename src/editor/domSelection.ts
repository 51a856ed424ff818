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

/** Frames `placeNowOrAfterFrame` waits at most for slate-react to know the nodes' DOM (a loaded machine may take a few). */
const PLACE_FRAMES = 5;

/**
 * Runs `place` (which reads the DOM of editor nodes) now, or, when slate-react does not know the
 * nodes' DOM yet (texts just split or made: it registers them in effects that run after the
 * caller's), again after each of the next PLACE_FRAMES frames; `failed` if it still cannot.
 * Returns the cleanup of the frames (for a layout effect).
 */
export function placeNowOrAfterFrame(place: () => void, failed: () => void): (() => void) | undefined {
  try {
    place();
    return undefined;
  } catch {
    let frame = 0;
    const retry = (left: number) => {
      frame = requestAnimationFrame(() => {
        try {
          place();
        } catch {
          if (left > 1) retry(left - 1);
          else failed();
        }
      });
    };
    retry(PLACE_FRAMES);
    return () => cancelAnimationFrame(frame);
  }
}
