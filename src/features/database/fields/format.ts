import { ApiRequestError } from '../../../app/api';
import type { DatabaseField, DateRange, NumberFormat, RowValue } from '../../../../schema/blocks/database';
import { valueToText } from '../../../../schema/database';
import { PERCENT_CALCULATIONS } from '../../../../schema/formula/rollup';

/** How a number shows in a column of each format (ru-RU: spaces between thousands, a comma for decimals). */
const NUMBER_FORMATTERS: Record<NumberFormat, Intl.NumberFormat> = {
  plain: new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 10 }),
  percent: new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 10 }),
  rub: new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB', maximumFractionDigits: 2 }),
  usd: new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 }),
  eur: new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'EUR', maximumFractionDigits: 2 }),
};

const FIXED = new Map<string, Intl.NumberFormat>();

/** A number as its column shows it: in its format, with `decimals` digits after the comma when the field fixes them. */
export function formatNumber(value: number, format: NumberFormat = 'plain', decimals?: number): string {
  let formatter = NUMBER_FORMATTERS[format];
  if (decimals !== undefined) {
    const key = `${format}:${decimals}`;
    formatter =
      FIXED.get(key) ?? new Intl.NumberFormat('ru-RU', { ...formatter.resolvedOptions(), minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    FIXED.set(key, formatter);
  }
  const text = formatter.format(value);
  return format === 'percent' ? `${text} %` : text;
}

const DAY = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const MOMENT = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** One date value as people read it: «25 нояб. 2026 г.», with the time when it has one. */
export function formatDay(value: string): string {
  const day = value.length === 10;
  const ms = Date.parse(day ? `${value}T00:00:00Z` : value);
  if (!Number.isFinite(ms)) return value;
  return (day ? DAY : MOMENT).format(ms);
}

export function formatDate(value: string | DateRange): string {
  if (typeof value === 'string') return formatDay(value);
  return value.end ? `${formatDay(value.start)} → ${formatDay(value.end)}` : formatDay(value.start);
}

/** A cell's value as one line of text for display: numbers and dates formatted, the rest as valueToText writes it. */
export function displayText(field: DatabaseField, value: RowValue | undefined, userName: (id: string) => string = (id) => id): string {
  if (value === undefined || value === null) return '';
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? formatNumber(value, field.format, field.decimals) : '';
    case 'date':
    case 'createdTime':
    case 'editedTime':
      return typeof value === 'string' || (typeof value === 'object' && !Array.isArray(value)) ? formatDate(value as string | DateRange) : '';
    case 'checkbox':
      return value === true ? '✓' : '';
    case 'formula':
      return formulaText(value);
    case 'rollup':
      // Stored like a formula's value; a percent (0–100) with «%» after it, as a number field of that format.
      return typeof value === 'number' && PERCENT_CALCULATIONS.has(field.calculation) ? formatNumber(value, 'percent') : formulaText(value);
    default:
      return valueToText(field, value, { userName });
  }
}

/** The href of a url, email or phone cell. */
export function linkOf(type: DatabaseField['type'], text: string): string | null {
  if (!text) return null;
  if (type === 'email') return `mailto:${text}`;
  if (type === 'phone') return `tel:${text.replace(/[^\d+]/g, '')}`;
  if (type === 'url') {
    const href = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
    return /^https?:/i.test(href) ? href : null;
  }
  return null;
}

/** A formula cell's value as text (docs/formulas.md «The formula field»): numbers and dates as shown elsewhere, lists with «, », an error as its message. */
export function formulaText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(value) ? formatDay(value) : value;
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object' && 'error' in value) return String((value as { error: string }).error);
  if (typeof value === 'object' && 'start' in value) return formatDate(value as DateRange);
  return '';
}

/**
 * What to tell of a field change the server refused: a 422's first detail (the server writes those
 * in Russian: «Связь читают сводки: «Сумма»»), else `fallback` (the generic «could not save»).
 */
export function refusalText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiRequestError) || error.status !== 422) return fallback;
  const details = Array.isArray(error.details) ? (error.details as Array<{ message?: unknown }>) : [];
  const said = details.find((detail) => typeof detail.message === 'string' && /[а-яё]/i.test(detail.message));
  return typeof said?.message === 'string' ? said.message : fallback;
}
