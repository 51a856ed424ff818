import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowValue } from '../../../../schema/blocks/database';
import { ERROR_CODES } from '../../../../schema/errors';
import { ApiRequestError } from '../../../app/api';
import { showToast } from '../../../ui/Toast';
import { isEditableField, type EditorMove } from '../cells/cells';
import { useDatabase } from '../context';
import type { GridColumn } from '../fields/columns';
import { cellOf, type RowStore } from '../rows/rowStore';
import { cellSelection, moveSelection, rangeOf, skipHidden, tabSelection, type CellPos, type GridSelection } from './gridModel';
import { followRows, type PickedRows } from './gridSelection';
import type { GridGroups, GridLayout } from './useGridLayout';
import type { useCellWrites } from './useCellWrites';

/** The cell being edited, by its row's and field's ids (rows move under it: others' moves, inserts, deletes, sorts). */
export interface Editing {
  rowId: string;
  fieldId: string;
  initial?: string;
  /** The editor starts with what waits in the keyboard target (typed while a row was being made), taken as it opens. */
  fromSink?: boolean;
  base: { value: RowValue; version: number };
}

/**
 * The grid's selection: the active cell and the range, following the rows it was made on when
 * others' moves, inserts, deletes, a sort or a reload shift them (docs/web-app.md, «Table view»).
 */
export function useGridSelection(store: RowStore, columns: GridColumn[], grouped: GridGroups['grouped'], reveal: GridLayout['reveal']) {
  const [picked, setSelection] = useState<GridSelection | null>(null);
  // The rows the selection was made on (read when it is set).
  const pickedRows = useRef<PickedRows | null>(null);
  if (picked && pickedRows.current?.selection !== picked)
    pickedRows.current = { selection: picked, focus: store.rowAt(picked.focus.row)?.id, anchor: store.rowAt(picked.anchor.row)?.id };
  const selection = picked && pickedRows.current ? followRows(picked, pickedRows.current, store) : picked;
  const size = { rows: store.count ?? 0, cols: columns.length };
  /** A selection moved from `from` (the focus so far): rows of collapsed groups are skipped. */
  const select = (next: GridSelection, from: CellPos = selection?.focus ?? next.focus) => {
    const shown = skipHidden(next, from, grouped);
    setSelection(shown);
    reveal(shown.focus);
  };
  return { selection, setSelection, select, size, range: selection ? rangeOf(selection) : null };
}

export type GridSelectionState = ReturnType<typeof useGridSelection>;

/**
 * The grid's keyboard target (a textarea outside the page's editable): it has the focus while a
 * cell is selected; while a row asked for is being made, what is typed waits in it for that row.
 */
export function useGridSink() {
  const sink = useRef<HTMLTextAreaElement>(null);
  /** A row asked for and not yet edited: the keyboard goes to the sink, and what is typed meanwhile becomes the start of its first cell. */
  const awaitingRow = useRef(false);
  const takeTyped = () => {
    const text = sink.current?.value ?? '';
    if (sink.current) sink.current.value = '';
    return text;
  };
  const focusGrid = () => sink.current?.focus({ preventScroll: true });
  return { sink, awaitingRow, takeTyped, focusGrid };
}

export type GridSink = ReturnType<typeof useGridSink>;

interface EditingParts {
  store: RowStore;
  columns: GridColumn[];
  writes: ReturnType<typeof useCellWrites>;
  selection: GridSelectionState;
  sink: GridSink;
  reveal: GridLayout['reveal'];
  scroll: RefObject<HTMLDivElement | null>;
}

/**
 * A cell's editor: opened on a cell (not a checkbox: it toggles), kept on its row wherever the row
 * goes (by ids), its value written when it closes, and the grid moved on as the key that closed
 * it says; the editor floats over its cell, anchored again when the cell is drawn anew.
 */
