import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  MAIN_FIELD_ID,
  TIMELINE_SCALES,
  type DatabaseField,
  type DatabaseLayout,
  type TimelineConfig,
  type TimelineScale,
} from '../../../../schema/blocks/database';
import { MAX_ROW_WINDOW, type WireRow } from '../../../../schema/database';
import { showToast } from '../../../ui/Toast';
import { useViewRows } from '../rows/viewRows';
import { CellContent } from '../cells/cells';
import { writeOver } from '../cells/cellWrites';
import { useDatabase } from '../context';
import { addFieldFor, DateFieldNeeded, DateFieldSelect } from '../fields/DateFields';
import { cellOf, shownOf, WINDOW_SIZE, type RowStore } from '../rows/rowStore';
import { dependencyArrows, MAX_SHIFTED, readDependants, shiftDependants, type Planned } from './timelineDependencies';
import { onPhone, watchPhone } from '../../../ui/useIsPhone';
import {
  axisAround,
  axisGroups,
  axisTicks,
  axisWidth,
  barGeometry,
  cellsForDay,
  cellsFromBar,
  dayAt,
  dayOf,
  dayX,
  draggedSpan,
  ROW_HEIGHT,
  rowSpan,
  snapDays,
  todayNumber,
  type Axis,
  type CellChange,
  type DragMode,
  type Span,
  type TimelineFields,
} from './timelineScale';

/** The time axis's two lines: months or years, then days, weeks, months or quarters. */
const HEADER_HEIGHT = 52;
const TITLE_WIDTH = 220;
const FIELD_WIDTH = 120;
/** Fields beside the title in the table pane, at most (the view's first visible ones). */
const PANE_FIELDS = 2;
const PHONE_TITLE_WIDTH = 132;
/** A pointer moved less than this (px) is a click on the bar, not a drag. */
const DRAG_SLOP = 3;
/** Pixels beyond the screen's edges in which bars are still drawn (a label after a bar reaches out). */
const BAR_REACH = 240;

export interface TimelineViewProps {
  /** The view as shown (its unsaved changes over it). */
  layout: DatabaseLayout;
  /** Called with the view's row store (the realtime events go to it). */
  onStore?(store: RowStore | null): void;
  /** Full height (a Database page). */
  fill?: boolean;
  /** Rows whose title has this (the search box; not saved to the view). */
  search?: string;
}

/** The date fields a timeline config names that are date fields now; null without a start. */
function timelineFields(layout: DatabaseLayout, fields: Record<string, DatabaseField>): TimelineFields | null {
  const config = layout.timeline;
  const isDate = (id: string | null | undefined): id is string => !!id && Object.hasOwn(fields, id) && fields[id].type === 'date';
  if (!config || !isDate(config.startFieldId)) return null;
  return { startFieldId: config.startFieldId, endFieldId: isDate(config.endFieldId) && config.endFieldId !== config.startFieldId ? config.endFieldId : null };
}

/**
 * A Timeline view (issue 17; docs/web-app.md «Timeline view»): the view's rows, in its order and
 * filter, as bars from a start date to an end date (`layout.timeline`) over a day, week, month or
 * quarter axis, a table pane of the title and the first fields on the left. Rows come from the
 * Table view's windowed store (the same query, so its first window is the one asked for early)
 * and are drawn only where on screen; bars, labels and ticks only for the days on screen; grid
 * lines are the lanes' background. Editors drag a bar to move it, its ends to resize it, click
 * an empty lane to give its row a day: one write on the drop (`writeOver`).
 */
export function TimelineView({ layout, onStore, fill, search = '' }: TimelineViewProps) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const fields = timelineFields(layout, db.config.fields);
  const dateFields = useMemo(() => Object.entries(db.config.fields).filter(([, f]) => f.type === 'date'), [db.config.fields]);
  const setFields = (startFieldId: string) =>
    void db.saveView(layout.uid, {
      timeline: { ...layout.timeline, startFieldId, endFieldId: layout.timeline?.endFieldId === startFieldId ? null : layout.timeline?.endFieldId },
    });
  if (dateFields.length === 0) {
    return (
      <div className="db-timeline">
        <DateFieldNeeded message={t('database.timeline.needsField')} onAdded={setFields} />
      </div>
    );
  }
  if (!fields) {
    return (
      <div className="db-timeline">
        {db.editable ? (
          <TimelineFieldsSetup layout={layout} fields={fields} dateFields={dateFields} />
        ) : (
          <div className="db-empty">{t('database.timeline.notSet')}</div>
        )}
      </div>
    );
  }
  return <TimelineLanes layout={layout} fields={fields} dateFields={dateFields} onStore={onStore} fill={fill} search={search} />;
}

