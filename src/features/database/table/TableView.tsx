import { createPortal } from 'react-dom';
import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasOptions, optionColor, withNewOptions, type DatabaseField, type DatabaseLayout } from '../../../../schema/blocks/database';
import { asStoredField } from '../../../../schema/formula/field';
import { newId } from '../../../../schema/ids';
import { CellEditor } from '../cells/cells';
import { VirtualBody } from './virtualBody';
import { useViewRows } from '../rows/viewRows';
import { RowTemplateMenu } from '../rows/RowTemplateMenu';
import { gridColumns } from '../fields/columns';
import { useDatabase } from '../context';
import { ColumnHeader, AddFieldButton } from '../fields/FieldMenu';
import { CalculationCell, useCalculations } from './Footer';
import { cellOf, type RowStore } from '../rows/rowStore';
import { useColumnReorder } from './useColumnReorder';
import { GroupHeader } from './GroupHeader';
import { useCellWrites } from './useCellWrites';
import { useGridClipboard } from './useGridClipboard';
import { FOOTER_HEIGHT, GUTTER, HEADER_HEIGHT, Row, cellId, type GridLabels } from './TableRow';
import { ADD_COLUMN, useGridGroups, useGridLayout } from './useGridLayout';
import { useGridEditing, useGridSelection, useGridSink } from './useGridEditing';
import { useGridCommands, useGridUndo } from './useGridCommands';
import { useHistoryInput } from '../../../app/historyInput';
import { useRowActions } from './useRowActions';
import { useColumnResize, useGridPointer } from './useGridPointer';
import { cellSelection } from './gridModel';
import { tabbableBeyond } from './leaveGrid';

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

/**
 * A database view as a spreadsheet (docs/web-app.md, «Table view»): rows and columns both
 * virtualized, the header and the title column sticky, keyboard and range selection, copy and
 * paste as TSV, the footer's calculations and group headers. Rows come from a windowed store;
 * a cell's change re-renders its row only. Its parts, each a hook of this folder: the geometry
 * (useGridLayout), the selection and the cell editor (useGridEditing), the writes and their
 * history (useCellWrites), undo and the keys' commands (useGridCommands), the rows as a whole
 * (useRowActions), the mouse (useGridPointer), the clipboard (useGridClipboard).
 */
