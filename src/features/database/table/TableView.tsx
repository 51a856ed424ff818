import { createPortal } from 'react-dom';
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { columnResizingFeature, columnSizingFeature, tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { hasOptions, optionColor, withNewOptions, type DatabaseLayout, type RowValue } from '../../../../schema/blocks/database';
import { type WireGroup, type WireRow } from '../../../../schema/database';
import { ERROR_CODES } from '../../../../schema/errors';
import { newId } from '../../../../schema/ids';
import { ApiRequestError } from '../../../app/api';
import { showToast } from '../../../ui/Toast';
import { CellEditor, isEditableField, type EditorMove } from '../cells/cells';
import { useQuietVirtualizer, VirtualBody } from './virtualBody';
import { useViewRows } from '../rows/viewRows';
import { stepWrites, type HistoryStep } from '../cells/cellHistory';
import type { CellWrite } from '../cells/cellWrites';
import { gridColumns, MAX_WIDTH, MIN_WIDTH, withOrderedField, type GridColumn } from '../fields/columns';
import { useDatabase } from '../context';
import { ColumnHeader, AddFieldButton } from '../fields/FieldMenu';
import { CalculationCell, useCalculations } from './Footer';
import { groupKey, useCollapsedGroups } from '../rows/collapsedGroups';
import {
  cellSelection,
  isOnlyCell,
  gridKeyAction,
  groupedLayout,
  movePlacement,
  moveSelection,
  rangeOf,
  skipHidden,
  stepLine,
  tabSelection,
  type CellPos,
  type GridSelection,
} from './gridModel';
import { cellOf, type RowStore } from '../rows/rowStore';
import { useColumnReorder } from './useColumnReorder';
import { type DropSide } from '../useReorderable';
import { onPhone, watchPhone } from '../../../ui/useIsPhone';
import { followRows, firstRowOf, lastRowOf, type PickedRows } from './gridSelection';
import { GroupHeader } from './GroupHeader';
import { useCellWrites } from './useCellWrites';
import { useGridClipboard } from './useGridClipboard';
import { FOOTER_HEIGHT, GUTTER, HEADER_HEIGHT, Row, ROW_HEIGHT, type GridLabels } from './TableRow';

/** On a phone: the gutter holds the checkbox only, and the sticky title column leaves room for the others. */
const PHONE_GUTTER = 32;
const PHONE_TITLE = 150;
const ADD_COLUMN = 44;

const features = tableFeatures({ columnSizingFeature, columnResizingFeature });
const NO_ROWS: WireRow[] = [];

export interface TableViewProps {
  /** The view as shown (its unsaved changes over it). */
  layout: DatabaseLayout;
  /**
   * The view as the server has it: what the footer's figures and the groups (asked for by the
   * view's id) are computed from; they are read again when it changes.
   */
  savedLayout: DatabaseLayout;
  /** Called with the view's row store (the realtime events go to it). */
  onStore?(store: RowStore | null): void;
  /** Full-height grid (a Database page) rather than a box in the document. */
  fill?: boolean;
  /** Rows whose title has this (the search box; not saved to the view). */
  search?: string;
}

/** The cell being edited, by its row's and field's ids (rows move under it: others' moves, inserts, deletes, sorts). */
interface Editing {
  rowId: string;
  fieldId: string;
  initial?: string;
  /** The editor starts with what waits in the keyboard target (typed while a row was being made), taken as it opens. */
  fromSink?: boolean;
  base: { value: RowValue; version: number };
}

/**
 * A database view as a spreadsheet (docs/web-app.md, «Table view»): rows and columns both
 * virtualized, the header and the title column sticky, keyboard and range selection, copy and
 * paste as TSV, the footer's calculations and group headers. Rows come from a windowed store;
 * a cell's change re-renders its row only.
 */
export function TableView({ layout, savedLayout, onStore, fill, search = '' }: TableViewProps) {
  const { t } = useTranslation('automation');
  // Translated once: the grid renders on every frame of a scroll, and i18next's t is not free.
  const labels = useMemo(() => gridLabels(t), [t]);
  const db = useDatabase();
  const { config, editable, databaseId } = db;
  const columns = useMemo(() => gridColumns(config, layout), [config, layout]);

  // —— Rows ——
  // Grouped rows come ordered by the group as the server's view says: the saved grouping decides.
  const groupField = savedLayout.groupBy?.fieldId;
  const store = useViewRows(layout, search, `${groupField ?? ''}:${savedLayout.groupBy?.hideEmpty ? 1 : 0}`, onStore);
  const count = store.count ?? 0;

  // —— Groups (a grouped view: a header before each group's rows) ——
  const [groups, setGroups] = useState<WireGroup[] | null>(null);
  const changes = store.changes;
  useEffect(() => {
    if (!groupField) {
      setGroups(null);
      return;
    }
    let cancelled = false;
    const timer = setTimeout(
      () => {
        db.api.groups(databaseId, layout.uid).then(
          (list) => !cancelled && setGroups(list),
          () => !cancelled && setGroups(null),
        );
      },
      changes === 0 ? 0 : 300,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [db.api, databaseId, layout.uid, groupField, savedLayout, changes, count]);
  // Collapsed groups: a personal preference of this browser (collapsedGroups.ts).
  const [collapsed, toggleGroup] = useCollapsedGroups(databaseId, layout.uid, groupField);
  const grouped = useMemo(() => {
    if (!groups || !groupField) return null;
    const shut = new Set<number>();
    groups.forEach((g, i) => collapsed.has(groupKey(g.value)) && shut.add(i));
    return groupedLayout(
      groups.map((g) => g.count),
      shut,
    );
  }, [groups, groupField, collapsed]);
  const itemCount = grouped ? grouped.size : count;

  // —— Columns: sizes through TanStack Table (resizing), positions through TanStack Virtual ——
  const columnDefs = useMemo<Array<ColumnDef<typeof features, WireRow>>>(
    () => columns.map((c) => ({ id: c.fieldId, header: c.field.name, size: c.width, minSize: MIN_WIDTH, maxSize: MAX_WIDTH })),
    [columns],
  );
  const table = useTable({ features, columns: columnDefs, data: NO_ROWS, columnResizeMode: 'onChange', enableColumnResizing: editable });
  const sizingKey = columns.map((c) => `${c.fieldId}:${c.width}`).join('|');
  useEffect(() => {
    // The view's widths (saved, or changed by someone) replace what a resize left.
    table.setColumnSizing(Object.fromEntries(columns.map((c) => [c.fieldId, c.width])));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sizingKey]);
  const phone = useSyncExternalStore(watchPhone, onPhone, () => false);
  const gutter = phone ? PHONE_GUTTER : GUTTER;
  const sizes = columns.map((c) => table.getColumn(c.fieldId)?.getSize() ?? c.width);
  const titleWidth = phone ? Math.min(sizes[0], PHONE_TITLE) : sizes[0];
  const widths = [titleWidth, ...sizes.slice(1)];
  const rest = columns.slice(1);
  const restWidths = widths.slice(1);
  const pinned = gutter + titleWidth;
  const totalWidth = pinned + restWidths.reduce((a, b) => a + b, 0) + (editable ? ADD_COLUMN : 0);

  const scroll = useRef<HTMLDivElement>(null);
  const wraps = columns.some((c) => c.isWrap);
  // Quiet: only the body (VirtualBody) renders as the rows scrolled in change, not this component.
  const rows = useQuietVirtualizer({
    count: itemCount,
    getScrollElement: () => scroll.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    scrollMargin: HEADER_HEIGHT,
    // A row scrolled to is not left under the sticky header or footer.
    scrollPaddingStart: HEADER_HEIGHT,
    scrollPaddingEnd: FOOTER_HEIGHT,
    initialRect: { width: 1000, height: 600 },
  });
  const rowVirtualizer = rows.instance;
  const colVirtualizer = useVirtualizer({
    horizontal: true,
    count: rest.length,
    getScrollElement: () => scroll.current,
    estimateSize: (i) => restWidths[i] ?? 180,
    paddingStart: pinned,
    // …nor a column under the sticky title column.
    scrollPaddingStart: pinned,
    overscan: 2,
    initialRect: { width: 1000, height: 600 },
  });
  const widthsKey = restWidths.join(',');
  useLayoutEffect(() => colVirtualizer.measure(), [widthsKey, pinned, colVirtualizer]);
  useLayoutEffect(() => {
    if (!wraps) rowVirtualizer.measure();
  }, [wraps, rowVirtualizer]);

  // The rows' gutter and title stick only while the grid is scrolled sideways (database.css): two
  // sticky boxes a row cost a vertically scrolled frame ≈ 1 ms of the main thread and 2 of the
  // renderer's, for nothing while the columns are at their start. The column virtualizer renders
  // again as a sideways scroll starts (isScrolling), before that frame is painted.
  const sideways = (colVirtualizer.scrollOffset ?? 0) > 0;
  const rowOfItem = useCallback(
    (index: number): number | null => {
      if (!grouped) return index;
      const item = grouped.itemAt(index);
      return item.kind === 'row' ? item.row : null;
    },
    [grouped],
  );
  // The store reads the windows around what is drawn.
  const onRange = useCallback(
    (items: readonly VirtualItem[]) => {
      const indexes = items.map((i) => i.index);
      store.setVisible(indexes.length ? firstRowOf(indexes, rowOfItem) : 0, indexes.length ? lastRowOf(indexes, rowOfItem) : 0);
    },
    [store, rowOfItem],
  );

  const virtualCols = colVirtualizer.getVirtualItems();
  const colStart = virtualCols.length ? virtualCols[0].index : 0;
  const colEnd = virtualCols.length ? virtualCols[virtualCols.length - 1].index : -1;
  const leftPad = virtualCols.length ? virtualCols[0].start - pinned : 0;
  const rightPad = virtualCols.length ? colVirtualizer.getTotalSize() - virtualCols[virtualCols.length - 1].end : 0;

  // —— Selection, editing, checked rows ——
  const [picked, setSelection] = useState<GridSelection | null>(null);
  // The rows the selection was made on (read when it is set): it follows them when others' moves,
  // inserts, deletes, a sort or a reload shift the rows under it (docs/web-app.md, «Table view»).
  const pickedRows = useRef<PickedRows | null>(null);
  if (picked && pickedRows.current?.selection !== picked)
    pickedRows.current = { selection: picked, focus: store.rowAt(picked.focus.row)?.id, anchor: store.rowAt(picked.anchor.row)?.id };
  const selection = picked && pickedRows.current ? followRows(picked, pickedRows.current, store) : picked;
  const [editing, setEditing] = useState<Editing | null>(null);
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const sink = useRef<HTMLTextAreaElement>(null);
  const gridId = useId();
  const size = { rows: count, cols: columns.length };
  const range = selection ? rangeOf(selection) : null;
  const focusGrid = () => sink.current?.focus({ preventScroll: true });

  const reveal = useCallback(
    (pos: CellPos) => {
      rowVirtualizer.scrollToIndex(grouped ? grouped.itemOfRow(pos.row) : pos.row, { align: 'auto' });
      if (pos.col > 0) colVirtualizer.scrollToIndex(pos.col - 1, { align: 'auto' });
    },
    [rowVirtualizer, colVirtualizer, grouped],
  );
  /** A selection moved from `from` (the focus so far): rows of collapsed groups are skipped. */
  const select = (next: GridSelection, from: CellPos = selection?.focus ?? next.focus) => {
    const shown = skipHidden(next, from, grouped);
    setSelection(shown);
    reveal(shown.focus);
  };

  const writes = useCellWrites(store);
  const { failed, jobOf, history, inTurn, inFlight, optionSaves, send, writeStep } = writes;
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
  /**
   * An undo or redo: its rows restored or deleted, and its cells written back except those someone
   * changed since (they stay, and a note says so). The step is taken from the history in its turn
   * (after a paste still making its rows has recorded its step).
   */
  const replay = (take: () => HistoryStep | null) => inTurn(() => applyStep(take()));
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
    const { writes, skipped } = stepWrites(store, changes, read);
    const jobs = writes.map((w) => {
      const column = columns.find((c) => c.fieldId === w.fieldId) ?? { fieldId: w.fieldId, field: w.field };
      return jobOf(w.row, column as GridColumn, w.after, { value: w.before, version: w.version });
    });
    send(jobs);
    if (skipped > 0) showToast(t('database.undoSkipped', { count: skipped }), 'info');
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
  const clearRange = () => {
    if (!range || !editable) return;
    const r = range;
    const clear = (rows: Array<WireRow | undefined>) => {
      const jobs: CellWrite[] = [];
      for (const row of rows) {
        if (!row) continue;
        for (let c = r.left; c <= r.right; c += 1) {
          const value = cellOf(row, columns[c].fieldId) ?? null;
          if (value !== null && value !== '' && isEditableField(columns[c].field)) jobs.push(jobOf(row, columns[c], null));
        }
      }
      writeStep(jobs, [r.top, r.bottom]);
    };
    const rows = rangeRows(r);
    // Rows to read first: in turn with the other steps that wait for the server.
    if (Array.isArray(rows)) clear(rows);
    else void inTurn(async () => clear(await rows)).catch(failed);
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
    const fill = (rows: Array<WireRow | undefined>) => {
      const [source, ...below] = rows;
      if (!source) return;
      const jobs: CellWrite[] = [];
      for (const row of below) {
        if (!row) continue;
        for (let c = r.left; c <= r.right; c += 1) {
          const column = columns[c];
          if (!isEditableField(column.field) || column.field.type === 'files') continue;
          const value = cellOf(source, column.fieldId) ?? null;
          if (JSON.stringify(value) !== JSON.stringify(cellOf(row, column.fieldId) ?? null)) jobs.push(jobOf(row, column, value));
        }
      }
      writeStep(jobs, [r.top, r.bottom]);
    };
    const rows = rangeRows(r);
    if (Array.isArray(rows)) fill(rows);
    else void inTurn(async () => fill(await rows)).catch(failed);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    event.stopPropagation();
    if (awaitingRow.current) {
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
      } else if (event.key.startsWith('Arrow') || event.key === 'Tab') {
        event.preventDefault();
        select(cellSelection({ row: 0, col: 0 }));
      }
      return;
    }
    if (!action) return;
    event.preventDefault();
    switch (action.type) {
      case 'move':
        select(moveSelection(selection, action.dRow, action.dCol, size, action.extend));
        break;
      case 'tab':
        select(tabSelection(selection, action.back, size));
        break;
      case 'edit':
        startEditing(selection.focus, action.initial);
        break;
      case 'toggle':
        toggleCell(selection.focus);
        break;
      case 'clear':
        clearRange();
        break;
      case 'fillDown':
        fillDown();
        break;
      case 'undo':
        void replay(() => history.undo());
        break;
      case 'redo':
        void replay(() => history.redo());
        break;
      case 'moveRows': {
        if (!editable) break;
        if (!ownOrder) {
          showToast(t(groupField || layout.groupBy ? 'database.ungroupToMove' : 'database.unsortToMove'), 'info');
          break;
        }
        const row = store.rowAt(selection.focus.row);
        if (row) moveRows(row.id, (moving) => stepLine(moving, action.step, count));
        break;
      }
      case 'selectAll':
        setSelection({ anchor: { row: 0, col: 0 }, focus: { row: Math.max(0, count - 1), col: columns.length - 1 } });
        break;
      case 'cancel':
        if (checked.size) setChecked(new Set());
        else setSelection(cellSelection(selection.focus));
        break;
      default:
        break;
    }
  };

  /**
   * Text that came without a key of its own (a phone's keyboard, an IME, dictation, an
   * `insertText`): it starts editing the active cell with what came, as a typed key does; while
   * a row is being made it waits in the sink for that row.
   */
  const onTyped = () => {
    if (awaitingRow.current) return;
    const text = takeTyped();
    if (!text || !selection) return;
    const field = columns[selection.focus.col]?.field;
    if (field?.type === 'checkbox') return;
    startEditing(selection.focus, text);
  };

  // —— Clipboard: TSV both ways (useGridClipboard.ts) ——
  const { onCopy, onCut, onPaste } = useGridClipboard({ store, columns, selection, range, size, writes, rangeRows, clearRange, setSelection });

  // —— Rows: add, insert, delete (with undo) ——
  const [focusRowId, setFocusRowId] = useState<string | null>(null);
  /** A row asked for and not yet edited: the keyboard goes to the sink, and what is typed meanwhile becomes the start of its first cell. */
  const awaitingRow = useRef(false);
  const takeTyped = () => {
    const text = sink.current?.value ?? '';
    if (sink.current) sink.current.value = '';
    return text;
  };
  const addRow = (placeAfter?: string) => {
    awaitingRow.current = true;
    takeTyped();
    focusGrid();
    return inTurn(async () => {
      try {
        // Inserted under a row: under it in this view's own order too.
        const [row] = await db.api.createRows(databaseId, [{}], placeAfter, layout.uid);
        history.record({ added: [row.id] });
        if (placeAfter === undefined) rowVirtualizer.scrollToIndex(itemCount, { align: 'end' });
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
  const startEditingRef = useRef(startEditing);
  startEditingRef.current = startEditing;
  const focusIndex = focusRowId ? store.indexOf(focusRowId) : -1;
  useEffect(() => {
    if (focusIndex < 0) return;
    setFocusRowId(null);
    const pos = { row: focusIndex, col: 0 };
    setSelection(cellSelection(pos));
    // The keys keep going to the sink until the editor is there: it takes all they typed as it opens (below).
    if (!startEditingRef.current(pos, undefined, true)) {
      awaitingRow.current = false;
      takeTyped();
    }
  }, [focusIndex]);
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

  // —— Rows moved: dragged by their handle or Alt+Shift+↑/↓, where the rows' own order shows ——
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

  // —— Mouse: one handler for every cell (rows stay memoized) ——
  const dragging = useRef(false);
  const cellAt = (target: EventTarget | null): CellPos | null => {
    const cell = (target as HTMLElement | null)?.closest?.('[data-col]') as HTMLElement | null;
    const rowEl = cell?.closest('[data-row]') as HTMLElement | null;
    if (!cell || !rowEl) return null;
    return { row: Number(rowEl.dataset.row), col: Number(cell.dataset.col) };
  };
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
      void addRow(row.id);
      return;
    }
    if (target.closest('[data-check]') && row) {
      event.preventDefault();
      setChecked((set) => {
        const next = new Set(set);
        if (next.has(row.id)) next.delete(row.id);
        else next.add(row.id);
        return next;
      });
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
      awaitingRow.current = false;
      takeTyped();
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
    focusGrid();
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

  // —— Column resize: the width is saved to the view when the drag ends ——
  // Stable (the headers are memoized): reads the current table, columns and layout through a ref.
  const resizeContext = useRef({ table, columns, layout, saveView: db.saveView });
  resizeContext.current = { table, columns, layout, saveView: db.saveView };
  const startResize = useCallback((fieldId: string, event: React.MouseEvent | React.TouchEvent) => {
    const { table, columns, layout, saveView } = resizeContext.current;
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

  const reorder = useColumnReorder(layout, editable);
  // Rows are dropped only among the rows of this view.
  const rowScope = `${databaseId}:${layout.uid}`;

  /** A group's header toggled; collapsing the group that holds the active cell leaves no active cell. */
  const onToggleGroup = (g: number, shut: boolean) => {
    if (!groups) return;
    if (!shut && selection) {
      const first = groups.slice(0, g).reduce((sum, group) => sum + group.count, 0);
      if (selection.focus.row >= first && selection.focus.row < first + groups[g].count) setSelection(null);
    }
    toggleGroup(groupKey(groups[g].value));
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
  // The body draws scrolled rows without this component (VirtualBody): when the edited cell is
  // drawn anew (its row scrolled in, made, or read), this renders again to anchor the editor there.
  const editingWhere = useRef<{ at: number; col: number } | null>(null);
  editingWhere.current = editing && editingAt >= 0 && editingCol >= 0 ? { at: editingAt, col: editingCol } : null;
  const [, anchorAgain] = useReducer((n: number) => n + 1, 0);
  const afterDraw = useCallback(() => {
    const where = editingWhere.current;
    if (!where) return;
    const cell = drawnAt(where.at, where.col);
    if (cell && cell !== lastAnchor.current) anchorAgain();
  }, []);
  // An editor opened for a row just made starts with what was typed into the sink meanwhile (read
  // in the render that draws it): now drawn, it has the keys, and the sink is emptied. Nothing can
  // be typed between that render and this effect.
  const editorShown = Boolean(editing && editingCell && editingCol >= 0);
  useLayoutEffect(() => {
    if (!editing?.fromSink || !editorShown) return;
    const text = takeTyped();
    awaitingRow.current = false;
    setEditing((current) => (current === editing ? { ...current, fromSink: false, initial: text || undefined } : current));
  }, [editing, editorShown]);
  // The row moved (someone else's move, a sort): the grid scrolls to keep it in sight.
  const shownAt = useRef(-1);
  useEffect(() => {
    if (editingAt >= 0 && editingCol >= 0 && shownAt.current >= 0 && shownAt.current !== editingAt) reveal({ row: editingAt, col: editingCol });
    shownAt.current = editingAt;
  }, [editingAt, editingCol, reveal]);
  const allChecked = checked.size > 0 && checked.size >= count;

  // The rows' height (the virtualizer's total leaves out the header, its scroll margin).
  const hasFooter = columns.length > 0;
  const figures = useCalculations(savedLayout, changes);

  return (
    <div className={`db-table${fill ? ' is-fill' : ''}`}>
      {checked.size > 0 && (
        <div className="db-bulk" role="toolbar" aria-label={t('database.selectedRows', { count: checked.size })}>
          <span>{t('database.selectedRows', { count: checked.size })}</span>
          {editable && (
            <button type="button" className="db-button is-danger" onClick={() => void deleteChecked()}>
              {t('database.deleteRows')}
            </button>
          )}
          <button type="button" className="db-button" onClick={() => setChecked(new Set())}>
            {t('database.unselect')}
          </button>
        </div>
      )}
      <div
        className="db-scroll"
        ref={scroll}
        role="grid"
        id={gridId}
        aria-label={labels.table}
        aria-rowcount={count + 1}
        aria-colcount={columns.length}
        aria-readonly={!editable || undefined}
        aria-multiselectable
        onPointerDown={(event) => (pointer.current = event.pointerType)}
        onMouseDown={onMouseDown}
        onMouseOver={onMouseOver}
        onDoubleClick={onDoubleClick}
        onWheel={onUserScroll}
        onTouchMove={onUserScroll}
      >
        {/* The grid's keyboard and clipboard target: outside the page's editable (a portal), where
            Slate does not take a focused field for a selection in its void block. */}
        {createPortal(
          <textarea
            ref={sink}
            className="db-sink"
            aria-label={labels.keyboard}
            aria-controls={gridId}
            inputMode="none"
            onKeyDown={onKeyDown}
            onInput={onTyped}
            onCopy={onCopy}
            onCut={onCut}
            onPaste={onPaste}
          />,
          document.body,
        )}
        <div className={`db-canvas${sideways ? ' is-sideways' : ''}`} style={{ width: totalWidth, '--db-pin-title': `${gutter}px` } as CSSProperties}>
          <div className="db-header" role="row" aria-rowindex={1} style={{ width: totalWidth, height: HEADER_HEIGHT }}>
            <div className="db-gutter db-pin" style={{ left: 0, width: gutter }}>
              <input
                type="checkbox"
                aria-label={labels.selectAllRows}
                checked={allChecked}
                onChange={() => {
                  if (allChecked) setChecked(new Set());
                  else {
                    const ids = new Set<string>();
                    for (let i = 0; i < count; i += 1) {
                      const row = store.rowAt(i);
                      if (row) ids.add(row.id);
                    }
                    setChecked(ids);
                  }
                }}
              />
            </div>
            <ColumnHeader column={columns[0]} layout={layout} width={titleWidth} pinnedLeft={gutter} onResizeStart={startResize} />
            {leftPad > 0 && <div style={{ width: leftPad, flex: 'none' }} />}
            {virtualCols.map((vc) => (
              <ColumnHeader
                key={rest[vc.index].fieldId}
                column={rest[vc.index]}
                layout={layout}
                width={restWidths[vc.index]}
                onResizeStart={startResize}
                dragRef={reorder.ref(rest[vc.index].fieldId)}
                dropSide={reorder.over?.fieldId === rest[vc.index].fieldId ? reorder.over.side : undefined}
              />
            ))}
            {rightPad > 0 && <div style={{ width: rightPad, flex: 'none' }} />}
            {editable && <AddFieldButton layout={layout} width={ADD_COLUMN} />}
          </div>
          <VirtualBody
            virtualizer={rows}
            className="db-body"
            onRange={onRange}
            afterDraw={afterDraw}
            renderItem={(item) => {
              const rowIndex = rowOfItem(item.index);
              const top = item.start - HEADER_HEIGHT;
              if (rowIndex === null && grouped && groups) {
                const g = (grouped.itemAt(item.index) as { group: number }).group;
                const shut = groups[g] ? collapsed.has(groupKey(groups[g].value)) : false;
                return (
                  <GroupHeader
                    key={`g${g}`}
                    group={groups[g]}
                    field={groupField ? config.fields[groupField] : undefined}
                    top={top}
                    width={totalWidth}
                    members={db.members}
                    collapsed={shut}
                    onToggle={() => onToggleGroup(g, shut)}
                  />
                );
              }
              const r = rowIndex ?? item.index;
              const row = store.rowAt(r);
              const inSel = range && r >= range.top && r <= range.bottom;
              return (
                <Row
                  key={row?.id ?? `i${r}`}
                  index={r}
                  itemIndex={item.index}
                  measure={wraps ? rowVirtualizer.measureElement : undefined}
                  row={row}
                  columns={columns}
                  widths={widths}
                  colStart={colStart}
                  colEnd={colEnd}
                  leftPad={leftPad}
                  rightPad={rightPad}
                  top={top}
                  width={totalWidth}
                  activeCol={selection && selection.focus.row === r ? selection.focus.col : -1}
                  rangeLeft={inSel ? range.left : -1}
                  rangeRight={inSel ? range.right : -1}
                  checked={row ? checked.has(row.id) : false}
                  editable={editable}
                  canOpen={db.openRow !== undefined}
                  gutter={gutter}
                  labels={labels}
                  reorderable={ownOrder && editable && gutter === GUTTER}
                  scope={rowScope}
                  onRowDrop={onRowDrop}
                />
              );
            }}
          />
          {hasFooter && (
            <div className="db-footer" role="row" style={{ width: totalWidth, height: FOOTER_HEIGHT }}>
              <div className="db-gutter db-pin" style={{ left: 0, width: gutter }} />
              <CalculationCell column={columns[0]} layout={layout} width={titleWidth} pinnedLeft={gutter} figure={figures[columns[0].fieldId]} />
              {leftPad > 0 && <div style={{ width: leftPad, flex: 'none' }} />}
              {virtualCols.map((vc) => (
                <CalculationCell
                  key={rest[vc.index].fieldId}
                  column={rest[vc.index]}
                  layout={layout}
                  width={restWidths[vc.index]}
                  figure={figures[rest[vc.index].fieldId]}
                />
              ))}
            </div>
          )}
        </div>
      </div>
      {store.error != null && (
        <div className="db-error" role="alert">
          {t('database.readFailed')}
        </div>
      )}
      {store.count === 0 && (
        <div className="db-empty">
          {search ? t('database.noFound', { search }) : layout.filter?.rules.length ? t('database.noMatches') : t('database.noRows')}
        </div>
      )}
      {editable && (
        <button type="button" className="db-add-row" onClick={() => void addRow()}>
          + {labels.newRow}
        </button>
      )}
      {editing && editingCell && editingCol >= 0 && (
        <CellEditor
          key={`${editing.rowId}:${editing.fieldId}`}
          field={columns[editingCol].field}
          fieldId={editing.fieldId}
          value={editingRow ? cellOf(editingRow, editing.fieldId) : editing.base.value}
          initial={editing.fromSink ? sink.current?.value || undefined : editing.initial}
          anchor={editingCell}
          members={db.members}
          done={finishEditing}
          addOption={addOptionToField}
          rowId={editing.rowId}
          databaseId={db.databaseId}
        />
      )}
    </div>
  );

  /** A new option of a field, given to the cell at once; the field is saved meanwhile (`send` waits for it). */
  function addOptionToField(fieldId: string, name: string): string | null {
    const pending = optionSaves.current.get(fieldId);
    const field = pending?.field ?? config.fields[fieldId];
    if (!hasOptions(field)) return null;
    const option = { id: newId(), name, color: optionColor(field.options.length) };
    const next = withNewOptions(field, [option]);
    const saved = (pending?.saved ?? Promise.resolve(true)).then((before) => before && db.saveField(fieldId, next));
    const entry = { field: next, saved };
    optionSaves.current.set(fieldId, entry);
    void saved.finally(() => optionSaves.current.get(fieldId) === entry && optionSaves.current.delete(fieldId));
    return option.id;
  }
}

/** A write refused because its row is in the trash (or deleted for good) by now. */
function rowGone(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.code === ERROR_CODES.pageInTrash || error.code === ERROR_CODES.notFound);
}

/** The grid's words that every render (and every row) shows. */
function gridLabels(t: (key: string) => string): GridLabels {
  return {
    table: t('database.table'),
    keyboard: t('database.keyboard'),
    selectAllRows: t('database.selectAllRows'),
    newRow: t('database.newRow'),
    open: t('database.open'),
    untitledRow: t('database.untitledRow'),
    insertRow: t('database.insertRow'),
    selectRow: t('database.selectRow'),
    dragRow: t('database.dragRow'),
  };
}
