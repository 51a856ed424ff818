import { z } from 'zod';
import type { Cover } from './element';
import { LIMITS } from './constants';
import {
  CARD_PREVIEWS,
  COMPUTED_FIELD_TYPES,
  DATABASE_LIMITS,
  MAIN_FIELD_ID,
  databaseDescriptionSchema,
  databaseFieldSchema,
  databaseLayoutSchema,
  databaseTitleSchema,
  fieldIdSchema,
  filterGroupSchema,
  hasOptions,
  isDateString,
  rowValueSchema,
  sortSchema,
  uniqueIdText,
  type DatabaseConfig,
  type DatabaseData,
  type DatabaseField,
  type DateRange,
  type FileRef,
  type FilterGroup,
  type FilterRule,
  type RowValue,
  type SelectOption,
  type ViewSort,
} from './blocks/database';

const refId = z.string().min(1).max(128);

/**
 * The data-table API (docs/api/databases.md): a database is a block of type `database` (its
 * fields and views); its rows are pages (`databaseId` set) whose cells are written one by one,
 * each with its own version. What is here is shared by the server, the web app and the tests:
 * request bodies, the wire row, realtime payloads, and the value rules (text ↔ value, the sort
 * and filter projection, the reference evaluator).
 */

/** Rows in one create, move, delete or restore request. */
export const ROWS_PER_REQUEST = 1000;
/** Rows in one window read. */
export const MAX_ROW_WINDOW = 500;
/** Rows in a window of a date range (a calendar's days: a month of 2,000 items read at once), with `fields` naming the cells wanted. */
export const MAX_RANGE_WINDOW = 2_500;

/** A row on the wire: its page's id, title and icon, and its cells with a version each. */
/** A database as a relation field's choice lists it (`GET database/{id}/relatable`): its block id, its page, title and icon. */
export interface DatabaseChoice {
  id: string;
  pageId: string;
  title: string;
  icon: string | null;
}

export interface WireRow {
  id: string;
  contentType: 'Row';
  /** The database block it belongs to, and the page that holds that block. */
  databaseId: string;
  pageId: string;
  /** Fractional order key among the database's rows (ascending). */
  sortKey: string;
  data: { title: string; icon: string | null; values: Record<string, RowValue> };
  /** The version of each written cell (MAIN_FIELD is the title); a cell never written is at 0. */
  versions: Record<string, number>;
  inTrash: boolean;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string | null;
  /**
   * A gallery's card picture (read for a gallery view whose `cardPreview` is the page's cover or
   * content; docs/api/databases.md «Gallery and list»): the row page's cover, or the file of the
   * first picture in its content. Absent: none.
   */
  preview?: RowPreview;
}

/** A gallery card's picture: a page cover as pages have them, or an uploaded picture's file. */
export type RowPreview = { cover: Cover } | { fileId: string };

export const newRowSchema = z
  .object({
    id: z.uuid().optional(),
    title: z.string().max(LIMITS.titleLength).optional(),
    icon: z.string().min(1).max(DATABASE_LIMITS.iconLength).nullable().optional(),
    values: z.record(fieldIdSchema, rowValueSchema).optional(),
    /** A row template of the database to start from (docs/api/databases.md «Row templates»): its values under `values`, its title, icon, cover and content. */
    templateId: refId.optional(),
  })
  .strict();
export type NewRow = z.infer<typeof newRowSchema>;

/** A database's row template as listed (`GET database/{id}/templates`); it is a page: open it at `/{id}` to change it. */
export interface WireRowTemplate {
  id: string;
  title: string;
  icon: string | null;
  /** «Новая строка» starts from it. */
  isDefault: boolean;
}

/** POST database/{id}/templates: a new template, with its title, icon and values (its content is written on its page). */
export const createTemplateBodySchema = z
  .object({
    id: z.uuid().optional(),
    title: z.string().max(LIMITS.titleLength).optional(),
    icon: z.string().min(1).max(DATABASE_LIMITS.iconLength).nullable().optional(),
    values: z.record(fieldIdSchema, rowValueSchema).optional(),
  })
  .strict();
export type CreateTemplateBody = z.infer<typeof createTemplateBodySchema>;

/** POST database/{id}/templates/default: the template «Новая строка» starts from (null: none). */
export const defaultTemplateBodySchema = z.object({ templateId: refId.nullable() }).strict();

