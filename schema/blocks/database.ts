import { z } from 'zod';
import { LIMITS } from '../constants';

/**
 * A database is a block of type `database` whose children are its rows (blocks of type
 * `databaseRow`). The database holds the columns (config.fields) and how they are shown
 * (view.layouts); a row holds its title, icon and one value per column it fills.
 */

/** The field every database has: the title column. It is of type text. */
export const MAIN_FIELD_ID = 'MAIN_FIELD';

/**
 * Column types (docs/api/databases.md). `text` is also the title column (MAIN_FIELD); the last
 * four are computed from the row's page and cannot be written.
 */
export const DATABASE_FIELD_TYPES = [
  'text',
  'number',
  'checkbox',
  'select',
  'date',
  'multiSelect',
  'status',
  'person',
  'relation',
  'url',
  'email',
  'phone',
  'files',
  'createdTime',
  'createdBy',
  'editedTime',
  'editedBy',
  'formula',
  'uniqueId',
  'rollup',
] as const;
export type DatabaseFieldType = (typeof DATABASE_FIELD_TYPES)[number];

/** Field types whose value is computed from the row's page (never written). */
export const COMPUTED_FIELD_TYPES: ReadonlySet<DatabaseFieldType> = new Set([
  'createdTime',
  'createdBy',
  'editedTime',
  'editedBy',
  'formula',
  'uniqueId',
  'rollup',
]);

/** A rollup's calculations (Notion's; schema/formula/rollup.ts computes them, docs/relations.md «Rollups»). */
export const ROLLUP_CALCULATIONS = [
  'showOriginal',
  'countAll',
  'countValues',
  'countUnique',
  'countEmpty',
  'countNotEmpty',
  'percentEmpty',
  'percentNotEmpty',
  'sum',
  'average',
  'median',
  'min',
  'max',
  'range',
  'earliest',
  'latest',
  'dateRange',
  'checked',
  'unchecked',
  'percentChecked',
  'percentUnchecked',
] as const;
export type RollupCalculation = (typeof ROLLUP_CALCULATIONS)[number];

export const DATABASE_LIMITS = {
  fields: 100,
  selectOptions: 100,
  layouts: 20,
  nameLength: 200,
  textValueLength: 10_000,
  iconLength: 256,
  /** multi-select, person, relation and files: entries in one cell. */
  listValueLength: 100,
  filterRules: 20,
  sorts: 10,
  fileNameLength: 255,
  /** An inline database's description (plain text); its title has LIMITS.titleLength, as any title. */
  descriptionLength: 2_000,
  /** A formula field's expression (docs/formulas.md). */
  formulaLength: 4_000,
  /** A unique ID's prefix (ЗАДАЧА in ЗАДАЧА-42). */
  uniqueIdPrefix: 20,
} as const;

/** How a view groups a date field's rows (groupBy.by). */
export const DATE_GROUPINGS = ['relative', 'day', 'week', 'month', 'year'] as const;
export type DateGrouping = (typeof DATE_GROUPINGS)[number];

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

/** Colours of select, multi-select and status options (Notion's set). */
export const OPTION_COLORS = ['default', 'gray', 'brown', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'red'] as const;
export type OptionColor = (typeof OPTION_COLORS)[number];
/** The colours new options take in turn (a paste's, an import's), each its own before any comes again. */
const OPTION_CYCLE = ['blue', 'green', 'orange', 'purple', 'pink', 'yellow', 'red', 'brown', 'gray'] as const satisfies readonly OptionColor[];
/** The colour of the n-th option a field gets without one being chosen. */
export function optionColor(n: number): OptionColor {
  return OPTION_CYCLE[n % OPTION_CYCLE.length];
}

/** Status options belong to one of three groups (Notion: To-do, In progress, Complete). */
export const STATUS_GROUPS = ['todo', 'inProgress', 'done'] as const;
export type StatusGroup = (typeof STATUS_GROUPS)[number];

export const selectOptionSchema = z.object({ id: fieldIdSchema, name: fieldNameSchema, color: z.enum(OPTION_COLORS).optional() }).strict();
export type SelectOption = z.infer<typeof selectOptionSchema>;
export const statusOptionSchema = selectOptionSchema.extend({ group: z.enum(STATUS_GROUPS) }).strict();
export type StatusOption = z.infer<typeof statusOptionSchema>;

/** How a number column shows its values: plain, percent, or money in ₽, $ or €. */
export const NUMBER_FORMATS = ['plain', 'percent', 'rub', 'usd', 'eur'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];
/** The most digits after the comma a number field may fix (`decimals`). */
export const NUMBER_DECIMALS_MAX = 6;

const options = z.array(selectOptionSchema).max(DATABASE_LIMITS.selectOptions);
const plain = <T extends DatabaseFieldType>(type: T) => z.object({ name: fieldNameSchema, type: z.literal(type) }).strict();

