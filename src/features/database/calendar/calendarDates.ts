import type { DateRange, RowValue } from '../../../../schema/blocks/database';
import { addDays, dayString, isDay } from '../cells/dateText';

/**
 * A calendar's dates (CalendarView): a date cell's value as the calendar's event times, and the
 * value a drag or a resize makes of them. A day (YYYY-MM-DD, alone or a range's ends) is an
 * all-day event whose end, for the calendar, is the day after its last (exclusive); a moment (an
 * ISO date-time with its offset) is a timed event shown in the browser's time zone. Days are the
 * browser's local days: the calendar draws local days.
 */

export interface EventTimes {
  start: string;
  /** Exclusive; missing for a day alone or a moment alone. */
  end?: string;
  allDay: boolean;
}

/** The day after a YYYY-MM-DD day. */
function nextDay(day: string): string {
  return addDays(day, 1);
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
  // By the calendar's days (not 24 hours: a day of a clock change has 23 or 25), as calendarDays counts them.
  return {
    from: dayString(new Date(start.getFullYear(), start.getMonth(), start.getDate() - 1)),
    to: dayString(new Date(end.getFullYear(), end.getMonth(), end.getDate() + 1)),
  };
}

const TITLE_ORDER = new Intl.Collator('ru');

/** An item as the calendar places it: its id, title and times. */
export interface PlacedItem extends EventTimes {
  id: string;
  title: string;
}

/** A day's items that did not fit on it: their ids, in the calendar's order. */
export type HiddenByDay = Map<string, string[]>;

/** An item's local days (YYYY-MM-DD), from its start to its last (at most 62). */
function itemDays(item: EventTimes): string[] {
  const first = item.allDay ? new Date(`${item.start}T00:00:00`) : new Date(item.start);
  const lastMoment = item.end ? new Date((item.allDay ? new Date(`${item.end}T00:00:00`) : new Date(item.end)).getTime() - 1) : first;
  const last = dayString(lastMoment);
  const days: string[] = [];
  for (let at = new Date(first.getFullYear(), first.getMonth(), first.getDate()); days.length < 62; at.setDate(at.getDate() + 1)) {
    const day = dayString(at);
    days.push(day);
    if (day >= last) break;
  }
  return days;
}

/**
 * Which items a calendar draws when a day holds at most `perDay` of them (a month of 2,000 items
 * draws about a hundred; the rest are counted on their days as «+N», `hidden`). In the calendar's
 * own order — earlier first, longer first, all-day first, then by title — each item takes the
 * lowest row free on all its days, and is hidden if that row is `perDay` or more: what is drawn
 * then needs no more than `perDay` rows on any day, as the calendar stacks them in the same order.
 */
export function fitDays<T extends PlacedItem>(items: readonly T[], perDay: number): { shown: T[]; hidden: HiddenByDay } {
  const ms = (item: PlacedItem, text: string) => (item.allDay ? new Date(`${text}T00:00:00`).getTime() : Date.parse(text));
  // Each item's times read once (a sort compares each many times).
  const keyed = items.map((item) => {
    const start = ms(item, item.start);
    return { item, start, length: ms(item, item.end ?? item.start) - start };
  });
  keyed.sort(
    (a, b) => a.start - b.start || b.length - a.length || Number(b.item.allDay) - Number(a.item.allDay) || TITLE_ORDER.compare(a.item.title, b.item.title),
  );
  const ordered = keyed.map((k) => k.item);
  const taken = new Map<string, boolean[]>();
  const shown: T[] = [];
  const hidden: HiddenByDay = new Map();
  for (const item of ordered) {
    const days = itemDays(item);
    let row = 0;
    while (row < perDay && days.some((day) => taken.get(day)?.[row])) row += 1;
    if (row < perDay) {
      for (const day of days) {
        const rows = taken.get(day) ?? [];
        rows[row] = true;
        taken.set(day, rows);
      }
      shown.push(item);
    } else {
      for (const day of days) hidden.set(day, [...(hidden.get(day) ?? []), item.id]);
    }
  }
  return { shown, hidden };
}
