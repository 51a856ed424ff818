/*
 * Formulas (issue 38, docs/formulas.md): one language, parsed, checked and run by the same code on
 * the server (every row's value) and in the browser (the editor's preview).
 */
import { tokenize } from './syntax';

export { compileFormula, FORMULA_RESULT_LIMITS, type CompiledFormula, type EvalContext, type FormulaField, type FormulaOutcome } from './compile';
export { FUNCTIONS, formatValue } from './functions';
export { FormulaError, parse } from './syntax';
export { isDate, typeOf, TYPE_NAMES, type FormulaDate, type FormulaType, type FormulaValue } from './values';
export { parseDate } from './dates';

/**
 * The formula with each `prop("…")`'s text swapped by `swap` (a name for an id, or back);
 * a text `swap` does not know is left as it is (compiling then says which field is missing).
 */
function swapReferences(expression: string, swap: (reference: string) => string | undefined): string {
  const tokens = tokenize(expression);
  let out = '';
  let last = 0;
  tokens.forEach((token, i) => {
    const before = tokens[i - 1];
    const call = tokens[i - 2];
    if (token.type !== 'text' || before?.type !== 'op' || before.value !== '(' || call?.type !== 'name' || call.value !== 'prop') return;
    const replacement = swap(token.value);
    if (replacement === undefined) return;
    out += expression.slice(last, token.start) + JSON.stringify(replacement);
    last = token.end;
  });
  return out + expression.slice(last);
}

/** The formula as kept: fields by id, so a rename never breaks it. */
export const toStoredFormula = (shown: string, idOfName: (name: string) => string | undefined) => swapReferences(shown, idOfName);

/** The formula as people read it: fields by name. */
export const toShownFormula = (stored: string, nameOfId: (id: string) => string | undefined) => swapReferences(stored, nameOfId);