export const databaseFieldSchema = z.discriminatedUnion('type', [
  plain('text'),
  z
    .object({
      name: fieldNameSchema,
      type: z.literal('number'),
      format: z.enum(NUMBER_FORMATS).optional(),
      /** Digits after the decimal comma, always shown (1 500,00); absent: as many as the value has (money: 2). */
      decimals: z.number().int().min(0).max(NUMBER_DECIMALS_MAX).optional(),
    })
    .strict(),
  plain('checkbox'),
  z.object({ name: fieldNameSchema, type: z.literal('select'), options }).strict(),
  z.object({ name: fieldNameSchema, type: z.literal('date'), withTime: z.boolean().optional() }).strict(),
  z.object({ name: fieldNameSchema, type: z.literal('multiSelect'), options }).strict(),
  z.object({ name: fieldNameSchema, type: z.literal('status'), options: z.array(statusOptionSchema).max(DATABASE_LIMITS.selectOptions) }).strict(),
  plain('person'),
  /**
   * Rows this row names: of the same database (a timeline's «blocked by»), or of `databaseId`
   * (docs/relations.md); `limit: 'one'` holds at most one row. A list of row ids.
   */
  z
    .object({
      name: fieldNameSchema,
      type: z.literal('relation'),
      databaseId: z.string().uuid().optional(),
      limit: z.literal('one').optional(),
      /** Two-way: the field of the other database that mirrors this one (each names the other; docs/relations.md «Two-way»). */
      twoWay: z.object({ fieldId: fieldIdSchema }).strict().optional(),
    })
    .strict(),
  plain('url'),
  plain('email'),
  plain('phone'),
  plain('files'),
  plain('createdTime'),
  plain('createdBy'),
  plain('editedTime'),
  plain('editedBy'),
  /**
   * One field of the rows a relation of this database names, rolled up into one value per row by
   * `calculation` (docs/relations.md «Rollups»); computed on the server like a formula.
   */
  z
    .object({
      name: fieldNameSchema,
      type: z.literal('rollup'),
      relationFieldId: fieldIdSchema,
      /** A field of the related rows' database (MAIN_FIELD: their titles). */
      targetFieldId: fieldIdSchema,
      calculation: z.enum(ROLLUP_CALCULATIONS),
    })
    .strict(),
  /** Computed from the row by its expression (docs/formulas.md), kept with field ids: `prop("<id>")`; empty: none yet (no values). */
  z.object({ name: fieldNameSchema, type: z.literal('formula'), expression: z.string().trim().max(DATABASE_LIMITS.formulaLength) }).strict(),
  /**
   * A number given to each row once, in the order rows are made, never given again (a row deleted
   * keeps its number gone); shown after `prefix` and a hyphen (ЗАДАЧА-42). docs/api/databases.md.
   */
  z
    .object({
      name: fieldNameSchema,
      type: z.literal('uniqueId'),
      prefix: z
        .string()
        .trim()
        .max(DATABASE_LIMITS.uniqueIdPrefix)
        .regex(/^[\p{L}\p{N}_]*$/u, 'letters, digits and _ only')
        .optional(),
    })
    .strict(),
]);
export type DatabaseField = z.infer<typeof databaseFieldSchema>;
/** A unique ID as shown: its number after the prefix and a hyphen (ЗАДАЧА-42), the number alone without one. */
export function uniqueIdText(prefix: string | undefined, n: number): string {
  return prefix ? `${prefix}-${n}` : String(n);
}

/** A field whose values are chosen from options. */
export type OptionField = Extract<DatabaseField, { options: unknown }>;
export function hasOptions(field: DatabaseField): field is OptionField {
  return field.type === 'select' || field.type === 'multiSelect' || field.type === 'status';
}

/** The field with `added` after its options (a status field's new options start in its «todo» group). */
export function withNewOptions(field: OptionField, added: readonly SelectOption[]): OptionField {
  if (field.type === 'status') return { ...field, options: [...field.options, ...added.map((option) => ({ ...option, group: 'todo' as const }))] };
  return { ...field, options: [...field.options, ...added] };
}

export const databaseConfigSchema = z.object({ fields: z.record(fieldIdSchema, databaseFieldSchema) }).strict();
export type DatabaseConfig = z.infer<typeof databaseConfigSchema>;

/** A column of a view: shown in this order, wrapped or not, at a width (px). */
export const orderedFieldSchema = z.object({ fieldId: fieldIdSchema, isWrap: z.boolean(), width: z.number().int().min(40).max(2000).optional() }).strict();
export type OrderedField = z.infer<typeof orderedFieldSchema>;

/** Layout types: the api-contract's default layout types, as they are written in a layout. */
export const LAYOUT_TYPES = ['table', 'board', 'calendar', 'timeline', 'chart', 'barChart', 'lineChart', 'pieChart', 'gallery', 'list', 'form'] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];
/** What tops a gallery's cards. */
export const CARD_PREVIEWS = ['pageContent', 'pageCover', 'files', 'none'] as const;
export type CardPreview = (typeof CARD_PREVIEWS)[number];
export const CARD_SIZES = ['small', 'medium', 'large'] as const;
export type CardSize = (typeof CARD_SIZES)[number];

/**
 * Forms (docs/api/databases.md «Forms»): the field types a form asks for. Not people, files or
 * relations (a submitter need not know the workspace's people or rows, nor upload into its pages),
 * never a computed field.
 */
