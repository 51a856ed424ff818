import { createContext, useContext, useSyncExternalStore } from 'react';
import type { RootSection } from '../pages/pagesSlice';
import type { NewPageKind } from '../pageTypes/CreatePageMenu';
import type { DropPosition } from './dragAndDrop';
import type { TreeState, TreeStore } from './treeStore';

/** Where a dragged page is let go: beside or inside a row (`parent`: the row's parent page or section), or on a section's header. */
export type Drop = { id: string; parent: string; position: DropPosition; key: string } | { section: RootSection };

/** What the rows share: the tree's state and what they do. The same object for the sidebar's life (what changes is in `store`). */
export interface Tree {
  store: TreeStore;
  /** Whether the page being dragged may land relative to `targetId` (not itself, not below itself). */
  canDropOn(targetId: string): boolean;
  /** Whether the page being dragged may land among the children of `parent` (a page, or a section's roots: the private section's only for a page of one's own, or one there already). */
  mayLandIn(parent: string): boolean;
  drop(target: Drop): void;
  addChild(parentId: string, key: string, type?: NewPageKind): void;
}

export const TreeContext = createContext<Tree | null>(null);

export const useTree = () => {
  const tree = useContext(TreeContext);
  if (!tree) throw new Error('useTree outside the sidebar');
  return tree;
};

/** A value read from the tree's state: the component renders again when that value changes, and only then. */
function useTreeState<T>(select: (state: TreeState) => T): T {
  const { store } = useTree();
  const read = () => select(store.getState());
  return useSyncExternalStore(store.subscribe, read, read);
}

export const useIsExpanded = (key: string) => useTreeState((state) => state.expanded.has(key));
/** Where a drop on the row (or section header) of `key` would land; null when the pointer is elsewhere. */
export const useDropPosition = (key: string) => useTreeState((state) => (state.dropTarget?.key === key ? state.dropTarget.position : null));
export const useIsDragged = (id: string) => useTreeState((state) => state.draggingId === id);
export const useIsDragging = () => useTreeState((state) => state.draggingId !== null);
