import type { Dispatch, KeyboardEvent, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatabaseLayout } from '../../../../schema/blocks/database';
import type { WireRow } from '../../../../schema/database';
import { showToast } from '../../../ui/Toast';
import { stepWrites, type HistoryStep } from '../cells/cellHistory';
import type { CellWrite } from '../cells/cellWrites';
import { isEditableField } from '../cells/cells';
import { useDatabase } from '../context';
import type { GridColumn } from '../fields/columns';
import { cellOf, type RowStore } from '../rows/rowStore';
import { cellSelection, gridKeyAction, isOnlyCell, moveSelection, stepLine, tabSelection, type GridKeyAction, type GridSelection } from './gridModel';
import type { useCellWrites } from './useCellWrites';
import type { GridEditing, GridSelectionState, GridSink } from './useGridEditing';
import type { RowActions } from './useRowActions';

/**
 * Undo and redo (docs/web-app.md «Table view»): a step's rows restored or deleted, and its cells
 * written back except those someone changed since (they stay, and a note says so). The step is
 * taken from the history in its turn (after a paste still making its rows has recorded its step).
 */
export function useGridUndo({
  store,
  columns,
  writes,
  setChecked,
  setSelection,
}: {
  store: RowStore;
  columns: GridColumn[];
  writes: ReturnType<typeof useCellWrites>;
  setChecked: Dispatch<SetStateAction<ReadonlySet<string>>>;
  setSelection(selection: GridSelection | null): void;
}) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { editable, databaseId } = db;
  const { failed, jobOf, inTurn, inFlight, send } = writes;
  const applyStep = async (step: HistoryStep | null) => {
    if (!step || !editable) return;
    if (step.added.length > 0 || step.deleted.length > 0) {
      try {
        if (step.added.length > 0) await db.api.restoreRows(databaseId, step.added);
        if (step.deleted.length > 0) {
          await db.api.deleteRows(databaseId, step.deleted);
          const gone = new Set(step.deleted);
          setChecked((current) => (current.size > 0 ? new Set([...current].filter((id) => !gone.has(id))) : current));
          setSelection(null);
        }
        await store.refresh();
      } catch {
        failed();
      }
    }
    const changes = step.cells;
    await Promise.all(changes.map((c) => inFlight.current.get(`${c.rowId} ${c.fieldId}`)));
    // Rows of a big range not in memory any more are read again where the step left them.
    let read: Map<string, WireRow> | undefined;
    if (step.span && changes.some((c) => !store.rowById(c.rowId))) {
      try {
        read = new Map((await store.rowsIn(step.span[0], step.span[1])).flatMap((row) => (row ? [[row.id, row] as const] : [])));
      } catch {
        failed();
        return;
      }
    }
    const { writes: cells, skipped } = stepWrites(store, changes, read);
    const jobs = cells.map((w) => {
      const column = columns.find((c) => c.fieldId === w.fieldId) ?? { fieldId: w.fieldId, field: w.field };
      return jobOf(w.row, column as GridColumn, w.after, { value: w.before, version: w.version });
    });
    send(jobs);
    if (skipped > 0) showToast(t('database.undoSkipped', { count: skipped }), 'info');
  };
  /** An undo or redo: the step `take` gives, applied in its turn. */
  const replay = (take: () => HistoryStep | null) => inTurn(() => applyStep(take()));
  return { replay };
}

interface CommandParts {
  layout: DatabaseLayout;
  groupField: string | undefined;
  store: RowStore;
  columns: GridColumn[];
  writes: ReturnType<typeof useCellWrites>;
  selection: GridSelectionState;
  sink: GridSink;
  editing: Pick<GridEditing, 'startEditing' | 'toggleCell'>;
  rows: Pick<RowActions, 'ownOrder' | 'moveRows'>;
  checked: ReadonlySet<string>;
  setChecked: Dispatch<SetStateAction<ReadonlySet<string>>>;
  replay: ReturnType<typeof useGridUndo>['replay'];
  /**
   * The keys leave the grid (no keyboard trap, WCAG 2.1.2): `'next'` and `'previous'` to the
   * page's element after or before it (Tab past the last cell, Shift+Tab before the first),
   * `'grid'` to the grid as a whole (Escape on one cell), from where Tab goes on.
   */
  leave(to: 'next' | 'previous' | 'grid'): void;
}