export const FORM_FIELD_TYPES: ReadonlySet<DatabaseFieldType> = new Set([
  'text',
  'number',
  'select',
  'multiSelect',
  'status',
  'date',
  'checkbox',
  'url',
  'email',
  'phone',
]);
/** Who may fill a form in: readers of the page holding the database, any member of its workspace (not guests), or anyone with the link while the page is published. */
export const FORM_ACCESS = ['page', 'workspace', 'public'] as const;
export type FormAccess = (typeof FORM_ACCESS)[number];
export const formConfigSchema = z
  .object({
    /** Shown under the form's title. */
    description: z.string().max(2000).optional(),
    /** The questions that must be answered (fields the form asks for). */
    required: z.array(fieldIdSchema).max(DATABASE_LIMITS.fields).optional(),
    /** Who may fill it in; `page` when missing. */
    access: z.enum(FORM_ACCESS).optional(),
  })
  .strict();
export type FormConfig = z.infer<typeof formConfigSchema>;

/** Filter conditions; which apply to which field type is in `FILTER_CONDITIONS`. */
export const FILTER_CONDITION_NAMES = [
  'is',
  'isNot',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'isEmpty',
  'isNotEmpty',
] as const;
export type FilterCondition = (typeof FILTER_CONDITION_NAMES)[number];

const TEXT_CONDITIONS: readonly FilterCondition[] = ['is', 'isNot', 'contains', 'notContains', 'startsWith', 'endsWith', 'isEmpty', 'isNotEmpty'];
const ORDERED_CONDITIONS: readonly FilterCondition[] = ['is', 'isNot', 'gt', 'gte', 'lt', 'lte', 'isEmpty', 'isNotEmpty'];
const CHOICE_CONDITIONS: readonly FilterCondition[] = ['is', 'isNot', 'isEmpty', 'isNotEmpty'];
const LIST_CONDITIONS: readonly FilterCondition[] = ['contains', 'notContains', 'isEmpty', 'isNotEmpty'];

/** The conditions a filter may use on each field type. */
export const FILTER_CONDITIONS: Record<DatabaseFieldType, readonly FilterCondition[]> = {
  text: TEXT_CONDITIONS,
  url: TEXT_CONDITIONS,
  email: TEXT_CONDITIONS,
  phone: TEXT_CONDITIONS,
  files: ['contains', 'isEmpty', 'isNotEmpty'],
  number: ORDERED_CONDITIONS,
  date: ORDERED_CONDITIONS,
  createdTime: ORDERED_CONDITIONS,
  editedTime: ORDERED_CONDITIONS,
  checkbox: ['is'],
  select: CHOICE_CONDITIONS,
  status: CHOICE_CONDITIONS,
  multiSelect: LIST_CONDITIONS,
  person: LIST_CONDITIONS,
  relation: LIST_CONDITIONS,
  createdBy: LIST_CONDITIONS,
  editedBy: LIST_CONDITIONS,
  // As the type it gives (formulaFilterType): any of these, checked against it where the view is read.
  formula: [...new Set([...TEXT_CONDITIONS, ...ORDERED_CONDITIONS, ...LIST_CONDITIONS, 'is' as const])],
  // As the type its calculation gives (a number, a date, a list), like a formula.
  rollup: [...new Set([...ORDERED_CONDITIONS, ...LIST_CONDITIONS])],
  // By its number (42 for ЗАДАЧА-42), as Notion filters it.
  uniqueId: ORDERED_CONDITIONS,
};

/** One condition on one field; `value` is what the condition compares with (none for isEmpty/isNotEmpty). */
export const filterRuleSchema = z
  .object({
    fieldId: fieldIdSchema,
    condition: z.enum(FILTER_CONDITION_NAMES),
    value: z.union([z.string().max(DATABASE_LIMITS.textValueLength), z.number(), z.boolean(), z.null()]).optional(),
  })
  .strict();
export type FilterRule = z.infer<typeof filterRuleSchema>;

/** Rules joined by `and` or `or`; a group may hold rules and groups of rules (two levels, as in Notion). */
export const filterGroupSchema = z
  .object({
    op: z.enum(['and', 'or']),
    rules: z
      .array(z.union([filterRuleSchema, z.object({ op: z.enum(['and', 'or']), rules: z.array(filterRuleSchema).max(DATABASE_LIMITS.filterRules) }).strict()]))
      .max(DATABASE_LIMITS.filterRules),
  })
  .strict();
export type FilterGroup = z.infer<typeof filterGroupSchema>;

export const sortSchema = z.object({ fieldId: fieldIdSchema, direction: z.enum(['asc', 'desc']) }).strict();
export type ViewSort = z.infer<typeof sortSchema>;

/** Footer calculations of a column. */
export const CALCULATIONS = ['count', 'empty', 'filled', 'unique', 'sum', 'average', 'min', 'max'] as const;
export type Calculation = (typeof CALCULATIONS)[number];
/** Calculations that need numbers (number, date and time fields; for dates min/max only). */
export const NUMERIC_CALCULATIONS: ReadonlySet<Calculation> = new Set(['sum', 'average', 'min', 'max']);

