import type { DateRange, RowValue, TimelineConfig, TimelineScale } from '../../../../schema/blocks/database';
import { addDays, dayString, isDay } from '../cells/dateText';

/**
 * A timeline's geometry and dates (TimelineView; docs/web-app.md «Timeline view»), pure: days are
 * numbered (days since 1970-01-01, so a span is two integers), an axis is a scale over a stretch of
 * days from an origin, a row's bar is its index and its span of days (`barGeometry`, the one place
 * that turns them into pixels: arrows between bars will be drawn from it), and a bar dragged or
 * resized becomes the cells to write, keeping each value's shape (a day stays a day, a moment
 * keeps its time and offset, a range stays a range). Days are the browser's local days, as the
 * calendar's (calendarDates.ts).
 */

const DAY_MS = 86_400_000;

/** A lane's height: the table's row (TableView's ROW_HEIGHT), so the pane's rows and the bars line up. */
export const ROW_HEIGHT = 34;
/** Space above and below a bar in its lane. */
export const BAR_INSET = 7;
/** The narrowest a bar is drawn (a day at the quarter scale is a pixel and a half). */
export const MIN_BAR_WIDTH = 8;
/** Pixels a day takes at each scale. */
export const DAY_WIDTH: Record<TimelineScale, number> = { day: 36, week: 18, month: 4, quarter: 1.5 };
/** Days drawn before and after today at each scale (about 12,000–26,000 px each way). */
const REACH_DAYS: Record<TimelineScale, number> = { day: 366, week: 731, month: 5 * 366, quarter: 10 * 366 };

/** A YYYY-MM-DD day's number. */
export function dayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
}

