import type { DropTarget } from './dragAndDrop';

/** What the tree's rows share: which are expanded (`section/page` keys), which page is being dragged and where it would land. */
export interface TreeState {
  readonly expanded: ReadonlySet<string>;
  readonly draggingId: string | null;
  readonly dropTarget: DropTarget | null;
}

/**
 * The tree's state, kept outside React: each row reads only what it shows (useIsExpanded,
 * useDropPosition… in TreeContext.ts), so a drag over the tree re-renders the row it leaves and
 * the row it enters, not every row.
 */
export function createTreeStore() {
  let state: TreeState = { expanded: new Set(), draggingId: null, dropTarget: null };
  const listeners = new Set<() => void>();
  const update = (next: Partial<TreeState>) => {
    state = { ...state, ...next };
    listeners.forEach((listener) => listener());
  };
  return {
    getState: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    setExpanded(key: string, open: boolean) {
      if (state.expanded.has(key) === open) return;
      const expanded = new Set(state.expanded);
      if (open) expanded.add(key);
      else expanded.delete(key);
      update({ expanded });
    },
    /** Opens every row of `keys`. */
    expand(keys: readonly string[]) {
      const closed = keys.filter((key) => !state.expanded.has(key));
      if (closed.length) update({ expanded: new Set([...state.expanded, ...closed]) });
    },
    startDrag(id: string) {
      if (state.draggingId !== id) update({ draggingId: id });
    },
    hover(target: DropTarget | null) {
      const current = state.dropTarget;
      if (current === target || (current && target && current.key === target.key && current.position === target.position)) return;
      update({ dropTarget: target });
    },
    endDrag() {
      if (state.draggingId !== null || state.dropTarget !== null) update({ draggingId: null, dropTarget: null });
    },
  };
}

export type TreeStore = ReturnType<typeof createTreeStore>;
