import { useCallback, useEffect, useRef, type MouseEvent, type TouchEvent } from 'react';
import type { DatabaseLayout } from '../../../../schema/blocks/database';
import { useDatabase } from '../context';
import { MAX_WIDTH, MIN_WIDTH, withOrderedField, type GridColumn } from '../fields/columns';
import type { RowStore } from '../rows/rowStore';
import { cellSelection, isOnlyCell, type CellPos } from './gridModel';
import type { GridEditing, GridSelectionState, GridSink } from './useGridEditing';
import type { GridLayout } from './useGridLayout';
import type { RowActions } from './useRowActions';

interface PointerParts {
  store: RowStore;
  columns: GridColumn[];
  selection: GridSelectionState;
  sink: GridSink;
  editing: Pick<GridEditing, 'editing' | 'setEditing' | 'startEditing' | 'toggleCell'>;
  rows: Pick<RowActions, 'addRow' | 'toggleChecked'>;
}

/** The cell an event happened in (its row's index and column's), if any. */
function cellAt(target: EventTarget | null): CellPos | null {
  const cell = (target as HTMLElement | null)?.closest?.('[data-col]') as HTMLElement | null;
  const rowEl = cell?.closest('[data-row]') as HTMLElement | null;
  if (!cell || !rowEl) return null;
  return { row: Number(rowEl.dataset.row), col: Number(cell.dataset.col) };
}

/**
 * The mouse and touch on the grid: one handler for every cell, so the rows stay memoized. A
 * press selects a cell (Shift: a range; dragged: a range), opens a row, inserts one under it,
 * checks it, toggles a checkbox; a double click (on a touch screen, a second tap) edits; scrolling
 * by hand ends an edit.
 */
export function useGridPointer({ store, columns, selection: sel, sink, editing: edit, rows }: PointerParts) {
  const db = useDatabase();
  const { selection, setSelection } = sel;
  const { editing, setEditing, startEditing, toggleCell } = edit;
  const dragging = useRef(false);
  /** How the last press came (mouse, pen, touch): a mouse-down made from a tap says nothing of it. */
  const pointer = useRef<string>('mouse');
  const onMouseDown = (event: MouseEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const rowEl = target.closest('[data-row]') as HTMLElement | null;
    const rowIndex = rowEl ? Number(rowEl.dataset.row) : -1;
    const row = rowIndex >= 0 ? store.rowAt(rowIndex) : undefined;
    if (target.closest('[data-open]') && row && db.openRow) {
      event.preventDefault();
      db.openRow(row.id);
      return;
    }
    if (target.closest('[data-insert]') && row) {
      event.preventDefault();
      void rows.addRow(row.id);
      return;
    }
    if (target.closest('[data-check]') && row) {
      event.preventDefault();
      rows.toggleChecked(row.id);
      return;
    }
    if (target.closest('a, button, input')) return;
    const pos = cellAt(target);
    if (!pos) return;
    event.preventDefault();
    // On a touch screen the grid's keyboard target brings up no keyboard: a tap selects the cell
    // and a second tap on it opens its editor, whose field does (a double tap would zoom).
    const tappedAgain = pointer.current === 'touch' && !editing && !event.shiftKey && selection && isOnlyCell(selection, pos);
    if (tappedAgain && !target.closest('[data-toggle]')) {
      startEditing(pos);
      return;
    }
    if (editing?.fromSink) {
      // A click before the new row's editor was drawn: the row is left as it is, and the keys are the grid's again.
      sink.awaitingRow.current = false;
      sink.takeTyped();
    }
    if (editing) {
      // The editor writes what it holds as it loses the focus (as a click elsewhere makes it), before the cell pressed is selected.
      const open = document.activeElement?.closest('.db-editor') ? (document.activeElement as HTMLElement) : null;
      open?.blur();
      setEditing(null);
    }
    const next = event.shiftKey && selection ? { anchor: selection.anchor, focus: pos } : cellSelection(pos);
    setSelection(next);
    dragging.current = true;
    sink.focusGrid();
    const column = columns[pos.col];
    if (target.closest('[data-toggle]') && column?.field.type === 'checkbox' && !event.shiftKey) toggleCell(pos);
  };
  const onMouseOver = (event: MouseEvent<HTMLDivElement>) => {
    if (!dragging.current || !selection || event.buttons !== 1) return;
    const pos = cellAt(event.target);
    if (pos && (pos.row !== selection.focus.row || pos.col !== selection.focus.col)) setSelection({ anchor: selection.anchor, focus: pos });
  };
  useEffect(() => {
    const up = () => (dragging.current = false);
    window.addEventListener('mouseup', up);
    return () => window.removeEventListener('mouseup', up);
  }, []);
  const onDoubleClick = (event: MouseEvent<HTMLDivElement>) => {
    const pos = cellAt(event.target);
    if (pos && !(event.target as HTMLElement).closest('a, button, input')) startEditing(pos);
  };
  // Scrolling the grid by hand ends the edit (the editor floats over its cell); scrolling to
  // reveal the cell being edited does not.
  const onUserScroll = () => {
    if (editing) (document.activeElement as HTMLElement | null)?.blur();
  };
  return {
    onPointerDown: (event: { pointerType: string }) => void (pointer.current = event.pointerType),
    onMouseDown,
    onMouseOver,
    onDoubleClick,
    onWheel: onUserScroll,
    onTouchMove: onUserScroll,
  };
}

/**
 * A column's width dragged at its header's edge (TanStack Table's resizing), saved to the view
 * when the drag ends. Stable (the headers are memoized): reads the current table, columns and
 * layout through a ref.
 */
export function useColumnResize(table: GridLayout['table'], columns: GridColumn[], layout: DatabaseLayout) {
  const { saveView } = useDatabase();
  const current = useRef({ table, columns, layout, saveView });
  current.current = { table, columns, layout, saveView };
  return useCallback((fieldId: string, event: MouseEvent | TouchEvent) => {
    const { table, columns, layout, saveView } = current.current;
    const headers = table.getHeaderGroups()[0]?.headers ?? [];
    event.stopPropagation();
    // No native drag of the header (it is draggable, to reorder columns) from its edge.
    if (!('touches' in event)) event.preventDefault();
    const header = headers.find((h) => h.column.id === fieldId);
    if (!header) return;
    header.getResizeHandler(document)(event.nativeEvent);
    const end = () => {
      window.removeEventListener('mouseup', end);
      window.removeEventListener('touchend', end);
      setTimeout(() => {
        const width = Math.round(table.getColumn(fieldId)?.getSize() ?? 0);
        const before = columns.find((c) => c.fieldId === fieldId)?.width;
        if (width && width !== before)
          void saveView(layout.uid, { orderedFields: withOrderedField(layout, fieldId, { width: Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, width)) }) });
      }, 0);
    };
    window.addEventListener('mouseup', end);
    window.addEventListener('touchend', end);
  }, []);
}
