import { useSyncExternalStore } from 'react';

/**
 * One app-wide on/off flag (a dialog or panel any screen may open: the trash, the inbox), with
 * a hook to follow it.
 */
export function createOpenFlag() {
  let open = false;
  const listeners = new Set<() => void>();
  const set = (value: boolean) => {
    if (open === value) return;
    open = value;
    listeners.forEach((listener) => listener());
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    open: () => set(true),
    close: () => set(false),
    toggle: () => set(!open),
    isOpen: () => open,
    useOpen: () =>
      useSyncExternalStore(
        subscribe,
        () => open,
        () => open,
      ),
  };
}