/** A view's uid, naming the view whose own order a move or a new row is placed in (docs/api/databases.md «Order per view»). */
const viewUidSchema = z.string().min(1).max(64);

/**
 * POST database/{id}/rows: rows in order, placed after a row (null: first; missing: at the end);
 * with `viewId` and a row in `placeAfter`, after that row in that view's order too.
 */
export const createRowsBodySchema = z
  .object({
    rows: z.array(newRowSchema).min(1).max(ROWS_PER_REQUEST),
    placeAfter: refId.nullable().optional(),
    viewId: viewUidSchema.optional(),
  })
  .strict();
export type CreateRowsBody = z.infer<typeof createRowsBodySchema>;

/** Rows one import takes at most (docs/api/databases.md «Import»). */
export const IMPORT_ROWS = 5_000;

/**
 * POST database/{id}/import: rows from CSV text (a header line first) or JSON objects, their
 * columns matched to fields by id or name; with `key` (a field's id or name) a row whose key
 * matches an existing row's updates it, else it is made; `dryRun` says what would change.
 */
export const importRowsBodySchema = z
  .object({
    csv: z
      .string()
      .max(4 * 1024 * 1024)
      .optional(),
    rows: z
      .array(z.record(z.string().max(DATABASE_LIMITS.nameLength), z.union([rowValueSchema, z.string()])))
      .max(IMPORT_ROWS)
      .optional(),
    key: z.string().min(1).max(DATABASE_LIMITS.nameLength).optional(),
    dryRun: z.boolean().optional(),
  })
  .strict()
  .refine((body) => (body.csv === undefined) !== (body.rows === undefined), { message: 'give csv or rows, one of them' });
export type ImportRowsBody = z.infer<typeof importRowsBodySchema>;

/** What an import did (or, with `dryRun`, would do). `row`: the line of the data, from 1 (CSV: after the header). */
export interface ImportReport {
  dryRun: boolean;
  created: number;
  updated: number;
  unchanged: number;
  /** Rows not written because of a problem (each listed in `problems`). */
  skipped: number;
  /** Cells someone changed between the import's read and its write: not written (import again to take them). */
  refused: number;
  problems: Array<{ row: number; column?: string; message: string }>;
  /** Columns matching no field that can be written (computed fields, unknown names). */
  ignoredColumns: string[];
  /** Options made for names no option of a select, multi-select or status field had. */
  newOptions: Array<{ fieldId: string; names: string[] }>;
  /** The first rows an import updates: what changes in each (field id → from, to). */
  changes: Array<{ row: number; rowId: string; cells: Record<string, { from: RowValue; to: RowValue }> }>;
}

/** POST row/{id}/cells/{fieldId}: a new value for one cell, based on the version the edit saw. */
export const writeCellBodySchema = z.object({ value: rowValueSchema, version: z.number().int().min(0) }).strict();
export type WriteCellBody = z.infer<typeof writeCellBodySchema>;

/** Cells per POST database/{id}/cells (a pasted range of 100 rows × 10 columns is one call). */
export const CELLS_PER_REQUEST = 1000;
/** POST database/{id}/cells: several cells at once (a paste, a clear), each on the version its edit saw. */
export const writeCellsBodySchema = z
  .object({
    cells: z
      .array(z.object({ rowId: refId, fieldId: fieldIdSchema, value: rowValueSchema, version: z.number().int().min(0) }).strict())
      .min(1)
      .max(CELLS_PER_REQUEST),
  })
  .strict();
export type WriteCellsBody = z.infer<typeof writeCellsBodySchema>;

/**
 * A cell a move writes on every row moved. `version`: the version of the cell the value was made
 * from (a multi-select card moved from one option's column to another keeps its other options):
 * the cell changed since → 422 database.cell_conflict and nothing moved; one row moved only.
 */
const moveCellSchema = z.object({ fieldId: fieldIdSchema, value: rowValueSchema, version: z.number().int().min(0).optional() }).strict();

