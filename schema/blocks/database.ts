import { z } from 'zod';
import { LIMITS } from '../constants';
import type { BlockDefinition } from './definition';

/**
 * A database is a block of type `database` whose children are its rows (blocks of type
 * `databaseRow`). The database holds the columns (config.fields) and how they are shown
 * (view.layouts); a row holds its title, icon and one value per column it fills.
 */

/** The field every database has: the title column. It is of type text. */
export const MAIN_FIELD_ID = 'MAIN_FIELD';

/** Column types, kept minimal: what a value of each holds is in `checkRowValues`. */
export const DATABASE_FIELD_TYPES = ['text', 'number', 'checkbox', 'select', 'date'] as const;
export type DatabaseFieldType = (typeof DATABASE_FIELD_TYPES)[number];

export const DATABASE_LIMITS = {
  fields: 100,
  selectOptions: 100,
  layouts: 20,
  nameLength: 200,
  textValueLength: 10_000,
  iconLength: 256,
} as const;

/** Keys that would reach Object.prototype if someone used them as plain-object keys. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A field id (and a select option id): a short token of letters, digits, `_` and `-`. */
export const fieldIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'ids hold letters, digits, _ and - only' })
  .refine((id) => !RESERVED_KEYS.has(id), { message: 'this id is reserved' });

const fieldNameSchema = z.string().max(DATABASE_LIMITS.nameLength);

export const selectOptionSchema = z.object({ id: fieldIdSchema, name: fieldNameSchema }).strict();

export const databaseFieldSchema = z.discriminatedUnion('type', [
  z.object({ name: fieldNameSchema, type: z.literal('text') }).strict(),
  z.object({ name: fieldNameSchema, type: z.literal('number') }).strict(),
  z.object({ name: fieldNameSchema, type: z.literal('checkbox') }).strict(),
  z
    .object({
      name: fieldNameSchema,
      type: z.literal('select'),
      options: z.array(selectOptionSchema).max(DATABASE_LIMITS.selectOptions),
    })
    .strict(),
  z.object({ name: fieldNameSchema, type: z.literal('date') }).strict(),
]);
export type DatabaseField = z.infer<typeof databaseFieldSchema>;

export const databaseConfigSchema = z
  .object({ fields: z.record(fieldIdSchema, databaseFieldSchema) })
  .strict();
export type DatabaseConfig = z.infer<typeof databaseConfigSchema>;

export const orderedFieldSchema = z.object({ fieldId: fieldIdSchema, isWrap: z.boolean() }).strict();

export const databaseLayoutSchema = z
  .object({
    uid: z.string().min(1).max(64),
    type: z.literal('table'),
    orderedFields: z.array(orderedFieldSchema).max(DATABASE_LIMITS.fields),
  })
  .strict();
export type DatabaseLayout = z.infer<typeof databaseLayoutSchema>;

export const databaseViewSchema = z
  .object({ layouts: z.array(databaseLayoutSchema).max(DATABASE_LIMITS.layouts) })
  .strict();
export type DatabaseView = z.infer<typeof databaseViewSchema>;

/** The field ids of a config, own keys only. */
export function fieldIds(config: DatabaseConfig): string[] {
  return Object.keys(config.fields);
}

/** The field with this id, never something inherited from Object.prototype. */
export function fieldOf(config: DatabaseConfig, fieldId: string): DatabaseField | undefined {
  return Object.hasOwn(config.fields, fieldId) ? config.fields[fieldId] : undefined;
}

export const databaseDataSchema = z
  .object({ config: databaseConfigSchema, view: databaseViewSchema })
  .strict()
  .superRefine((data, ctx) => {
    const ids = fieldIds(data.config);
    if (ids.length > DATABASE_LIMITS.fields) {
      ctx.addIssue({ code: 'custom', path: ['config', 'fields'], message: `a database has at most ${DATABASE_LIMITS.fields} fields` });
    }
    const main = fieldOf(data.config, MAIN_FIELD_ID);
    if (!main) {
      ctx.addIssue({ code: 'custom', path: ['config', 'fields', MAIN_FIELD_ID], message: `the field ${MAIN_FIELD_ID} must exist` });
    } else if (main.type !== 'text') {
      ctx.addIssue({ code: 'custom', path: ['config', 'fields', MAIN_FIELD_ID, 'type'], message: `${MAIN_FIELD_ID} is of type text` });
    }
    for (const id of ids) {
      const field = data.config.fields[id];
      if (field.type !== 'select') continue;
      const optionIds = field.options.map((o) => o.id);
      if (new Set(optionIds).size !== optionIds.length) {
        ctx.addIssue({ code: 'custom', path: ['config', 'fields', id, 'options'], message: 'option ids must be unique' });
      }
    }
    const layoutUids = new Set<string>();
    data.view.layouts.forEach((layout, index) => {
      if (layoutUids.has(layout.uid)) {
        ctx.addIssue({ code: 'custom', path: ['view', 'layouts', index, 'uid'], message: 'layout uids must be unique' });
      }
      layoutUids.add(layout.uid);
      const seen = new Set<string>();
      layout.orderedFields.forEach((entry, at) => {
        const path = ['view', 'layouts', index, 'orderedFields', at, 'fieldId'];
        if (!fieldOf(data.config, entry.fieldId)) ctx.addIssue({ code: 'custom', path, message: 'no such field in config.fields' });
        else if (seen.has(entry.fieldId)) ctx.addIssue({ code: 'custom', path, message: 'a field is listed once per layout' });
        seen.add(entry.fieldId);
      });
    });
  });
