import type { DragEvent } from 'react';

/* Moving pages in the tree by native HTML5 drag and drop: where a page would land. */

export const DRAG_TYPE = 'application/x-page-id';

export type DropPosition = 'before' | 'inside' | 'after';

/** Where the dragged page would land: beside or inside the row of `key` (`section/page`), or in a section (`section/{id}`). */
export interface DropTarget {
  key: string;
  position: DropPosition;
}

/** The drop's place from the pointer's height in the row: its top and bottom quarter are beside it (halves, where nothing may go inside). */
export function dropPositionFor(event: DragEvent<HTMLElement>, allowInside: boolean): DropPosition {
  const rect = event.currentTarget.getBoundingClientRect();
  const y = (event.clientY - rect.top) / (rect.height || 1);
  if (!allowInside) return y < 0.5 ? 'before' : 'after';
  if (y < 0.25) return 'before';
  if (y > 0.75) return 'after';
  return 'inside';
}

/** Whether page `draggingId` may land by the page `targetId` (whose ancestors are `targetPath`): not itself, not below itself. */
export function mayDropOn(draggingId: string | null, targetId: string, targetPath: readonly string[]): boolean {
  if (!draggingId || targetId === draggingId) return false;
  return !targetPath.includes(draggingId);
}

/** The sibling page `id` follows once dropped before or after `targetId` among `siblings` (null: first). */
export function placeAfterBeside(siblings: readonly string[], id: string, targetId: string, position: 'before' | 'after'): string | null {
  if (position === 'after') return targetId;
  const others = siblings.filter((c) => c !== id);
  return others[others.indexOf(targetId) - 1] ?? null;
}

/** The sibling page `id` follows once dropped inside a page with these children: the last of the others (null: none). */
export function placeAfterInside(children: readonly string[], id: string): string | null {
  const others = children.filter((c) => c !== id);
  return others[others.length - 1] ?? null;
}
