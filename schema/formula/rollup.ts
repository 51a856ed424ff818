import { fieldOf, type DatabaseConfig, type DatabaseField, type RollupCalculation } from '../blocks/database';
import { formatValue } from './functions';
import { isDate, type FormulaDate, type FormulaType, type FormulaValue } from './values';

/*
 * Rollups (issue 38, docs/relations.md «Rollups»): a field that reads one field of the rows a
 * relation names and gives one figure, date or list per row — Notion's calculations. Computed on
 * the server where formulas are (server/commands/databases/formulas.ts) and stored like a
 * formula's cell, so views sort, filter and group by it in SQL; a formula reads it as the type
 * its calculation gives.
 */

const NUMBER_INPUT: ReadonlySet<RollupCalculation> = new Set(['sum', 'average', 'median', 'min', 'max', 'range']);
const DATE_INPUT: ReadonlySet<RollupCalculation> = new Set(['earliest', 'latest', 'dateRange']);
const BOOLEAN_INPUT: ReadonlySet<RollupCalculation> = new Set(['checked', 'unchecked', 'percentChecked', 'percentUnchecked']);
/** Calculations that give a percent (0–100): the web app shows them with «%». */
export const PERCENT_CALCULATIONS: ReadonlySet<RollupCalculation> = new Set(['percentEmpty', 'percentNotEmpty', 'percentChecked', 'percentUnchecked']);

/** What a rollup gives, by its calculation only (so a formula reading it is typed without the other database). */
export function rollupResultType(calculation: RollupCalculation): 'number' | 'date' | 'list' {
  if (calculation === 'showOriginal') return 'list';
  if (calculation === 'earliest' || calculation === 'latest') return 'date';
  return 'number';
}

/**
 * Whether a calculation reads values of this type (the target field as a formula sees it):
 * sums and the like numbers, dates' dates, checked and unchecked true/false; counts and «show
 * original» any. A list of numbers (a rollup showing originals of numbers) is typed `list`: taken
 * by any calculation, its items read when computed.
 */
export function rollupFits(calculation: RollupCalculation, type: FormulaType): boolean {
  if (type === 'list' || type === 'any') return true;
  if (NUMBER_INPUT.has(calculation)) return type === 'number';
  if (DATE_INPUT.has(calculation)) return type === 'date';
  if (BOOLEAN_INPUT.has(calculation)) return type === 'boolean';
  return true;
}

const DAY_MS = 86_400_000;
/** Two decimals at most: percents and day counts (33.33, 1.5). */
const rounded = (n: number) => Math.round(n * 100) / 100;

/** Empty as a rollup counts it: no value, "", an empty list (0 and false are values). */
const isBlank = (value: FormulaValue) => value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The items of the values: lists opened (one level per list, nested lists too), empties left out. */
function itemsOf(values: readonly FormulaValue[]): FormulaValue[] {
  const out: FormulaValue[] = [];
  const add = (value: FormulaValue) => {
    if (Array.isArray(value)) value.forEach(add);
    else if (!isBlank(value)) out.push(value);
  };
  values.forEach(add);
  return out;
}

const keyOf = (value: FormulaValue): string =>
  isDate(value) ? `d${value.start}:${value.end}:${value.time}` : `${typeof value}:${typeof value === 'string' ? value : String(value)}`;

/**
 * A rollup's value for one row: `values` are the target field's values of the rows its relation
 * names (one per row, in the relation's order; a row's list is one value). No rows: counts 0, a
 * sum 0, the rest empty.
 */
export function rollupValue(calculation: RollupCalculation, values: readonly FormulaValue[], timeZone: string): FormulaValue {
  const all = values.length;
  const blank = values.filter(isBlank).length;
  const percent = (part: number) => (all === 0 ? null : rounded((part / all) * 100));
  switch (calculation) {
    case 'showOriginal': {
      const items = itemsOf(values).map((item) => formatValue(item, { timeZone }));
      return items.length ? items : null;
    }
    case 'countAll':
      return all;
    case 'countValues':
      return itemsOf(values).length;
    case 'countUnique':
      return new Set(itemsOf(values).map(keyOf)).size;
    case 'countEmpty':
      return blank;
    case 'countNotEmpty':
      return all - blank;
    case 'percentEmpty':
      return percent(blank);
    case 'percentNotEmpty':
      return percent(all - blank);
    case 'checked':
    case 'unchecked':
    case 'percentChecked':
    case 'percentUnchecked': {
      const checked = itemsOf(values).filter((item) => item === true).length;
      const count = calculation === 'checked' || calculation === 'percentChecked' ? checked : all - checked;
      return calculation === 'checked' || calculation === 'unchecked' ? count : percent(count);
    }
    case 'earliest':
    case 'latest':
    case 'dateRange': {
      const dates = itemsOf(values).filter(isDate);
      if (dates.length === 0) return null;
      const endOf = (date: FormulaDate) => date.end ?? date.start;
      if (calculation === 'earliest') return dates.reduce((a, b) => (b.start < a.start ? b : a));
      if (calculation === 'latest') return dates.reduce((a, b) => (endOf(b) > endOf(a) ? b : a));
      const from = dates.reduce((a, date) => Math.min(a, date.start), Infinity);
      const to = dates.reduce((a, date) => Math.max(a, endOf(date)), -Infinity);
      return rounded((to - from) / DAY_MS);
    }
    default: {
      const numbers = itemsOf(values).filter((item): item is number => typeof item === 'number' && Number.isFinite(item));
      if (calculation === 'sum') return numbers.reduce((a, b) => a + b, 0);
      if (numbers.length === 0) return null;
      if (calculation === 'average') return numbers.reduce((a, b) => a + b, 0) / numbers.length;
      const least = numbers.reduce((a, b) => Math.min(a, b));
      const most = numbers.reduce((a, b) => Math.max(a, b));
      if (calculation === 'min') return least;
      if (calculation === 'max') return most;
      if (calculation === 'range') return most - least;
      const sorted = [...numbers].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
  }
}

export type RollupField = Extract<DatabaseField, { type: 'rollup' }>;

/** The rollup fields of a config. */
export function rollupFieldsOf(config: DatabaseConfig): Array<[string, RollupField]> {
  return Object.entries(config.fields).filter((entry): entry is [string, RollupField] => entry[1].type === 'rollup');
}

/** The relation fields a config's rollups read through. */
export const relationsReadByRollups = (config: DatabaseConfig): Set<string> => new Set(rollupFieldsOf(config).map(([, rollup]) => rollup.relationFieldId));

/** The database a relation field names (its own when it names none); null for another field. */
export const relationTarget = (databaseId: string, field: DatabaseField | undefined): string | null =>
  field?.type === 'relation' ? (field.databaseId ?? databaseId) : null;

/**
 * The rollups of a database showing originals of another database's rows, each with that database
 * (docs/relations.md «Rollups»: their values go to readers of it only): over a relation to it, or
 * over a relation within this database to such a rollup (its originals are the other's).
 */
export function foreignOriginals(databaseId: string, config: DatabaseConfig): Map<string, string> {
  const out = new Map<string, string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [id, rollup] of rollupFieldsOf(config)) {
      if (rollup.calculation !== 'showOriginal' || out.has(id)) continue;
      const target = relationTarget(databaseId, fieldOf(config, rollup.relationFieldId));
      const other = target === null ? undefined : target !== databaseId ? target : out.get(rollup.targetFieldId);
      if (other === undefined) continue;
      out.set(id, other);
      grew = true;
    }
  }
  return out;
}