/** What a command of the grid is given: its action, and the selection it acts on. */
type Command<A extends NonNullable<GridKeyAction>> = (action: A, selection: GridSelection) => void;
/** The grid's commands, one for each action its keys ask for (gridModel.ts `gridKeyAction`). */
type Commands = { [K in Exclude<NonNullable<GridKeyAction>['type'], 'commit'>]: Command<Extract<NonNullable<GridKeyAction>, { type: K }>> };

/**
 * The grid's commands as a registry: one function for each action its keys ask for (the keys are
 * read in one place, `gridKeyAction`), used by the keyboard here and by the clipboard, the toolbar
 * and the mouse through the functions they share (`clearRange`, `rangeRows`). A command acts on
 * the selection as it is when the key is pressed.
 */
export function useGridCommands({
  layout,
  groupField,
  store,
  columns,
  writes,
  selection: sel,
  sink,
  editing,
  rows,
  checked,
  setChecked,
  replay,
  leave,
}: CommandParts) {
  const { t } = useTranslation('automation');
  const { editable, openRow } = useDatabase();
  const { failed, jobOf, history, inTurn, writeStep } = writes;
  const { selection, setSelection, select, size, range } = sel;
  const count = store.count ?? 0;

  /**
   * The rows of a range, one entry per index: at once when they are all in memory, else a promise
   * of them, once those beyond the loaded windows are read (a range of thousands of rows; a note
   * says how many come).
   */
  const rangeRows = (r: { top: number; bottom: number }): Array<WireRow | undefined> | Promise<Array<WireRow | undefined>> => {
    if (store.hasRows(r.top, r.bottom)) return Array.from({ length: r.bottom - r.top + 1 }, (_, i) => store.rowAt(r.top + i));
    showToast(t('database.rangeReading', { count: r.bottom - r.top + 1 }), 'info');
    return store.rowsIn(r.top, r.bottom);
  };
  /** Writes what `jobsOf` makes of a range's rows: at once, or (rows to read first) in turn with the other steps that wait for the server. */
  const onRangeRows = (r: { top: number; bottom: number }, jobsOf: (rows: Array<WireRow | undefined>) => CellWrite[]) => {
    const write = (got: Array<WireRow | undefined>) => writeStep(jobsOf(got), [r.top, r.bottom]);
    const got = rangeRows(r);
    if (Array.isArray(got)) write(got);
    else void inTurn(async () => write(await got)).catch(failed);
  };
  const clearRange = () => {
    if (!range || !editable) return;
    const r = range;
    onRangeRows(r, (got) => {
      const jobs: CellWrite[] = [];
      for (const row of got) {
        if (!row) continue;
        for (let c = r.left; c <= r.right; c += 1) {
          const value = cellOf(row, columns[c].fieldId) ?? null;
          if (value !== null && value !== '' && isEditableField(columns[c].field)) jobs.push(jobOf(row, columns[c], null));
        }
      }
      return jobs;
    });
  };
  /**
   * Ctrl/⌘+D: the top row of the selected range written into the rows under it, column by column,
   * as spreadsheets do (one row selected: the row above it is copied into it); one step to undo,
   * the rows taken by id as the range stood when the keys were pressed. Files stay with their row.
   */
  const fillDown = () => {
    if (!range || !editable) return;
    const r = range.top === range.bottom ? { ...range, top: range.top - 1 } : range;
    if (r.top < 0) return;
    onRangeRows(r, ([source, ...below]) => {
      const jobs: CellWrite[] = [];
      if (!source) return jobs;
      for (const row of below) {
        if (!row) continue;
        for (let c = r.left; c <= r.right; c += 1) {
          const column = columns[c];
          if (!isEditableField(column.field) || column.field.type === 'files') continue;
          const value = cellOf(source, column.fieldId) ?? null;
          if (JSON.stringify(value) !== JSON.stringify(cellOf(row, column.fieldId) ?? null)) jobs.push(jobOf(row, column, value));
        }
      }
      return jobs;
    });
  };

  const commands: Commands = {
    move: (action, at) => select(moveSelection(at, action.dRow, action.dCol, size, action.extend)),
    tab: (action, at) => {
      const next = tabSelection(at, action.back, size);
      // Past the first or the last cell: on to the page's element before or after the grid.
      if (next.focus.row === at.focus.row && next.focus.col === at.focus.col) leave(action.back ? 'previous' : 'next');
      else select(next);
    },
    edit: (action, at) => void editing.startEditing(at.focus, action.initial),
    toggle: (_action, at) => editing.toggleCell(at.focus),
    clear: () => clearRange(),
    fillDown: () => fillDown(),
    undo: () => void replay(() => history.undo()),
    redo: () => void replay(() => history.redo()),
    moveRows: (action, at) => {
      if (!editable) return;
      if (!rows.ownOrder) return void showToast(t(groupField || layout.groupBy ? 'database.ungroupToMove' : 'database.unsortToMove'), 'info');
      const row = store.rowAt(at.focus.row);
      if (row) rows.moveRows(row.id, (moving) => stepLine(moving, action.step, count));
    },
    open: (_action, at) => {
      const row = store.rowAt(at.focus.row);
      if (row && openRow) openRow(row.id);
    },
    selectAll: () => setSelection({ anchor: { row: 0, col: 0 }, focus: { row: Math.max(0, count - 1), col: columns.length - 1 } }),
    cancel: (_action, at) => {
      if (checked.size) setChecked(new Set());
      else if (!isOnlyCell(at, at.focus)) setSelection(cellSelection(at.focus));
      // One cell selected: Escape leaves the cells for the grid as a whole (Tab goes on from there).
      else leave('grid');
    },
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    event.stopPropagation();
    if (sink.awaitingRow.current) {
      // A row being made gets what is typed meanwhile (into the sink, taken when its editor opens); no other key acts on the old cell.
      if (!(event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey)) event.preventDefault();
      return;
    }
    const activeField = selection ? columns[selection.focus.col]?.field : undefined;
    const action = gridKeyAction(event, false, { checkbox: activeField?.type === 'checkbox' });
    if (!selection) {
      // No active cell (rows just deleted, say): undo and redo still work; a move starts at the top.
      if (action?.type === 'undo' || action?.type === 'redo') {
        event.preventDefault();
        void replay(() => (action.type === 'undo' ? history.undo() : history.redo()));
      } else if ((event.key === 'Tab' && count === 0) || event.key === 'Escape') {
        // No cell to go to (no rows), or Escape: the keys leave the cells.
        event.preventDefault();
        leave(event.key === 'Escape' ? 'grid' : event.shiftKey ? 'previous' : 'next');
      } else if (event.key.startsWith('Arrow') || event.key === 'Tab') {
        event.preventDefault();
        select(cellSelection({ row: 0, col: 0 }));
      }
      return;
    }
    if (!action || action.type === 'commit') return;
    event.preventDefault();
    (commands[action.type] as Command<typeof action>)(action, selection);
  };

  /**
   * Text that came without a key of its own (a phone's keyboard, an IME, dictation, an
   * `insertText`): it starts editing the active cell with what came, as a typed key does; while
   * a row is being made it waits in the sink for that row.
   */
  const onTyped = () => {
    if (sink.awaitingRow.current) return;
    const text = sink.takeTyped();
    if (!text || !selection) return;
    const field = columns[selection.focus.col]?.field;
    if (field?.type === 'checkbox') return;
    editing.startEditing(selection.focus, text);
  };

  return { onKeyDown, onTyped, rangeRows, clearRange };
}