export type DatabaseData = z.infer<typeof databaseDataSchema>;

/** A cell value before it is checked against its column's type; null clears a cell. */
export const rowValueSchema = z.union([
  z.string().max(DATABASE_LIMITS.textValueLength),
  z.number(),
  z.boolean(),
  z.null(),
]);
export type RowValue = z.infer<typeof rowValueSchema>;

export const databaseRowDataSchema = z
  .object({
    title: z.string().max(LIMITS.titleLength),
    icon: z.string().min(1).max(DATABASE_LIMITS.iconLength).nullable(),
    values: z.record(fieldIdSchema, rowValueSchema),
  })
  .strict()
  .refine((data) => Object.keys(data.values).length <= DATABASE_LIMITS.fields, {
    message: `a row has at most ${DATABASE_LIMITS.fields} values`,
    path: ['values'],
  });
export type DatabaseRowData = z.infer<typeof databaseRowDataSchema>;

const dateValueSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** Why a value does not fit a field, or null when it does. */
export function valueProblem(field: DatabaseField, value: RowValue): string | null {
  if (value === null) return null;
  switch (field.type) {
    case 'text':
      return typeof value === 'string' ? null : 'a text field holds a string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a number field holds a number';
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'a checkbox field holds true or false';
    case 'select':
      if (typeof value !== 'string') return 'a select field holds an option id';
      return field.options.some((o) => o.id === value) ? null : 'no such option in the field';
    case 'date':
      return typeof value === 'string' && dateValueSchema.safeParse(value).success
        ? null
        : 'a date field holds YYYY-MM-DD or an ISO date-time with offset';
  }
}

/** Every value of a row checked against its database's fields: `[{ path, message }]`, empty when all fit. */
export function checkRowValues(config: DatabaseConfig, values: Record<string, RowValue>): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  for (const [fieldId, value] of Object.entries(values)) {
    const field = fieldOf(config, fieldId);
    const problem = field ? valueProblem(field, value) : 'no such field in the database';
    if (problem) problems.push({ path: `data.values.${fieldId}`, message: problem });
  }
  return problems;
}

/** The values that still fit the fields (after a field was removed or changed); the same object when all fit. */
export function valuesFitting(config: DatabaseConfig, values: Record<string, RowValue>): Record<string, RowValue> {
  const entries = Object.entries(values);
  const kept = entries.filter(([fieldId, value]) => {
    const field = fieldOf(config, fieldId);
    return field !== undefined && valueProblem(field, value) === null;
  });
  return kept.length === entries.length ? values : Object.fromEntries(kept);
}

/** A deep copy of a config (plain objects only: no structuredClone, whose objects may come from another realm). */
export function copyConfig(config: DatabaseConfig): DatabaseConfig {
  return {
    fields: Object.fromEntries(
      Object.entries(config.fields).map(([id, field]) => [
        id,
        field.type === 'select' ? { ...field, options: field.options.map((o) => ({ ...o })) } : { ...field },
      ]),
    ),
  };
}

export function copyView(view: DatabaseView): DatabaseView {
  return { layouts: view.layouts.map((layout) => ({ ...layout, orderedFields: layout.orderedFields.map((f) => ({ ...f })) })) };
}

/** A database: a void element in the editor that carries its config and view. */
export const databaseBlock: BlockDefinition<'database', DatabaseData> = {
  wireType: 'database',
  slateType: 'databaseBlock',
  dataSchema: databaseDataSchema,
  shortcuts: [],
  isVoid: true,
  canonicalize: (data) => data,
  toSlateFields: (data) => ({ children: [{ text: '' }], config: copyConfig(data.config), view: copyView(data.view) }),
  toWireData: (element) => {
    if (element.type !== 'databaseBlock') throw new Error(`${element.type} is not a database element`);
    return { config: copyConfig(element.config), view: copyView(element.view) };
  },
};

/** A database row: a void element that carries its title, icon and values. */
export const databaseRowBlock: BlockDefinition<'databaseRow', DatabaseRowData> = {
  wireType: 'databaseRow',
  slateType: 'databaseRowBlock',
  dataSchema: databaseRowDataSchema,
  shortcuts: [],
  isVoid: true,
  canonicalize: (data) => data,
  toSlateFields: (data) => ({ children: [{ text: '' }], title: data.title, icon: data.icon, values: { ...data.values } }),
  toWireData: (element) => {
    if (element.type !== 'databaseRowBlock') throw new Error(`${element.type} is not a database row element`);
    return { title: element.title, icon: element.icon, values: { ...element.values } };
  },
};
