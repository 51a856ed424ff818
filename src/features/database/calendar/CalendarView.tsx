import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import FullCalendar from '@fullcalendar/react';
import type { DatesSetArg, EventContentArg, EventDropArg, EventInput, DayCellContentArg } from '@fullcalendar/core';
import ruLocale from '@fullcalendar/core/locales/ru';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin, { Draggable, type DateClickArg, type EventReceiveArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import { type CalendarMode, type DatabaseLayout, type RowValue } from '../../../../schema/blocks/database';
import type { DatabaseChange, WireRow } from '../../../../schema/database';
import { newId } from '../../../../schema/ids';
import { showToast } from '../../../ui/Toast';
import { CALENDAR_WINDOW, calendarDays, calendarFields, calendarRowsQuery, viewRowsQuery } from '../../../editor/blocks/rowsAddress';
import { writeOver } from '../cells/cellWrites';
import { dayString } from '../cells/dateText';
import { eventTimes, fitDays, readRange, valueFromEvent, type HiddenByDay } from './calendarDates';
import { Popover } from '../../../ui/Popover';
import { useDatabase, type DatabaseContextValue } from '../context';
import type { LiveView } from '../context';
import type { RowsQuery } from '../api';
import { cellOf, shownOf, withCell } from '../rows/rowStore';
import { fromTemplate, madeFromTemplate, templateFor } from '../rows/rowTemplates';
import { displayText } from '../fields/format';
import { displayName } from '../../comments/userLookup';
import { DateFieldNeeded, DateFieldSelect } from '../fields/DateFields';

/** A calendar reads at most this many rows for the days on screen (a month of 2,000 items is well inside). */
export const CALENDAR_MAX_ROWS = 5_000;
/** Rows without a date listed beside the calendar, at most. */
const UNDATED_SHOWN = 50;
/** Read again this long after the last of several changes in a row. */
const REFRESH_MS = 300;
const VIEW_OF: Record<CalendarMode, string> = { month: 'dayGridMonth', week: 'timeGridWeek' };
const PLUGINS = [dayGridPlugin, timeGridPlugin, interactionPlugin];
/** «26 ноября», for the day's buttons (one formatter: making one per day cell cost a month's first drawing ≈ 20 ms). */
const DAY_NAME = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'long' });
const HEADER_TOOLBAR = { left: 'prev,next today', center: 'title', right: 'dayGridMonth,timeGridWeek' };
const HOURS = { hour: '2-digit', minute: '2-digit', hour12: false } as const;
/** Items drawn on a day at most (a month's cell, a week's column); the rest are «+N». */
const PER_DAY: Record<CalendarMode, number> = { month: 3, week: 12 };
/** A week's hours scroll inside this height (px), from 8:00. */
const WEEK_HEIGHT = 680;

/** Every row a calendar's query gives: CALENDAR_WINDOW at once (the first read may take index.html's early answer), more after, up to `cap`. */
async function readAll(
  db: DatabaseContextValue,
  query: RowsQuery,
  signal: AbortSignal,
  cap: number,
  first: boolean,
): Promise<{ rows: WireRow[]; count: number }> {
  const head = await db.api.rows(db.databaseId, query, signal, first);
  const rest: Array<Promise<{ rows: WireRow[] }>> = [];
  for (let offset = CALENDAR_WINDOW; offset < Math.min(head.count, cap); offset += CALENDAR_WINDOW)
    rest.push(db.api.rows(db.databaseId, { ...query, offset }, signal));
  const windows = await Promise.all(rest);
  return { rows: [head, ...windows].flatMap((w) => w.rows), count: head.count };
}

/**
 * A Calendar view (issue 17; docs/web-app.md «Calendar view»): the view's rows on the days of a
 * date field, a month or a week (FullCalendar's MIT plugins, Monday first). Only the rows whose
 * dates meet the days on screen are read (`GET …/rows?range=`); those without a date are listed
 * beside it and can be dragged onto a day. Editors drag an item to another day or hour, drag its
 * end to make it a range, and make an item on a day with its «+»; each is one cell write on the
 * version read (a conflict is written again on the server's: a drag is deliberate). Read again
 * when the rows change (realtime). Its own chunk, loaded only where a calendar is shown.
 */
