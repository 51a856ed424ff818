import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatabaseLayout } from '../../../../schema/blocks/database';
import { showToast } from '../../../ui/Toast';
import { useDatabase } from '../context';
import type { RowStore } from '../rows/rowStore';
import { fromTemplate, madeFromTemplate, templateFor } from '../rows/rowTemplates';
import type { DropSide } from '../useReorderable';
import { cellSelection, movePlacement } from './gridModel';
import type { useCellWrites } from './useCellWrites';
import type { GridEditing, GridSelectionState, GridSink } from './useGridEditing';
import type { GridGroups, GridLayout } from './useGridLayout';
import type { HistoryStep } from '../cells/cellHistory';

interface RowActionParts {
  layout: DatabaseLayout;
  store: RowStore;
  groups: Pick<GridGroups, 'groupField' | 'itemCount'>;
  grid: Pick<GridLayout, 'rowVirtualizer'>;
  writes: ReturnType<typeof useCellWrites>;
  selection: GridSelectionState;
  sink: GridSink;
  editing: Pick<GridEditing, 'startEditing'>;
  /** The rows checked in the gutter (the grid's: an undo unchecks rows it deletes). */
  checked: ReadonlySet<string>;
  setChecked: Dispatch<SetStateAction<ReadonlySet<string>>>;
  /** An undo or redo of the history (useGridUndo's `replay`). */
  replay(take: () => HistoryStep | null): Promise<void>;
}

/**
 * The grid's rows as a whole (docs/web-app.md, «Table view»): rows checked in the gutter; a row
 * added at the end or inserted under another, from the database's default row template if it has
 * one (its first cell edited at once, with what was typed while it was made); checked rows
 * deleted (a step of the history, offered back in a note); rows moved — dragged by their handle
 * or Alt+Shift+↑/↓ — where the view's own order shows.
 */
export function useRowActions({
  layout,
  store,
  groups: { groupField, itemCount },
  grid,
  writes,
  selection: sel,
  sink,
  editing,
  checked,
  setChecked,
  replay,
}: RowActionParts) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { databaseId } = db;
  const { failed, history, inTurn } = writes;
  const { selection, setSelection, select } = sel;
  const { awaitingRow, takeTyped, focusGrid } = sink;

  // —— Added, inserted ——
  const [focusRowId, setFocusRowId] = useState<string | null>(null);
  /** `template`: the row template it starts from (null: none; undefined: the database's default, if any). */
  const addRow = (placeAfter?: string, template?: string | null) => {
    awaitingRow.current = true;
    takeTyped();
    focusGrid();
    return inTurn(async () => {
      try {
        const templateId = await templateFor(db, template);
        // Inserted under a row: under it in this view's own order too.
        const [row] = await madeFromTemplate(db, templateId, () => db.api.createRows(databaseId, [fromTemplate({}, templateId)], placeAfter, layout.uid));
        history.record({ added: [row.id] });
        if (placeAfter === undefined) grid.rowVirtualizer.scrollToIndex(itemCount, { align: 'end' });
        await store.refresh();
        // A row the view does not show (filtered out) is not edited here: the keys go back to the grid.
        if (store.indexOf(row.id) < 0) awaitingRow.current = false;
        else setFocusRowId(row.id);
      } catch {
        awaitingRow.current = false;
        failed();
      }
    });
  };
  const startEditingRef = useRef(editing.startEditing);
  startEditingRef.current = editing.startEditing;
  const focusIndex = focusRowId ? store.indexOf(focusRowId) : -1;
  useEffect(() => {
    if (focusIndex < 0) return;
    setFocusRowId(null);
    const pos = { row: focusIndex, col: 0 };
    setSelection(cellSelection(pos));
    // The keys keep going to the sink until the editor is there: it takes all they typed as it opens (useGridEditing).
    if (!startEditingRef.current(pos, undefined, true)) {
      awaitingRow.current = false;
      takeTyped();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusIndex]);

  // —— Deleted ——
  const deleteChecked = () =>
    inTurn(async () => {
      const ids = [...checked];
      try {
        await db.api.deleteRows(databaseId, ids);
        const step = history.record({ deleted: ids });
        setChecked(new Set());
        setSelection(null);
        await store.refresh();
        // The toast's «Отменить» is Ctrl/⌘+Z for this step (nothing, once that has undone it).
        showToast(t('database.rowsDeleted', { count: ids.length }), 'info', 10_000, {
          label: t('database.undo'),
          run: () => void replay(() => history.undo(step)),
        });
      } catch {
        failed();
      }
    });

  // —— Moved, where the rows' own order shows ——
  const ownOrder = !layout.sorts?.length && !layout.groupBy && !groupField;
  /**
   * The row (with the rows checked along with it, if it is one of them, in their order) put at
   * the line `lineFor` gives for their positions: in its new place at once, then saved.
   */
  const moveRows = (rowId: string, lineFor: (moving: number[]) => number | null) => {
    const chosen = checked.has(rowId) ? [...checked] : [rowId];
    const at = new Map(chosen.map((id) => [id, store.indexOf(id)]));
    const loaded = chosen.filter((id) => at.get(id)! >= 0).sort((a, b) => at.get(a)! - at.get(b)!);
    if (!loaded.includes(rowId)) return;
    const positions = loaded.map((id) => at.get(id)!);
    const line = lineFor(positions);
    const placeAfter = line === null ? undefined : movePlacement((r) => store.rowAt(r)?.id, positions, line);
    if (placeAfter === undefined) return;
    // Rows checked far away (not in memory) go after the others, in the order they were checked.
    const ids = [...loaded, ...chosen.filter((id) => at.get(id)! < 0)];
    const focusId = selection ? store.rowAt(selection.focus.row)?.id : undefined;
    const done = store.moveLocal(ids, placeAfter);
    // The active cell stays on its row.
    const focusAt = focusId ? store.indexOf(focusId) : -1;
    if (selection && focusAt >= 0 && focusAt !== selection.focus.row)
      select(cellSelection({ row: focusAt, col: selection.focus.col }), { row: focusAt, col: selection.focus.col });
    // In this view's own order: the board's and the other views' stay as they are.
    db.api
      .moveRows(databaseId, ids, { placeAfter }, undefined, layout.uid)
      .catch(failed)
      .finally(() => {
        done();
        void store.refresh();
      });
  };
  const moveRowsRef = useRef(moveRows);
  moveRowsRef.current = moveRows;
  /** A row (by id) dropped on one side of another (stable: the rows are memoized). */
  const onRowDrop = useCallback(
    (rowId: string, targetId: string, side: DropSide) =>
      moveRowsRef.current(rowId, () => {
        const target = store.indexOf(targetId);
        return target < 0 ? null : target + (side === 'after' ? 1 : 0);
      }),
    [store],
  );

  /** A row checked or unchecked in the gutter. */
  const toggleChecked = (rowId: string) =>
    setChecked((set) => {
      const next = new Set(set);
      if (next.has(rowId)) next.delete(rowId);
      else next.add(rowId);
      return next;
    });
  /** Every row checked (by the header's box), or none. */
  const checkAll = (all: boolean) => {
    if (!all) return setChecked(new Set());
    const ids = new Set<string>();
    for (let i = 0; i < (store.count ?? 0); i += 1) {
      const row = store.rowAt(i);
      if (row) ids.add(row.id);
    }
    setChecked(ids);
  };

  return { toggleChecked, checkAll, addRow, deleteChecked, ownOrder, moveRows, onRowDrop };
}

export type RowActions = ReturnType<typeof useRowActions>;