export function useGridEditing({
  store,
  columns,
  writes,
  selection: { select, size },
  sink: { awaitingRow, takeTyped, focusGrid },
  reveal,
  scroll,
}: EditingParts) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { editable, databaseId } = db;
  const { failed, jobOf, writeStep } = writes;
  const [editing, setEditing] = useState<Editing | null>(null);

  const commit = useCallback(
    (rowIndex: number, col: number, value: RowValue, base?: { value: RowValue; version: number }) => {
      const row = store.rowAt(rowIndex);
      const column = columns[col];
      if (!row || !column || !isEditableField(column.field)) return;
      writeStep([jobOf(row, column, value, base)]);
    },
    [store, columns, jobOf, writeStep],
  );
  /**
   * An edit's value written to the row and field it was made in (by id, wherever the row is now),
   * on the version the editor saw. A row someone put in the trash meanwhile takes nothing: a note
   * says so and, to an editor, offers the row back (restored, then the value written).
   */
  const commitEdit = (edit: Editing, value: RowValue) => {
    const column = columns.find((c) => c.fieldId === edit.fieldId);
    if (!column || !isEditableField(column.field)) return;
    const job = jobOf({ id: edit.rowId }, column, value, edit.base);
    writeStep([
      {
        ...job,
        onError: (error) => {
          if (!rowGone(error)) return failed();
          showToast(t('database.rowDeletedWhileEditing'), 'error', 10_000, {
            label: t('database.restoreRow'),
            run: () =>
              void db.api
                .restoreRows(databaseId, [edit.rowId])
                .then(() => store.refresh())
                .then(() => writeStep([{ ...job, onError: failed }]))
                .catch(failed),
          });
        },
      },
    ]);
  };

  /** Opens the cell's editor (false: it has none here). */
  const startEditing = (pos: CellPos, initial?: string, fromSink = false): boolean => {
    const row = store.rowAt(pos.row);
    const column = columns[pos.col];
    // A checkbox has no editor: it toggles (Space, Enter, a click on its box: toggleCell) and nothing else.
    if (!editable || !row || !column || !isEditableField(column.field) || column.field.type === 'checkbox') return false;
    reveal(pos);
    setEditing({
      rowId: row.id,
      fieldId: column.fieldId,
      initial,
      fromSink,
      base: { value: cellOf(row, column.fieldId) ?? null, version: row.versions[column.fieldId] ?? 0 },
    });
    return true;
  };

  const toggleCell = (pos: CellPos) => {
    const row = store.rowAt(pos.row);
    const column = columns[pos.col];
    if (!editable || !row || column?.field.type !== 'checkbox') return;
    commit(pos.row, pos.col, cellOf(row, column.fieldId) !== true);
  };

  // The editor last finished: a key that reaches it after it finished, before it is gone (a Tab
  // typed right after the Enter that picked an option), moves on but writes nothing again.
  const finished = useRef<Editing | null>(null);
  const finishEditing = (value: RowValue | undefined, move: EditorMove) => {
    const current = editing;
    setEditing(null);
    if (!current) return;
    const again = finished.current === current;
    finished.current = current;
    if (value !== undefined && !again) commitEdit(current, value);
    // The grid goes on from where the row is now (the cell stays selected if the row is gone).
    const at = store.indexOf(current.rowId);
    const col = columns.findIndex((c) => c.fieldId === current.fieldId);
    if (at < 0 || col < 0) return void (document.activeElement?.closest('.db-editor') && focusGrid());
    const pos = { row: at, col };
    const step = move === 'down' ? [1, 0] : move === 'right' ? [0, 1] : move === 'left' ? [0, -1] : [0, 0];
    if (move === 'right' || move === 'left') select(tabSelection(cellSelection(pos), move === 'left', size), pos);
    else select(moveSelection(cellSelection(pos), step[0], step[1], size, false), pos);
    // The grid takes the keys at once (not in the next frame: a key pressed before it was lost, and
    // a late focus took the keys from an editor opened meanwhile); an edit ended by the focus
    // going elsewhere (a click outside) leaves the focus there.
    if (document.activeElement?.closest('.db-editor')) focusGrid();
  };

  // The cell edited, found by its row's and field's ids at each render: where the row is now. A row
  // gone from what is drawn keeps the editor where it was (the value is written by id at the end).
  const editingRow = editing ? store.rowById(editing.rowId) : undefined;
  const editingAt = editing ? store.indexOf(editing.rowId) : -1;
  const editingCol = editing ? columns.findIndex((c) => c.fieldId === editing.fieldId) : -1;
  /** A cell as drawn now, if it is (by the row's index and the column's). */
  const drawnAt = (at: number, col: number) => scroll.current?.querySelector<HTMLElement>(`[data-row="${at}"] [data-col="${col}"]`) ?? null;
  const drawnCell = editingAt >= 0 && editingCol >= 0 ? drawnAt(editingAt, editingCol) : null;
  const lastAnchor = useRef<HTMLElement | null>(null);
  if (!editing) lastAnchor.current = null;
  else if (drawnCell) lastAnchor.current = drawnCell;
  const editingCell = drawnCell ?? lastAnchor.current;
  // The body draws scrolled rows without the grid (VirtualBody): when the edited cell is drawn
  // anew (its row scrolled in, made, or read), the grid renders again to anchor the editor there.
  const editingWhere = useRef<{ at: number; col: number } | null>(null);
  editingWhere.current = editing && editingAt >= 0 && editingCol >= 0 ? { at: editingAt, col: editingCol } : null;
  const [, anchorAgain] = useReducer((n: number) => n + 1, 0);
  const afterDraw = useCallback(() => {
    const where = editingWhere.current;
    if (!where) return;
    const cell = scroll.current?.querySelector<HTMLElement>(`[data-row="${where.at}"] [data-col="${where.col}"]`) ?? null;
    if (cell && cell !== lastAnchor.current) anchorAgain();
  }, [scroll]);
  // An editor opened for a row just made starts with what was typed into the sink meanwhile (read
  // in the render that draws it): now drawn, it has the keys, and the sink is emptied. Nothing can
  // be typed between that render and this effect.
  const editorShown = Boolean(editing && editingCell && editingCol >= 0);
  useLayoutEffect(() => {
    if (!editing?.fromSink || !editorShown) return;
    const text = takeTyped();
    awaitingRow.current = false;
    setEditing((current) => (current === editing ? { ...current, fromSink: false, initial: text || undefined } : current));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing, editorShown]);
  // The row moved (someone else's move, a sort): the grid scrolls to keep it in sight.
  const shownAt = useRef(-1);
  useEffect(() => {
    if (editingAt >= 0 && editingCol >= 0 && shownAt.current >= 0 && shownAt.current !== editingAt) reveal({ row: editingAt, col: editingCol });
    shownAt.current = editingAt;
  }, [editingAt, editingCol, reveal]);

  return {
    editing,
    setEditing,
    startEditing,
    toggleCell,
    finishEditing,
    afterDraw,
    /** The editor's cell, its row (if in memory) and column, when it is drawn. */
    editor: editing && editingCell && editingCol >= 0 ? { editing, cell: editingCell, col: editingCol, row: editingRow } : null,
  };
}

export type GridEditing = ReturnType<typeof useGridEditing>;

/** A write refused because its row is in the trash (or deleted for good) by now. */
function rowGone(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.code === ERROR_CODES.pageInTrash || error.code === ERROR_CODES.notFound);
}
