import { useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './toast.css';

export type ToastKind = 'info' | 'error';

/** A button in the toast (e.g. «Обновить»): it runs and the toast goes. */
export interface ToastAction {
  label: string;
  run(): void;
}

interface ToastItem {
  id: number;
  message: string;
  kind: ToastKind;
  action?: ToastAction;
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** Shows a short message at the bottom of the screen; it goes away by itself (after `durationMs`; Infinity: when clicked). */
export function showToast(message: string, kind: ToastKind = 'info', durationMs = kind === 'error' ? 5000 : 2500, action?: ToastAction): void {
  const id = nextId++;
  items = [...items.filter((item) => item.message !== message), { id, message, kind, action }].slice(-3);
  emit();
  if (Number.isFinite(durationMs)) setTimeout(() => dismissToast(id), durationMs);
}

export function dismissToast(id: number): void {
  const before = items.length;
  items = items.filter((item) => item.id !== id);
  if (items.length !== before) emit();
}

/** Clears every toast (tests, sign-out). */
export function dismissAllToasts(): void {
  items = [];
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where toasts appear; mounted once by the app. */
export function Toaster() {
  const list = useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
  const shown = (kind: ToastKind) =>
    list
      .filter((item) => item.kind === kind)
      .map((item) => (
        <div key={item.id} className={`toast toast-${item.kind}`} role={item.kind === 'error' ? 'alert' : 'status'} onClick={() => dismissToast(item.id)}>
          {item.message}
          {item.action && (
            <button
              type="button"
              className="toast-action"
              onClick={(event) => {
                event.stopPropagation();
                dismissToast(item.id);
                item.action?.run();
              }}
            >
              {item.action.label}
            </button>
          )}
        </div>
      ));
  // Two live regions, there from the start (a region made together with its message is often not
  // read): errors assertive, the rest polite. On the body beside the app, so a modal that makes
  // the app inert does not silence them (`data-live-region`: src/ui/modal.ts).
  return createPortal(
    <div className="toaster" data-live-region="">
      <Region live="assertive">{shown('error')}</Region>
      <Region live="polite">{shown('info')}</Region>
    </div>,
    document.body,
  );
}

function Region({ live, children }: { live: 'polite' | 'assertive'; children: ReactNode }) {
  return (
    <div className="toaster-region" aria-live={live} aria-atomic="false" aria-relevant="additions text">
      {children}
    </div>
  );
}
