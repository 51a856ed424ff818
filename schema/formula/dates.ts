import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/ru.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { FormulaDate } from './values';

/*
 * Dates in formulas (docs/formulas.md «Dates and time zones»): a day is the same day everywhere
 * (its UTC midnight, as cells keep it); a moment is read, shown and moved by calendar units in
 * the evaluation's time zone, wall clock kept across a change of offset (a day later is the same
 * hour, not 24 hours); hours, minutes and seconds are plain durations. dayjs does the calendar.
 */

dayjs.extend(utc);
dayjs.extend(timezone);

export const DATE_UNITS = ['years', 'quarters', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'] as const;
export type DateUnit = (typeof DATE_UNITS)[number];

const UNIT_NAMES: Record<string, DateUnit> = {};
for (const [unit, names] of Object.entries({
  years: 'years year y год года лет годы',
  quarters: 'quarters quarter Q квартал квартала кварталов кварталы',
  months: 'months month M месяц месяца месяцев месяцы',
  weeks: 'weeks week w неделя недели недель',
  days: 'days day d день дня дней дни',
  hours: 'hours hour h час часа часов часы',
  minutes: 'minutes minute m минута минуты минут',
  seconds: 'seconds second s секунда секунды секунд',
})) {
  for (const name of names.split(' ')) UNIT_NAMES[name] = unit as DateUnit;
}

/** The unit a person wrote («days», «day», «дней»…), or undefined. */
export const dateUnit = (name: string): DateUnit | undefined => UNIT_NAMES[name] ?? UNIT_NAMES[name.toLowerCase()];

const WALL = 'YYYY-MM-DDTHH:mm:ss.SSS';
const DURATION_MS: Partial<Record<DateUnit, number>> = { hours: 3_600_000, minutes: 60_000, seconds: 1_000 };

const DAY_MS = 86_400_000;

/*
 * Speed: a formula runs on every row (50,000 at a time when its expression changes), and dayjs's
 * `tz()` costs ≈ 100 µs a call. The zone's offset comes from one cached Intl formatter per zone
 * (≈ 2 µs), wall clocks are dayjs objects in UTC, and the conversions rows repeat (a day's
 * midnight in the zone, today) are remembered.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at the moment `ms`, in ms (Moscow: +3 h). */
export function offsetAt(ms: number, zone: string): number {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(zone).formatToParts(ms)) parts[part.type] = part.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = Date.UTC(year, Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  // Date.UTC takes years 0–99 as 1900–1999.
  const fixed = year >= 0 && year < 100 ? new Date(wall).setUTCFullYear(year) : wall;
  return fixed - (ms - (((ms % 1000) + 1000) % 1000));
}

/** A remembered function of a text key, forgetting all once it holds `limit` answers. */
function remembered<T>(limit: number, compute: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= limit) known.clear();
      value = compute(key);
      known.set(key, value);
    }
    return value;
  };
}

/**
 * The moment a wall-clock time (`YYYY-MM-DDTHH:mm…`) names in the zone. A time skipped by a change
 * of offset moves forward (read with the offset before the change: 02:30 → 03:30); one that happens
 * twice is the later (standard time). Not `dayjs.tz(wall, zone)`: that starts from the offset in
 * force on the machine's clock today, so a repeated hour came out earlier or later by the season.
 */
export function fromWall(wall: string, zone: string): number {
  return fromWallRemembered(`${zone}\u0000${wall}`);
}

const fromWallRemembered = remembered(20_000, (key) => {
  const [zone, wall] = key.split('\u0000');
  const local = dayjs.utc(wall).valueOf();
  // The offsets a day either side: an offset changes far less often than that.
  const before = offsetAt(local - DAY_MS, zone);
  const after = offsetAt(local + DAY_MS, zone);
  const fits = [before, after].map((offset) => local - offset).filter((ms) => offsetAt(ms, zone) === local - ms);
  return fits.length > 0 ? Math.max(...fits) : local - before;
});

/**
 * A date's wall clock, as a dayjs object in UTC showing it (`.hour()`, `.format()` without an
 * offset token): a day as it is, a moment as the zone's clock shows it.
 */
export function calendar(date: FormulaDate, zone: string, at: 'start' | 'end' = 'start'): Dayjs {
  const ms = at === 'end' && date.end !== null ? date.end : date.start;
  return date.time ? dayjs.utc(ms + offsetAt(ms, zone)) : dayjs.utc(ms);
}

/** The moment a date starts: a day at its midnight in the zone. */
const instantOf = (date: FormulaDate, zone: string): number => (date.time ? date.start : midnightIn(date.start, zone));

/** A day's (its UTC midnight's) midnight in the zone, as a moment. */
const midnightIn = (day: number, zone: string): number => fromWall(dayjs.utc(day).format('YYYY-MM-DD'), zone);

/** `ms` moved by `amount` units. */
function shift(ms: number, time: boolean, amount: number, unit: DateUnit, zone: string): number {
  const duration = DURATION_MS[unit];
  if (duration !== undefined) return ms + amount * duration;
  // Quarters as three months; a fraction of a calendar unit is not one (Notion rounds it down too).
  const whole = Math.trunc(amount);
  const [n, u] = unit === 'quarters' ? [whole * 3, 'months' as const] : [whole, unit];
  if (!time) return dayjs.utc(ms).add(n, u).valueOf();
  // The wall clock moved in UTC (no offsets there), then read back in the zone: 12:00 a day later
  // is 12:00 again across a change of offset (dayjs's own add keeps the old offset).
  const wall = dayjs
    .utc(ms + offsetAt(ms, zone))
    .add(n, u)
    .format(WALL);
  return fromWall(wall, zone);
}