/** «Начало … Конец …»: the date fields of the bars (editors; the end may be none: the start field's range). */
function TimelineFieldsSetup({
  layout,
  fields,
  dateFields,
}: {
  layout: DatabaseLayout;
  fields: TimelineFields | null;
  dateFields: Array<[string, DatabaseField]>;
}) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const save = (next: TimelineFields) => void db.saveView(layout.uid, { timeline: { ...layout.timeline, ...next } });
  return (
    <div className="db-chart-setup db-timeline-setup">
      <DateFieldSelect
        label={t('database.timeline.start')}
        value={fields?.startFieldId ?? ''}
        fields={dateFields}
        onChange={(id) => save({ startFieldId: id, endFieldId: fields?.endFieldId === id ? null : (fields?.endFieldId ?? null) })}
      />
      {fields && (
        <DateFieldSelect
          label={t('database.timeline.end')}
          value={fields.endFieldId ?? ''}
          fields={dateFields.filter(([id]) => id !== fields.startFieldId)}
          none={t('database.timeline.endOfRange')}
          onChange={(id) => save({ startFieldId: fields.startFieldId, endFieldId: id || null })}
        />
      )}
    </div>
  );
}

/** Dependencies: which relation field says what blocks a row («Без зависимостей»: none), or a new one made for it («Заблокировано»). */
function DependencySetup({ layout, value }: { layout: DatabaseLayout; value: string | null }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const relations = Object.entries(db.config.fields).filter(([, f]) => f.type === 'relation');
  const save = (dependencyFieldId: string | null) => void db.saveView(layout.uid, { timeline: { ...(layout.timeline as TimelineConfig), dependencyFieldId } });
  const NEW = '+new';
  const choose = (id: string) =>
    id === NEW ? addFieldFor(db, { name: t('database.timeline.blockedBy'), type: 'relation' }, save, t('database.writeFailed')) : save(id || null);
  return (
    <div className="db-chart-setup db-timeline-setup">
      <DateFieldSelect
        label={t('database.timeline.dependencies')}
        value={value ?? ''}
        fields={[...relations, [NEW, { name: t('database.timeline.newBlockedBy') }]]}
        none={t('database.timeline.noDependencies')}
        onChange={(id) => void choose(id)}
      />
    </div>
  );
}

interface Drag {
  rowId: string;
  mode: DragMode;
  x: number;
  scrollLeft: number;
  span: Span;
  days: number;
  moved: boolean;
}

interface PaneColumn {
  fieldId: string;
  field: DatabaseField;
  width: number;
}

