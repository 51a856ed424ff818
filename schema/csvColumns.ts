import { DATABASE_LIMITS, MAIN_FIELD_ID, NUMBER_DECIMALS_MAX, optionColor, type DatabaseField, type SelectOption } from './blocks/database';
import { foldText, parseDate, parseNumber, splitList, textToValue } from './database';
import { isSafeHref } from './token';
import type { RowValue } from './blocks/database';
import { isEmail } from './user';

/*
 * What type each CSV column gets (docs/web-app.md, «CSV»; shared by the web app's CSV import and
 * the server's Notion import, docs/import-export.md «Notion»), and the columns' text as values of
 * those fields through the schema's own rules (textToValue), so an import reads a cell exactly
 * as a paste or a retype would. Anything that cannot be read is reported, never dropped silently.
 */

/**
 * CSV injection (OWASP; issue 33): a spreadsheet opening a CSV runs a cell that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return as a formula (`=HYPERLINK(…)`, `-2+3+cmd|…`). Our CSV
 * export (`GET database/{id}/export.csv`, the CSV inside Markdown and HTML exports) writes such a
 * **text** cell — the header's names, titles, every field's text — with a leading apostrophe, quoted
 * (`'=1+2` → `"'=1+2"`), as papaparse's `escapeFormulae` does: the spreadsheet shows the text and
 * runs nothing. So that the apostrophe can be taken off again without ambiguity, a text that
 * already starts with apostrophes before one of those characters gets one more (`'=x` → `''=x`).
 * A number field's value is written as a number (`-5`), never changed: papaparse leaves number
 * values alone, and a number is no formula.
 */
export const FORMULA_START = /^'*[=+\-@\t\r]/;

/** papaparse's `unparse` options of our CSV export: FORMULA_START's cells escaped (numbers never are). */
export const CSV_EXPORT_OPTIONS = { escapeFormulae: FORMULA_START } as const;

/**
 * A cell of a CSV as it was before our export escaped it: one apostrophe taken off a cell that
 * starts with apostrophes before `=`, `+`, `-`, `@`, a tab or a carriage return (`'=1+2` → `=1+2`,
 * `''=x` → `'=x`); any other cell as it is. Our CSV import (the web app's) and the Notion import
 * (which reads our Markdown export's CSV) read every cell through it, header included.
 */