/** Chart views (issue 17, docs/api/databases.md «Charts»): what a chart shows of a view's rows. */
export const CHART_KINDS = ['bar', 'line', 'pie'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];
/** How a date-like field's values are grouped: by day, ISO week (Monday first) or month. */
export const CHART_BUCKETS = ['day', 'week', 'month'] as const;
export type ChartBucket = (typeof CHART_BUCKETS)[number];
export const CHART_AGGREGATES = ['count', 'sum', 'average', 'min', 'max'] as const;
export type ChartAggregate = (typeof CHART_AGGREGATES)[number];
export const CHART_SORTS = ['xAsc', 'xDesc', 'yAsc', 'yDesc'] as const;
export type ChartSort = (typeof CHART_SORTS)[number];
/** Field types whose values are dates (a chart buckets them). */
export const DATE_LIKE_TYPES: ReadonlySet<DatabaseFieldType> = new Set(['date', 'createdTime', 'editedTime']);
/** The kind a chart layout type implies (`chart` leaves it to the user). */
export const LAYOUT_CHART_KINDS: Partial<Record<LayoutType, ChartKind>> = { barChart: 'bar', lineChart: 'line', pieChart: 'pie' };
/** A category's key: an option id, a date bucket, a text, a number, true/false, a user id; null for rows without a value. */
export const chartKeySchema = z.union([z.string().max(DATABASE_LIMITS.textValueLength), z.number(), z.boolean(), z.null()]);
export type ChartKey = z.infer<typeof chartKeySchema>;
const chartAxisSchema = z.object({ fieldId: fieldIdSchema, bucket: z.enum(CHART_BUCKETS).optional() }).strict();
export const chartConfigSchema = z
  .object({
    /** For a layout of type `chart`; barChart, lineChart and pieChart imply theirs. */
    kind: z.enum(CHART_KINDS).optional(),
    /** The categories: a field's values (a date-like field's by `bucket`, day when missing). */
    x: chartAxisSchema,
    /** What each category shows: its rows counted, or a number field's sum, average, min or max. */
    y: z.object({ aggregate: z.enum(CHART_AGGREGATES), fieldId: fieldIdSchema.optional() }).strict(),
    /** One series per value of a second field (stacked or grouped bars, several lines). */
    series: chartAxisSchema.nullable().optional(),
    sort: z.enum(CHART_SORTS).optional(),
    /** Category keys not shown. */
    hidden: z.array(chartKeySchema).max(1000).optional(),
    /** Running totals along the categories, per series (count and sum). */
    cumulative: z.boolean().optional(),
  })
  .strict();
export type ChartConfig = z.infer<typeof chartConfigSchema>;

/** Calendar views (issue 17, docs/web-app.md «Calendar view»): by a date field, a month or a week. */
export const CALENDAR_MODES = ['month', 'week'] as const;
export type CalendarMode = (typeof CALENDAR_MODES)[number];
export const calendarConfigSchema = z.object({ fieldId: fieldIdSchema, mode: z.enum(CALENDAR_MODES).optional() }).strict();
export type CalendarConfig = z.infer<typeof calendarConfigSchema>;

/** Timeline views (issue 17, docs/web-app.md «Timeline view»): bars from a start date field to an end date field (missing or null: the start field's range end). */
export const TIMELINE_SCALES = ['day', 'week', 'month', 'quarter'] as const;
export type TimelineScale = (typeof TIMELINE_SCALES)[number];
export const timelineConfigSchema = z
  .object({
    startFieldId: fieldIdSchema,
    endFieldId: fieldIdSchema.nullable().optional(),
    scale: z.enum(TIMELINE_SCALES).optional(),
    table: z.boolean().optional(),
    /** A relation field naming the rows each row is blocked by: drawn as arrows, its dependants shifted when a bar moves. */
    dependencyFieldId: fieldIdSchema.nullable().optional(),
  })
  .strict();
export type TimelineConfig = z.infer<typeof timelineConfigSchema>;