function TimelineLanes({
  layout,
  fields,
  dateFields,
  onStore,
  fill,
  search,
}: TimelineViewProps & { fields: TimelineFields; dateFields: Array<[string, DatabaseField]>; search: string }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { databaseId, editable } = db;

  // —— Rows: the Table view's store and query (its first window asked for early) ——
  const rowsApi = db.api;
  const store = useViewRows(layout, search, 'timeline', onStore);
  const count = store.count ?? 0;

  // —— Scale and table pane: saved in the view by editors, kept here for readers ——
  const config = layout.timeline as TimelineConfig;
  const [ownScale, setOwnScale] = useState<TimelineScale | null>(null);
  const [ownTable, setOwnTable] = useState<boolean | null>(null);
  const scale = ownScale ?? config.scale ?? 'week';
  const showTable = ownTable ?? config.table ?? true;
  const phone = useSyncExternalStore(watchPhone, onPhone, () => false);
  const scroll = useRef<HTMLDivElement>(null);
  // Fields beside the title as the width allows: the pane takes under half of it (none on a phone).
  const [box, setBox] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = scroll.current;
    if (!el) return;
    const measure = () =>
      setBox((current) =>
        current.width === el.clientWidth && current.height === el.clientHeight ? current : { width: el.clientWidth, height: el.clientHeight },
      );
    measure();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const paneFields = phone ? 0 : Math.max(0, Math.min(PANE_FIELDS, Math.floor((box.width * 0.45 - TITLE_WIDTH) / FIELD_WIDTH)));
  const columns = useMemo<PaneColumn[]>(
    () =>
      layout.orderedFields
        .filter((entry) => entry.fieldId !== MAIN_FIELD_ID && Object.hasOwn(db.config.fields, entry.fieldId))
        .slice(0, paneFields)
        .map((entry) => ({ fieldId: entry.fieldId, field: db.config.fields[entry.fieldId], width: FIELD_WIDTH })),
    [layout.orderedFields, db.config.fields, paneFields],
  );
  const titleWidth = phone ? PHONE_TITLE_WIDTH : TITLE_WIDTH;
  const pane = showTable ? titleWidth + columns.reduce((sum, c) => sum + c.width, 0) : 0;

  // —— The axis around today ——
  const today = useMemo(() => todayNumber(), []);
  const axis = useMemo(() => axisAround(scale, today), [scale, today]);
  const quarter = useCallback((roman: string) => t('database.timeline.quarter', { n: roman }), [t]);
  const ticks = useMemo(() => axisTicks(axis, quarter), [axis, quarter]);
  const width = axisWidth(axis);

  const rowVirtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroll.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: HEADER_HEIGHT,
    initialRect: { width: 1000, height: 600 },
  });
  const tickVirtualizer = useVirtualizer({
    horizontal: true,
    count: ticks.length,
    getScrollElement: () => scroll.current,
    estimateSize: (i) => ticks[i].days * axis.dayWidth,
    paddingStart: pane,
    overscan: 4,
    initialRect: { width: 1000, height: 600 },
  });
  useLayoutEffect(() => tickVirtualizer.measure(), [ticks, pane, tickVirtualizer]);

  const items = rowVirtualizer.getVirtualItems();
  const firstRow = items.length ? items[0].index : 0;
  const lastRow = items.length ? items[items.length - 1].index : 0;
  useEffect(() => store.setVisible(firstRow, lastRow), [store, firstRow, lastRow]);
  const virtualTicks = tickVirtualizer.getVirtualItems();
  // The days on screen (with the ticks' overscan): what bars, labels and groups are drawn for.
  const fromX = virtualTicks.length ? virtualTicks[0].start - pane : 0;
  const toX = virtualTicks.length ? virtualTicks[virtualTicks.length - 1].end - pane : 0;
  const groups = useMemo(() => axisGroups(axis, dayAt(axis, fromX), dayAt(axis, toX) + 1), [axis, fromX, toX]);

  // —— Opening on today; a new scale keeps the day at the left third of the screen ——
  const focus = useRef<number>(today);
  const scrollToDay = useCallback(
    (day: number, behavior: ScrollBehavior = 'auto') => {
      const el = scroll.current;
      if (!el) return;
      const lanes = el.clientWidth - pane;
      const left = Math.max(0, dayX(axis, day) - lanes / 3);
      if (behavior === 'smooth' && typeof el.scrollTo === 'function') el.scrollTo({ left, behavior });
      else el.scrollLeft = left;
    },
    [axis, pane],
  );
  useLayoutEffect(() => scrollToDay(focus.current), [axis]); // eslint-disable-line react-hooks/exhaustive-deps
  const dayInFocus = () => {
    const el = scroll.current;
    return el ? dayAt(axis, el.scrollLeft + (el.clientWidth - pane) / 3) : today;
  };
  const chooseScale = (next: TimelineScale) => {
    if (next === scale) return;
    focus.current = dayInFocus();
    if (editable) void db.saveView(layout.uid, { timeline: { ...config, scale: next } });
    else setOwnScale(next);
  };
  const toggleTable = () => {
    if (editable) void db.saveView(layout.uid, { timeline: { ...config, table: !showTable } });
    else setOwnTable(!showTable);
  };

  // —— Writes: one call on a drop, shown at once, put back on failure ——
  const commitRows = useCallback(
    async (changed: ReadonlyArray<readonly [WireRow, CellChange[]]>) => {
      const cells = changed.flatMap(([row, changes]) =>
        changes.map((c) => ({ rowId: row.id, fieldId: c.fieldId, value: c.value, version: row.versions[c.fieldId] ?? 0 })),
      );
      if (cells.length === 0) return;
      const before = changed.flatMap(([row, changes]) =>
        changes.map((c) => ({ value: cellOf(row, c.fieldId) ?? null, version: row.versions[c.fieldId] ?? 0 })),
      );
      for (const cell of cells) store.setLocal(cell.rowId, cell.fieldId, cell.value);
      try {
        for (const cell of await writeOver(rowsApi, databaseId, cells)) store.settleLocal(cell.rowId, cell.fieldId, cell);
      } catch {
        cells.forEach((cell, i) => store.settleLocal(cell.rowId, cell.fieldId, before[i]));
        showToast(t('database.writeFailed'), 'error');
      }
    },
    [store, rowsApi, databaseId, t],
  );
  const commit = useCallback((row: WireRow, changes: CellChange[]) => commitRows([[row, changes]]), [commitRows]);

  // —— Dependencies («blocked by»): a relation field of the view ——
  const dependencyFieldId = config.dependencyFieldId && db.config.fields[config.dependencyFieldId]?.type === 'relation' ? config.dependencyFieldId : null;
  const blockersOf = useCallback(
    (row: WireRow): string[] => {
      const value = dependencyFieldId ? cellOf(row, dependencyFieldId) : undefined;
      return Array.isArray(value) ? (value as string[]) : [];
    },
    [dependencyFieldId],
  );

  // —— Dragging a bar (pointer events; the pointer captured by the bar or its end) ——
  const [preview, setPreview] = useState<{ rowId: string; span: Span } | null>(null);
  const drag = useRef<Drag | null>(null);
  const justDragged = useRef(false);
  const spanOf = useCallback((row: WireRow) => rowSpan(fields, (fieldId) => cellOf(row, fieldId)), [fields]);
  /**
   * A bar moved or resized from `from` to `to`: its cells, and those of the rows it blocks shifted
   * after it, in one write. The rows read here are shifted on screen at once; the whole chain of
   * dependants is then read from the database (`readDependants`: rows this view has not read,
   * or filters out, depend on it too) and written with the bar.
   */
  const moveBar = useCallback(
    (row: WireRow, from: Span, to: Span) => {
      const own = [row, cellsFromBar(fields, (fieldId) => cellOf(row, fieldId), from, to)] as const;
      if (!dependencyFieldId) return void commitRows([own]);
      // The rows read here, as they are before this move.
      const known = new Map<string, WireRow>();
      const planned = new Map<string, Planned>();
      const plan = (r: WireRow) => {
        const span = spanOf(r);
        if (span && !planned.has(r.id)) planned.set(r.id, { id: r.id, ...span, blockedBy: blockersOf(r) });
      };
      for (const w of store.loadedWindows()) {
        for (let i = w * WINDOW_SIZE; i < (w + 1) * WINDOW_SIZE; i++) {
          const r = store.rowAt(i);
          if (!r || r.id === row.id) continue;
          known.set(r.id, r);
          plan(r);
        }
      }
      const changes = (): Array<readonly [WireRow, CellChange[]]> => [
        own,
        ...[...shiftDependants({ id: row.id, ...to, blockedBy: blockersOf(row) }, planned)].flatMap(([id, span]) => {
          const dependant = known.get(id);
          const was = dependant && spanOf(dependant);
          return dependant && was ? [[dependant, cellsFromBar(fields, (fieldId) => cellOf(dependant, fieldId), was, span)] as const] : [];
        }),
      ];
      for (const [r, cells] of changes()) for (const cell of cells) store.setLocal(r.id, cell.fieldId, cell.value);
      const projection = [fields.startFieldId, ...(fields.endFieldId ? [fields.endFieldId] : []), dependencyFieldId];
      void readDependants(
        row.id,
        dependencyFieldId,
        (filter) => rowsApi.rows(databaseId, { filter, fields: projection, offset: 0, limit: MAX_ROW_WINDOW }),
        MAX_SHIFTED - 1,
      ).then(
        (chain) => {
          for (const r of chain.rows) {
            if (known.has(r.id)) continue;
            known.set(r.id, r);
            plan(r);
          }
          if (chain.capped) showToast(t('database.timeline.tooManyDependants', { count: MAX_SHIFTED - 1 }), 'info');
          return commitRows(changes());
        },
        // The chain could not be read: the rows known are written.
        () => commitRows(changes()),
      );
    },
    [fields, dependencyFieldId, store, spanOf, blockersOf, commitRows, rowsApi, databaseId, t],
  );
  const onBarDown = useCallback(
    (event: PointerEvent<HTMLElement>, rowId: string, mode: DragMode) => {
      justDragged.current = false;
      if (!editable || event.button !== 0) return;
      const row = store.rowById(rowId);
      const span = row && spanOf(row);
      if (!span) return;
      event.stopPropagation();
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = { rowId, mode, x: event.clientX, scrollLeft: scroll.current?.scrollLeft ?? 0, span, days: 0, moved: false };
    },
    [editable, store, spanOf],
  );
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current) return;
    const dx = event.clientX - current.x + (scroll.current?.scrollLeft ?? 0) - current.scrollLeft;
    if (!current.moved && Math.abs(dx) < DRAG_SLOP) return;
    current.moved = true;
    const days = snapDays(axis, dx);
    if (days === current.days && preview) return;
    current.days = days;
    setPreview({ rowId: current.rowId, span: draggedSpan(current.span, current.mode, days) });
  };
  const onPointerUp = () => {
    const current = drag.current;
    drag.current = null;
    if (!current?.moved) return;
    justDragged.current = true;
    const row = store.rowById(current.rowId);
    const to = draggedSpan(current.span, current.mode, current.days);
    if (row) moveBar(row, current.span, to);
    setPreview(null);
  };
  const onPointerCancel = () => {
    drag.current = null;
    setPreview(null);
  };

  const open = useCallback(
    (rowId: string) => {
      if (justDragged.current) {
        justDragged.current = false;
        return;
      }
      db.openRow?.(rowId);
    },
    [db],
  );
  /** An empty lane clicked (editors): its row gets that day. */
  const onLaneClick = useCallback(
    (event: MouseEvent<HTMLElement>, rowId: string) => {
      const row = store.rowById(rowId);
      if (!editable || !row || spanOf(row)) return;
      const day = dayAt(axis, event.clientX - event.currentTarget.getBoundingClientRect().left);
      void commit(row, cellsForDay(fields, day));
    },
    [editable, store, spanOf, axis, fields, commit],
  );
  /** ←/→ move a bar a day, Shift+←/→ move its end; Enter opens the row. */
  const onBarKey = useCallback(
    (event: KeyboardEvent<HTMLElement>, rowId: string) => {
      if (event.key === 'Enter') return open(rowId);
      if (!editable || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
      const row = store.rowById(rowId);
      const span = row && spanOf(row);
      if (!row || !span) return;
      event.preventDefault();
      const to = draggedSpan(span, event.shiftKey ? 'end' : 'move', event.key === 'ArrowLeft' ? -1 : 1);
      moveBar(row, span, to);
    },
    [editable, store, spanOf, moveBar, open],
  );

  const labels = useMemo(
    () => ({
      untitled: t('database.untitledRow'),
      setDay: t('database.timeline.setDay'),
      resizeStart: t('database.timeline.resizeStart'),
      resizeEnd: t('database.timeline.resizeEnd'),
    }),
    [t],
  );
  const dateLabel = useMemo(() => new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }), []);
  const handlers = useMemo(
    () => ({
      onBarDown,
      onLaneClick,
      onBarKey,
      open,
      spanLabel: (span: Span) =>
        span.start === span.end
          ? dateLabel.format(new Date(dayOf(span.start)))
          : `${dateLabel.format(new Date(dayOf(span.start)))} – ${dateLabel.format(new Date(dayOf(span.end)))}`,
    }),
    [onBarDown, onLaneClick, onBarKey, open, dateLabel],
  );

  // The bars drawn (rows on screen with dates), for the dependency arrows between them.
  const drawnBars = new Map<string, { index: number; span: Span; blockedBy: string[] }>();
  if (dependencyFieldId) {
    for (const item of items) {
      const row = store.rowAt(item.index);
      const span = row ? (preview?.rowId === row.id ? preview.span : spanOf(row)) : null;
      if (row && span) drawnBars.set(row.id, { index: item.index, span, blockedBy: blockersOf(row) });
    }
  }

  const now = new Date();
  const todayX = dayX(axis, today) + axis.dayWidth * ((now.getHours() * 60 + now.getMinutes()) / 1440);
  const total = pane + width;
  // The grid is as tall as the screen and stays there (sticky): scrolling down paints nothing of it again.
  const lanesHeight = Math.max(0, box.height - HEADER_HEIGHT);
  const gridStyle = { marginLeft: pane, width, height: lanesHeight, '--day': `${axis.dayWidth}px` } as CSSProperties;
  const coarse = axis.scale === 'month' || axis.scale === 'quarter';

  return (
    <div className={`db-timeline${fill ? ' is-fill' : ''}`}>
      <div className="db-timeline-bar" role="toolbar" aria-label={t('database.timeline.toolbar')}>
        <div className="db-timeline-scales" role="group" aria-label={t('database.timeline.scale')}>
          {TIMELINE_SCALES.map((s) => (
            <button key={s} type="button" className={`db-button${s === scale ? ' is-on' : ''}`} aria-pressed={s === scale} onClick={() => chooseScale(s)}>
              {t(`database.timeline.scales.${s}`)}
            </button>
          ))}
        </div>
        <button type="button" className="db-button" onClick={() => scrollToDay(today, 'smooth')}>
          {t('database.timeline.today')}
        </button>
        <button type="button" className={`db-button${showTable ? ' is-on' : ''}`} aria-pressed={showTable} onClick={toggleTable}>
          {t('database.timeline.table')}
        </button>
        {editable && dateFields.length > 1 && <TimelineFieldsSetup layout={layout} fields={fields} dateFields={dateFields} />}
        {editable && <DependencySetup layout={layout} value={dependencyFieldId} />}
      </div>
      <div
        ref={scroll}
        className="db-timeline-scroll"
        // A few rows: no tall empty box below them (three lanes to spare, for a new date).
        style={{ '--pane': `${pane}px`, maxHeight: store.count === null ? undefined : HEADER_HEIGHT + (count + 3) * ROW_HEIGHT + 2 } as CSSProperties}
        role="grid"
        aria-label={t('database.timeline.rows')}
        aria-rowcount={count + (showTable ? 1 : 0)}
        aria-busy={store.count === null}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerCancel}
      >
        <div className="db-timeline-head" style={{ width: total, height: HEADER_HEIGHT }}>
          {showTable && (
            <div className="db-timeline-corner" style={{ width: pane }} role="row" aria-rowindex={1}>
              <span role="columnheader" style={{ width: titleWidth }}>
                {db.config.fields[MAIN_FIELD_ID]?.name || t('database.untitledRow')}
              </span>
              {columns.map((c) => (
                <span key={c.fieldId} role="columnheader" style={{ width: c.width }}>
                  {c.field.name}
                </span>
              ))}
            </div>
          )}
          {groups.map((g) => (
            <div key={g.start} className="db-timeline-group" style={{ left: pane + dayX(axis, g.start), width: g.days * axis.dayWidth }}>
              <span style={{ left: pane + 8 }}>{g.label}</span>
            </div>
          ))}
          {virtualTicks.map((item) => {
            const tick = ticks[item.index];
            return (
              <div
                key={tick.start}
                className={`db-timeline-tick${tick.weekend ? ' is-weekend' : ''}${tick.start <= today && today < tick.start + tick.days ? ' is-today' : ''}`}
                style={{ left: item.start, width: item.size }}
                data-day={dayOf(tick.start)}
              >
                {tick.sub && axis.scale === 'day' && <small>{tick.sub}</small>}
                <span>{tick.label}</span>
                {tick.sub && axis.scale === 'week' && <small>{tick.sub}</small>}
              </div>
            );
          })}
        </div>
        <div className="db-timeline-body" style={{ width: total, height: Math.max(count * ROW_HEIGHT, lanesHeight) }}>
          <div className={`db-timeline-grid is-${axis.scale}`} style={gridStyle} aria-hidden>
            {coarse && virtualTicks.map((item) => <div key={ticks[item.index].start} className="db-timeline-line" style={{ left: item.start - pane }} />)}
            <div className="db-timeline-today" style={{ left: todayX }} />
          </div>
          {/* The pane's side below the last row (the grid is not seen under it when there are few rows). */}
          {showTable && <div className="db-timeline-pane-fill" style={{ width: pane, height: lanesHeight, marginTop: -lanesHeight }} aria-hidden />}
          {dependencyFieldId && <DependencyArrows axis={axis} pane={showTable ? pane : 0} width={width} height={count * ROW_HEIGHT} bars={drawnBars} />}
          {items.map((item) => {
            const row = store.rowAt(item.index);
            const span = row ? (preview?.rowId === row.id ? preview.span : spanOf(row)) : null;
            const box = span ? barGeometry(axis, item.index, span) : null;
            const shown = !!box && box.x + box.width >= fromX - BAR_REACH && box.x <= toX + BAR_REACH;
            return (
              <TimelineRow
                key={row?.id ?? `loading-${item.index}`}
                index={item.index}
                top={item.start - HEADER_HEIGHT}
                row={row}
                spanStart={shown ? span!.start : null}
                spanEnd={shown ? span!.end : null}
                undated={!!row && !span}
                dragging={preview?.rowId === row?.id}
                axis={axis}
                pane={showTable ? pane : 0}
                titleWidth={titleWidth}
                columns={showTable ? columns : NO_COLUMNS}
                width={total}
                editable={editable}
                labels={labels}
                handlers={handlers}
              />
            );
          })}
        </div>
      </div>
      {store.error !== null && <div className="db-error">{t('database.readFailed')}</div>}
    </div>
  );
}