export function TableView({ layout, savedLayout, onStore, fill, search = '' }: TableViewProps) {
  const { t } = useTranslation('automation');
  // Translated once: the grid renders on every frame of a scroll, and i18next's t is not free.
  const labels = useMemo(() => gridLabels(t), [t]);
  const db = useDatabase();
  const { config, editable } = db;
  const columns = useMemo(() => gridColumns(config, layout), [config, layout]);

  // Grouped rows come ordered by the group as the server's view says: the saved grouping decides.
  const store = useViewRows(layout, search, `${savedLayout.groupBy?.fieldId ?? ''}:${savedLayout.groupBy?.hideEmpty ? 1 : 0}`, onStore);
  const count = store.count ?? 0;
  const groups = useGridGroups(layout, savedLayout, store);
  const { groupField, collapsed, grouped } = groups;
  const grid = useGridLayout(columns, store, groups);
  const { gutter, titleWidth, widths, rest, restWidths, totalWidth, scroll, rows: rowItems, rowVirtualizer, virtualCols, leftPad, rightPad } = grid;

  const selection = useGridSelection(store, columns, grouped, grid.reveal);
  const { range } = selection;
  const sink = useGridSink();
  const gridId = useId();
  const writes = useCellWrites(store);
  const editing = useGridEditing({ store, columns, writes, selection, sink, reveal: grid.reveal, scroll });
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const { replay } = useGridUndo({ store, columns, writes, setChecked, setSelection: selection.setSelection });
  const rows = useRowActions({ layout, store, groups, grid, writes, selection, sink, editing, checked, setChecked, replay });
  /** The keys leave the cells (docs/web-app.md «Accessibility» → «Databases»): to the page's element after or before the grid, or to the grid as a whole. */
  const leave = (to: 'next' | 'previous' | 'grid') => {
    const element = scroll.current;
    if (!element) return;
    if (to === 'grid') return element.focus({ preventScroll: true });
    const beyond = tabbableBeyond(element, to === 'previous');
    if (beyond) beyond.focus();
    else sink.sink.current?.blur();
  };
  const commands = useGridCommands({ layout, groupField, store, columns, writes, selection, sink, editing, rows, checked, setChecked, replay, leave });
  /** The cells take the keys (the grid reached by Tab, or Enter or an arrow on the grid as a whole): the active cell, else the first. */
  const enterCells = () => {
    if (!selection.selection && count > 0) selection.select(cellSelection({ row: 0, col: 0 }));
    sink.focusGrid();
  };
  const onGridFocus = (event: FocusEvent<HTMLDivElement>) => {
    // The grid itself focused from elsewhere (Tab, Shift+Tab): on to its cells; not when Escape
    // left them for it (the focus comes from the keyboard target), nor on a click (the mouse selects cells itself).
    if (event.target !== event.currentTarget || event.relatedTarget === sink.sink.current || !event.currentTarget.matches(':focus-visible')) return;
    enterCells();
  };
  const onGridKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Tab' && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Escape, then Tab (or Shift+Tab): past the grid, its header's and footer's buttons too (Shift+Tab from after the grid reaches them).
      event.preventDefault();
      leave(event.shiftKey ? 'previous' : 'next');
    } else if (event.key === 'Enter' || event.key === 'F2' || event.key === ' ' || event.key.startsWith('Arrow')) {
      event.preventDefault();
      enterCells();
    } else if ((event.ctrlKey || event.metaKey) && !['Control', 'Meta', 'Shift', 'Alt'].includes(event.key)) {
      // Ctrl/⌘ with a key (undo, redo, select all, fill down) acts as on the cells, which take the keys again.
      enterCells();
      commands.onKeyDown(event as unknown as KeyboardEvent<HTMLTextAreaElement>);
    }
  };
  // The keyboard target names the active cell (aria-activedescendant) while it is drawn: a screen
  // reader says its value, its column and its row as the selection moves. Set after each drawing
  // of the grid and of its scrolled rows (the cell may be drawn later than the selection moves).
  const activeCell = useRef<string | null>(null);
  activeCell.current = selection.selection ? cellId(gridId, selection.selection.focus.row, selection.selection.focus.col) : null;
  const nameActiveCell = useCallback(() => {
    const target = sink.sink.current;
    if (!target) return;
    const id = activeCell.current;
    if (id && document.getElementById(id)) target.setAttribute('aria-activedescendant', id);
    else target.removeAttribute('aria-activedescendant');
  }, [sink.sink]);
  useLayoutEffect(nameActiveCell);
  const afterDraw = editing.afterDraw;
  const afterBodyDraw = useCallback(() => {
    afterDraw();
    nameActiveCell();
  }, [afterDraw, nameActiveCell]);
  // The browser's undo and redo (its Edit menu, a phone's gesture) are the grid's, as Ctrl/⌘+Z and Ctrl/⌘+Shift+Z are.
  useHistoryInput(sink.sink, { undo: () => void replay(() => writes.history.undo()), redo: () => void replay(() => writes.history.redo()) });
  const { onCopy, onCut, onPaste } = useGridClipboard({
    store,
    columns,
    selection: selection.selection,
    range,
    size: selection.size,
    writes,
    rangeRows: commands.rangeRows,
    clearRange: commands.clearRange,
    setSelection: selection.setSelection,
  });
  const pointer = useGridPointer({ store, columns, selection, sink, editing, rows });
  const startResize = useColumnResize(grid.table, columns, layout);
  const reorder = useColumnReorder(layout, editable);
  // Rows are dropped only among the rows of this view.
  const rowScope = `${db.databaseId}:${layout.uid}`;

  /** A group's header toggled; collapsing the group that holds the active cell leaves no active cell. */
  const onToggleGroup = (g: number, shut: boolean) => {
    const list = groups.groups;
    if (!list) return;
    const active = selection.selection;
    if (!shut && active) {
      const first = list.slice(0, g).reduce((sum, header) => sum + header.rows, 0);
      // A group's rows: its own, or its sub-groups' (those after it up to the next group).
      const end = list[g].level === 0 && list[g].rows === 0 ? first + list[g].group.count : first + list[g].rows;
      if (active.focus.row >= first && active.focus.row < end) selection.setSelection(null);
    }
    groups.toggleGroup(list[g].key);
  };
  const allChecked = checked.size > 0 && checked.size >= count;
  const hasFooter = columns.length > 0;
  const figures = useCalculations(savedLayout, store.changes);
  const editor = editing.editor;

  return (
    // Busy until its first rows are in: the server's drawing of the page stays over it till then (src/app/serverTop.ts).
    <div className={`db-table${fill ? ' is-fill' : ''}`} aria-busy={store.count === null || undefined}>
      {checked.size > 0 && (
        <div className="db-bulk" role="toolbar" aria-label={t('database.selectedRows', { count: checked.size })}>
          <span>{t('database.selectedRows', { count: checked.size })}</span>
          {editable && (
            <button type="button" className="db-button is-danger" onClick={() => void rows.deleteChecked()}>
              {t('database.deleteRows')}
            </button>
          )}
          <button type="button" className="db-button" onClick={() => rows.checkAll(false)}>
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
        // The header, the rows (and group headers) and the footer; the gutter, the fields and «+» (virtualised: each drawn cell says where it is).
        aria-rowcount={groups.itemCount + 1 + (hasFooter ? 1 : 0)}
        aria-colcount={columns.length + 1 + (editable ? 1 : 0)}
        aria-readonly={!editable || undefined}
        aria-multiselectable
        // One stop for Tab (its cells then take the keys); Escape on a cell comes back here.
        tabIndex={0}
        onFocus={onGridFocus}
        onKeyDown={onGridKey}
        {...pointer}
      >
        {/* The grid's keyboard and clipboard target: outside the page's editable (a portal), where
            Slate does not take a focused field for a selection in its void block. */}
        {/* Not on the server (the page's top drawn into index.html has no body to put it in, nor keys to take). */}
        {typeof document !== 'undefined' &&
          createPortal(
            <textarea
              ref={sink.sink}
              className="db-sink"
              aria-label={labels.keyboard}
              aria-controls={gridId}
              // Focused by the grid alone (Tab reaches the grid, not this target at the end of the page).
              tabIndex={-1}
              inputMode="none"
              onKeyDown={commands.onKeyDown}
              onInput={commands.onTyped}
              onCopy={onCopy}
              onCut={onCut}
              onPaste={onPaste}
            />,
            document.body,
          )}
        <div className={`db-canvas${grid.sideways ? ' is-sideways' : ''}`} style={{ width: totalWidth, '--db-pin-title': `${gutter}px` } as CSSProperties}>
          <div className="db-header" role="row" aria-rowindex={1} style={{ width: totalWidth, height: HEADER_HEIGHT }}>
            <div className="db-gutter db-pin" role="columnheader" aria-colindex={1} style={{ left: 0, width: gutter }}>
              <input type="checkbox" aria-label={labels.selectAllRows} checked={allChecked} onChange={() => rows.checkAll(!allChecked)} />
            </div>
            <ColumnHeader column={columns[0]} layout={layout} width={titleWidth} pinnedLeft={gutter} onResizeStart={startResize} colIndex={2} />
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
                colIndex={vc.index + 3}
              />
            ))}
            {rightPad > 0 && <div style={{ width: rightPad, flex: 'none' }} />}
            {editable && <AddFieldButton layout={layout} width={ADD_COLUMN} colIndex={columns.length + 2} />}
          </div>
          <VirtualBody
            virtualizer={rowItems}
            className="db-body"
            onRange={grid.onRange}
            afterDraw={afterBodyDraw}
            renderItem={(item) => {
              const rowIndex = grid.rowOfItem(item.index);
              const top = item.start - HEADER_HEIGHT;
              const list = groups.groups;
              if (rowIndex === null && grouped && list) {
                const g = (grouped.itemAt(item.index) as { group: number }).group;
                const header = list[g];
                const shut = header ? collapsed.has(header.key) : false;
                const byField = header?.level === 1 ? groups.subField : groupField;
                return (
                  <GroupHeader
                    key={`g${g}`}
                    group={header?.group}
                    level={header?.level ?? 0}
                    field={byField && config.fields[byField] ? (asStoredField(config.fields, byField) as DatabaseField) : undefined}
                    top={top}
                    rowIndex={item.index + 2}
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
                  // A row at several places (a group for each of its options): one key per place — never
                  // two alike, whatever groups are drawn meanwhile, or React would leave one drawn.
                  key={row ? (groups.split ? `${row.id}#${r}` : row.id) : `i${r}`}
                  index={r}
                  itemIndex={item.index}
                  measure={grid.wraps ? rowVirtualizer.measureElement : undefined}
                  row={row}
                  columns={columns}
                  widths={widths}
                  colStart={grid.colStart}
                  colEnd={grid.colEnd}
                  leftPad={leftPad}
                  rightPad={rightPad}
                  top={top}
                  width={totalWidth}
                  activeCol={selection.selection && selection.selection.focus.row === r ? selection.selection.focus.col : -1}
                  rangeLeft={inSel ? range.left : -1}
                  rangeRight={inSel ? range.right : -1}
                  checked={row ? checked.has(row.id) : false}
                  editable={editable}
                  canOpen={db.openRow !== undefined}
                  gutter={gutter}
                  labels={labels}
                  reorderable={rows.ownOrder && editable && gutter === GUTTER}
                  scope={rowScope}
                  onRowDrop={rows.onRowDrop}
                  idPrefix={gridId}
                />
              );
            }}
          />
          {hasFooter && (
            <div className="db-footer" role="row" aria-rowindex={groups.itemCount + 2} style={{ width: totalWidth, height: FOOTER_HEIGHT }}>
              <div className="db-gutter db-pin" role="gridcell" aria-colindex={1} style={{ left: 0, width: gutter }} />
              <CalculationCell column={columns[0]} layout={layout} width={titleWidth} pinnedLeft={gutter} figure={figures[columns[0].fieldId]} colIndex={2} />
              {leftPad > 0 && <div style={{ width: leftPad, flex: 'none' }} />}
              {virtualCols.map((vc) => (
                <CalculationCell
                  key={rest[vc.index].fieldId}
                  column={rest[vc.index]}
                  layout={layout}
                  width={restWidths[vc.index]}
                  figure={figures[rest[vc.index].fieldId]}
                  colIndex={vc.index + 3}
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
        <div className="db-add-line">
          <button type="button" className="db-add-row" onClick={() => void rows.addRow()}>
            + {labels.newRow}
          </button>
          <RowTemplateMenu onCreate={(templateId) => void rows.addRow(undefined, templateId)} />
        </div>
      )}
      {editor && (
        <CellEditor
          key={`${editor.editing.rowId}:${editor.editing.fieldId}`}
          field={columns[editor.col].field}
          fieldId={editor.editing.fieldId}
          value={editor.row ? cellOf(editor.row, editor.editing.fieldId) : editor.editing.base.value}
          initial={editor.editing.fromSink ? sink.sink.current?.value || undefined : editor.editing.initial}
          anchor={editor.cell}
          members={db.members}
          done={editing.finishEditing}
          addOption={addOptionToField}
          rowId={editor.editing.rowId}
          databaseId={db.databaseId}
        />
      )}
    </div>
  );

  /** A new option of a field, given to the cell at once; the field is saved meanwhile (`send` waits for it). */
  function addOptionToField(fieldId: string, name: string): string | null {
    const { optionSaves } = writes;
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