export default function CalendarView({ layout, track }: { layout: DatabaseLayout; track(view: LiveView): () => void }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const dateFields = useMemo(() => Object.entries(db.config.fields).filter(([, f]) => f.type === 'date'), [db.config.fields]);
  const fieldId = layout.calendar?.fieldId && db.config.fields[layout.calendar.fieldId]?.type === 'date' ? layout.calendar.fieldId : null;
  const mode: CalendarMode = layout.calendar?.mode ?? 'month';
  // The days shown first are known before the calendar is drawn: their rows were asked for with
  // the page (index.html's script); when that answer is in, the calendar's first drawing has them.
  const [range, setRange] = useState<{ from: string; to: string }>(() => calendarDays(mode, new Date()));
  // Peeked in the render (one React may throw away), taken in the first effect.
  const [early] = useState(() => (fieldId ? db.api.earlyRows(db.databaseId, calendarRowsQuery(layout, fieldId, range, CALENDAR_WINDOW), true) : null));
  const seeded = early !== null && early.count <= early.rows.length;
  const firstRead = useRef(true);
  const [rows, setRows] = useState<WireRow[] | null>(seeded ? early.rows : null);
  /** The days (`from`) whose rows are shown: busy while another range is being read. */
  const [shownFrom, setShownFrom] = useState<string | null>(seeded ? range.from : null);
  const [overCap, setOverCap] = useState(false);
  const [undated, setUndated] = useState<{ rows: WireRow[]; count: number }>({ rows: [], count: 0 });
  const [failed, setFailed] = useState(false);
  const [reads, setReads] = useState(0);
  const query = useMemo(() => viewRowsQuery(layout), [layout]);
  // A property shown or hidden on the items is read again (the calendar reads only the cells it shows).
  const queryKey = JSON.stringify([query, fieldId ? calendarFields(layout, fieldId) : null]);

  useEffect(() => {
    if (!fieldId) return;
    const controller = new AbortController();
    const first = firstRead.current;
    firstRead.current = false;
    // The first days' rows drawn from the early answer are not read again (the answer is taken: a later read asks).
    if (first && seeded) db.api.earlyRows(db.databaseId, calendarRowsQuery(layout, fieldId, range, CALENDAR_WINDOW));
    else {
      readAll(db, calendarRowsQuery(layout, fieldId, range, CALENDAR_WINDOW), controller.signal, CALENDAR_MAX_ROWS, first).then(
        (read) => {
          setRows(read.rows);
          setShownFrom(range.from);
          setOverCap(read.count > CALENDAR_MAX_ROWS);
          setFailed(false);
        },
        () => !controller.signal.aborted && setFailed(true),
      );
    }
    return () => controller.abort();
    // The query by value (`queryKey`), not by the layout object's identity.
  }, [db.api, db.databaseId, fieldId, range.from, range.to, queryKey, reads]); // eslint-disable-line react-hooks/exhaustive-deps

  // The rows without a date, beside the calendar.
  useEffect(() => {
    if (!fieldId) return;
    const controller = new AbortController();
    db.api.rows(db.databaseId, { ...query, undated: fieldId, offset: 0, limit: UNDATED_SHOWN }, controller.signal).then(
      (withoutDate) => setUndated({ rows: withoutDate.rows, count: withoutDate.count }),
      () => !controller.signal.aborted && setFailed(true),
    );
    return () => controller.abort();
  }, [db.api, db.databaseId, fieldId, queryKey, reads]); // eslint-disable-line react-hooks/exhaustive-deps

  // Others' changes: a cell of a row here changes in place; anything that may move rows in or out is read again.
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const again = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setReads((n) => n + 1), REFRESH_MS);
  }, []);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const applyChange = useCallback(
    (change: DatabaseChange) => {
      const known = change.kind === 'cells' ? rowsRef.current?.find((r) => r.id === change.rowId) : undefined;
      if (change.kind !== 'cells' || !known) return again();
      // Our own write coming back, or older than what is here: nothing to do.
      if (change.cells.every((c) => c.version <= (known.versions[c.fieldId] ?? 0))) return;
      if (change.cells.some((c) => c.fieldId === fieldId)) return again();
      setRows(
        (current) =>
          current?.map((row) =>
            row.id !== change.rowId
              ? row
              : change.cells.reduce(
                  (next, cell) => (cell.version < (next.versions[cell.fieldId] ?? 0) ? next : withCell(next, cell.fieldId, cell.value, cell.version)),
                  row,
                ),
          ) ?? current,
      );
    },
    [again, fieldId],
  );
  useEffect(() => track({ applyChange, refreshSoon: again }), [track, applyChange, again]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const [shown, setShown] = useState<CalendarMode>(mode);
  // What is drawn: at most a few items a day, the rest counted as «+N» on their days (fitDays).
  const { events, hidden } = useMemo(() => {
    if (!rows || !fieldId) return { events: [] as EventInput[], hidden: new Map() as HiddenByDay };
    // The properties the view lists, as the grid shows them, under each item's title (the date field aside: the item stands on it).
    const listed = calendarFields(layout, fieldId)
      .slice(1)
      .filter((id) => db.config.fields[id]);
    const userName = (id: string) =>
      displayName(
        db.members.find((m) => m.id === id),
        id,
      );
    const items = rows.flatMap((row) => {
      const times = eventTimes(cellOf(row, fieldId));
      const props = listed.map((id) => displayText(db.config.fields[id], shownOf(row, id, db.config.fields[id]), userName)).filter((text) => text !== '');
      return times ? [{ id: row.id, title: row.data.title, ...times, extendedProps: { icon: row.data.icon, props } }] : [];
    });
    const fitted = fitDays(items, PER_DAY[shown]);
    return { events: fitted.shown as EventInput[], hidden: fitted.hidden };
  }, [rows, fieldId, shown, layout, db.config.fields, db.members]);
  const [more, setMore] = useState<{ day: string; anchor: HTMLElement } | null>(null);

  /** A row's date written (a drop, a resize, a day given): shown at once, on the version read; put back if it fails. */
  const writeDate = async (row: WireRow, value: RowValue, revert?: () => void) => {
    if (!fieldId) return;
    const show = (next: WireRow) =>
      setRows((current) => (current?.some((r) => r.id === next.id) ? current.map((r) => (r.id === next.id ? next : r)) : [...(current ?? []), next]));
    show(withCell(row, fieldId, value));
    setUndated((current) =>
      current.rows.some((r) => r.id === row.id) ? { rows: current.rows.filter((r) => r.id !== row.id), count: current.count - 1 } : current,
    );
    try {
      const [cell] = await writeOver(db.api, db.databaseId, [{ rowId: row.id, fieldId, value, version: row.versions[fieldId] ?? 0 }]);
      show(withCell(row, fieldId, cell.value, cell.version));
      return;
    } catch {
      // Put back below.
    }
    revert?.();
    showToast(t('database.writeFailed'), 'error');
    again();
  };
  const rowOf = (id: string) => rows?.find((r) => r.id === id) ?? undated.rows.find((r) => r.id === id);
  const moved = (info: EventDropArg | EventResizeDoneArg) => {
    const row = rowOf(info.event.id);
    if (!row || !info.event.start || !fieldId) return info.revert();
    void writeDate(row, valueFromEvent(info.event.start, info.event.end, info.event.allDay, cellOf(row, fieldId)), info.revert);
  };
  const received = (info: EventReceiveArg) => {
    // An undated row dropped on a day: drawn from the rows once written, not as the calendar's copy.
    const row = rowOf(info.event.id);
    info.event.remove();
    if (row && info.event.start && fieldId) void writeDate(row, valueFromEvent(info.event.start, null, info.event.allDay, undefined));
  };
  const createOn = async (day: Date, allDay: boolean) => {
    if (!fieldId) return;
    const id = newId();
    const value = allDay ? dayString(day) : day.toISOString();
    try {
      // From the database's default row template, if it has one (the day over its values).
      const templateId = await templateFor(db);
      const [row] = await madeFromTemplate(db, templateId, () =>
        db.api.createRows(db.databaseId, [fromTemplate({ id, title: '', values: { [fieldId]: value } }, templateId)]),
      );
      setRows((current) => [...(current ?? []), row]);
      db.openRow?.(row.id);
    } catch {
      showToast(t('database.writeFailed'), 'error');
    }
  };

  // The undated list's items drag onto the calendar (FullCalendar's Draggable).
  const undatedList = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const list = undatedList.current;
    if (!list || !db.editable || !fieldId) return;
    const draggable = new Draggable(list, {
      itemSelector: '[data-row-id]',
      eventData: (el) => ({ id: el.getAttribute('data-row-id') ?? '', title: el.textContent ?? '', create: true }),
    });
    return () => draggable.destroy();
  }, [db.editable, fieldId, undated.rows.length > 0]); // eslint-disable-line react-hooks/exhaustive-deps

  const calendar = useRef<FullCalendar>(null);
  // FullCalendar's drawing made readable each time it draws anew (a view, a week, a month).
  const gridBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = gridBox.current;
    if (!box) return;
    readableCalendar(box);
    const observer = new MutationObserver(() => readableCalendar(box));
    observer.observe(box, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [fieldId]);
  // A week's hours become a scroller of their own once its height is set: they start at 8:00.
  useEffect(() => {
    if (shown === 'week') calendar.current?.getApi().scrollToTime('08:00:00');
  }, [shown]);
  const onDates = (arg: DatesSetArg) => {
    const next = readRange(arg.start, arg.end);
    setRange((current) => (current.from === next.from && current.to === next.to ? current : next));
    const now: CalendarMode = arg.view.type === VIEW_OF.week ? 'week' : 'month';
    setShown(now);
    if (now !== mode && db.editable && fieldId) void db.saveView(layout.uid, { calendar: { fieldId, mode: now } });
  };

  // FullCalendar takes its options again on every render and draws again what changed: its
  // handlers are stable (they call the render's own through `latest`), its objects constants.
  const latest = useRef({ moved, received, onDates, createOn, openRow: db.openRow, editable: db.editable });
  latest.current = { moved, received, onDates, createOn, openRow: db.openRow, editable: db.editable };
  const stable = useMemo(
    () => ({
      moved: (info: EventDropArg | EventResizeDoneArg) => latest.current.moved(info),
      received: (info: EventReceiveArg) => latest.current.received(info),
      onDates: (arg: DatesSetArg) => latest.current.onDates(arg),
      eventClick: (info: { jsEvent: globalThis.MouseEvent; event: { id: string } }) => {
        info.jsEvent.preventDefault();
        latest.current.openRow?.(info.event.id);
      },
      dateClick: (info: DateClickArg) => {
        if (latest.current.editable && info.view.type === VIEW_OF.week) void latest.current.createOn(info.date, info.allDay);
      },
    }),
    [],
  );

  const editable = db.editable;
  // A day's number, its «+» (editors, a month) and its «+N»: plain DOM nodes in FullCalendar's own
  // tree, not a React portal each (42 of them, and one per item, made a month's first drawing
  // slow); their clicks come to the grid's handler (`onGridClick`).
  const dayCell = useCallback(
    (arg: DayCellContentArg) => {
      const day = dayString(arg.date);
      const nodes: Node[] = [];
      if (editable && fieldId && arg.view.type === VIEW_OF.month) {
        nodes.push(
          element('button', 'db-calendar-add', '+', {
            type: 'button',
            'data-action': 'add',
            'data-day': day,
            'aria-label': t('database.calendar.addOn', { day: DAY_NAME.format(arg.date) }),
          }),
        );
      }
      nodes.push(element('span', 'db-calendar-daynum', arg.dayNumberText));
      const more = hidden.get(day);
      if (more) {
        nodes.push(
          element('button', 'db-calendar-more', `+${more.length}`, {
            type: 'button',
            'data-action': 'more',
            'data-day': day,
            'aria-label': t('database.calendar.moreOn', { count: more.length, day: DAY_NAME.format(arg.date) }),
          }),
        );
      }
      return { domNodes: nodes };
    },
    [editable, fieldId, hidden, t],
  );
  const onGridClick = (event: ReactMouseEvent<HTMLDivElement>) => {
    const button = (event.target as HTMLElement).closest<HTMLElement>('button[data-action]');
    const day = button?.dataset.day;
    if (!button || !day) return;
    event.stopPropagation();
    if (button.dataset.action === 'add') void createOn(new Date(`${day}T00:00:00`), true);
    else setMore({ day, anchor: button });
  };

  if (!fieldId) {
    return (
      <div className="db-calendar">
        <CalendarSetup layout={layout} fields={dateFields} />
      </div>
    );
  }
  return (
    <div className="db-calendar">
      {db.editable && dateFields.length > 1 && <CalendarSetup layout={layout} fields={dateFields} />}
      {failed && <div className="db-error">{t('database.readFailed')}</div>}
      {overCap && <div className="db-note">{t('database.calendar.tooMany', { count: CALENDAR_MAX_ROWS })}</div>}
      <div className="db-calendar-body">
        <div ref={gridBox} className="db-calendar-grid" aria-busy={shownFrom !== range.from} onClick={onGridClick}>
          <FullCalendar
            ref={calendar}
            plugins={PLUGINS}
            locale={ruLocale}
            firstDay={1}
            initialView={VIEW_OF[mode]}
            headerToolbar={HEADER_TOOLBAR}
            height={shown === 'week' ? WEEK_HEIGHT : 'auto'}
            dayMaxEvents={false}
            events={events}
            eventContent={eventContent}
            editable={db.editable}
            droppable={db.editable}
            eventDrop={stable.moved}
            eventResize={stable.moved}
            eventReceive={stable.received}
            eventClick={stable.eventClick}
            dateClick={stable.dateClick}
            datesSet={stable.onDates}
            dayCellContent={dayCell}
            dayCellDidMount={unlabelDay}
            nowIndicator
            eventTimeFormat={HOURS}
            slotLabelFormat={HOURS}
          />
        </div>
        {more && (
          <Popover
            anchor={more.anchor}
            onClose={() => setMore(null)}
            label={DAY_NAME.format(new Date(`${more.day}T00:00:00`))}
            className="menu db-menu db-calendar-more-list"
          >
            {(hidden.get(more.day) ?? []).map((id) => (
              <button
                key={id}
                type="button"
                className="menu-item"
                onClick={() => {
                  setMore(null);
                  db.openRow?.(id);
                }}
              >
                {rowOf(id)?.data.title || t('database.untitledRow')}
              </button>
            ))}
          </Popover>
        )}
        <aside className="db-calendar-undated" aria-label={t('database.calendar.undated')}>
          <h3>
            {t('database.calendar.undated')} <span className="db-calendar-count">{undated.count}</span>
          </h3>
          {undated.count === 0 ? (
            <p className="db-calendar-hint">{t('database.calendar.allDated')}</p>
          ) : (
            <ul ref={undatedList}>
              {undated.rows.map((row) => (
                <li key={row.id} data-row-id={row.id} className="db-calendar-item" title={db.editable ? t('database.calendar.dragToDay') : undefined}>
                  <button type="button" onClick={() => db.openRow?.(row.id)}>
                    {row.data.icon && <span aria-hidden>{row.data.icon} </span>}
                    {row.data.title || t('database.untitledRow')}
                  </button>
                </li>
              ))}
              {undated.count > undated.rows.length && (
                <li className="db-calendar-hint">{t('database.calendar.moreUndated', { count: undated.count - undated.rows.length })}</li>
              )}
            </ul>
          )}
        </aside>
      </div>
    </div>
  );
}