const NO_COLUMNS: PaneColumn[] = [];

/** «Blocked by» as arrows: from a blocker's end to the start of the row it blocks, both drawn (an SVG over the lanes, passing the pointer through). */
function DependencyArrows({
  axis,
  pane,
  width,
  height,
  bars,
}: {
  axis: Axis;
  pane: number;
  width: number;
  height: number;
  bars: ReadonlyMap<string, { index: number; span: Span; blockedBy: string[] }>;
}) {
  const paths = dependencyArrows(bars).map(([from, to]) => {
    const a = bars.get(from)!;
    const b = bars.get(to)!;
    const start = barGeometry(axis, a.index, a.span);
    const end = barGeometry(axis, b.index, b.span);
    const x1 = start.x + start.width;
    const y1 = start.y + start.height / 2;
    const x2 = end.x;
    const y2 = end.y + end.height / 2;
    // Out of the blocker's end, down (or up) between the lanes, into the dependant's start.
    const bend = Math.max(x1 + 8, Math.min(x2 - 8, x1 + 16));
    const d = x2 - 8 >= x1 + 8 ? `M${x1} ${y1} H${bend} V${y2} H${x2}` : `M${x1} ${y1} H${x1 + 8} V${(y1 + y2) / 2} H${x2 - 8} V${y2} H${x2}`;
    return <path key={`${from}>${to}`} d={d} data-from={from} data-to={to} markerEnd="url(#db-timeline-arrow)" />;
  });
  return (
    <svg className="db-timeline-arrows" style={{ left: pane }} width={width} height={height} aria-hidden>
      <defs>
        <marker id="db-timeline-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0 0 L8 4 L0 8 z" />
        </marker>
      </defs>
      {paths}
    </svg>
  );
}