/** POST database/{id}/rows/move: rows (in this order) placed after a row (null: first). */
export const moveRowsBodySchema = z
  .object({
    ids: z.array(refId).min(1).max(ROWS_PER_REQUEST),
    /** After this row (null: first); or `placeBefore`, before that one (the top of a board's column). One of the two. */
    placeAfter: refId.nullable().optional(),
    placeBefore: refId.optional(),
    /**
     * A cell written on every row moved, whatever its version unless it gives one (a card dropped
     * in a board's column: the column's value), or two (dropped in another swimlane's column: the
     * lane's value too).
     */
    set: z
      .union([
        moveCellSchema,
        z
          .array(moveCellSchema)
          .min(1)
          .max(2)
          .refine((cells) => new Set(cells.map((c) => c.fieldId)).size === cells.length, 'a field is set once'),
      ])
      .optional(),
    /** The view the rows are moved in: its own order only (missing: the rows' own order, which every view without keys of its own follows). */
    viewId: viewUidSchema.optional(),
  })
  .strict();
export type MoveRowsBody = z.infer<typeof moveRowsBodySchema>;
/** POST database/{id}/rows/delete and …/rows/restore. */
export const rowIdsBodySchema = z.object({ ids: z.array(refId).min(1).max(ROWS_PER_REQUEST) }).strict();

/** POST database/{id}/fields: a new field, shown after `placeAfter` in every view (missing: last). */
export const addFieldBodySchema = z
  .object({ id: fieldIdSchema.optional(), field: databaseFieldSchema, placeAfter: fieldIdSchema.nullable().optional() })
  .strict();
export type AddFieldBody = z.infer<typeof addFieldBodySchema>;
/** POST database/{id}/fields/{fieldId}: rename, retype or change options; `dryRun` only reports. */
export const updateFieldBodySchema = z.object({ field: databaseFieldSchema, dryRun: z.boolean().optional() }).strict();
export type UpdateFieldBody = z.infer<typeof updateFieldBodySchema>;

/** What a retype does to the existing values. */
export interface RetypeReport {
  /** Cells whose value carried over (converted). */
  converted: number;
  /** Cells whose value cannot be expressed in the new type and is cleared. */
  dropped: number;
  /** A few of the dropped values as text, for the warning. */
  droppedExamples: string[];
  /** Options the conversion adds (text → select). */
  newOptions: SelectOption[];
}

/** POST database/{id}/views: a new view (layout), after `placeAfter` (missing: last); `orderOf`: a view whose own order the new one starts with (a view duplicated). */
export const addViewBodySchema = z
  .object({ layout: databaseLayoutSchema, placeAfter: z.string().max(64).nullable().optional(), orderOf: viewUidSchema.optional() })
  .strict();
export type AddViewBody = z.infer<typeof addViewBodySchema>;
/** POST database/{id}/views/{viewId}: the keys given replace the layout's (uid and type stay unless type is given). */
export const updateViewBodySchema = z.object({ layout: databaseLayoutSchema.omit({ uid: true }).partial().strict() }).strict();
export type UpdateViewBody = z.infer<typeof updateViewBodySchema>;
/**
 * POST database/{id}: an inline database's title and description (plain text; null or blank
 * clears one; a key left out stays as it is). At least one of them.
 */
export const describeDatabaseBodySchema = z
  .object({ title: databaseTitleSchema.nullable().optional(), description: databaseDescriptionSchema.nullable().optional() })
  .strict()
  .refine((body) => body.title !== undefined || body.description !== undefined, { message: 'a title or a description to change' });
export type DescribeDatabaseBody = z.infer<typeof describeDatabaseBodySchema>;
/** POST database/{id}/views/{viewId}/move: reorder the views (tabs). */
export const moveViewBodySchema = z.object({ placeAfter: z.string().max(64).nullable() }).strict();
export type MoveViewBody = z.infer<typeof moveViewBodySchema>;