/** An event on the calendar: the row's icon and title (or «Без названия»). */
function eventContent(arg: EventContentArg) {
  const icon = arg.event.extendedProps.icon as string | null | undefined;
  const root = element('span', 'db-calendar-event', null, { 'data-row-id': arg.event.id });
  if (arg.timeText) root.append(element('span', 'db-calendar-time', arg.timeText));
  if (icon) root.append(element('span', null, icon, { 'aria-hidden': 'true' }));
  root.append(element('span', 'db-calendar-title', arg.event.title || '\u00a0'));
  const props = (arg.event.extendedProps.props as string[] | undefined) ?? [];
  for (const text of props) root.append(element('span', 'db-calendar-prop', text));
  return { domNodes: [root] };
}

/** An element for FullCalendar's content (its text set as text, never as HTML). */
function element(tag: string, className: string | null, text: string | null, attributes: Record<string, string> = {}): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** «Календарь по: …»: the date field a calendar places rows by (editors); when the database has none, a date field is made for it. */
function CalendarSetup({ layout, fields }: { layout: DatabaseLayout; fields: Array<[string, { name: string }]> }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const current = layout.calendar?.fieldId ?? '';
  const choose = (fieldId: string) => void db.saveView(layout.uid, { calendar: { fieldId, mode: layout.calendar?.mode ?? 'month' } });
  if (fields.length === 0) return <DateFieldNeeded message={t('database.calendar.needsField')} onAdded={choose} />;
  if (!db.editable) return current ? null : <div className="db-empty">{t('database.calendar.notSet')}</div>;
  return (
    <div className="db-chart-setup">
      <DateFieldSelect label={t('database.calendar.by')} value={current} fields={fields} onChange={choose} />
    </div>
  );
}