export function unescapeFormula(cell: string): string {
  return /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** The types an import offers for a column (the rest are computed, or attached like files). */
export const IMPORT_TYPES = ['text', 'number', 'checkbox', 'date', 'select', 'multiSelect', 'url', 'email', 'phone'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/** A multi-select's items are tags: at most this long and this many words (longer ones are text with commas). */
const TAG_LENGTH = 40;
const TAG_WORDS = 4;

/** At most this many non-empty cells of a column are looked at to guess its type. */
const SAMPLE = 5000;
/** The share of a column's filled cells that must fit a type (below 20 cells: all of them). */
const FIT_SHARE = 0.95;

const PHONE = /^\+?[\d\s()\-.]{7,20}$/;
const isPhone = (text: string) => PHONE.test(text) && (text.match(/\d/g) ?? []).length >= 7;
const isUrl = (text: string) => /^https?:\/\/\S+$/i.test(text) && isSafeHref(text);
const checkboxField: DatabaseField = { name: '', type: 'checkbox' };
const isCheckboxWord = (text: string) => 'value' in textToValue(checkboxField, text);
const dateField: DatabaseField = { name: '', type: 'date' };
const isDate = (text: string) => parseDate(text) !== null || 'value' in textToValue(dateField, text);

/**
 * The type of a column from its cells (95 % of the filled ones fitting is enough): numbers → number; all yes/no words
 * (not all digits) → checkbox; dates → date; links, e-mails, phones; few distinct values that
 * repeat → select (or multi-select when cells hold comma-separated lists); else text. «Few» is
 * at most half as many names as cells (`optionShare`: a Notion export, whose small databases'
 * status columns are selects, allows three quarters).
 */
export function detectColumnType(cells: readonly string[], options: { optionShare?: number } = {}): ImportType {
  const share = options.optionShare ?? 0.5;
  const values: string[] = [];
  for (const cell of cells) {
    const t = cell.trim();
    if (t !== '') values.push(t);
    if (values.length >= SAMPLE) break;
  }
  if (values.length === 0) return 'text';
  // A type wins when (nearly) every filled cell fits it: a stray «много» among 1,500 numbers
  // does not make the column text; the import lists it as a cell that could not be read.
  // Stops at the first miss too many: a text column is not tried 5,000 times for each type.
  const allowed = values.length - Math.ceil(values.length * FIT_SHARE);
  const all = (test: (text: string) => boolean) => {
    let misses = 0;
    for (const value of values) if (!test(value) && ++misses > allowed) return false;
    return true;
  };
  const numeric = all((v) => parseNumber(v) !== null);
  if (all(isCheckboxWord) && !numeric) return 'checkbox';
  if (numeric) return 'number';
  if (all(isDate)) return 'date';
  if (all(isUrl)) return 'url';
  if (all(isEmail)) return 'email';
  if (all(isPhone)) return 'phone';
  if (values.length < 3 || values.some((v) => v.length > 100)) return 'text';
  if (values.some((v) => v.includes(','))) {
    // Lists of tags, not sentences with commas in them: every item short (a few words), and most
    // of the names met in more than one cell.
    const items = values.flatMap(splitList);
    if (items.some((item) => item.length > TAG_LENGTH || item.split(/\s+/).length > TAG_WORDS)) return 'text';
    const cellsOf = new Map<string, number>();
    for (const value of values) for (const name of new Set(splitList(value).map(foldText))) cellsOf.set(name, (cellsOf.get(name) ?? 0) + 1);
    const distinct = cellsOf.size;
    const repeated = [...cellsOf.values()].filter((n) => n > 1).length;
    if (distinct <= DATABASE_LIMITS.selectOptions && distinct <= items.length * share && repeated * 2 >= distinct) return 'multiSelect';
    return 'text';
  }
  const distinct = new Set(values.map(foldText)).size;
  return distinct <= DATABASE_LIMITS.selectOptions && distinct <= values.length * share ? 'select' : 'text';
}

/** The options of a select or multi-select column: its distinct names in order of appearance (at most the limit). */
export function optionsOf(cells: readonly string[], type: 'select' | 'multiSelect'): SelectOption[] {
  const names = new Map<string, string>();
  for (const cell of cells) {
    for (const name of type === 'multiSelect' ? splitList(cell) : [cell.trim()]) {
      if (name === '' || names.has(foldText(name))) continue;
      names.set(foldText(name), name.slice(0, DATABASE_LIMITS.nameLength));
      if (names.size >= DATABASE_LIMITS.selectOptions) break;
    }
  }
  return [...names.values()].map((name, i) => ({ id: `o${i + 1}`, name, color: optionColor(i) }));
}

/**
 * The digits after the comma a number column was written with, when every number written with
 * some has the same (two for «9 156,30» and «80 443,03», so they show as typed and not
 * «9 156,3»; whole numbers beside them then show «100,00»); undefined when they differ or none
 * has any (the values show as they are).
 */
export function decimalsOf(cells: readonly string[]): number | undefined {
  let decimals: number | undefined;
  for (const cell of cells) {
    const text = cell.trim();
    if (text === '' || parseNumber(text) === null) continue;
    const bare = text.replace(/[\s\u00a0\u202f₽$€%]|руб\.?|р\.$/gi, '');
    const digits = /[.,](\d+)$/.exec(bare);
    // Whole numbers say nothing of the others' digits; «1.234» and «1,234» are thousands as often as decimals.
    if (!digits || /^-?\d{1,3}[.,]\d{3}$/.test(bare)) continue;
    const n = digits[1].length;
    if (decimals === undefined) decimals = n;
    else if (decimals !== n) return undefined;
  }
  return decimals === undefined || decimals > NUMBER_DECIMALS_MAX ? undefined : decimals;
}

/** The field a column becomes: its name (cut to the limit, «Столбец N» when empty) and type. */
export function fieldFor(name: string, type: ImportType, cells: readonly string[]): DatabaseField {
  const fieldName = name.slice(0, DATABASE_LIMITS.nameLength);
  switch (type) {
    case 'select':
    case 'multiSelect':
      return { name: fieldName, type, options: optionsOf(cells, type) };
    case 'number': {
      const decimals = decimalsOf(cells);
      return decimals === undefined ? { name: fieldName, type, format: 'plain' } : { name: fieldName, type, format: 'plain', decimals };
    }
    default:
      return { name: fieldName, type };
  }
}

/** A cell that could not be read as its field's type: where, what it said, and why. */
export interface CellProblem {
  /** 1-based row of the file (the header counted when there is one). */
  line: number;
  column: string;
  text: string;
  /** Why, as a key of `csvImport.problems`: the field's type (not a number, not a date…) or `tooManyOptions`. */
  kind: DatabaseField['type'] | 'tooManyOptions';
}

/** A column going into a field: its index in the CSV and the field (its id in the database). */
export interface ColumnTarget {
  index: number;
  fieldId: string;
  field: DatabaseField;
}

export interface ConvertedRow {
  title: string;
  values: Record<string, RowValue>;
}

/**
 * The rows as the API takes them: the MAIN_FIELD column as the title, the others as values of
 * their fields. A cell that does not fit is left empty and reported in `problems`. `addOption`
 * (an existing database) gives an id to a name that is no option of the field yet.
 */
export function convertRows(
  rows: readonly string[][],
  targets: readonly ColumnTarget[],
  options: { firstLine: number; columnName(index: number): string; addOption?(fieldId: string, name: string): string | undefined },
): { rows: ConvertedRow[]; problems: CellProblem[] } {
  const problems: CellProblem[] = [];
  const out = rows.map((cells, r) => {
    const row: ConvertedRow = { title: '', values: {} };
    for (const target of targets) {
      const text = cells[target.index] ?? '';
      if (target.fieldId === MAIN_FIELD_ID) {
        row.title = text.trim().slice(0, 1000);
        continue;
      }
      let full = false;
      // A status option belongs to a group, which a CSV cannot tell: unknown names are problems.
      const addOption = target.field.type === 'status' ? undefined : options.addOption;
      const parsed = textToValue(target.field, text, {
        addOption: addOption
          ? (name) => {
              const id = addOption(target.fieldId, name);
              if (id === undefined) full = true;
              return id ?? '';
            }
          : undefined,
      });
      if (full) problems.push({ line: options.firstLine + r, column: options.columnName(target.index), text, kind: 'tooManyOptions' });
      else if ('value' in parsed) {
        if (parsed.value !== null && !(target.field.type === 'checkbox' && text.trim() === '')) row.values[target.fieldId] = parsed.value;
      } else problems.push({ line: options.firstLine + r, column: options.columnName(target.index), text, kind: target.field.type });
    }
    return row;
  });
  return { rows: out, problems };
}