/** GET database/{id}/rows: a window of the rows as a view shows them. */
export const rowsQueryShape = {
  /** Take filter, sorts (and the group field, first) from this view; `filter`/`sorts` given replace the view's. */
  viewId: z.string().max(64).optional(),
  filter: filterGroupSchema.nullable().optional(),
  sorts: z.array(sortSchema).max(DATABASE_LIMITS.sorts).optional(),
  /** Rows whose title contains this (the view's search box). */
  search: z.string().max(200).optional(),
  offset: z.number().int().min(0).max(10_000_000).optional(),
  /**
   * The window after the row a previous answer's `meta.nextCursor` names, by its place in the
   * order (its sort values), not its position: rows made or moved before it do not shift the next
   * window (docs/api/databases.md «Paging»). Instead of `offset`.
   */
  cursor: z.string().max(4_000).optional(),
  /** At most MAX_ROW_WINDOW; MAX_RANGE_WINDOW with a `range`. */
  limit: z.number().int().min(1).max(MAX_RANGE_WINDOW).optional(),
  /** Only these fields' cells in the rows (the title always): a calendar reads its date alone. */
  fields: z.array(z.string().max(64)).max(DATABASE_LIMITS.fields).optional(),
  /** Read rows in the trash instead (the database's deleted rows). */
  inTrash: z.boolean().optional(),
  /** A gallery's card pictures with the rows (`preview` of each): the row pages' covers or the first pictures of their content. */
  preview: z.enum(CARD_PREVIEWS).optional(),
  /** Only the rows of one group of the view (`viewId`, grouped): a board's column. The group's value as GET …/groups gives it. */
  group: z.union([z.string().max(128), z.boolean(), z.null()]).optional(),
  /** Only the rows of one of the view's sub-groups (a board's swimlane, `groupBy.sub`), by its value as GET …/groups?lanes=true gives it. */
  sub: z.union([z.string().max(128), z.boolean(), z.null()]).optional(),
  /** Only the rows whose date in a date field meets [from, to) (each YYYY-MM-DD or an ISO date-time): those starting in it and ranges running into it. A calendar's days. */
  range: z
    .object({
      fieldId: z.string().max(64),
      from: z.string().max(40).refine(isDateString, 'not a date'),
      to: z.string().max(40).refine(isDateString, 'not a date'),
    })
    .strict()
    .optional(),
  /** Only the rows with no value in this date field (a calendar's «Без даты»). */
  undated: z.string().max(64).optional(),
};

/** GET database/{id}/calculations?viewId: the footer of a view, field → figure. */
export type CalculationResults = Record<string, number | null>;

/** GET database/{id}/groups?viewId: the groups of a grouped view, in order, with their counts. */
export interface WireGroup {
  /** The group's value: an option id, a user id, true/false, a bucket's key (dates, numbers: schema/groupBuckets.ts), a text as stored (folded), or null («Без значения»). */
  value: string | boolean | null;
  count: number;
  /** What the group is called, where the value does not say it: a bucket («Сегодня», «Декабрь 2026», «10 – 20»), a text as typed. */
  label?: string;
  /** A table's sub-groups of this group (`groupBy.sub`), in the order of its rows: their counts add up to this one's. */
  groups?: WireGroup[];
}

/** Realtime: what changed in a database's rows (event `database` on the holding page's channel). */
export type DatabaseChange =
  /** `viewId`: rows moved in that view's own order only (other views' orders did not change). */
  | { kind: 'rows'; rows: WireRow[]; viewId?: string }
  | { kind: 'cells'; rowId: string; cells: Array<{ fieldId: string; value: RowValue; version: number }>; updatedAt: string; updatedBy: string }
  | { kind: 'removed'; ids: string[] }
  | { kind: 'reset' }
  /** Formulas being computed again for every row in the background (docs/formulas.md): a `reset` follows the last rows. */
  | ({ kind: 'computing' } & FormulaProgress);

/** How far the background computation of a database's formulas is (`done` of `total` rows), and which formula fields it computes. */
export interface FormulaProgress {
  fieldIds: string[];
  done: number;
  total: number;
}
export interface DatabaseEvent {
  channel: string;
  pageId: string;
  databaseId: string;
  origin: string | null;
  at: string;
  change: DatabaseChange;
}

