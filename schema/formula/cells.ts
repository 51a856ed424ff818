import { hasOptions, uniqueIdText, type DatabaseField, type FileRef, type RowValue } from '../blocks/database';
import { dateStartMs } from '../database';
import { rollupResultType } from './rollup';
import type { FormulaDate, FormulaType, FormulaValue } from './values';

/*
 * Cells as formulas see them, and formulas' values as cells keep them (docs/formulas.md «Fields
 * in formulas»): `prop("…")` of each field type, and a formula field's value stored like the cell
 * of the type it gives, so filters, sorts, groups and CSV take it as they take that type.
 */

/** The type `prop("…")` gives for a field. */
export function formulaTypeOfField(field: DatabaseField): FormulaType {
  switch (field.type) {
    case 'number':
      return 'number';
    case 'checkbox':
      return 'boolean';
    case 'date':
    case 'createdTime':
    case 'editedTime':
      return 'date';
    case 'multiSelect':
    case 'person':
    case 'relation':
    case 'files':
      return 'list';
    case 'uniqueId':
      // As shown: ЗАДАЧА-42 with a prefix, 42 without.
      return field.prefix ? 'text' : 'number';
    case 'rollup':
      return rollupResultType(field.calculation);
    default:
      // text, title, url, email, phone, select and status (the option's name), createdBy and editedBy (a name).
      return 'text';
  }
}

/** What a formula reads of a row besides its cells: people's names by id, related rows' titles by id. */
export interface CellLookups {
  personName?(id: string): string | undefined;
  rowTitle?(id: string): string | undefined;
}

/** A date cell's value as a formula date: a day (`YYYY-MM-DD`) or a moment, maybe a range; null when unreadable. */
export function formulaDateOfCell(value: string | { start: string; end: string | null }): FormulaDate | null {
  const start = typeof value === 'string' ? value : value.start;
  const end = typeof value === 'string' ? null : value.end;
  const startMs = dateStartMs(start);
  if (startMs === null) return null;
  const endMs = end === null ? null : dateStartMs(end);
  return { start: startMs, end: endMs, time: start.length > 10 };
}

/**
 * A cell's value as `prop("…")` gives it: numbers, texts and true/false as they are; an option's
 * name (a removed option: empty); people's and related rows' names (an unknown one left out);
 * files' names; dates as formula dates. An empty cell (and an empty list) is empty, a checkbox
 * never is (unchecked is false).
 */
export function formulaValueOfCell(field: DatabaseField, value: RowValue | undefined, lookups: CellLookups = {}): FormulaValue {
  if (field.type === 'checkbox') return value === true;
  if (value === null || value === undefined || value === '') return null;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'date':
    case 'createdTime':
    case 'editedTime':
      return typeof value === 'string' || (typeof value === 'object' && !Array.isArray(value)) ? formulaDateOfCell(value) : null;
    case 'select':
    case 'status':
      return hasOptions(field) ? (field.options.find((o) => o.id === value)?.name ?? null) : null;
    case 'multiSelect': {
      if (!Array.isArray(value) || !hasOptions(field)) return null;
      const names = (value as string[]).flatMap((id) => field.options.find((o) => o.id === id)?.name ?? []);
      return names.length ? names : null;
    }
    case 'person':
    case 'relation': {
      if (!Array.isArray(value)) return null;
      const name = field.type === 'person' ? lookups.personName : lookups.rowTitle;
      const names = (value as string[]).flatMap((id) => name?.(id) ?? []);
      return names.length ? names : null;
    }
    case 'createdBy':
    case 'editedBy': {
      // One person: an id, or a list of it as `rowValue` gives it.
      const id = Array.isArray(value) ? value[0] : value;
      return typeof id === 'string' ? (lookups.personName?.(id) ?? null) : null;
    }
    case 'files':
      return Array.isArray(value) && value.length ? (value as FileRef[]).map((file) => file.name) : null;
    case 'uniqueId':
      return typeof value === 'number' ? (field.prefix ? uniqueIdText(field.prefix, value) : value) : null;
    case 'rollup':
      return computedValueOfCell(rollupResultType(field.calculation), value);
    default:
      return typeof value === 'string' ? value : null;
  }
}

/**
 * A computed cell (a formula's or a rollup's, as `formulaCell` stores it) read back as the value it
 * holds, given the type it gives: a row's error reads as empty; a list's items as texts.
 */
export function computedValueOfCell(type: FormulaType, value: RowValue | undefined): FormulaValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && !Array.isArray(value) && 'error' in (value as object)) return null;
  switch (type) {
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' || (typeof value === 'object' && !Array.isArray(value))
        ? formulaDateOfCell(value as string | { start: string; end: string | null })
        : null;
    case 'list':
      return Array.isArray(value) ? (value as unknown[]).map((item) => (typeof item === 'string' ? item : String(item))) : null;
    default:
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
  }
}
