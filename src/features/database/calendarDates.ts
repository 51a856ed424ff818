import type { DateRange, RowValue } from '../../../schema/blocks/database';

/**
 * A calendar's dates (CalendarView): a date cell's value as the calendar's event times, and the
 * value a drag or a resize makes of them. A day (YYYY-MM-DD, alone or a range's ends) is an
 * all-day event whose end, for the calendar, is the day after its last (exclusive); a moment (an
 * ISO date-time with its offset) is a timed event shown in the browser's time zone. Days are the
 * browser's local days: the calendar draws local days.
 */

const DAY_MS = 86_400_000;

export interface EventTimes {
  start: string;
  /** Exclusive; missing for a day alone or a moment alone. */
  end?: string;
  allDay: boolean;
}

/** The local day of a moment as YYYY-MM-DD. */
export function dayString(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A YYYY-MM-DD day `days` later (earlier, when negative). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The day after a YYYY-MM-DD day. */
function nextDay(day: string): string {
  return addDays(day, 1);
}

/** Whether a date cell's string is a day (YYYY-MM-DD), not a moment. */
export function isDay(text: string): boolean {
  return text.length === 10;
}

/** A date cell's value as an event's times; null when it holds no date. */
export function eventTimes(value: RowValue | undefined): EventTimes | null {
  if (typeof value === 'string') return value === '' ? null : { start: value, allDay: isDay(value) };
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { start, end } = value as DateRange;
  if (typeof start !== 'string' || start === '') return null;
  if (isDay(start)) {
    const last = end && isDay(end) && end > start ? end : null;
    return last ? { start, end: nextDay(last), allDay: true } : { start, allDay: true };
  }
  return end && !isDay(end) && Date.parse(end) > Date.parse(start) ? { start, end, allDay: false } : { start, allDay: false };
}

/**
 * The value an event moved or resized to makes, keeping the value's shape: a day stays a day and a
 * range a range (one stretched over more days, or resized on the hours, becomes a range). A drop
 * on the hours makes a moment. `end` is what the calendar gives: none for an event drawn without one.
 */
export function valueFromEvent(start: Date, end: Date | null, allDay: boolean, previous: RowValue | undefined): RowValue {
  const openEnded = !!previous && typeof previous === 'object' && !Array.isArray(previous) && (previous as DateRange).end === null;
  if (allDay) {
    const first = dayString(start);
    const last = end ? dayString(new Date(end.getTime() - 1)) : first;
    if (last > first) return { start: first, end: last };
    return openEnded ? { start: first, end: null } : first;
  }
  const from = start.toISOString();
  if (end && end.getTime() > start.getTime()) return { start: from, end: end.toISOString() };
  return openEnded ? { start: from, end: null } : from;
}

/**
 * The days a calendar reads for what it shows from `start` to `end` (local midnights): a day more
 * on each side, since a day of the database is a UTC day and the browser's may be hours off.
 */
export function readRange(start: Date, end: Date): { from: string; to: string } {
  return { from: dayString(new Date(start.getTime() - DAY_MS)), to: dayString(new Date(end.getTime() + DAY_MS)) };
}
