import { z } from 'zod';
import {
  FORM_FIELD_TYPES,
  fieldIdSchema,
  fieldOf,
  rowValueSchema,
  type DatabaseData,
  type DatabaseField,
  type DatabaseLayout,
  type FormAccess,
  type RowValue,
} from './blocks/database';

/*
 * Forms (docs/api/databases.md «Forms»): a view of type `form` asks for the fields it lists
 * (`orderedFields`, in order; the title too when listed); a submission makes a row. What the
 * server and the web app share: the questions a form asks, and what in an answer is refused.
 */

/**
 * Public submissions (a form with access `public`, filled in by anyone with the link): at most
 * this many an hour from one address to one form, and this many an hour to one form from everyone.
 */
export const FORM_LIMITS = { publicPerAddressPerHour: 20, publicPerFormPerHour: 1000 } as const;

/** The messages of an answer's problems (422 details at `values.{fieldId}`), for clients to tell them apart. */
export const FORM_PROBLEMS = { notAsked: 'the form does not ask for this field', required: 'an answer is required' } as const;

/** One question: the field it fills in (its name, type, options), and whether an answer is required. */
export interface FormQuestion {
  fieldId: string;
  field: DatabaseField;
  required: boolean;
}

/** A form as its submitter reads it (`GET database/form/{viewId}`). */
export interface WireForm {
  viewId: string;
  databaseId: string;
  /** The page holding the database, for a reader who may read it (an editor's «Изменить форму»); null for anyone else. */
  pageId: string | null;
  /** The database's title (its own, else its page's). */
  title: string;
  /** The view's name, when it has one. */
  name: string | null;
  description: string;
  access: FormAccess;
  questions: FormQuestion[];
  /** Whether the reader may change the form (edit access to the database): the web app offers «Изменить». */
  canEdit: boolean;
  /** Whether an answer is recorded without its sender (submitted through the public link only). */
  anonymous: boolean;
}

export const submitFormBodySchema = z.object({ values: z.record(fieldIdSchema, rowValueSchema) }).strict();
export type SubmitFormBody = z.infer<typeof submitFormBodySchema>;

/** The questions a form asks: the fields it lists that exist and forms ask for, in order. */
export function formQuestions(data: DatabaseData, layout: DatabaseLayout): FormQuestion[] {
  const required = new Set(layout.form?.required ?? []);
  return layout.orderedFields.flatMap(({ fieldId }) => {
    const field = fieldOf(data.config, fieldId);
    if (!field || !FORM_FIELD_TYPES.has(field.type)) return [];
    return [{ fieldId, field, required: required.has(fieldId) }];
  });
}

/** Whether an answer says nothing: no value, an empty text or list, an unchecked box. */
export function isBlankAnswer(value: RowValue | undefined): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/**
 * What in an answer the form refuses (paths `values.{fieldId}`): a field it does not ask for, a
 * required question left blank. The values themselves are checked against their fields as a
 * row's are (`checkRowValues`).
 */
export function formAnswerProblems(questions: readonly FormQuestion[], values: Record<string, RowValue>): Array<{ path: string; message: string }> {
  const asked = new Map(questions.map((q) => [q.fieldId, q]));
  const problems: Array<{ path: string; message: string }> = [];
  for (const fieldId of Object.keys(values)) if (!asked.has(fieldId)) problems.push({ path: `values.${fieldId}`, message: FORM_PROBLEMS.notAsked });
  for (const question of questions)
    if (question.required && isBlankAnswer(values[question.fieldId])) problems.push({ path: `values.${question.fieldId}`, message: FORM_PROBLEMS.required });
  return problems;
}
