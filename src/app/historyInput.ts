import { useEffect, useRef, type RefObject } from 'react';
import { reportError } from './report';

/** The undo and redo the app's histories do (the editor's, a data table's). */
export type HistoryAction = 'undo' | 'redo';

/** The browser's history input types the app supports (Input Events: the Edit menu, a phone's undo gesture). */
const SUPPORTED: Record<string, HistoryAction> = { historyUndo: 'undo', historyRedo: 'redo' };

/**
 * The undo or redo a `beforeinput` of this type asks for, or null. Our own keys (Ctrl/⌘+Z…) never
 * come here; the browser's history actions do: `historyUndo` and `historyRedo`. Any other
 * `history…` type is an action the app does not support: reported (`history`, spec §8), never
 * shown to the person, and answered null. Other input types (typing) are no history action.
 */
export function historyActionOf(inputType: string): HistoryAction | null {
  if (!inputType.startsWith('history')) return null;
  const action = SUPPORTED[inputType];
  if (!action) reportError('history', { message: `unsupported history action type «${inputType}»`, inputType });
  return action ?? null;
}

/**
 * For the editor's `onDOMBeforeInput` (slate-react does `historyUndo` and `historyRedo` itself):
 * an unsupported history action is reported and stopped — true, handled — so that neither Slate
 * nor the browser acts on it; anything else is left to Slate (false).
 */
export function stopUnsupportedHistory(event: InputEvent): boolean {
  if (!event.inputType.startsWith('history') || historyActionOf(event.inputType) !== null) return false;
  event.preventDefault();
  return true;
}

/**
 * A field that stands for a history of its own (a data table's keyboard target): the browser's
 * undo and redo of it do the history's instead of the field's own (which would undo nothing the
 * person sees); an unsupported history action is reported and does nothing.
 */
export function useHistoryInput(target: RefObject<HTMLElement | null>, actions: Record<HistoryAction, () => void>): void {
  // The latest actions (new functions each render) without listening again.
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const element = target.current;
    if (!element) return;
    const onBeforeInput = (event: Event) => {
      const { inputType } = event as InputEvent;
      if (typeof inputType !== 'string' || !inputType.startsWith('history')) return;
      event.preventDefault();
      const action = historyActionOf(inputType);
      if (action) latest.current[action]();
    };
    element.addEventListener('beforeinput', onBeforeInput);
    return () => element.removeEventListener('beforeinput', onBeforeInput);
  }, [target]);
}