export const databaseLayoutSchema = z
  .object({
    uid: z.string().min(1).max(64),
    type: z.enum(LAYOUT_TYPES),
    /** The view's name (its tab); the layout type's name when missing. */
    name: fieldNameSchema.optional(),
    orderedFields: z.array(orderedFieldSchema).max(DATABASE_LIMITS.fields),
    filter: filterGroupSchema.nullable().optional(),
    sorts: z.array(sortSchema).max(DATABASE_LIMITS.sorts).optional(),
    /** Rows grouped by a field (a table's groups, a board's columns); `hidden`: a board's columns not shown (their values). */
    groupBy: z
      .object({
        fieldId: fieldIdSchema,
        /** A date field's groups: by day, week, month, year, or relative to today («Сегодня», «Последние 7 дней»…; the default). */
        by: z.enum(DATE_GROUPINGS).optional(),
        /** A number field's groups: ranges this wide (0–10, 10–20…; 10 by default). */
        step: z.number().positive().max(1e12).optional(),
        hideEmpty: z.boolean().optional(),
        hidden: z
          .array(z.union([z.string().max(128), z.boolean(), z.null()]))
          .max(200)
          .optional(),
        /** A table's sub-groups (each group's rows grouped again by another field, its buckets as a group's), or a board's swimlanes (`makesLanes`). */
        sub: z
          .object({ fieldId: fieldIdSchema, by: z.enum(DATE_GROUPINGS).optional(), step: z.number().positive().max(1e12).optional() })
          .strict()
          .nullable()
          .optional(),
      })
      .strict()
      .nullable()
      .optional(),
    /** A board's card covers: the first picture of this files field on top of each card (null or missing: none). A gallery's with `cardPreview` `files`. */
    cover: z.object({ fieldId: fieldIdSchema }).strict().nullable().optional(),
    /**
     * What tops a gallery's cards (docs/api/databases.md «Gallery and list»): the row page's cover,
     * the first picture in its content (the default), the first picture of the `cover` files field, or nothing.
     */
    cardPreview: z.enum(CARD_PREVIEWS).optional(),
    /** A gallery's cards: small, medium (the default) or large. */
    cardSize: z.enum(CARD_SIZES).optional(),
    calculations: z.record(fieldIdSchema, z.enum(CALCULATIONS)).optional(),
    chart: chartConfigSchema.nullable().optional(),
    /** A calendar's dates: the date field it places rows by, and whether it shows a month or a week. */
    calendar: calendarConfigSchema.nullable().optional(),
    /** A timeline's dates (start and end date fields), its scale, and whether its table pane shows. */
    timeline: timelineConfigSchema.nullable().optional(),
    /** A form's description, required questions and who may fill it in; its questions are `orderedFields`. */
    form: formConfigSchema.optional(),
  })
  .strict();
export type DatabaseLayout = z.infer<typeof databaseLayoutSchema>;

export const databaseViewSchema = z.object({ layouts: z.array(databaseLayoutSchema).max(DATABASE_LIMITS.layouts) }).strict();
export type DatabaseView = z.infer<typeof databaseViewSchema>;

/** The field ids of a config, own keys only. */
export function fieldIds(config: DatabaseConfig): string[] {
  return Object.keys(config.fields);
}

/** The field with this id, never something inherited from Object.prototype. */
export function fieldOf(config: DatabaseConfig, fieldId: string): DatabaseField | undefined {
  return Object.hasOwn(config.fields, fieldId) ? config.fields[fieldId] : undefined;
}

/**
 * Whether a board's swimlanes (`groupBy.sub` of a board) can be by this field: a field whose values
 * a column can be by — a select, status, multi-select, checkbox, person, a relation to rows of its
 * own database — so a lane's rows are read as a column's (`GET …/rows?sub=`).
 */
export function makesLanes(field: (Pick<DatabaseField, 'type'> & { databaseId?: string }) | undefined): boolean {
  if (!field) return false;
  return ['select', 'status', 'multiSelect', 'checkbox', 'person'].includes(field.type) || (field.type === 'relation' && field.databaseId === undefined);
}

/**
 * Whether a table grouped by this field shows a row in each of its values' groups
 * (docs/api/databases.md «Grouping»): a multi-select, a relation to rows of its own database.
 */
export function splitsRows(config: DatabaseConfig, databaseId: string, fieldId: string): boolean {
  const field = fieldOf(config, fieldId);
  return field?.type === 'multiSelect' || (field?.type === 'relation' && (field.databaseId === undefined || field.databaseId === databaseId));
}

/** The relation fields of a config naming rows of another database than `ownDatabaseId`, with that database. */
export function foreignRelations(config: DatabaseConfig, ownDatabaseId: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, field] of Object.entries(config.fields))
    if (field.type === 'relation' && field.databaseId !== undefined && field.databaseId !== ownDatabaseId) out.set(id, field.databaseId);
  return out;
}

/** An inline database's title: plain text, at most LIMITS.titleLength, as any title (absent: none). */
export const databaseTitleSchema = z.string().max(LIMITS.titleLength);
/** An inline database's description under its title: plain text (absent: none). */
export const databaseDescriptionSchema = z.string().max(DATABASE_LIMITS.descriptionLength);

export const databaseDataSchema = z
  .object({
    config: databaseConfigSchema,
    view: databaseViewSchema,
    title: databaseTitleSchema.optional(),
    description: databaseDescriptionSchema.optional(),
    /** The row template «Новая строка» starts from (docs/api/databases.md «Row templates»); one not among the database's templates counts as none. */
    defaultTemplate: z.string().max(64).nullable().optional(),
  })
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
      // A rollup reads a relation of this database (its field, of the related one, is checked by the server).
      if (field.type === 'rollup' && fieldOf(data.config, field.relationFieldId)?.type !== 'relation')
        ctx.addIssue({ code: 'custom', path: ['config', 'fields', id, 'relationFieldId'], message: 'a rollup reads a relation field of this database' });
      if (!hasOptions(field)) continue;
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
      for (const problem of layoutProblems(data.config, layout)) {
        ctx.addIssue({ code: 'custom', path: ['view', 'layouts', index, ...problem.path], message: problem.message });
      }
    });
  });