/** A new database: the title column «Название» and one Table view «Таблица» (its uid given or new). */
export function newDatabaseData(layoutUid: string): DatabaseData {
  return {
    config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' } } },
    view: { layouts: [{ uid: layoutUid, type: 'table', name: 'Таблица', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  };
}

// ————— Values: the projection that sorts and filters, and text both ways —————

/** What a cell stores beside its JSON value so SQL can sort and filter it: a number and a text key; a date range's end (ms). */
export interface CellIndex {
  num: number | null;
  txt: string | null;
  end?: number | null;
}

/** The start of a date value as milliseconds since the epoch (a day alone is its UTC midnight). */
export function dateStartMs(value: string | DateRange): number | null {
  const start = typeof value === 'string' ? value : value.start;
  const ms = Date.parse(start.length === 10 ? `${start}T00:00:00Z` : start);
  return Number.isFinite(ms) ? ms : null;
}

const DAY_MS = 86_400_000;

/**
 * Where a date value's time ends, exclusive, in ms since the epoch: a day (alone or a range's
 * last) runs to the next UTC midnight, a range with a time to its end; null for a moment alone
 * (it ends where it starts). A calendar's days meet what starts before their end and ends after their start.
 */
export function dateEndMs(value: string | DateRange): number | null {
  const last = typeof value === 'string' ? value : (value.end ?? value.start);
  if (last.length === 10) {
    const ms = dateStartMs(last);
    return ms === null ? null : ms + DAY_MS;
  }
  return typeof value === 'string' || value.end === null ? null : dateStartMs(last);
}

/** Text compared case-insensitively (ё as е, as people type it). */
export function foldText(text: string): string {
  return text.toLocaleLowerCase('ru').replace(/ё/g, 'е');
}

/** Lists are kept as `|a|b|`, so "contains a" is one LIKE on either database. */
export function listKey(ids: readonly string[]): string | null {
  return ids.length === 0 ? null : `|${ids.join('|')}|`;
}

/** The ids of a list kept as `listKey` made it (a person field's group is one). */
export function listKeyIds(key: string): string[] {
  return key.split('|').filter(Boolean);
}

/** The sort and filter projection of a value of a field (null value: both null). */
export function cellIndex(field: DatabaseField, value: RowValue): CellIndex {
  if (value === null) return { num: null, txt: null };
  switch (field.type) {
    case 'number':
      return { num: typeof value === 'number' ? value : null, txt: null };
    case 'checkbox':
      return { num: value === true ? 1 : 0, txt: null };
    case 'date':
      return typeof value === 'string' || (typeof value === 'object' && !Array.isArray(value))
        ? { num: dateStartMs(value as string | DateRange), txt: null, end: dateEndMs(value as string | DateRange) }
        : { num: null, txt: null };
    case 'multiSelect':
    case 'person':
    case 'relation':
      return { num: null, txt: Array.isArray(value) ? listKey(value as string[]) : null };
    case 'files':
      return { num: null, txt: Array.isArray(value) ? foldText((value as FileRef[]).map((f) => f.name).join(' ')) || null : null };
    case 'select':
    case 'status':
      return { num: null, txt: typeof value === 'string' ? value : null };
    case 'uniqueId':
      // Sorted and filtered by its number; its text as shown (ЗАДАЧА-42), folded, for a search by it.
      return typeof value === 'number' ? { num: value, txt: foldText(uniqueIdText(field.prefix, value)) } : { num: null, txt: null };
    default:
      return { num: null, txt: typeof value === 'string' && value !== '' ? foldText(value) : null };
  }
}

/** Resolves ids to names when values go out as text (CSV, copy). */
export interface ValueNames {
  userName?(id: string): string | undefined;
  /** A related row's title (a relation's ids as text). */
  rowTitle?(id: string): string | undefined;
}

/** A value as text: what CSV export writes, what copy puts on the clipboard, what a retype reads. */
export function valueToText(field: DatabaseField, value: RowValue | undefined, names: ValueNames = {}): string {
  if (value === undefined || value === null) return '';
  switch (field.type) {
    case 'checkbox':
      return value === true ? 'Да' : 'Нет';
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    case 'select':
    case 'status':
      return field.options.find((o) => o.id === value)?.name ?? '';
    case 'multiSelect':
      return Array.isArray(value)
        ? (value as string[])
            .map((id) => field.options.find((o) => o.id === id)?.name ?? '')
            .filter(Boolean)
            .join(', ')
        : '';
    case 'person':
      return Array.isArray(value) ? (value as string[]).map((id) => names.userName?.(id) ?? id).join(', ') : '';
    case 'relation':
      // Rows no longer there (a title not found) are left out; without titles, the ids.
      return Array.isArray(value)
        ? (value as string[])
            .flatMap((id) => {
              const title = names.rowTitle ? names.rowTitle(id) : id;
              return title === undefined ? [] : [title || 'Без названия'];
            })
            .join(', ')
        : '';
    case 'files':
      return Array.isArray(value) ? (value as FileRef[]).map((f) => f.name).join(', ') : '';
    case 'date':
      if (typeof value === 'string') return value;
      if (typeof value === 'object' && !Array.isArray(value)) {
        const range = value as DateRange;
        return range.end ? `${range.start} → ${range.end}` : range.start;
      }
      return '';
    case 'uniqueId':
      return typeof value === 'number' ? uniqueIdText(field.prefix, value) : '';
    case 'formula':
    case 'rollup': {
      // What the formula gave (docs/formulas.md): dates as cells write them, lists with «, », a row's error with its message.
      const v = value as unknown;
      if (typeof v === 'boolean') return v ? 'Да' : 'Нет';
      if (Array.isArray(v)) return v.join(', ');
      if (typeof v === 'object' && v !== null) {
        if ('error' in v) return `Ошибка: ${(v as { error: string }).error}`;
        const range = v as DateRange;
        return range.end ? `${range.start} → ${range.end}` : range.start;
      }
      return String(v);
    }
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

const TRUE_WORDS = new Set(['да', 'yes', 'true', '1', 'x', '✓', '✔', 'on', 'checked', 'истина']);
const FALSE_WORDS = new Set(['нет', 'no', 'false', '0', '', 'off', 'unchecked', 'ложь']);

/** A number as people write it: spaces between thousands, a comma for decimals, a currency sign or %. */
export function parseNumber(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(/[₽$€%]|руб\.?|р\.$/gi, '');
  if (cleaned === '') return null;
  const normalized = /^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(cleaned) ? cleaned.replace(/\./g, '').replace(',', '.') : cleaned.replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(normalized)) return null;
  const n = Number(normalized);
  return Number.isFinite(n) ? n : null;
}

/** A date as people write it: ISO (2026-11-25, with a time), or 25.11.2026 (with 14:30). */
export function parseDate(text: string, localTime = false): string | null {
  const t = text.trim();
  if (isDateString(t)) return t;
  const ru = /^(\d{1,2})[./](\d{1,2})[./](\d{4})(?:[ T,]+(\d{1,2}):(\d{2}))?$/.exec(t);
  if (ru) {
    const [, d, m, y, hh, mm] = ru;
    const day = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
    if (!isDateString(day)) return null;
    return hh === undefined ? day : moment(day, hh.padStart(2, '0'), mm, '00', localTime);
  }
  const iso = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (iso) return isDateString(iso[1]) ? moment(iso[1], iso[2], iso[3], iso[4] ?? '00', localTime) : null;
  return null;
}

/** A day and a time of day as a stored moment (UTC, `…Z`): the time read as UTC, or with `localTime` as this machine's wall clock (a browser's: what its grid shows). */
function moment(day: string, hh: string, mm: string, ss: string, localTime: boolean): string | null {
  const candidate = `${day}T${hh}:${mm}:${ss}Z`;
  if (!isDateString(candidate)) return null;
  if (!localTime) return candidate;
  const [y, m, d] = day.split('-').map(Number);
  const at = new Date(y, m - 1, d, Number(hh), Number(mm), Number(ss));
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Names split on commas (multi-select, person, files), trimmed, empty ones and repeats dropped. */
export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,;\n]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

export type ParsedText = { value: RowValue } | { problem: string };

/** Option id for a new option made from text (stable for the same name within one conversion). */
export type NewOptionId = (name: string) => string | undefined;

/**
 * Text as a value of a field: what paste, CSV import and a retype write. A name that is no option
 * yet becomes one when `addOption` is given (it returns the new option's id), else it is a problem.
 */
export function textToValue(
  field: DatabaseField,
  text: string,
  context: { addOption?: NewOptionId; userId?(name: string): string | undefined; localTime?: boolean } = {},
): ParsedText {
  const trimmed = text.trim();
  if (trimmed === '' && field.type !== 'checkbox') return { value: null };
  const option = (name: string): string | undefined => {
    if (!hasOptions(field)) return undefined;
    const folded = foldText(name);
    return field.options.find((o) => foldText(o.name) === folded)?.id ?? context.addOption?.(name);
  };
  switch (field.type) {
    case 'text':
    case 'url':
    case 'email':
    case 'phone':
      return text.length > DATABASE_LIMITS.textValueLength ? { problem: 'too long' } : { value: field.type === 'text' ? text : trimmed };
    case 'number': {
      const n = parseNumber(trimmed);
      return n === null ? { problem: `«${trimmed}» is not a number` } : { value: n };
    }
    case 'checkbox': {
      const folded = foldText(trimmed);
      if (TRUE_WORDS.has(folded)) return { value: true };
      if (FALSE_WORDS.has(folded)) return { value: false };
      return { problem: `«${trimmed}» is neither yes nor no` };
    }
    case 'date': {
      const [startText, endText] = trimmed.split(/\s+(?:→|->|—|–)\s+/);
      const start = parseDate(startText, context.localTime);
      if (start === null) return { problem: `«${trimmed}» is not a date` };
      if (endText === undefined) return { value: start };
      const end = parseDate(endText, context.localTime);
      return end === null ? { problem: `«${endText}» is not a date` } : { value: { start, end } };
    }
    case 'select':
    case 'status': {
      const id = option(trimmed);
      return id === undefined ? { problem: `no option «${trimmed}»` } : { value: id };
    }
    case 'multiSelect': {
      const ids: string[] = [];
      for (const name of splitList(trimmed)) {
        const id = option(name);
        if (id === undefined) return { problem: `no option «${name}»` };
        if (!ids.includes(id)) ids.push(id);
      }
      return { value: ids.slice(0, DATABASE_LIMITS.listValueLength) };
    }
    case 'person': {
      const ids: string[] = [];
      for (const name of splitList(trimmed)) {
        const id = context.userId?.(name);
        if (id === undefined) return { problem: `no member «${name}»` };
        if (!ids.includes(id)) ids.push(id);
      }
      return { value: ids };
    }
    case 'files':
      return { problem: 'files are attached, not typed' };
    case 'relation':
      return { problem: 'related rows are chosen, not typed' };
    case 'createdTime':
    case 'createdBy':
    case 'editedTime':
    case 'editedBy':
    case 'formula':
    case 'uniqueId':
    case 'rollup':
      return { problem: 'this field is computed' };
  }
}

/**
 * A value carried into another type (a retype): the same value when it still fits, else through
 * its text. `undefined` means it is dropped. Options made on the way are added through `addOption`.
 */
export function convertValue(
  from: DatabaseField,
  to: DatabaseField,
  value: RowValue,
  context: { addOption?: NewOptionId; names?: ValueNames; userId?(name: string): string | undefined } = {},
): RowValue | undefined {
  if (value === null) return null;
  if (COMPUTED_FIELD_TYPES.has(to.type)) return undefined;
  // A relation limited to one row keeps the first it named.
  if (from.type === 'relation' && to.type === 'relation') return to.limit === 'one' && Array.isArray(value) ? (value as string[]).slice(0, 1) : value;
  // Related rows become text only by their titles: without them (a retype) the cell is cleared, never their ids.
  if (from.type === 'relation' && !context.names?.rowTitle) return undefined;
  if (from.type === to.type && !hasOptions(to)) return value;
  if (
    hasOptions(from) &&
    hasOptions(to) &&
    from.type !== 'multiSelect' &&
    to.type !== 'multiSelect' &&
    typeof value === 'string' &&
    to.options.some((o) => o.id === value)
  )
    return value;
  if (from.type === 'person' && to.type === 'person') return value;
  const text = valueToText(from, value, context.names);
  if (to.type === 'checkbox' && from.type !== 'checkbox') {
    const folded = foldText(text.trim());
    if (folded === '') return null;
    return TRUE_WORDS.has(folded) ? true : FALSE_WORDS.has(folded) ? false : undefined;
  }
  const parsed = textToValue(to, text, context);
  return 'value' in parsed ? parsed.value : undefined;
}

// ————— The reference evaluator: what the server's SQL must agree with (tests, the client's optimistic view) —————

/** The value of a field in a row, computed fields included. */
export function rowValue(row: WireRow, fieldId: string, field: DatabaseField): RowValue | undefined {
  if (fieldId === MAIN_FIELD_ID) return row.data.title;
  switch (field.type) {
    case 'createdTime':
      return row.createdAt;
    case 'editedTime':
      return row.updatedAt;
    case 'createdBy':
      return [row.createdBy];
    case 'editedBy':
      return row.updatedBy ? [row.updatedBy] : [];
    default:
      return row.data.values[fieldId];
  }
}

function indexOf(field: DatabaseField, value: RowValue | undefined): CellIndex {
  if (value === undefined) return { num: null, txt: null };
  if (field.type === 'createdTime' || field.type === 'editedTime') return { num: typeof value === 'string' ? Date.parse(value) : null, txt: null };
  if (field.type === 'createdBy' || field.type === 'editedBy') return { num: null, txt: Array.isArray(value) ? listKey(value as string[]) : null };
  return cellIndex(field, value);
}

function ruleMatches(config: DatabaseConfig, rule: FilterRule, row: WireRow): boolean {
  const field = config.fields[rule.fieldId];
  const value = rowValue(row, rule.fieldId, field);
  const { num, txt } = indexOf(field, value);
  const empty = num === null && txt === null;
  if (rule.condition === 'isEmpty') return empty;
  if (rule.condition === 'isNotEmpty') return !empty;
  const operand = rule.value;
  if (operand === undefined || operand === null || operand === '') return true; // an unfinished rule filters nothing
  if (field.type === 'checkbox') return (num === 1) === (operand === true);
  const numeric = num !== null || ['number', 'date', 'createdTime', 'editedTime'].includes(field.type);
  if (numeric) {
    const target =
      typeof operand === 'number' ? operand : typeof operand === 'string' ? (field.type === 'number' ? parseNumber(operand) : dateStartMs(operand)) : null;
    if (target === null) return true;
    if (num === null) return rule.condition === 'isNot';
    switch (rule.condition) {
      case 'is':
        return num === target;
      case 'isNot':
        return num !== target;
      case 'gt':
        return num > target;
      case 'gte':
        return num >= target;
      case 'lt':
        return num < target;
      case 'lte':
        return num <= target;
      default:
        return true;
    }
  }
  const needle = String(operand);
  if (hasOptions(field) || field.type === 'person' || field.type === 'createdBy' || field.type === 'editedBy') {
    const list = field.type === 'select' || field.type === 'status' ? (txt === null ? '' : `|${txt}|`) : (txt ?? '');
    const has = list.includes(`|${needle}|`);
    return rule.condition === 'is' || rule.condition === 'contains' ? has : !has;
  }
  const folded = foldText(needle);
  const text = txt ?? '';
  switch (rule.condition) {
    case 'is':
      return text === folded;
    case 'isNot':
      return text !== folded;
    case 'contains':
      return text.includes(folded);
    case 'notContains':
      return !text.includes(folded);
    case 'startsWith':
      return text.startsWith(folded);
    case 'endsWith':
      return text.endsWith(folded);
    default:
      return true;
  }
}

/** Whether a row passes a view's filter. */
export function rowMatches(config: DatabaseConfig, filter: FilterGroup | null | undefined, row: WireRow): boolean {
  if (!filter || filter.rules.length === 0) return true;
  const results = filter.rules.map((rule) =>
    'op' in rule
      ? rule.op === 'and'
        ? rule.rules.every((r) => ruleMatches(config, r, row))
        : rule.rules.length === 0 || rule.rules.some((r) => ruleMatches(config, r, row))
      : ruleMatches(config, rule, row),
  );
  return filter.op === 'and' ? results.every(Boolean) : results.some(Boolean);
}

/** The position of a select or status option (sorts follow the options' order, as in Notion). */
function optionRank(field: DatabaseField, id: string): number {
  return hasOptions(field) ? field.options.findIndex((o) => o.id === id) : -1;
}

/** Rows in a view's order: each sort in turn (empty values last in either direction), then the rows' own order. */
export function compareRows(config: DatabaseConfig, sorts: readonly ViewSort[], a: WireRow, b: WireRow): number {
  for (const sort of sorts) {
    const field = config.fields[sort.fieldId];
    const x = indexOf(field, rowValue(a, sort.fieldId, field));
    const y = indexOf(field, rowValue(b, sort.fieldId, field));
    const xEmpty = x.num === null && x.txt === null;
    const yEmpty = y.num === null && y.txt === null;
    if (xEmpty !== yEmpty) return xEmpty ? 1 : -1;
    if (xEmpty) continue;
    const sign = sort.direction === 'asc' ? 1 : -1;
    let diff = 0;
    if (field.type === 'select' || field.type === 'status') diff = optionRank(field, x.txt!) - optionRank(field, y.txt!);
    else if (x.num !== null && y.num !== null) diff = x.num - y.num;
    else if (x.txt !== null && y.txt !== null) diff = x.txt < y.txt ? -1 : x.txt > y.txt ? 1 : 0;
    if (diff !== 0) return sign * Math.sign(diff);
  }
  return a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
