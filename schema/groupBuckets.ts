import type { DateGrouping } from './blocks/database';

/*
 * The groups of a view grouped by a date or a number field (docs/api/databases.md «Grouping»): each
 * value falls in one bucket, and buckets in ascending order are ascending ranges, so a view sorted
 * by the field shows each group's rows together (a table draws its groups as runs of rows).
 */

export interface Bucket {
  /** The group's value on the wire (`WireGroup.value`). */
  key: string;
  label: string;
  /** Where it stands among the groups: its range's start (a day number, a number). */
  order: number;
}

const MONTHS = ['Январь', 'Февраль', 'Март', 'Апрель', 'Май', 'Июнь', 'Июль', 'Август', 'Сентябрь', 'Октябрь', 'Ноябрь', 'Декабрь'];
const MONTHS_OF = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];
const DAY_MS = 86_400_000;

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The day (days since 1970-01-01) a moment falls on in a time zone. */
export function dayNumber(ms: number, timeZone: string): number {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const [y, m, d] = format.format(ms).split('-').map(Number);
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

const dateOf = (day: number) => new Date(day * DAY_MS);
const iso = (day: number) => dateOf(day).toISOString().slice(0, 10);
const dayLabel = (day: number) => `${dateOf(day).getUTCDate()} ${MONTHS_OF[dateOf(day).getUTCMonth()]} ${dateOf(day).getUTCFullYear()}`;

function monthBucket(day: number): Bucket {
  const date = dateOf(day);
  const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
  return { key: `month:${iso(first).slice(0, 7)}`, label: `${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`, order: first };
}

/**
 * The bucket of a date (its start, ms) grouped `by`, today being `today` (a day number in the
 * zone): relative buckets are «Сегодня», «Вчера», «Завтра», the 7 and 30 days either side, and
 * months beyond them — each a range after the one before.
 */
export function dateBucket(ms: number, by: DateGrouping, timeZone: string, today: number): Bucket {
  const day = dayNumber(ms, timeZone);
  switch (by) {
    case 'day':
      return { key: `day:${iso(day)}`, label: dayLabel(day), order: day };
    case 'week': {
      // Weeks start on Monday (1970-01-01 was a Thursday: day 0 is weekday 3 counting from Monday).
      const monday = day - ((((day + 3) % 7) + 7) % 7);
      return { key: `week:${iso(monday)}`, label: `Неделя с ${dayLabel(monday)}`, order: monday };
    }
    case 'month':
      return monthBucket(day);
    case 'year': {
      const year = dateOf(day).getUTCFullYear();
      return { key: `year:${year}`, label: String(year), order: Date.UTC(year, 0, 1) / DAY_MS };
    }
    case 'relative': {
      const offset = day - today;
      const near: Array<[number, number, string, string]> = [
        [-30, -8, 'past30', 'Последние 30 дней'],
        [-7, -2, 'past7', 'Последние 7 дней'],
        [-1, -1, 'yesterday', 'Вчера'],
        [0, 0, 'today', 'Сегодня'],
        [1, 1, 'tomorrow', 'Завтра'],
        [2, 7, 'next7', 'Следующие 7 дней'],
        [8, 30, 'next30', 'Следующие 30 дней'],
      ];
      const found = near.find(([from, to]) => offset >= from && offset <= to);
      if (found) return { key: `relative:${found[2]}`, label: found[3], order: today + found[0] };
      // Beyond 30 days either way: by month (a month cut by the near ranges keeps its part outside them).
      const month = monthBucket(day);
      return { ...month, order: offset < 0 ? Math.min(month.order, today - 31) : Math.max(month.order, today + 31) };
    }
  }
}

/** Numbers in ranges `step` wide: 0 – 10, 10 – 20 (a range holds its start, not its end). */
export function numberBucket(n: number, step: number): Bucket {
  // A hair over the quotient: 0.3 / 0.1 is 2.9999999999999996, and 0.3 is in 0,3 – 0,4.
  const start = Math.floor(n / step + 1e-9) * step;
  // Rounded to the step's precision: 0.1 steps give 0.3, not 0.30000000000000004.
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const clean = (x: number) => Number(x.toFixed(Math.min(digits, 12)));
  const format = (x: number) => clean(x).toLocaleString('ru-RU', { maximumFractionDigits: 12 });
  return { key: `range:${clean(start)}`, label: `${format(start)} – ${format(start + step)}`, order: clean(start) };
}
