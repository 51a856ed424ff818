import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { columnResizingFeature, columnSizingFeature, tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { splitsRows, type DatabaseLayout } from '../../../../schema/blocks/database';
import type { WireGroup, WireRow } from '../../../../schema/database';
import { onPhone, watchPhone } from '../../../ui/useIsPhone';
import { useDatabase } from '../context';
import { MAX_WIDTH, MIN_WIDTH, type GridColumn } from '../fields/columns';
import { groupKey, useCollapsedGroups } from '../rows/collapsedGroups';
import type { RowStore } from '../rows/rowStore';
import { groupedLayout, type CellPos } from './gridModel';
import { firstRowOf, lastRowOf } from './gridSelection';
import { FOOTER_HEIGHT, GUTTER, HEADER_HEIGHT, ROW_HEIGHT } from './TableRow';
import { useQuietVirtualizer } from './virtualBody';

/** On a phone: the gutter holds the checkbox only, and the sticky title column leaves room for the others. */
const PHONE_GUTTER = 32;
const PHONE_TITLE = 150;
export const ADD_COLUMN = 44;

const features = tableFeatures({ columnSizingFeature, columnResizingFeature });
const NO_ROWS: WireRow[] = [];

/**
 * A grouped view's groups (a header before each group's rows): read by the view's id as the
 * server's view says, again when its rows change; the groups this browser keeps collapsed.
 */
export function useGridGroups(layout: DatabaseLayout, savedLayout: DatabaseLayout, store: RowStore) {
  const db = useDatabase();
  const { databaseId } = db;
  const groupField = savedLayout.groupBy?.fieldId;
  const count = store.count ?? 0;
  const [groups, setGroups] = useState<WireGroup[] | null>(null);
  const shown = useRef<WireGroup[] | null>(null);
  useEffect(() => {
    shown.current = groups;
  }, [groups]);
  const changes = store.changes;
  // Which grouping the groups read are of (another view, field or buckets: a new one), and the latest read.
  const generation = useRef(0);
  const latest = useRef(0);
  // The grouping and the rows grouped (a column's width changes neither).
  const grouping = JSON.stringify([savedLayout.groupBy ?? null, savedLayout.filter ?? null, savedLayout.sorts ?? null]);
  useEffect(() => {
    generation.current += 1;
    // The first groups of a new grouping come with its rows: nothing to read again for them.
    shown.current = null;
    if (!groupField) setGroups(null);
    // Unmounted: no answer is taken.
    return () => void (generation.current += 1);
  }, [databaseId, layout.uid, groupField, grouping]);
  useEffect(() => {
    if (!groupField) return;
    const gen = generation.current;
    const current = (id: number) => gen === generation.current && id === latest.current;
    const timer = setTimeout(
      () => {
        const id = ++latest.current;
        db.api.groups(databaseId, layout.uid).then(
          async (list) => {
            // Rows that changed group (a cell of the group field written, here or by someone): the
            // rows are read again before the new headers show, so each header stays over its own
            // rows. (The refresh makes this effect run again: its groups then match, nothing more.)
            const before = shown.current;
            if (before && current(id) && JSON.stringify(before) !== JSON.stringify(list)) await store.refresh().catch(() => undefined);
            if (current(id)) setGroups(list);
          },
          () => current(id) && setGroups(null),
        );
      },
      changes === 0 ? 0 : 300,
    );
    return () => clearTimeout(timer);
  }, [db.api, databaseId, layout.uid, groupField, savedLayout, changes, count, store]);
  // Collapsed groups: a personal preference of this browser (collapsedGroups.ts).
  const [collapsed, toggleGroup] = useCollapsedGroups(databaseId, layout.uid, groupField);
  const subField = savedLayout.groupBy?.sub?.fieldId;
  // The headers in the table's order: a group, then its sub-groups' (each before its rows).
  const headers = useMemo(() => (groups ? gridHeaders(groups) : null), [groups]);
  const grouped = useMemo(() => {
    if (!headers || !groupField) return null;
    const shut = new Set<number>();
    const hidden = new Set<number>();
    let parentShut = false;
    headers.forEach((header, i) => {
      if (header.level === 0) parentShut = collapsed.has(header.key);
      // A sub-group of a collapsed group: no header, no rows.
      else if (parentShut) hidden.add(i);
      if (collapsed.has(header.key) || hidden.has(i)) shut.add(i);
    });
    return groupedLayout(
      headers.map((header) => header.rows),
      shut,
      hidden,
    );
  }, [headers, groupField, collapsed]);
  // A table by a multi-select or a relation to its own rows: a row in each of its values' groups (at several places).
  const split = !!groupField && splitsRows(db.config, databaseId, groupField);
  return { groupField, subField, split, groups: headers, collapsed, toggleGroup, grouped, itemCount: grouped ? grouped.size : count };
}

/** A header of a grouped table: its group (a sub-group at level 1), the rows right under it (a group with sub-groups: none), its collapse key. */
export interface GridHeader {
  group: WireGroup;
  level: 0 | 1;
  rows: number;
  key: string;
}

/** The server's groups (with their sub-groups) as the table's headers, in order; a sub-group's key names its group too. */
export function gridHeaders(groups: readonly WireGroup[]): GridHeader[] {
  return groups.flatMap((group): GridHeader[] => {
    const key = groupKey(group.value);
    if (!group.groups) return [{ group, level: 0, rows: group.count, key }];
    return [
      { group, level: 0, rows: 0, key },
      ...group.groups.map((sub): GridHeader => ({ group: sub, level: 1, rows: sub.count, key: `${key}>${groupKey(sub.value)}` })),
    ];
  });
}

export type GridGroups = ReturnType<typeof useGridGroups>;

/**
 * The grid's geometry: the columns' sizes through TanStack Table (resizing), the rows' and the
 * columns' positions through TanStack Virtual (both virtualized; the gutter and the title column
 * pinned), and the store told which rows are drawn.
 */
export function useGridLayout(columns: GridColumn[], store: RowStore, { grouped, itemCount }: Pick<GridGroups, 'grouped' | 'itemCount'>) {
  const { editable } = useDatabase();
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
  // Quiet: only the body (VirtualBody) renders as the rows scrolled in change, not the grid.
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
  /** Scrolls a cell into sight (by its row's item: a grouped view has headers between rows). */
  const reveal = useCallback(
    (pos: CellPos) => {
      rowVirtualizer.scrollToIndex(grouped ? grouped.itemOfRow(pos.row) : pos.row, { align: 'auto' });
      if (pos.col > 0) colVirtualizer.scrollToIndex(pos.col - 1, { align: 'auto' });
    },
    [rowVirtualizer, colVirtualizer, grouped],
  );
  return {
    table,
    gutter,
    titleWidth,
    widths,
    rest,
    restWidths,
    totalWidth,
    scroll,
    wraps,
    rows,
    rowVirtualizer,
    sideways,
    rowOfItem,
    onRange,
    reveal,
    virtualCols,
    colStart: virtualCols.length ? virtualCols[0].index : 0,
    colEnd: virtualCols.length ? virtualCols[virtualCols.length - 1].index : -1,
    leftPad: virtualCols.length ? virtualCols[0].start - pinned : 0,
    rightPad: virtualCols.length ? colVirtualizer.getTotalSize() - virtualCols[virtualCols.length - 1].end : 0,
  };
}

export type GridLayout = ReturnType<typeof useGridLayout>;