/** What in a layout does not fit the fields: unknown or repeated fields, conditions a field's type has not. */
export function layoutProblems(config: DatabaseConfig, layout: DatabaseLayout): Array<{ path: Array<string | number>; message: string }> {
  const problems: Array<{ path: Array<string | number>; message: string }> = [];
  const unknown = (fieldId: string, path: Array<string | number>) => {
    if (fieldOf(config, fieldId)) return false;
    problems.push({ path, message: 'no such field in config.fields' });
    return true;
  };
  const seen = new Set<string>();
  layout.orderedFields.forEach((entry, at) => {
    const path = ['orderedFields', at, 'fieldId'];
    if (!unknown(entry.fieldId, path) && seen.has(entry.fieldId)) problems.push({ path, message: 'a field is listed once per layout' });
    seen.add(entry.fieldId);
  });
  const checkRule = (rule: FilterRule, path: Array<string | number>) => {
    if (unknown(rule.fieldId, [...path, 'fieldId'])) return;
    const type = config.fields[rule.fieldId].type;
    if (!FILTER_CONDITIONS[type].includes(rule.condition))
      problems.push({ path: [...path, 'condition'], message: `a ${type} field has no condition ${rule.condition}` });
  };
  layout.filter?.rules.forEach((rule, at) => {
    if ('op' in rule) rule.rules.forEach((inner, innerAt) => checkRule(inner, ['filter', 'rules', at, 'rules', innerAt]));
    else checkRule(rule, ['filter', 'rules', at]);
  });
  layout.sorts?.forEach((sort, at) => unknown(sort.fieldId, ['sorts', at, 'fieldId']));
  if (layout.groupBy) unknown(layout.groupBy.fieldId, ['groupBy', 'fieldId']);
  const sub = layout.groupBy?.sub;
  if (sub && !unknown(sub.fieldId, ['groupBy', 'sub', 'fieldId'])) {
    if (layout.type !== 'table' && layout.type !== 'board') problems.push({ path: ['groupBy', 'sub'], message: 'sub-groups are a table’s or a board’s' });
    else if (sub.fieldId === layout.groupBy!.fieldId)
      problems.push({ path: ['groupBy', 'sub', 'fieldId'], message: 'a sub-group is by another field than the group' });
    else if (layout.type === 'board' && !makesLanes(config.fields[sub.fieldId]))
      problems.push({
        path: ['groupBy', 'sub', 'fieldId'],
        message: 'a board’s swimlanes are by a select, status, multi-select, checkbox, person or relation field',
      });
  }
  if (layout.cover && !unknown(layout.cover.fieldId, ['cover', 'fieldId']) && config.fields[layout.cover.fieldId].type !== 'files')
    problems.push({ path: ['cover', 'fieldId'], message: 'a cover is a files field' });
  for (const fieldId of Object.keys(layout.calculations ?? {})) unknown(fieldId, ['calculations', fieldId]);
  if (layout.chart)
    for (const problem of chartProblems(config, layout.chart, layout.type)) problems.push({ path: ['chart', ...problem.path], message: problem.message });
  if (layout.calendar && !unknown(layout.calendar.fieldId, ['calendar', 'fieldId']) && config.fields[layout.calendar.fieldId].type !== 'date') {
    problems.push({ path: ['calendar', 'fieldId'], message: 'a calendar places rows by a date field' });
  }
  if (layout.timeline) {
    const { startFieldId, endFieldId } = layout.timeline;
    if (!unknown(startFieldId, ['timeline', 'startFieldId']) && config.fields[startFieldId].type !== 'date')
      problems.push({ path: ['timeline', 'startFieldId'], message: 'a timeline starts at a date field' });
    if (endFieldId && !unknown(endFieldId, ['timeline', 'endFieldId'])) {
      if (config.fields[endFieldId].type !== 'date') problems.push({ path: ['timeline', 'endFieldId'], message: 'a timeline ends at a date field' });
      else if (endFieldId === startFieldId)
        problems.push({ path: ['timeline', 'endFieldId'], message: "the end is another field than the start (none: the start field's range)" });
    }
    const { dependencyFieldId } = layout.timeline;
    if (dependencyFieldId && !unknown(dependencyFieldId, ['timeline', 'dependencyFieldId']) && config.fields[dependencyFieldId].type !== 'relation') {
      problems.push({ path: ['timeline', 'dependencyFieldId'], message: 'dependencies are a relation field' });
    }
  }
  if (layout.type === 'form') {
    layout.orderedFields.forEach((entry, at) => {
      const field = fieldOf(config, entry.fieldId);
      if (field && !FORM_FIELD_TYPES.has(field.type))
        problems.push({ path: ['orderedFields', at, 'fieldId'], message: `a form does not ask for a ${field.type} field` });
    });
    layout.form?.required?.forEach((fieldId, at) => {
      if (!seen.has(fieldId)) problems.push({ path: ['form', 'required', at], message: 'a required question is one the form asks' });
    });
  } else if (layout.form) problems.push({ path: ['form'], message: 'only a form view has a form' });
  return problems;
}

