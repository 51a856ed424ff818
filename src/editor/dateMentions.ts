import type { DateMention } from '../../schema/token';

/*
 * Date mentions typed after `@` (issue 39 §2, docs/web-app.md «Date mentions and reminders»):
 * `@сегодня`, `@завтра`, `@1 декабря`, `@пятница 15:00`, `@напомнить завтра 9:00`. The words are
 * read by chrono-node's Russian parser (loaded when `@` is first typed: it is 70 KB), the day on
 * this browser's clock; a reminder fires at the day's time on it (9:00 when none is given).
 */

type Chrono = typeof import('chrono-node/ru');
let chrono: Chrono | null = null;
let loading: Promise<Chrono> | null = null;

/** The parser, once loaded (null before). */
export function dateParser(): Chrono | null {
  return chrono;
}

/** Loads the parser (once); resolves when it can be used. */
export function loadDateParser(): Promise<Chrono> {
  loading ??= import('chrono-node/ru').then((module) => (chrono = module));
  return loading;
}

/** What the picker offers for a date typed after `@`. */
export interface DateSuggestion {
  kind: 'date' | 'reminder';
  /** The token's text: the date as it reads. */
  label: string;
  date: DateMention;
}

/** The hour a reminder of a day without a time goes off (as Notion's). */
export const REMINDER_DEFAULT_HOUR = 9;

/** Words the picker completes from their first letters (`за` → завтра), as the parser does not. */
const COMPLETIONS = ['сегодня', 'завтра', 'послезавтра', 'вчера', 'понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота', 'воскресенье'];

const REMINDER_WORDS = /^(напомни(ть)?|напоминание)(\s+|$)/;

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-12-11` or `2026-12-11T15:00`. */
function startOf(year: number, month: number, day: number, time: { hour: number; minute: number } | null): string {
  const date = `${year}-${pad(month)}-${pad(day)}`;
  return time ? `${date}T${pad(time.hour)}:${pad(time.minute)}` : date;
}

const DAY_FORMAT = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });

/** A mention's text: «11 декабря 2026», «11 декабря 2026, 15:00». */
export function dateLabel(start: string): string {
  const [day, time] = start.split('T');
  const [year, month, date] = day.split('-').map(Number);
  // Without the «г.» Intl writes after the year.
  const parts = DAY_FORMAT.formatToParts(new Date(year, month - 1, date)).filter((part) => part.type !== 'literal' || part.value.trim() !== 'г.');
  const text = parts
    .map((part) => part.value)
    .join('')
    .replace(/\s*г\.$/, '')
    .trim();
  return time ? `${text}, ${time}` : text;
}

/** The instant a reminder of `start` fires on this browser's clock (9:00 for a day alone). */
export function reminderInstant(start: string): Date {
  const [day, time] = start.split('T');
  const [year, month, date] = day.split('-').map(Number);
  const [hour, minute] = time ? time.split(':').map(Number) : [REMINDER_DEFAULT_HOUR, 0];
  return new Date(year, month - 1, date, hour, minute);
}

/** The text after `@` read as a date: the day (and time, when given) it names, or null when it is not all a date. */
function readDate(parser: Chrono, text: string, now: Date): string | null {
  const parse = (forwardDate: boolean) => parser.parse(text, now, { forwardDate })[0];
  let found = parse(false);
  if (!found || found.index !== 0 || found.text.length !== text.length) return null;
  // A weekday alone means the coming one (today counts: «пятница» on a Friday is today).
  if (found.start.isCertain('weekday') && !found.start.isCertain('day') && found.start.get('weekday') !== now.getDay()) found = parse(true) ?? found;
  const { start } = found;
  const time = start.isCertain('hour') ? { hour: start.get('hour') ?? 0, minute: start.get('minute') ?? 0 } : null;
  return startOf(start.get('year') ?? now.getFullYear(), start.get('month') ?? 1, start.get('day') ?? 1, time);
}

/**
 * The dates the picker offers for what was typed after `@`: the date, and a reminder at it when
 * that is still ahead; only the reminder after «напомнить». Nothing while the parser is not loaded
 * or the text is not all a date (then it is a page's title being looked for).
 */
export function dateSuggestions(query: string, now: Date, parser: Chrono | null = chrono): DateSuggestion[] {
  if (!parser) return [];
  let text = query.trim().toLowerCase().replace(/\s+/g, ' ');
  const reminderOnly = REMINDER_WORDS.test(text);
  text = text.replace(REMINDER_WORDS, '');
  if (text === '') return [];
  let start = readDate(parser, text, now);
  if (!start && text.length >= 2 && !text.includes(' ')) {
    const word = COMPLETIONS.find((candidate) => candidate.startsWith(text));
    if (word) start = readDate(parser, word, now);
  }
  if (!start) return [];
  const out: DateSuggestion[] = reminderOnly ? [] : [{ kind: 'date', label: dateLabel(start), date: { start } }];
  // A reminder says its time, 9:00 when none was typed.
  const at = start.includes('T') ? start : `${start}T${pad(REMINDER_DEFAULT_HOUR)}:00`;
  const remindAt = reminderInstant(at);
  if (remindAt.getTime() > now.getTime()) out.push({ kind: 'reminder', label: dateLabel(at), date: { start: at, remindAt: remindAt.toISOString() } });
  return out;
}