interface RowHandlers {
  onBarDown(event: PointerEvent<HTMLElement>, rowId: string, mode: DragMode): void;
  onLaneClick(event: MouseEvent<HTMLElement>, rowId: string): void;
  onBarKey(event: KeyboardEvent<HTMLElement>, rowId: string): void;
  open(rowId: string): void;
  spanLabel(span: Span): string;
}

interface TimelineRowProps {
  index: number;
  top: number;
  row: WireRow | undefined;
  /** The bar's days, when it is drawn (null: no dates, or off screen). */
  spanStart: number | null;
  spanEnd: number | null;
  undated: boolean;
  dragging: boolean;
  axis: Axis;
  pane: number;
  titleWidth: number;
  columns: PaneColumn[];
  width: number;
  editable: boolean;
  labels: { untitled: string; setDay: string; resizeStart: string; resizeEnd: string };
  handlers: RowHandlers;
}

/** A row: its cells in the table pane (sticky on the left) and its lane with its bar. Re-renders only when its own props change. */
const TimelineRow = memo(function TimelineRow({
  index,
  top,
  row,
  spanStart,
  spanEnd,
  undated,
  dragging,
  axis,
  pane,
  titleWidth,
  columns,
  width,
  editable,
  labels,
  handlers,
}: TimelineRowProps) {
  const title = row?.data.title || labels.untitled;
  const span = spanStart !== null && spanEnd !== null ? { start: spanStart, end: spanEnd } : null;
  const box = span ? barGeometry(axis, index, span) : null;
  return (
    <div
      className={`db-timeline-row${row ? '' : ' is-loading'}`}
      role="row"
      aria-rowindex={index + (pane > 0 ? 2 : 1)}
      data-row={index}
      data-row-id={row?.id}
      style={{ transform: `translateY(${top}px)`, width }}
    >
      {pane > 0 && (
        <div className="db-timeline-cells" style={{ width: pane }}>
          <span className="db-timeline-title" role="rowheader" style={{ width: titleWidth }}>
            {row && (
              <button type="button" onClick={() => handlers.open(row.id)}>
                {row.data.icon && <span aria-hidden>{row.data.icon} </span>}
                {title}
              </button>
            )}
          </span>
          {columns.map((c) => (
            <span key={c.fieldId} className="db-timeline-cell" role="gridcell" style={{ width: c.width }}>
              {row && <CellContent field={c.field} fieldId={c.fieldId} value={shownOf(row, c.fieldId, c.field)} databaseId={row.databaseId} />}
            </span>
          ))}
        </div>
      )}
      {/* The bar's cell: a row holds cells alone (ARIA's grid). */}
      <div
        role="gridcell"
        className={`db-timeline-lane${undated && editable ? ' is-undated' : ''}`}
        style={{ left: pane, width: width - pane }}
        title={undated && editable ? labels.setDay : undefined}
        onClick={undated && editable && row ? (event) => handlers.onLaneClick(event, row.id) : undefined}
      >
        {row && span && box && (
          <div
            className={`db-timeline-item${dragging ? ' is-dragging' : ''}${box.width < 72 ? ' is-narrow' : ''}${editable ? ' is-editable' : ''}`}
            role="button"
            tabIndex={0}
            aria-label={`${title}: ${handlers.spanLabel(span)}`}
            data-start={dayOf(span.start)}
            data-end={dayOf(span.end)}
            style={{ left: box.x, width: box.width }}
            onPointerDown={(event) => handlers.onBarDown(event, row.id, 'move')}
            onClick={(event) => {
              event.stopPropagation();
              handlers.open(row.id);
            }}
            onKeyDown={(event) => handlers.onBarKey(event, row.id)}
          >
            {editable && (
              <span
                className="db-timeline-handle is-start"
                aria-label={labels.resizeStart}
                onPointerDown={(event) => handlers.onBarDown(event, row.id, 'start')}
              />
            )}
            <span className="db-timeline-label">
              {row.data.icon && <span aria-hidden>{row.data.icon} </span>}
              {title}
            </span>
            {editable && (
              <span className="db-timeline-handle is-end" aria-label={labels.resizeEnd} onPointerDown={(event) => handlers.onBarDown(event, row.id, 'end')} />
            )}
          </div>
        )}
      </div>
    </div>
  );
});
