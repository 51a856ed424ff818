import { useTranslation } from 'react-i18next';
import { ReactEditor, useReadOnly, useSelected, useSlateStatic, type RenderElementProps } from 'slate-react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import { clampColumnSize } from '../../../../schema/blocks/table';
import type { TableElement } from '../../../../schema/slate';
import {
  cellAt,
  deleteColumn,
  deleteRow,
  insertColumn,
  insertRow,
  setColumnSize,
  toggleHeaderColumn,
  toggleHeaderRow,
} from '../../../../plugins/withTables';
import { blockRootProps } from '../../renderers';
import './table.css';

/**
 * A table block: a real <table> whose rows and cells are Slate elements (TableRowView,
 * TableCellView). Column widths come from tableLayout.columnSizes; the handle at a cell's right
 * edge resizes its column (live on the <col>, saved with one setNodes on release). Header row
 * and column are drawn by CSS from the flags, so a keystroke re-renders only its own cell.
 */
export function TableView({ element, attributes, children }: RenderElementProps) {
  const table = element as TableElement;
  const readOnly = useReadOnly();
  const selected = useSelected();
  const sizes = table.tableLayout.columnSizes;
  const width = sizes.reduce((sum, size) => sum + size, 0);
  return (
    <div
      {...attributes}
      {...blockRootProps(table, 'block-table')}
      data-header-row={table.headerRow ? '' : undefined}
      data-header-column={table.headerColumn ? '' : undefined}
    >
      {!readOnly && selected ? <TableToolbar table={table} /> : null}
      <div className="table-scroll">
        <table className="table-grid" style={{ width }}>
          <colgroup contentEditable={false}>
            {sizes.map((size, column) => (
              <col key={column} style={{ width: size }} />
            ))}
          </colgroup>
          <tbody>{children}</tbody>
        </table>
      </div>
    </div>
  );
}

export function TableRowView({ attributes, children }: RenderElementProps) {
  return <tr {...attributes}>{children}</tr>;
}

export function TableCellView({ element, attributes, children }: RenderElementProps) {
  const editor = useSlateStatic();
  const readOnly = useReadOnly();

  const startResize = (event: ReactPointerEvent<HTMLSpanElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    const path = ReactEditor.findPath(editor, element);
    const place = cellAt(editor, path);
    if (!place) return;
    const tableElement = editor.children[place.table] as TableElement;
    const column = place.column;
    const startX = event.clientX;
    const startSize = tableElement.tableLayout.columnSizes[column];
    const grid = event.currentTarget.closest('table');
    const col = grid?.querySelectorAll('col')[column];
    const handle = event.currentTarget;
    handle.setPointerCapture?.(event.pointerId);
    let size = startSize;
    const move = (e: PointerEvent) => {
      size = clampColumnSize(startSize + e.clientX - startX);
      if (col) col.style.width = `${size}px`;
      if (grid) grid.style.width = `${tableElement.tableLayout.columnSizes.reduce((sum, s, i) => sum + (i === column ? size : s), 0)}px`;
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      setColumnSize(editor, tableElement.uid, column, size);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  };

  return (
    <td {...attributes} className="table-cell">
      {children}
      {readOnly ? null : <span className="table-resize-handle" contentEditable={false} onPointerDown={startResize} aria-hidden="true" />}
    </td>
  );
}

/** Row, column and header actions for the cell the caret is in. */
function TableToolbar({ table }: { table: TableElement }) {
  const { t } = useTranslation('documentEditor');
  const editor = useSlateStatic();
  /** The caret's cell in this table, or the last cell when the caret is elsewhere. */
  const place = () => {
    const at = editor.selection ? cellAt(editor, editor.selection.anchor.path) : null;
    if (at && editor.children[at.table] === table) return at;
    return { table: -1, row: table.children.length - 1, column: table.tableLayout.columns - 1 };
  };
  const act = (run: (p: { row: number; column: number }) => void) => ({
    // The mouse does not take the focus from the cell, so the caret stays where it was.
    onMouseDown: (event: { preventDefault(): void }) => event.preventDefault(),
    onClick: () => run(place()),
  });
  const rows = table.children.length;
  const columns = table.tableLayout.columns;
  return (
    <div className="table-toolbar" contentEditable={false} role="toolbar" aria-label={t('table.toolbar')}>
      <button type="button" {...act(({ row }) => insertRow(editor, table.uid, row))}>
        {t('table.rowAbove')}
      </button>
      <button type="button" {...act(({ row }) => insertRow(editor, table.uid, row + 1))}>
        {t('table.rowBelow')}
      </button>
      <button type="button" disabled={rows <= 1} {...act(({ row }) => deleteRow(editor, table.uid, row))}>
        {t('table.deleteRow')}
      </button>
      <span className="table-toolbar-gap" />
      <button type="button" {...act(({ column }) => insertColumn(editor, table.uid, column))}>
        {t('table.columnLeft')}
      </button>
      <button type="button" {...act(({ column }) => insertColumn(editor, table.uid, column + 1))}>
        {t('table.columnRight')}
      </button>
      <button type="button" disabled={columns <= 1} {...act(({ column }) => deleteColumn(editor, table.uid, column))}>
        {t('table.deleteColumn')}
      </button>
      <span className="table-toolbar-gap" />
      <button type="button" aria-pressed={table.headerRow} {...act(() => toggleHeaderRow(editor, table.uid))}>
        {t('table.headerRow')}
      </button>
      <button type="button" aria-pressed={table.headerColumn} {...act(() => toggleHeaderColumn(editor, table.uid))}>
        {t('table.headerColumn')}
      </button>
    </div>
  );
}
