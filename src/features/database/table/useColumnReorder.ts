import { useCallback, useEffect, useRef, useState } from 'react';
import { combine } from '@atlaskit/pragmatic-drag-and-drop/combine';
import { draggable, dropTargetForElements, monitorForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';
import type { DatabaseLayout } from '../../../../schema/blocks/database';
import { movedItem } from '../useReorderable';
import { useDatabase } from '../context';

type Side = 'left' | 'right';

/**
 * Columns reordered by dragging their headers (pragmatic-drag-and-drop): a header is both a
 * draggable and a drop target; dropped on a header's left or right half, the column goes before
 * or after it, and the view's orderedFields are saved. The title column stays first.
 */
export function useColumnReorder(layout: DatabaseLayout, enabled: boolean) {
  const db = useDatabase();
  const [over, setOver] = useState<{ fieldId: string; side: Side } | null>(null);
  const cleanups = useRef(new Map<string, () => void>());
  const layoutRef = useRef(layout);
  layoutRef.current = layout;

  useEffect(() => {
    if (!enabled) return;
    return monitorForElements({
      canMonitor: ({ source }) => source.data.kind === 'db-column' && source.data.databaseId === db.databaseId,
      onDrop: ({ source, location }) => {
        setOver(null);
        const target = location.current.dropTargets[0];
        if (!target) return;
        const from = String(source.data.fieldId);
        const to = String(target.data.fieldId);
        const side = target.data.side as Side;
        if (from === to) return;
        const current = layoutRef.current;
        if (!current.orderedFields.some((entry) => entry.fieldId === to)) return;
        const entries = current.orderedFields.map((entry) => ({ id: entry.fieldId, entry }));
        void db.saveView(current.uid, { orderedFields: movedItem(entries, from, to, side === 'left' ? 'before' : 'after').map(({ entry }) => entry) });
      },
    });
  }, [enabled, db]);

  useEffect(() => {
    const map = cleanups.current;
    return () => {
      for (const cleanup of map.values()) cleanup();
      map.clear();
    };
  }, []);

  /** The ref of a column's header element (one callback per column, so React does not re-attach it on every render). */
  const refs = useRef(new Map<string, (element: HTMLDivElement | null) => void>());
  const attach = useCallback(
    (fieldId: string) => (element: HTMLDivElement | null) => {
      cleanups.current.get(fieldId)?.();
      cleanups.current.delete(fieldId);
      if (!element || !enabled) return;
      const sideOf = (input: { clientX: number }): Side => {
        const box = element.getBoundingClientRect();
        return input.clientX < box.left + box.width / 2 ? 'left' : 'right';
      };
      cleanups.current.set(
        fieldId,
        combine(
          // Dragged by its name (the button), never from the resize handle at its edge.
          draggable({
            element,
            dragHandle: element.querySelector<HTMLElement>('.db-hcell-button') ?? undefined,
            getInitialData: () => ({ kind: 'db-column', databaseId: db.databaseId, fieldId }),
          }),
          dropTargetForElements({
            element,
            canDrop: ({ source }) => source.data.kind === 'db-column' && source.data.databaseId === db.databaseId,
            getData: ({ input }) => ({ fieldId, side: sideOf(input) }),
            onDrag: ({ self }) => setOver({ fieldId, side: self.data.side as Side }),
            onDragLeave: () => setOver((current) => (current?.fieldId === fieldId ? null : current)),
          }),
        ),
      );
    },
    [enabled, db.databaseId],
  );
  useEffect(() => refs.current.clear(), [attach]);
  const ref = useCallback(
    (fieldId: string) => {
      let callback = refs.current.get(fieldId);
      if (!callback) refs.current.set(fieldId, (callback = attach(fieldId)));
      return callback;
    },
    [attach],
  );

  return { ref, over };
}
