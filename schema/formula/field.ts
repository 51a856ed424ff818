import type { DatabaseField, DatabaseFieldType } from '../blocks/database';
import { foldText } from '../database';
import { formulaTypeOfField } from './cells';
import { rollupResultType } from './rollup';
import { compileFormula, type CompiledFormula, type FormulaField, type FormulaOutcome } from './compile';
import type { RunContext } from './functions';
import { formatValue } from './functions';
import { FormulaError } from './syntax';
import { isDate, type FormulaDate, type FormulaType, type FormulaValue } from './values';

/*
 * A database's formula fields together (docs/formulas.md «The formula field»): each compiled
 * against the others, in the order they can be computed (a formula reading a formula comes after
 * it), a cycle or a mistake refused with the field it is in; and a formula's value as its cell
 * keeps it — the wire value, and the projections SQL sorts and filters by, as the cell of the
 * type it gives would have them.
 */

/** The fields as a formula plan reads them: every field's name and type, a formula's expression (stored form: field ids). */
export interface PlanField {
  name: string;
  type: DatabaseFieldType | 'formula';
  expression?: string;
}

export interface PlannedFormula {
  fieldId: string;
  formula: CompiledFormula;
}

export interface FormulaProblem {
  fieldId: string;
  message: string;
  start: number;
  end: number;
}

/** The formulas in the order they are computed, and the problems of those that cannot be (each one's own, or a cycle's). */
export function planFormulas(fields: Readonly<Record<string, PlanField>>): { order: PlannedFormula[]; problems: FormulaProblem[] } {
  const order: PlannedFormula[] = [];
  const problems: FormulaProblem[] = [];
  const done = new Map<string, CompiledFormula | null>();
  const visiting: string[] = [];

  const visit = (fieldId: string): CompiledFormula | null => {
    if (done.has(fieldId)) return done.get(fieldId)!;
    const field = fields[fieldId];
    visiting.push(fieldId);
    let compiled: CompiledFormula | null = null;
    try {
      compiled = compileFormula(field.expression ?? '', (reference) => {
        if (!Object.hasOwn(fields, reference)) return undefined;
        const other = fields[reference];
        if (other.type !== 'formula') return { id: reference, name: other.name, type: formulaTypeOfField(other as DatabaseField) };
        if (visiting.includes(reference)) {
          const ids = visiting.slice(visiting.indexOf(reference));
          const message = `Формулы читают друг друга по кругу: ${[...ids, reference].map((id) => `«${fields[id].name}»`).join(' → ')}`;
          // Every formula on the cycle says so (not «the formula it reads has an error»).
          for (const id of ids)
            if (!problems.some((p) => p.fieldId === id)) problems.push({ fieldId: id, message, start: 0, end: (fields[id].expression ?? '').length });
          throw new FormulaError(message, 0, (field.expression ?? '').length);
        }
        if ((other.expression ?? '').trim() === '') throw new FormulaError(`Формула «${other.name}» ещё не написана`, 0, (field.expression ?? '').length);
        const inner = visit(reference);
        if (!inner) throw new FormulaError(`Формула «${other.name}» сама с ошибкой`, 0, (field.expression ?? '').length);
        return { id: reference, name: other.name, type: inner.type };
      });
      order.push({ fieldId, formula: compiled });
    } catch (error) {
      if (!(error instanceof FormulaError)) throw error;
      if (!problems.some((p) => p.fieldId === fieldId)) problems.push({ fieldId, message: error.message, start: error.start, end: error.end });
    }
    visiting.pop();
    done.set(fieldId, compiled);
    return compiled;
  };

  // A formula not written yet (empty) gives no values and no problem.
  for (const [fieldId, field] of Object.entries(fields)) if (field.type === 'formula' && (field.expression ?? '').trim() !== '') visit(fieldId);
  return { order, problems };
}

/** A formula's fields by id, as `compileFormula` resolves stored references (formulas by their result types, from the plan). */
export function formulaFieldsOf(
  fields: Readonly<Record<string, PlanField>>,
  order: readonly PlannedFormula[],
): (reference: string) => FormulaField | undefined {
  const results = new Map(order.map((p) => [p.fieldId, p.formula.type]));
  return (reference) => {
    if (!Object.hasOwn(fields, reference)) return undefined;
    const field = fields[reference];
    const type = field.type === 'formula' ? results.get(reference) : formulaTypeOfField(field as DatabaseField);
    return type === undefined ? undefined : { id: reference, name: field.name, type };
  };
}

/** A formula cell's value on the wire: what it gave (dates as cells write them, list items as text), or the row's error. */
export type FormulaCellValue = null | number | string | boolean | string[] | { start: string; end: string | null } | { error: string };