/** What in a chart config does not fit the fields (paths inside the config); `layoutType` checks its kind. */
export function chartProblems(config: DatabaseConfig, chart: ChartConfig, layoutType?: LayoutType): Array<{ path: Array<string | number>; message: string }> {
  const problems: Array<{ path: Array<string | number>; message: string }> = [];
  const axis = (at: 'x' | 'series', entry: { fieldId: string; bucket?: ChartBucket }) => {
    const field = fieldOf(config, entry.fieldId);
    if (!field) problems.push({ path: [at, 'fieldId'], message: 'no such field in config.fields' });
    else if (field.type === 'files' || field.type === 'relation')
      problems.push({ path: [at, 'fieldId'], message: `a chart does not group by a ${field.type} field` });
    else if (entry.bucket && !DATE_LIKE_TYPES.has(field.type))
      problems.push({ path: [at, 'bucket'], message: `a ${field.type} field has no bucket (date fields only)` });
  };
  axis('x', chart.x);
  if (chart.series) {
    axis('series', chart.series);
    if (chart.series.fieldId === chart.x.fieldId) problems.push({ path: ['series', 'fieldId'], message: 'the series is another field than x' });
  }
  const { aggregate, fieldId } = chart.y;
  if (aggregate === 'count') {
    if (fieldId !== undefined) problems.push({ path: ['y', 'fieldId'], message: 'count counts rows: no field' });
  } else if (fieldId === undefined) {
    problems.push({ path: ['y', 'fieldId'], message: `${aggregate} needs a number field` });
  } else {
    const field = fieldOf(config, fieldId);
    if (!field) problems.push({ path: ['y', 'fieldId'], message: 'no such field in config.fields' });
    // A formula's figures are those of its number values (the web app offers the formulas that give numbers).
    else if (field.type !== 'number' && field.type !== 'formula' && field.type !== 'rollup')
      problems.push({ path: ['y', 'fieldId'], message: `${aggregate} needs a number field, not ${field.type}` });
  }
  if (chart.cumulative && aggregate !== 'count' && aggregate !== 'sum') problems.push({ path: ['cumulative'], message: 'running totals are of count or sum' });
  const implied = layoutType ? LAYOUT_CHART_KINDS[layoutType] : undefined;
  if (implied && chart.kind && chart.kind !== implied) problems.push({ path: ['kind'], message: `a ${layoutType} is a ${implied} chart` });
  return problems;
}

/**
 * A chart config after a field changed or went (the other keys of a view lose their references
 * the same way): no x field, no chart; a series or a bucket that no longer fits goes; an
 * aggregate whose field is no number any more counts rows. The same object when all fits.
 */
export function chartFitting(config: DatabaseConfig, chart: ChartConfig): ChartConfig | null {
  const fits = (entry: { fieldId: string; bucket?: ChartBucket }) => {
    const field = fieldOf(config, entry.fieldId);
    if (!field || field.type === 'files' || field.type === 'relation') return null;
    return entry.bucket && !DATE_LIKE_TYPES.has(field.type) ? { fieldId: entry.fieldId } : entry;
  };
  const x = fits(chart.x);
  if (!x) return null;
  const series = chart.series ? fits(chart.series) : chart.series;
  const yField = chart.y.fieldId === undefined ? undefined : fieldOf(config, chart.y.fieldId);
  const y =
    chart.y.aggregate === 'count' || yField?.type === 'number' || yField?.type === 'formula' || yField?.type === 'rollup'
      ? chart.y
      : { aggregate: 'count' as const };
  if (x === chart.x && series === chart.series && y === chart.y) return chart;
  return { ...chart, x, y, series };
}

/**
 * A timeline config without a field (deleted, or no date field any more): its start gone, no
 * timeline (the view stays, to be set up again); its end gone, the start field's range ends the bars.
 */
export function timelineWithout(timeline: TimelineConfig, fieldId: string): TimelineConfig | null {
  if (timeline.startFieldId === fieldId) return null;
  let next = timeline;
  if (next.endFieldId === fieldId) next = { ...next, endFieldId: null };
  if (next.dependencyFieldId === fieldId) next = { ...next, dependencyFieldId: null };
  return next;
}

/** A timeline config after a field changed its type: the fields that no longer fit go (`timelineWithout`): a start or end that is no date, dependencies that are no relation. */
export function timelineFitting(config: DatabaseConfig, timeline: TimelineConfig): TimelineConfig | null {
  const type = (fieldId: string | null | undefined) => (fieldId ? fieldOf(config, fieldId)?.type : undefined);
  let next: TimelineConfig | null = timeline;
  for (const [fieldId, wanted] of [
    [timeline.startFieldId, 'date'],
    [timeline.endFieldId, 'date'],
    [timeline.dependencyFieldId, 'relation'],
  ] as const) {
    if (next && fieldId && type(fieldId) !== wanted) next = timelineWithout(next, fieldId);
  }
  return next;
}
export type DatabaseData = z.infer<typeof databaseDataSchema>;

