import { useSyncExternalStore } from 'react';

/* Whether the trash dialog is open: one flag for the whole app, so any screen can open it. */
let open = false;
const listeners = new Set<() => void>();
const set = (value: boolean) => {
  open = value;
  listeners.forEach((listener) => listener());
};

/** Opens the trash dialog (the sidebar, the page menu, anything). */
export function openTrash(): void {
  set(true);
}

export function closeTrash(): void {
  set(false);
}

export function useTrashOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
    () => open,
  );
}