/**
 * FullCalendar names a month's day cell by its number alone (`aria-labelledby`), though the cell
 * shows its items too (axe's label-content-name-mismatch, WCAG 2.5.3): the cell is named by what it holds.
 */
function unlabelDay(arg: { el: HTMLElement }): void {
  arg.el.removeAttribute('aria-labelledby');
}

/**
 * What FullCalendar's view lacks for the keyboard and screen readers, added as it draws: its
 * arrows are images with no name (`role="img"`) inside buttons its hints name («Предыдущий
 * месяц») — hidden, the button's title names it; a week's hours scroll in a box the keyboard could
 * not reach (axe's scrollable-region-focusable) — its first day's column (a gridcell: the box sits
 * in FullCalendar's grid, which holds rows and cells alone) is a stop for Tab, the arrows scroll it.
 */
function readableCalendar(root: HTMLElement): void {
  for (const icon of root.querySelectorAll('.fc-icon[role="img"]')) {
    icon.removeAttribute('role');
    icon.setAttribute('aria-hidden', 'true');
  }
  const firstDay = root.querySelector<HTMLElement>('.fc-timegrid-cols td.fc-timegrid-col[role="gridcell"]');
  if (firstDay && firstDay.tabIndex !== 0) firstDay.tabIndex = 0;
}