/** A file in a files cell: an uploaded file's id and its name. */
export const fileRefSchema = z.object({ id: z.string().min(1).max(128), name: z.string().max(DATABASE_LIMITS.fileNameLength) }).strict();
export type FileRef = z.infer<typeof fileRefSchema>;

/** A date cell's range: a start and an end (each YYYY-MM-DD or an ISO date-time with offset). */
export const dateRangeSchema = z.object({ start: z.string().max(40), end: z.string().max(40).nullable() }).strict();
export type DateRange = z.infer<typeof dateRangeSchema>;

/**
 * A cell value before it is checked against its column's type; null clears a cell. Text-like
 * fields hold a string, number a number, checkbox a boolean, select and status an option id,
 * multi-select and person a list of ids, files a list of file refs, date a string (one day or
 * moment) or a range.
 */
export const rowValueSchema = z.union([
  z.string().max(DATABASE_LIMITS.textValueLength),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string().min(1).max(128)).max(DATABASE_LIMITS.listValueLength),
  z.array(fileRefSchema).max(DATABASE_LIMITS.listValueLength),
  dateRangeSchema,
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

/** A date cell's string (one day, or a moment with its offset). */
export function isDateString(value: unknown): value is string {
  return typeof value === 'string' && dateValueSchema.safeParse(value).success;
}

function isIdList(value: RowValue): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Why a value does not fit a field, or null when it does. */
export function valueProblem(field: DatabaseField, value: RowValue): string | null {
  if (value === null) return null;
  switch (field.type) {
    case 'text':
    case 'url':
    case 'email':
    case 'phone':
      return typeof value === 'string' ? null : `a ${field.type} field holds a string`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a number field holds a number';
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'a checkbox field holds true or false';
    case 'select':
    case 'status':
      if (typeof value !== 'string') return `a ${field.type} field holds an option id`;
      return field.options.some((o) => o.id === value) ? null : 'no such option in the field';
    case 'multiSelect':
      if (!isIdList(value)) return 'a multiSelect field holds a list of option ids';
      if (new Set(value).size !== value.length) return 'an option is listed once';
      return value.every((id) => field.options.some((o) => o.id === id)) ? null : 'no such option in the field';
    case 'person':
      if (!isIdList(value)) return 'a person field holds a list of user ids';
      return new Set(value).size === value.length ? null : 'a person is listed once';
    case 'relation':
      if (!isIdList(value)) return 'a relation holds a list of row ids';
      if (field.limit === 'one' && value.length > 1) return 'this relation holds one row at most';
      return new Set(value).size === value.length ? null : 'a row is listed once';
    case 'files':
      return Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null) ? null : 'a files field holds a list of { id, name }';
    case 'date':
      if (isDateString(value)) return null;
      if (typeof value === 'object' && !Array.isArray(value) && isDateString(value.start) && (value.end === null || isDateString(value.end))) return null;
      return 'a date field holds YYYY-MM-DD or an ISO date-time with offset, or { start, end } of those';
    case 'createdTime':
    case 'createdBy':
    case 'editedTime':
    case 'editedBy':
    case 'formula':
    case 'uniqueId':
    case 'rollup':
      return 'this field is computed from the row and cannot be written';
  }
}

/**
 * The title (the MAIN_FIELD cell, the row page's title) written as a cell: text of at most
 * LIMITS.titleLength, the one rule of a title wherever it is written (PATCH element, a new row,
 * a cell, a batch of cells, a move's `set`). Null clears it.
 */
export function titleProblem(value: RowValue): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') return 'the title is text';
  return value.length > LIMITS.titleLength ? `a title has at most ${LIMITS.titleLength} characters` : null;
}

/** A cell's value checked against its field (the title by the title's rule): a problem, or null when it fits. */
export function cellProblem(fieldId: string, field: DatabaseField, value: RowValue): string | null {
  return fieldId === MAIN_FIELD_ID ? titleProblem(value) : valueProblem(field, value);
}

/** Every value of a row checked against its database's fields: `[{ path, message }]`, empty when all fit. */
export function checkRowValues(config: DatabaseConfig, values: Record<string, RowValue>): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  for (const [fieldId, value] of Object.entries(values)) {
    const field = fieldOf(config, fieldId);
    const problem = field ? cellProblem(fieldId, field, value) : 'no such field in the database';
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
  return { fields: Object.fromEntries(Object.entries(config.fields).map(([id, field]) => [id, copyField(field)])) };
}

export function copyField(field: DatabaseField): DatabaseField {
  return JSON.parse(JSON.stringify(field)) as DatabaseField;
}

export function copyView(view: DatabaseView): DatabaseView {
  return JSON.parse(JSON.stringify(view)) as DatabaseView;
}

/** The title, description and default row template a database has (absent keys stay absent: data from before them reads the same). */
export function aboutOf(data: { title?: string; description?: string; defaultTemplate?: string | null }): {
  title?: string;
  description?: string;
  defaultTemplate?: string | null;
} {
  return {
    ...(data.title !== undefined ? { title: data.title } : {}),
    ...(data.description !== undefined ? { description: data.description } : {}),
    ...(data.defaultTemplate !== undefined ? { defaultTemplate: data.defaultTemplate } : {}),
  };
}
