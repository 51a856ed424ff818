import { useEffect, useRef, useState, type RefObject } from 'react';
import { combine } from '@atlaskit/pragmatic-drag-and-drop/combine';
import { draggable, dropTargetForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';

export type DropSide = 'before' | 'after';

/**
 * One item of a list reordered by dragging (pragmatic-drag-and-drop): the element is both a
 * draggable (by `handle`, or the whole element) and a drop target for items of the same `kind`
 * and `scope` (one list). Dropped on its first or second half (`axis`), `onDrop(id, side)` names
 * the item dragged and the side of this one it goes to. Returns the side being hovered, for the
 * drop line. While dragged, the element has the attribute `data-dragging`. `from` travels with
 * the item (a board's card: the column it is dragged out of) and comes back with `onDrop`.
 */
export function useReorderable(
  element: RefObject<HTMLElement | null>,
  item: { kind: string; scope: string; id: string; from?: string },
  axis: 'x' | 'y',
  onDrop: (id: string, side: DropSide, from?: string) => void,
  options: { handle?: RefObject<HTMLElement | null>; enabled?: boolean } = {},
): DropSide | null {
  const [over, setOver] = useState<DropSide | null>(null);
  const dropRef = useRef(onDrop);
  dropRef.current = onDrop;
  const { kind, scope, id, from } = item;
  const { handle, enabled = true } = options;
  useEffect(() => {
    const node = element.current;
    if (!node || !enabled) return;
    const sideOf = (input: { clientX: number; clientY: number }): DropSide => {
      const box = node.getBoundingClientRect();
      return axis === 'x' ? (input.clientX < box.left + box.width / 2 ? 'before' : 'after') : input.clientY < box.top + box.height / 2 ? 'before' : 'after';
    };
    const sameList = (data: Record<string | symbol, unknown>) => data.kind === kind && data.scope === scope;
    return combine(
      draggable({
        element: node,
        dragHandle: handle?.current ?? undefined,
        getInitialData: () => ({ kind, scope, id, from }),
        // Marked while it is dragged (an attribute React does not manage), for the style to dim it.
        onDragStart: () => node.setAttribute('data-dragging', ''),
        onDrop: () => node.removeAttribute('data-dragging'),
      }),
      dropTargetForElements({
        element: node,
        canDrop: ({ source }) => sameList(source.data) && source.data.id !== id,
        getData: ({ input }) => ({ side: sideOf(input) }),
        onDrag: ({ self }) => setOver(self.data.side as DropSide),
        onDragLeave: () => setOver(null),
        onDrop: ({ source, self }) => {
          setOver(null);
          dropRef.current(String(source.data.id), self.data.side as DropSide, typeof source.data.from === 'string' ? source.data.from : undefined);
        },
      }),
    );
  }, [element, handle, kind, scope, id, from, axis, enabled]);
  return over;
}

/**
 * The list with the item `id` (or the items `ids`, in that order) moved to one side of `target`;
 * a null target puts them first. Unknown ids or target, or a target among the items moved, leave
 * it as it is. One rule for view tabs, columns, options and rows.
 */
export function movedItem<T extends { id: string }>(items: readonly T[], id: string | readonly string[], target: string | null, side: DropSide): T[] {
  const ids = typeof id === 'string' ? [id] : id;
  const byId = new Map(items.map((item) => [item.id, item]));
  const moving = ids.map((one) => byId.get(one));
  if (moving.length === 0 || moving.some((item) => !item) || (target !== null && (ids.includes(target) || !byId.has(target)))) return [...items];
  const moved = new Set(ids);
  const rest = items.filter((item) => !moved.has(item.id));
  const at = target === null ? 0 : rest.findIndex((item) => item.id === target) + (side === 'after' ? 1 : 0);
  return [...rest.slice(0, at), ...(moving as T[]), ...rest.slice(at)];
}