/** The YYYY-MM-DD day of a number. */
export function dayOf(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** Today, the browser's local day, as a number. */
export function todayNumber(now = new Date()): number {
  return dayNumber(dayString(now));
}

/** A date cell's end point (a day, or a moment with its offset) as the number of its local day; null when it is no date. */
export function pointDay(text: string | null | undefined): number | null {
  if (typeof text !== 'string' || text === '') return null;
  if (isDay(text)) return Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ? null : dayNumber(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : dayNumber(dayString(new Date(at)));
}

/** A bar's days, both ends inclusive (as a date range's are). */
export interface Span {
  start: number;
  end: number;
}

/** Where a timeline's dates are: its start field, and its end field (none: the start field's range end). */
export type TimelineFields = Pick<TimelineConfig, 'startFieldId' | 'endFieldId'>;
/** A row's cell by field id. */
export type CellOf = (fieldId: string) => RowValue | undefined;

function asRange(value: RowValue | undefined): DateRange | null {
  return value && typeof value === 'object' && !Array.isArray(value) && 'start' in value ? (value as DateRange) : null;
}
/** A date cell's first point. */
function firstPoint(value: RowValue | undefined): string | null {
  if (typeof value === 'string') return value;
  return asRange(value)?.start ?? null;
}
/** A date cell's last point (a range's end, or its start when it has none). */
function lastPoint(value: RowValue | undefined): string | null {
  const range = asRange(value);
  return range ? (range.end ?? range.start) : typeof value === 'string' ? value : null;
}

/**
 * A row's bar: from the start field's day to the end field's (its range's end, or its day); with
 * no end field, the start field's range. One end missing: a bar of the other's day. An end before
 * the start: the start's day alone. Null: no dates, no bar.
 */
export function rowSpan(fields: TimelineFields, cell: CellOf): Span | null {
  const startValue = cell(fields.startFieldId);
  const start = pointDay(firstPoint(startValue));
  const end = fields.endFieldId ? pointDay(lastPoint(cell(fields.endFieldId))) : pointDay(asRange(startValue)?.end);
  if (start === null && end === null) return null;
  const first = start ?? (end as number);
  return { start: first, end: Math.max(first, end ?? first) };
}

/** A scale over a stretch of days: `origin` the first day's number, `days` how many. */
export interface Axis {
  scale: TimelineScale;
  origin: number;
  days: number;
  dayWidth: number;
}

/**
 * The axis a scale draws around today: whole weeks from a Monday (day and week scales: the
 * background's week stripes start on a Monday), whole years from a 1st of January (month and quarter).
 */
export function axisAround(scale: TimelineScale, today: number): Axis {
  const reach = REACH_DAYS[scale];
  if (scale === 'day' || scale === 'week') {
    const from = today - reach;
    const origin = from - weekday(from);
    const days = Math.ceil((today + reach - origin) / 7) * 7;
    return { scale, origin, days, dayWidth: DAY_WIDTH[scale] };
  }
  const year = new Date(today * DAY_MS).getUTCFullYear();
  const years = Math.ceil(reach / 366);
  const origin = dayNumber(`${year - years}-01-01`);
  return { scale, origin, days: dayNumber(`${year + years + 1}-01-01`) - origin, dayWidth: DAY_WIDTH[scale] };
}

/** 0 for a Monday … 6 for a Sunday. */
export function weekday(day: number): number {
  return (new Date(day * DAY_MS).getUTCDay() + 6) % 7;
}

/** The axis's width in pixels. */
export function axisWidth(axis: Axis): number {
  return axis.days * axis.dayWidth;
}

/** A day's left edge on the axis, px. */
export function dayX(axis: Axis, day: number): number {
  return (day - axis.origin) * axis.dayWidth;
}

/** The day under a point `x` px from the axis's start. */
export function dayAt(axis: Axis, x: number): number {
  return axis.origin + Math.floor(x / axis.dayWidth);
}

/** Whole days a pointer moved by `dx` px makes (a drag snaps to days). */
export function snapDays(axis: Axis, dx: number): number {
  return Math.round(dx / axis.dayWidth) || 0;
}

export interface BarBox {
  x: number;
  width: number;
  y: number;
  height: number;
}

/** A row's bar in the lanes' pixels: the row's index gives its lane, the span its left and width. */
export function barGeometry(axis: Axis, index: number, span: Span): BarBox {
  const x = dayX(axis, span.start);
  return {
    x,
    width: Math.max(MIN_BAR_WIDTH, (span.end - span.start + 1) * axis.dayWidth),
    y: index * ROW_HEIGHT + BAR_INSET,
    height: ROW_HEIGHT - 2 * BAR_INSET,
  };
}

/** How a bar is dragged: by its body (moved), or by one of its ends (resized). */
export type DragMode = 'move' | 'start' | 'end';

/** A span after a drag by `days`: moved whole, or one end moved (never past the other). */
export function draggedSpan(span: Span, mode: DragMode, days: number): Span {
  if (mode === 'move') return { start: span.start + days, end: span.end + days };
  if (mode === 'start') return { start: Math.min(span.end, span.start + days), end: span.end };
  return { start: span.start, end: Math.max(span.start, span.end + days) };
}

/** A date point `days` later: a day as a day, a moment keeping its time and offset (its date part moved). */
export function shiftPoint(text: string, days: number): string {
  if (days === 0) return text;
  if (isDay(text)) return addDays(text, days);
  return `${addDays(text.slice(0, 10), days)}${text.slice(10)}`;
}

/** A cell to write: the field and its new value. */
export interface CellChange {
  fieldId: string;
  value: RowValue;
}

/** A date cell whose points all move by `days` (a start field's range moves whole with its bar). */
function shiftValue(value: RowValue | undefined, days: number): RowValue {
  if (typeof value === 'string') return shiftPoint(value, days);
  const range = asRange(value);
  return range ? { start: shiftPoint(range.start, days), end: range.end === null ? null : shiftPoint(range.end, days) } : null;
}

/**
 * The cells a bar dragged from `from` to `to` writes (only those that change). With no end field,
 * the start field's value: a day moved stays a day, stretched it becomes a range, a range shrunk
 * to one day becomes that day; moments keep their times. With an end field, each field moves by
 * its end's days; an empty end given a day when the bar is stretched (or an empty start when its
 * start is dragged).
 */
export function cellsFromBar(fields: TimelineFields, cell: CellOf, from: Span, to: Span): CellChange[] {
  const byStart = to.start - from.start;
  const byEnd = to.end - from.end;
  const moved = byStart === byEnd;
  const startValue = cell(fields.startFieldId);
  if (!fields.endFieldId) {
    const first = firstPoint(startValue);
    if (first === null || (byStart === 0 && byEnd === 0)) return [];
    const range = asRange(startValue);
    const start = shiftPoint(first, byStart);
    if (range?.end === null && moved) return [{ fieldId: fields.startFieldId, value: { start, end: null } }];
    if (to.start === to.end && (!range || from.start !== from.end) && isDay(start)) return [{ fieldId: fields.startFieldId, value: start }];
    if (!range && moved) return [{ fieldId: fields.startFieldId, value: start }];
    return [{ fieldId: fields.startFieldId, value: { start, end: shiftPoint(lastPoint(startValue) ?? first, byEnd) } }];
  }
  const endValue = cell(fields.endFieldId);
  const changes: CellChange[] = [];
  // Each field's point goes to its end of the bar (by its own day: an end field before its start is drawn at the start).
  const side = (fieldId: string, value: RowValue | undefined, point: string | null, days: number, day: number) => {
    if (days === 0) return;
    const at = pointDay(point);
    if (at !== null) changes.push({ fieldId, value: shiftValue(value, day - at) });
    else if (!moved) changes.push({ fieldId, value: dayOf(day) });
  };
  side(fields.startFieldId, startValue, firstPoint(startValue), byStart, to.start);
  side(fields.endFieldId, endValue, lastPoint(endValue), byEnd, to.end);
  return changes;
}

/** The cells that give a row without dates the day `day` (start = end = that day). */
export function cellsForDay(fields: TimelineFields, day: number): CellChange[] {
  const value = dayOf(day);
  return fields.endFieldId
    ? [
        { fieldId: fields.startFieldId, value },
        { fieldId: fields.endFieldId, value },
      ]
    : [{ fieldId: fields.startFieldId, value }];
}

/** A division of the axis: its first day, how many days, its label. */
export interface Tick {
  start: number;
  days: number;
  label: string;
  /** A second, smaller label (a day's weekday, a week's days). */
  sub?: string;
  /** A day of a weekend (the day scale). */
  weekend?: boolean;
}

let formats: { weekday: Intl.DateTimeFormat; month: Intl.DateTimeFormat; monthShort: Intl.DateTimeFormat } | null = null;
function ru() {
  formats ??= {
    weekday: new Intl.DateTimeFormat('ru', { weekday: 'short', timeZone: 'UTC' }),
    month: new Intl.DateTimeFormat('ru', { month: 'long', timeZone: 'UTC' }),
    monthShort: new Intl.DateTimeFormat('ru', { month: 'short', timeZone: 'UTC' }),
  };
  return formats;
}

const utc = (day: number) => new Date(day * DAY_MS);
/** The day number of the 1st of a month (`month` may run past 11 or below 0). */
const monthStart = (year: number, month: number) => Math.round(Date.UTC(year, month, 1) / DAY_MS);

/** The ISO week number (weeks from Monday; week 1 holds the year's first Thursday). */
export function isoWeek(day: number): number {
  const thursday = day - weekday(day) + 3;
  const year = utc(thursday).getUTCFullYear();
  return Math.floor((thursday - dayNumber(`${year}-01-01`)) / 7) + 1;
}

const ROMAN = ['I', 'II', 'III', 'IV'];

/**
 * The axis's divisions at its scale, with Russian labels: days (the number, the weekday), ISO
 * weeks from Monday («Н45», «3–9»), months («январь»), quarters («I кв.», from `quarter`).
 */
export function axisTicks(axis: Axis, quarter: (roman: string) => string = (roman) => `${roman} кв.`): Tick[] {
  const ticks: Tick[] = [];
  const end = axis.origin + axis.days;
  if (axis.scale === 'day') {
    for (let day = axis.origin; day < end; day += 1)
      ticks.push({ start: day, days: 1, label: String(utc(day).getUTCDate()), sub: ru().weekday.format(utc(day)), weekend: weekday(day) >= 5 });
    return ticks;
  }
  if (axis.scale === 'week') {
    for (let day = axis.origin; day < end; day += 7) {
      const last = utc(day + 6);
      const first = utc(day);
      const sub =
        first.getUTCMonth() === last.getUTCMonth()
          ? `${first.getUTCDate()}–${last.getUTCDate()}`
          : `${first.getUTCDate()} ${ru().monthShort.format(first).replace('.', '')} – ${last.getUTCDate()}`;
      ticks.push({ start: day, days: 7, label: `Н${isoWeek(day)}`, sub });
    }
    return ticks;
  }
  const step = axis.scale === 'month' ? 1 : 3;
  const first = utc(axis.origin);
  for (let year = first.getUTCFullYear(), month = first.getUTCMonth(); ; month += step) {
    const start = monthStart(year, month);
    if (start >= end) break;
    const days = monthStart(year, month + step) - start;
    ticks.push({ start, days, label: step === 1 ? ru().month.format(utc(start)) : quarter(ROMAN[Math.floor(utc(start).getUTCMonth() / 3)]) });
  }
  return ticks;
}

/**
 * The header's upper divisions meeting days `from`..`to` (exclusive): months («ноябрь 2026») over
 * days and weeks, years over months and quarters. Only those on screen are made.
 */
export function axisGroups(axis: Axis, from: number, to: number): Tick[] {
  const groups: Tick[] = [];
  const first = Math.max(axis.origin, from);
  const last = Math.min(axis.origin + axis.days, to);
  if (last <= first) return groups;
  const start = utc(first);
  const byYear = axis.scale === 'month' || axis.scale === 'quarter';
  for (let year = start.getUTCFullYear(), month = byYear ? 0 : start.getUTCMonth(); ; month += byYear ? 12 : 1) {
    const begins = monthStart(year, month);
    if (begins >= last) break;
    const ends = monthStart(year, month + (byYear ? 12 : 1));
    const at = utc(begins);
    const label = byYear ? String(at.getUTCFullYear()) : `${ru().month.format(at)} ${at.getUTCFullYear()}`;
    groups.push({ start: Math.max(begins, axis.origin), days: Math.min(ends, axis.origin + axis.days) - Math.max(begins, axis.origin), label });
  }
  return groups;
}
