/**
 * What formulas compute with (docs/formulas.md «Values»): numbers, texts, true/false, dates (a day
 * or a moment, maybe a range), lists, and empty (`null`).
 */

/** A date: a day (`time: false`, its UTC midnight, as cells keep days) or a moment; `end` for a range. */
export interface FormulaDate {
  start: number;
  end: number | null;
  time: boolean;
}

export type FormulaValue = null | number | string | boolean | FormulaDate | FormulaValue[];

/** Static types: what an expression gives, as far as can be told before it runs (`any`: a list's item, found when run). */
export type FormulaType = 'number' | 'text' | 'boolean' | 'date' | 'list' | 'empty' | 'any';

export const isDate = (value: FormulaValue): value is FormulaDate => typeof value === 'object' && value !== null && !Array.isArray(value);

export function typeOf(value: FormulaValue): FormulaType {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'list';
  if (isDate(value)) return 'date';
  return typeof value === 'number' ? 'number' : typeof value === 'string' ? 'text' : 'boolean';
}

/** The type's Russian name, as errors say it. */
export const TYPE_NAMES: Record<FormulaType, string> = {
  number: 'число',
  text: 'текст',
  boolean: 'логическое значение',
  date: 'дата',
  list: 'список',
  empty: 'пустое значение',
  any: 'значение',
};

/** Empty as Notion counts it: no value, 0, "", false, an empty list. */
export function isEmptyValue(value: FormulaValue): boolean {
  return value === null || value === 0 || value === '' || value === false || (Array.isArray(value) && value.length === 0);
}

/** Whether two values are the same (lists item by item, dates by start, end and kind). */
export function sameValue(a: FormulaValue, b: FormulaValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (isDate(a) || isDate(b)) return isDate(a) && isDate(b) && a.start === b.start && a.end === b.end && a.time === b.time;
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  return a === b;
}
