import { isDateString } from '../../../../schema/blocks/database';

const DAY_MS = 86_400_000;

/** The local day of a moment as YYYY-MM-DD. */
export function dayString(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A YYYY-MM-DD day `days` later (earlier, when negative). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whether a date cell's string is a day (YYYY-MM-DD), not a moment. */
export function isDay(text: string): boolean {
  return text.length === 10;
}

/*
 * A date typed the Russian way (issue 34 §2, docs/web-app.md «The date editor»): what the date
 * editor (DateInput) reads and writes, whatever the browser's language. Read: «01.12.2026»,
 * «1.12.2026», «1.12.26» (20xx), «1.12» (this year), «01122026» (8 digits; «20261201», year first, when it is no day first) or «011226» (6),
 * «сегодня», «завтра», «вчера», «послезавтра», «позавчера», ISO «2026-12-01"; separators `.`, `/`,
 * `-` or spaces; and, when the field has a time, « 14:30» or « 9:05» after it (a time alone is
 * today's). A day is the person's local day; a day with a time is that local moment, stored as
 * ISO in UTC (as the date cell has always stored it). An impossible date is refused with why.
 */

/** Why a text is no date: `unreadable` (no form above), a day, month or time that does not exist, a time where the field has none. */
export type DateProblem = 'unreadable' | 'noSuchDay' | 'noSuchMonth' | 'noSuchTime' | 'noTime';

/** A text read: a day (YYYY-MM-DD) and its time (HH:MM, or null), or why it was refused. */
export type ReadDate = { day: string; time: string | null } | { problem: DateProblem };

const WORDS: Record<string, number> = { позавчера: -2, вчера: -1, сегодня: 0, завтра: 1, послезавтра: 2 };

const pad = (n: number) => String(n).padStart(2, '0');

/** How many days a month (1–12) of a year has. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A day from its parts, or why there is none. */
function dayOf(year: number, month: number, day: number): string | { problem: DateProblem } {
  if (year < 1000 || year > 9999) return { problem: 'unreadable' };
  if (month < 1 || month > 12) return { problem: 'noSuchMonth' };
  if (day < 1 || day > daysInMonth(year, month)) return { problem: 'noSuchDay' };
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** A two-digit year is this century's (26 → 2026). */
const fullYear = (text: string) => (text.length === 2 ? 2000 + Number(text) : Number(text));

/**
 * The date a person typed, read against `today` (their local day, YYYY-MM-DD); null for an empty
 * text (the value is cleared). A time is read only when the field has one (`withTime`).
 */
export function readDateText(text: string, { withTime, today }: { withTime: boolean; today: string }): ReadDate | null {
  const raw = text.trim();
  if (raw === '') return null;
  // A value as stored (ISO: a day, or a moment with its offset) reads as itself, in local time.
  if (isDateString(raw)) {
    if (raw.length === 10) return { day: raw, time: null };
    const at = new Date(raw);
    const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
    return withTime ? { day: dayString(at), time } : { problem: 'noTime' };
  }
  let rest = text.trim().toLocaleLowerCase('ru').replace(/ё/g, 'е').replace(/\s+/g, ' ');
  let time: string | null = null;
  const clock = /(?:^|[\s,t]+)(\d{1,2}):(\d{2})$/.exec(rest);
  if (clock) {
    const [hours, minutes] = [Number(clock[1]), Number(clock[2])];
    if (hours > 23 || minutes > 59) return { problem: 'noSuchTime' };
    if (!withTime) return { problem: 'noTime' };
    time = `${pad(hours)}:${pad(minutes)}`;
    // «завтра в 14:30», «01.12.2026, 14:30»
    rest = rest
      .slice(0, clock.index)
      .replace(/(?:[\s,]+в)?[\s,]*$/, '')
      .trim();
    if (rest === '') return { day: today, time };
  }
  if (Object.hasOwn(WORDS, rest)) return { day: addDays(today, WORDS[rest]), time };
  let parts: [number, number, number] | null = null;
  const digits = /^(\d{2})(\d{2})(\d{4}|\d{2})$/.exec(rest);
  const iso = /^(\d{4})[-./ ](\d{1,2})[-./ ](\d{1,2})$/.exec(rest);
  const russian = /^(\d{1,2}) ?[-./ ] ?(\d{1,2})(?: ?[-./ ] ?(\d{4}|\d{2}))?\.?$/.exec(rest);
  if (digits) parts = [fullYear(digits[3]), Number(digits[2]), Number(digits[1])];
  else if (iso) parts = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (russian) parts = [russian[3] === undefined ? Number(today.slice(0, 4)) : fullYear(russian[3]), Number(russian[2]), Number(russian[1])];
  if (!parts) return { problem: 'unreadable' };
  let day = dayOf(...parts);
  // Eight digits that are no day first may be a year first («20261201», as a spreadsheet or a file name writes it).
  const yearFirst = digits && digits[3].length === 4 ? /^(\d{4})(\d{2})(\d{2})$/.exec(rest) : null;
  if (typeof day !== 'string' && yearFirst) {
    const other = dayOf(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
    if (typeof other === 'string') day = other;
  }
  return typeof day === 'string' ? { day, time } : day;
}

/** The value a date read makes: the day alone, or the local moment as ISO in UTC (no milliseconds). */
export function storedDate(day: string, time: string | null): string {
  if (time === null) return day;
  const [year, month, date] = day.split('-').map(Number);
  const [hours, minutes] = time.split(':').map(Number);
  return new Date(year, month - 1, date, hours, minutes).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A stored date value as the editor shows it: «01.12.2026», with « 14:30» (local) for a moment. */
export function dateText(value: string | null | undefined): string {
  if (!value) return '';
  if (value.length === 10) return `${value.slice(8, 10)}.${value.slice(5, 7)}.${value.slice(0, 4)}`;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return '';
  return `${pad(at.getDate())}.${pad(at.getMonth() + 1)}.${at.getFullYear()} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** Today, the person's local day (YYYY-MM-DD). */
export const localToday = (now: Date = new Date()): string => dayString(now);
