import { createContext, useContext } from 'react';
import type { NewPageKind } from '../pageTypes/CreatePageMenu';
import type { DropPosition, DropTarget } from './dragAndDrop';
import type { RootSection } from './rootSections';

/** Where a dragged page is let go: beside or inside a row (`parent`: the row's parent page or section), or on a section's header. */
export type Drop = { id: string; parent: string; position: DropPosition; key: string } | { section: RootSection };

/** Tree state shared by the rows: what is expanded, what is being dragged and where it would land. */
export interface TreeApi {
  isExpanded(key: string): boolean;
  setExpanded(key: string, expanded: boolean): void;
  draggingId: string | null;
  dropTarget: DropTarget | null;
  startDrag(id: string): void;
  endDrag(): void;
  /** Whether the page being dragged may land relative to `targetId` (not itself, not below itself). */
  canDropOn(targetId: string): boolean;
  hover(target: DropTarget | null): void;
  drop(target: Drop): void;
  addChild(parentId: string, key: string, type?: NewPageKind): void;
}

export const TreeContext = createContext<TreeApi | null>(null);

export const useTree = () => {
  const tree = useContext(TreeContext);
  if (!tree) throw new Error('useTree outside the sidebar');
  return tree;
};
