import { MAIN_FIELD_ID, type DatabaseField, type RowValue } from '../../../../schema/blocks/database';
import { parseNumber } from '../../../../schema/database';
import { FORM_PROBLEMS, formAnswerProblems, isBlankAnswer, type FormQuestion } from '../../../../schema/databaseForm';
import { readDateText, storedDate, type DateProblem } from '../cells/dateText';

/*
 * A form's answers as they are typed (drafts: the text of a field, a box ticked, options chosen)
 * and as they are sent (`values`: the cells of the new row, by field id). A blank answer is left
 * out of what is sent; a required one left blank, a text that is no number or no date, are said
 * under their question before anything is sent; the server's refusals (422) go there too.
 */

/** What a question's input holds: text (text, url, email, phone, number, a date typed, a select's option id), a box, options ticked. */
export type Draft = string | boolean | string[];
export type Drafts = Record<string, Draft>;

/** Why an answer is refused, as said under its question. */
export type AnswerProblem = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'notANumber' } | { kind: 'date'; problem: DateProblem; text: string };

/** The empty input of a field. */
export function blankDraft(field: DatabaseField): Draft {
  if (field.type === 'checkbox') return false;
  if (field.type === 'multiSelect') return [];
  return '';
}

/** Every question's empty input. */
export function blankDrafts(questions: readonly FormQuestion[]): Drafts {
  return Object.fromEntries(questions.map((q) => [q.fieldId, blankDraft(q.field)]));
}

/** One answer as a cell's value (undefined: blank, not sent), or why its text is none. */
export function answerValue(question: FormQuestion, draft: Draft | undefined, today: string): { value: RowValue | undefined } | { problem: AnswerProblem } {
  const { field, fieldId } = question;
  if (draft === undefined) return { value: undefined };
  if (field.type === 'checkbox') return { value: draft === true ? true : undefined };
  if (field.type === 'multiSelect')
    return { value: Array.isArray(draft) && draft.length > 0 ? field.options.filter((o) => draft.includes(o.id)).map((o) => o.id) : undefined };
  if (typeof draft !== 'string') return { value: undefined };
  // The title is one line (a page's title); a text keeps its lines.
  const text = fieldId === MAIN_FIELD_ID ? draft.replace(/\s*\n\s*/g, ' ').trim() : draft.trim();
  if (text === '') return { value: undefined };
  if (field.type === 'number') {
    const n = parseNumber(text);
    return n === null ? { problem: { kind: 'notANumber' } } : { value: n };
  }
  if (field.type === 'date') {
    const read = readDateText(text, { withTime: field.withTime ?? false, today });
    if (read === null) return { value: undefined };
    return 'problem' in read ? { problem: { kind: 'date', problem: read.problem, text } } : { value: storedDate(read.day, read.time) };
  }
  return { value: text };
}

/**
 * The answers to send and what is wrong with them (by field id): texts that are no number or
 * date, then required questions left blank (`formAnswerProblems`, as the server checks it).
 */
export function collectAnswers(
  questions: readonly FormQuestion[],
  drafts: Drafts,
  today: string,
): { values: Record<string, RowValue>; problems: Record<string, AnswerProblem> } {
  const values: Record<string, RowValue> = {};
  const problems: Record<string, AnswerProblem> = {};
  for (const question of questions) {
    const answer = answerValue(question, drafts[question.fieldId], today);
    if ('problem' in answer) problems[question.fieldId] = answer.problem;
    else if (answer.value !== undefined && !isBlankAnswer(answer.value)) values[question.fieldId] = answer.value;
  }
  for (const { path } of formAnswerProblems(questions, values)) {
    const fieldId = path.replace(/^values\./, '');
    problems[fieldId] ??= { kind: 'missing' };
  }
  return { values, problems };
}

/** The server's message of a required question left blank (schema/databaseForm.ts `formAnswerProblems`). */
const REQUIRED_MESSAGE = FORM_PROBLEMS.required;

/**
 * A 422's details (`[{ path: 'values.<fieldId>', message }]`) by question; `other`: something
 * said of no question asked here (the form changed since it was read).
 */
export function serverProblems(details: unknown, questions: readonly FormQuestion[]): { problems: Record<string, AnswerProblem>; other: boolean } {
  const asked = new Set(questions.map((q) => q.fieldId));
  const problems: Record<string, AnswerProblem> = {};
  let other = false;
  for (const detail of Array.isArray(details) ? details : []) {
    const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
    // `values.<fieldId>`, a row's `rows.0.values.<fieldId>` (checked again as the row is made), the body schema's `body.values.<fieldId>…`.
    const fieldId = typeof path === 'string' ? /(?:^|\.)values\.([A-Za-z0-9_-]+)/.exec(path)?.[1] : undefined;
    if (fieldId === undefined || !asked.has(fieldId)) {
      other = true;
      continue;
    }
    problems[fieldId] ??= message === REQUIRED_MESSAGE ? { kind: 'missing' } : { kind: 'invalid' };
  }
  if (Object.keys(problems).length === 0) other = true;
  return { problems, other };
}