/** The date moved by `amount` units (a range moves whole); a day moved by hours becomes a moment. */
export function addToDate(date: FormulaDate, amount: number, unit: DateUnit, zone: string): FormulaDate {
  if (!date.time && DURATION_MS[unit] !== undefined) {
    // A day's midnight in the zone, as a moment.
    const end = date.end === null ? null : midnightIn(date.end, zone);
    return addToDate({ start: midnightIn(date.start, zone), end, time: true }, amount, unit, zone);
  }
  return {
    start: shift(date.start, date.time, amount, unit, zone),
    end: date.end === null ? null : shift(date.end, date.time, amount, unit, zone),
    time: date.time,
  };
}

/** How many whole units from `b` to `a` (negative when `a` is earlier), counted on the calendar. */
export function unitsBetween(a: FormulaDate, b: FormulaDate, unit: DateUnit, zone: string): number {
  // A day against a moment: the day's midnight in the zone.
  const both = a.time || b.time;
  const duration = DURATION_MS[unit];
  // `|| 0`: less than a unit earlier is 0, not «-0».
  if (duration !== undefined) return Math.trunc((instantOf(a, zone) - instantOf(b, zone)) / duration) || 0;
  // Calendar units on the wall clocks (in UTC, where no offset changes).
  const wall = (d: FormulaDate) => (both && !d.time ? dayjs.utc(d.start) : calendar(d, zone));
  const diff = wall(a).diff(wall(b), unit === 'quarters' ? 'month' : unit);
  return (unit === 'quarters' ? Math.trunc(diff / 3) : diff) || 0;
}

/** Today in the zone, as a day. */
export function today(now: number, zone: string): FormulaDate {
  // Every row of one run asks with the same `now`.
  if (lastToday.now !== now || lastToday.zone !== zone) {
    const wall = now + offsetAt(now, zone);
    Object.assign(lastToday, { now, zone, start: wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS) });
  }
  return { start: lastToday.start, end: null, time: false };
}
const lastToday = { now: Number.NaN, zone: '', start: 0 };

/** The default way a date is shown: «4 декабря 2026», «4 декабря 2026 14:30»; a range «… → …». */
export function formatDate(date: FormulaDate, zone: string, pattern?: string): string {
  // An offset token (Z, ZZ) needs dayjs's own zone (slower); every other token reads the wall clock.
  const zoned = pattern !== undefined && /Z/.test(pattern.replace(/\[[^\]]*\]/g, ''));
  const one = (at: 'start' | 'end') =>
    (zoned && date.time ? dayjs(at === 'end' && date.end !== null ? date.end : date.start).tz(zone) : calendar(date, zone, at))
      .locale('ru')
      .format(pattern ?? (date.time ? 'D MMMM YYYY HH:mm' : 'D MMMM YYYY'));
  return date.end === null || pattern !== undefined ? one('start') : `${one('start')} → ${one('end')}`;
}

/** A part of the date in the zone (a day's in UTC): year, month 1–12, date 1–31, weekday 1 (Monday)–7, hour, minute, ISO week. */
export function datePart(date: FormulaDate, part: 'year' | 'month' | 'date' | 'day' | 'hour' | 'minute' | 'week', zone: string): number {
  const d = calendar(date, zone);
  switch (part) {
    case 'year':
      return d.year();
    case 'month':
      return d.month() + 1;
    case 'date':
      return d.date();
    case 'day':
      return ((d.day() + 6) % 7) + 1;
    case 'hour':
      return d.hour();
    case 'minute':
      return d.minute();
    case 'week': {
      // ISO 8601: the week of the year's first Thursday is week 1, weeks start on Monday.
      const thursday = dayjs.utc(d.format('YYYY-MM-DD')).add(4 - (((d.day() + 6) % 7) + 1), 'day');
      return Math.floor((thursday.diff(dayjs.utc(`${thursday.year()}-01-01`), 'day') + 7) / 7);
    }
  }
}

/**
 * A date read from text: `2026-12-04` (a day), `2026-12-04T14:30` or with seconds (a moment in
 * the zone unless it says its offset: `Z`, `+03:00`), `04.12.2026` (with ` 14:30`); null when none.
 */
export function parseDate(text: string, zone: string): FormulaDate | null {
  const trimmed = text.trim();
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(trimmed);
  const iso = dotted
    ? `${dotted[3]}-${dotted[2].padStart(2, '0')}-${dotted[1].padStart(2, '0')}${dotted[4] ? `T${dotted[4].padStart(2, '0')}:${dotted[5]}` : ''}`
    : trimmed;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (day) {
    const d = dayjs.utc(iso);
    return d.isValid() && d.format('YYYY-MM-DD') === iso ? { start: d.valueOf(), end: null, time: false } : null;
  }
  const moment = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(iso);
  if (!moment) return null;
  const [, datePartText, timePartText, offset] = moment;
  // No 30 February, 25:00 or 14:61 (dayjs and Date.parse would roll them over).
  const wall = dayjs.utc(`${datePartText}T${timePartText}`);
  if (!wall.isValid() || wall.format('YYYY-MM-DDTHH:mm') !== `${datePartText}T${timePartText.slice(0, 5)}`) return null;
  if (offset) {
    const ms = Date.parse(`${datePartText}T${timePartText}${offset}`);
    return Number.isNaN(ms) ? null : { start: ms, end: null, time: true };
  }
  return { start: fromWall(`${datePartText}T${timePartText}`, zone), end: null, time: true };
}