/** The projections SQL sorts and filters by: those of the type's cell (number, text folded, list `|a|b|`, date start and end). */
export interface FormulaCell {
  value: FormulaCellValue;
  num: number | null;
  txt: string | null;
  end: number | null;
}

const DAY_MS = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dateText = (date: FormulaDate, ms: number) => (date.time ? new Date(ms).toISOString() : dayText(ms));

/**
 * One row's planned formulas, in plan order: a formula reading another reads the value just
 * computed (an error there reads as empty); `valueOf` gives every other field's value. The
 * server's computation and the editor's preview.
 */
export function evaluateRow(order: readonly PlannedFormula[], valueOf: (fieldId: string) => FormulaValue, context: RunContext): Map<string, FormulaOutcome> {
  const computed = new Map<string, FormulaValue>();
  const outcomes = new Map<string, FormulaOutcome>();
  for (const { fieldId, formula } of order) {
    const outcome = formula.evaluate({ ...context, value: (id) => (computed.has(id) ? computed.get(id)! : valueOf(id)) });
    computed.set(fieldId, outcome.ok ? outcome.value : null);
    outcomes.set(fieldId, outcome);
  }
  return outcomes;
}

/** A formula's outcome for a row as its cell keeps it. */
export function formulaCell(outcome: { ok: true; value: FormulaValue } | { ok: false; error: { message: string } }, timeZone: string): FormulaCell {
  if (!outcome.ok) return { value: { error: outcome.error.message }, num: null, txt: null, end: null };
  const { value } = outcome;
  if (value === null) return { value: null, num: null, txt: null, end: null };
  if (typeof value === 'number') return { value, num: value, txt: null, end: null };
  if (typeof value === 'boolean') return { value, num: value ? 1 : 0, txt: null, end: null };
  if (typeof value === 'string') return { value, num: null, txt: value === '' ? null : foldText(value), end: null };
  if (isDate(value)) {
    // Where the date's time ends, as a date cell's `num_end`: a day runs to the next midnight.
    const last = value.end ?? value.start;
    const end = value.time ? (value.end === null ? null : value.end) : last + DAY_MS;
    return {
      value: value.end === null ? dateText(value, value.start) : { start: dateText(value, value.start), end: dateText(value, value.end) },
      num: value.start,
      txt: null,
      end,
    };
  }
  const items = value.map((item) => formatValue(item, { timeZone }));
  return { value: items, num: null, txt: items.length ? `|${items.map(foldText).join('|')}|` : null, end: null };
}

/** The formula's result type as the filters and sorts of a view take it (`any`: as text). */
export function formulaFilterType(type: FormulaType): 'number' | 'text' | 'checkbox' | 'date' | 'multiSelect' {
  switch (type) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'checkbox';
    case 'date':
      return 'date';
    case 'list':
      return 'multiSelect';
    default:
      return 'text';
  }
}

const plans = new Map<string, { order: PlannedFormula[]; problems: FormulaProblem[] }>();

/** A database's formulas planned, remembered by its fields as they are (the server reads views and writes rows with the same few configs). */
export function formulaPlanOf(fields: Readonly<Record<string, PlanField>>): { order: PlannedFormula[]; problems: FormulaProblem[] } {
  if (!Object.values(fields).some((f) => f.type === 'formula')) return { order: [], problems: [] };
  const key = JSON.stringify(fields);
  let plan = plans.get(key);
  if (!plan) {
    if (plans.size >= 200) plans.clear();
    plan = planFormulas(fields);
    plans.set(key, plan);
  }
  return plan;
}

/**
 * The field as views filter, sort, group and count it: a formula as the type it gives
 * (`formulaFilterType`; a formula that cannot be computed: text, its cells empty); any other as it is.
 */
export function asStoredField(fields: Readonly<Record<string, PlanField>>, fieldId: string): PlanField & { options?: [] } {
  const field = fields[fieldId];
  // A unique ID filters and sorts by its number (its cells keep a number's projection).
  if (field?.type === 'uniqueId') return { name: field.name, type: 'number' };
  // A rollup as the type its calculation gives (a list: as a multi-select without options, like a formula's list).
  if (field?.type === 'rollup') {
    const type = formulaFilterType(rollupResultType((field as Extract<DatabaseField, { type: 'rollup' }>).calculation));
    return type === 'multiSelect' ? { name: field.name, type, options: [] } : { name: field.name, type };
  }
  if (field?.type !== 'formula') return field;
  const planned = formulaPlanOf(fields).order.find((p) => p.fieldId === fieldId);
  const type = formulaFilterType(planned?.formula.type ?? 'text');
  return type === 'multiSelect' ? { name: field.name, type, options: [] } : { name: field.name, type };
}
