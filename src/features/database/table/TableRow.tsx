import { memo, useCallback, useRef } from 'react';
import type { WireRow } from '../../../../schema/database';
import { CellContent } from '../cells/cells';
import type { GridColumn } from '../fields/columns';
import { shownOf } from '../rows/rowStore';
import { useReorderable, type DropSide } from '../useReorderable';

export const ROW_HEIGHT = 34;
export const HEADER_HEIGHT = 34;
export const FOOTER_HEIGHT = 32;
/** The row gutter: «+» (a row below), the drag handle and the row's checkbox. */
export const GUTTER = 64;

/** The grid's words that every render (and every row) shows (`gridLabels` in TableView.tsx). */
export interface GridLabels {
  table: string;
  keyboard: string;
  selectAllRows: string;
  newRow: string;
  open: string;
  untitledRow: string;
  insertRow: string;
  selectRow: string;
  dragRow: string;
}

export interface RowProps {
  index: number;
  itemIndex: number;
  measure?: (element: Element | null) => void;
  row: WireRow | undefined;
  columns: GridColumn[];
  widths: number[];
  colStart: number;
  colEnd: number;
  leftPad: number;
  rightPad: number;
  top: number;
  width: number;
  activeCol: number;
  rangeLeft: number;
  rangeRight: number;
  checked: boolean;
  editable: boolean;
  /** Rows open (not on a published page). */
  canOpen: boolean;
  gutter: number;
  labels: GridLabels;
  /** The row can be dragged (and rows dropped on it): an editor, the rows' own order, not a phone. */
  reorderable: boolean;
  /** The list it is dragged in (the database and view). */
  scope: string;
  onRowDrop(rowId: string, targetId: string, side: DropSide): void;
  /** The start of its cells' ids (`cellId`): the grid's keyboard target names the active cell by it (aria-activedescendant). */
  idPrefix: string;
}

/** The id of the cell drawn at a row's and a column's index (the grid's `useId`, then the place). */
export function cellId(idPrefix: string, row: number, col: number): string {
  return `${idPrefix}-${row}-${col}`;
}

/** One row: re-rendered only when its row object, its selection or the columns drawn change. */
export const Row = memo(
  function Row({
    index,
    itemIndex,
    measure,
    row,
    columns,
    widths,
    colStart,
    colEnd,
    leftPad,
    rightPad,
    top,
    width,
    activeCol,
    rangeLeft,
    rangeRight,
    checked,
    editable,
    canOpen,
    gutter,
    labels,
    reorderable,
    scope,
    onRowDrop,
    idPrefix,
  }: RowProps) {
    const element = useRef<HTMLDivElement | null>(null);
    const handle = useRef<HTMLSpanElement>(null);
    const attach = useCallback(
      (node: HTMLDivElement | null) => {
        element.current = node;
        measure?.(node);
      },
      [measure],
    );
    const rowId = row?.id ?? '';
    const over = useReorderable(element, { kind: 'db-row', scope, id: rowId }, 'y', (id, side) => onRowDrop(id, rowId, side), {
      handle,
      enabled: reorderable && row !== undefined,
    });
    const cells = [];
    const cell = (col: number, pinned = false) => {
      const column = columns[col];
      const value = row ? shownOf(row, column.fieldId, column.field) : undefined;
      const selected = rangeLeft >= 0 && col >= rangeLeft && col <= rangeRight;
      const className = [
        'db-cell',
        pinned ? 'db-pin' : '',
        column.isWrap ? 'is-wrap' : '',
        selected ? 'is-selected' : '',
        activeCol === col ? 'is-active' : '',
        column.field.type === 'number' ? 'is-number' : '',
      ]
        .filter(Boolean)
        .join(' ');
      return (
        <div
          key={column.fieldId}
          id={cellId(idPrefix, index, col)}
          className={className}
          // The title names its row (a row header), as a spreadsheet's first column does to a screen reader.
          role={col === 0 ? 'rowheader' : 'gridcell'}
          // Column 1 is the rows' gutter (their checkboxes).
          aria-colindex={col + 2}
          aria-selected={selected}
          data-col={col}
          style={{ width: widths[col] }}
        >
          {column.field.type === 'checkbox' ? (
            <span
              className="db-checkbox"
              data-toggle
              role="checkbox"
              aria-checked={value === true}
              aria-disabled={!editable || undefined}
              aria-label={column.field.name}
            >
              {value === true ? '✓' : ''}
            </span>
          ) : row ? (
            <CellContent field={column.field} fieldId={column.fieldId} value={value} databaseId={row?.databaseId} />
          ) : null}
          {col === 0 && row && canOpen && (
            <button type="button" className="db-open" data-open tabIndex={-1}>
              {labels.open}
            </button>
          )}
          {col === 0 && row && !row.data.title && <span className="db-untitled">{labels.untitledRow}</span>}
        </div>
      );
    };
    cells.push(cell(0, true));
    if (leftPad > 0) cells.push(<div key="lp" style={{ width: leftPad, flex: 'none' }} />);
    for (let c = colStart; c <= colEnd; c += 1) cells.push(cell(c + 1));
    if (rightPad > 0) cells.push(<div key="rp" style={{ width: rightPad, flex: 'none' }} />);
    return (
      <div
        className={`db-row${checked ? ' is-checked' : ''}${row ? '' : ' is-loading'}${over ? ` is-drop-${over}` : ''}`}
        role="row"
        // Its place as drawn (after the column headers, group headers counted), not its row number.
        aria-rowindex={itemIndex + 2}
        data-row={index}
        data-index={itemIndex}
        ref={attach}
        style={{ transform: `translateY(${top}px)`, width, minHeight: ROW_HEIGHT }}
      >
        {/* A cell of its own (a row holds cells alone): the row's «+», handle and checkbox. */}
        <div className="db-gutter db-pin" role="gridcell" aria-colindex={1} style={{ width: gutter }}>
          {editable && row && gutter === GUTTER && (
            <button type="button" className="db-insert" data-insert tabIndex={-1} aria-label={labels.insertRow} title={labels.insertRow}>
              +
            </button>
          )}
          {reorderable && row && (
            // The dots are the class's mask, not an inline SVG: a row scrolled in makes 7 elements fewer.
            <span ref={handle} className="db-drag db-drag-dots" data-drag title={labels.dragRow} aria-hidden />
          )}
          {/* Drawn by CSS, not a native checkbox (a form control each row costs a scrolled frame
              ≈ 1 ms of style, layout and paint); toggled by the grid's mousedown ([data-check]). */}
          {row && <span className="db-check" data-check role="checkbox" aria-checked={checked} aria-label={labels.selectRow} />}
        </div>
        {cells}
      </div>
    );
  },
  (a, b) =>
    a.row === b.row &&
    a.columns === b.columns &&
    a.colStart === b.colStart &&
    a.colEnd === b.colEnd &&
    a.leftPad === b.leftPad &&
    a.rightPad === b.rightPad &&
    a.top === b.top &&
    a.width === b.width &&
    a.activeCol === b.activeCol &&
    a.rangeLeft === b.rangeLeft &&
    a.rangeRight === b.rangeRight &&
    a.checked === b.checked &&
    a.editable === b.editable &&
    a.canOpen === b.canOpen &&
    a.gutter === b.gutter &&
    a.labels === b.labels &&
    a.reorderable === b.reorderable &&
    a.scope === b.scope &&
    a.onRowDrop === b.onRowDrop &&
    a.index === b.index &&
    a.measure === b.measure &&
    a.idPrefix === b.idPrefix &&
    a.widths.join() === b.widths.join(),
);
