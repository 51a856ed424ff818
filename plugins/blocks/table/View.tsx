import { useTranslation } from 'react-i18next';
import { ReactEditor, useReadOnly, useSelected, useSlateStatic, type RenderElementProps } from 'slate-react';
import type { PointerEvent as ReactPointerEvent, ReactNode } from 'react';
import { clampColumnSize } from './block';
import type { TableElement } from '../../../schema/slate';
import { cellAt, deleteColumn, deleteRow, insertColumn, insertRow, setColumnSize, toggleHeaderColumn, toggleHeaderRow } from '../../withTables';
import { Icon } from '../../../src/ui/icons';
import './table.css';
import { blockRootProps, editorT, type BlockViews } from '../../../src/editor/blockView';

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
      {/* A box that scrolls sideways (a phone): in the tab order when read-only, so the keys scroll it (axe's
          scrollable-region-focusable); while editing, the caret inside scrolls it. */}
      <div className="table-scroll" {...(readOnly ? { tabIndex: 0, role: 'region', 'aria-label': editorT('table.scrollLabel') } : {})}>
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
  /** An icon button; its name is both the tooltip and the accessible name. */
  const tool = (label: string, icon: ReactNode, run: (p: { row: number; column: number }) => void, extra: { disabled?: boolean; pressed?: boolean } = {}) => (
    <button type="button" className="table-tool" title={label} aria-label={label} disabled={extra.disabled} aria-pressed={extra.pressed} {...act(run)}>
      {icon}
    </button>
  );
  return (
    <div className="table-toolbar" contentEditable={false} role="toolbar" aria-label={t('table.toolbar')}>
      {tool(t('table.rowAbove'), <TableToolIcon d="M3 13h18v8H3zM12 2v8M8 6h8" />, ({ row }) => insertRow(editor, table.uid, row))}
      {tool(t('table.rowBelow'), <TableToolIcon d="M3 3h18v8H3zM12 14v8M8 18h8" />, ({ row }) => insertRow(editor, table.uid, row + 1))}
      {tool(t('table.deleteRow'), <TableToolIcon d="M2 8h12v8H2zM17 9l5 6M22 9l-5 6" />, ({ row }) => deleteRow(editor, table.uid, row), {
        disabled: rows <= 1,
      })}
      <span className="table-toolbar-gap" />
      {tool(t('table.columnLeft'), <TableToolIcon d="M13 3h8v18h-8zM2 12h8M6 8v8" />, ({ column }) => insertColumn(editor, table.uid, column))}
      {tool(t('table.columnRight'), <TableToolIcon d="M3 3h8v18H3zM14 12h8M18 8v8" />, ({ column }) => insertColumn(editor, table.uid, column + 1))}
      {tool(t('table.deleteColumn'), <TableToolIcon d="M8 2h8v12H8zM9 17l6 5M15 17l-6 5" />, ({ column }) => deleteColumn(editor, table.uid, column), {
        disabled: columns <= 1,
      })}
      <span className="table-toolbar-gap" />
      {tool(t('table.headerRow'), <TableToolIcon d="M4 4h16v16H4zM4 15h16M10 10v10" filled="M4 4h16v6H4z" />, () => toggleHeaderRow(editor, table.uid), {
        pressed: table.headerRow,
      })}
      {tool(t('table.headerColumn'), <TableToolIcon d="M4 4h16v16H4zM10 10h10M10 15h10" filled="M4 4h6v16H4z" />, () => toggleHeaderColumn(editor, table.uid), {
        pressed: table.headerColumn,
      })}
    </div>
  );
}

/** A 16 px line icon of the table toolbar; `filled` is a shaded part (the header row or column). */
function TableToolIcon({ d, filled }: { d: string; filled?: string }) {
  return (
    <Icon size={16}>
      {filled ? <path d={filled} fill="currentColor" fillOpacity={0.35} /> : null}
      <path d={d} />
    </Icon>
  );
}

export const blockViews: BlockViews = { tableBlock: TableView, tableRow: TableRowView, tableCell: TableCellView };
