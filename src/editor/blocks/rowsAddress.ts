import type { DatabaseLayout, FilterGroup, ViewSort } from '../../../schema/blocks/database';

/**
 * The address of a database's rows (`GET database/{id}/rows`, docs/api/databases.md). The first
 * window of a page's databases is asked for by index.html's early script too (src/app/earlyStart.ts),
 * which is written from these functions' text: so they use nothing but their arguments, the
 * browser's globals and each other (types aside, nothing is imported), and the Table view's first
 * read asks for exactly the address the script asked for.
 */

/** Rows in a window: the Table view reads (and the early script asks for) this many at a time. */
export const DATABASE_WINDOW = 100;
/** Cards in a window of a board's column: a column shows about ten at once, and six columns start together. */
export const BOARD_WINDOW = 30;
/** A calendar's days are read at once, this many rows at most (schema/database.ts MAX_RANGE_WINDOW). */
export const CALENDAR_WINDOW = 2_500;

export interface RowsQuery {
  viewId?: string;
  filter?: FilterGroup | null;
  sorts?: ViewSort[];
  search?: string;
  offset?: number;
  limit?: number;
  inTrash?: boolean;
  /** One group of the (grouped) view: a board's column. */
  group?: string | boolean | null;
  /** One swimlane of a board with lanes (`groupBy.sub`): with `group`, the rows of one (lane, column) cell. */
  sub?: string | boolean | null;
  /** Only the rows whose date in a date field meets [from, to) (a calendar's days). */
  range?: { fieldId: string; from: string; to: string };
  /** Only the rows with no date in this date field. */
  undated?: string;
  /** Only these fields' cells (the title always). */
  fields?: string[];
  /** A gallery's card pictures with the rows (its `cardPreview`: the pages' covers or content). */
  preview?: string;
}

/** A query string of JSON-encoded values (spec §7); undefined ones are left out. */
export function jsonQuery(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, JSON.stringify(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function rowsPath(databaseId: string, query: RowsQuery): string {
  return `/api/v3/spaces/database/${encodeURIComponent(databaseId)}/rows${jsonQuery({ ...query })}`;
}

/** The query a Table view reads its rows with (its filter and sorts given, as edited, with the view's id). */
export function viewRowsQuery(layout: Pick<DatabaseLayout, 'uid' | 'filter' | 'sorts'> & { type?: string; cardPreview?: string }): RowsQuery {
  const query: RowsQuery = { viewId: layout.uid, filter: layout.filter ?? null, sorts: layout.sorts ?? [] };
  // A gallery's pictures come with its rows (the pages' covers or content; a files field's are in its cells).
  const preview = layout.type === 'gallery' ? layout.cardPreview || 'pageContent' : undefined;
  if (preview === 'pageContent' || preview === 'pageCover') query.preview = preview;
  return query;
}

/** The first window (of `limit` rows) of a view. */
export function firstRowsPath(
  databaseId: string,
  layout: Pick<DatabaseLayout, 'uid' | 'filter' | 'sorts'> & { type?: string; cardPreview?: string },
  limit: number,
): string {
  return rowsPath(databaseId, { ...viewRowsQuery(layout), offset: 0, limit });
}

/**
 * A board's columns by its group field: a status or select field's options in their order, then
 * «Без значения» (null); a checkbox's checked and not. `'people'`: a person field, whose columns
 * are the people its cells hold (the view's `GET …/groups`), not known from the field itself.
 * Null: not a field a board's columns come from.
 */
export function boardColumnValues(
  field: { type?: unknown; options?: unknown; databaseId?: unknown } | undefined,
): Array<string | boolean | null> | 'people' | 'related' | null {
  if (!field) return null;
  if (field.type === 'checkbox') return [true, false];
  if ((field.type === 'select' || field.type === 'status' || field.type === 'multiSelect') && Array.isArray(field.options))
    return [...field.options.map((option: { id: string }) => option.id), null];
  if (field.type === 'person') return 'people';
  // A relation to rows of the same database (not another's: its rows' ids would reach readers who may not read it).
  if (field.type === 'relation' && field.databaseId === undefined) return 'related';
  return null;
}

/**
 * The days a calendar reads when it shows `today`: a month's six weeks from the Monday on or
 * before its first (or `today`'s week), and a day more on each side (a day of the database is a
 * UTC day; the browser's may be hours off), as local YYYY-MM-DD.
 */
export function calendarDays(mode: unknown, today: Date): { from: string; to: string } {
  const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const week = mode === 'week';
  const first = new Date(today.getFullYear(), today.getMonth(), week ? today.getDate() : 1);
  const monday = first.getDate() - ((first.getDay() + 6) % 7);
  return {
    from: day(new Date(first.getFullYear(), first.getMonth(), monday - 1)),
    to: day(new Date(first.getFullYear(), first.getMonth(), monday + (week ? 7 : 42) + 1)),
  };
}

/** What a calendar view reads for its days (`calendarDays`): the rows meeting them, their date alone, `limit` at most. */
export function calendarRowsQuery(
  layout: Pick<DatabaseLayout, 'uid' | 'filter' | 'sorts'> & { orderedFields?: DatabaseLayout['orderedFields'] },
  fieldId: string,
  days: { from: string; to: string },
  limit: number,
): RowsQuery {
  return {
    ...viewRowsQuery(layout),
    range: { fieldId: fieldId, from: days.from, to: days.to },
    fields: calendarFields(layout, fieldId),
    offset: 0,
    limit: limit,
  };
}

/** The cells a calendar reads: its date field's, then those its items show (the view's listed fields, not the title `MAIN_FIELD`, which every row has). */
export function calendarFields(layout: { orderedFields?: DatabaseLayout['orderedFields'] }, fieldId: string): string[] {
  const listed = (Array.isArray(layout.orderedFields) ? layout.orderedFields : [])
    .map((entry) => entry.fieldId)
    .filter((id) => id !== 'MAIN_FIELD' && id !== fieldId);
  return [fieldId, ...listed];
}

/** The view a database block opens on (its first), from its data as it comes over the wire: any shape. */
export function firstLayoutOf(data: unknown): Pick<DatabaseLayout, 'uid' | 'type' | 'filter' | 'sorts' | 'groupBy' | 'calendar'> | undefined {
  const view = (data as { view?: { layouts?: unknown } } | null)?.view;
  const layout: unknown = view && Array.isArray(view.layouts) ? view.layouts[0] : undefined;
  return layout && typeof (layout as { uid?: unknown }).uid === 'string' ? (layout as DatabaseLayout) : undefined;
}

/**
 * The first windows (of `limit` rows) a page's blocks start with: for each database block, its
 * first view's (the view it opens on); for a board, the first window (of `boardLimit`) of each of its columns.
 * Blocks as they come over the wire, any shape.
 */
export function firstRowsPaths(
  blocks: ReadonlyArray<{ id?: unknown; type?: unknown; data?: unknown }>,
  limit: number,
  boardLimit: number,
  calendarLimit: number,
  today: Date = new Date(),
): string[] {
  const paths: string[] = [];
  for (const block of blocks) {
    if (!block || block.type !== 'database' || typeof block.id !== 'string') continue;
    const data = block.data as { config?: { fields?: Record<string, { type?: unknown; options?: unknown }> } } | null;
    const layout = firstLayoutOf(block.data);
    if (!layout) continue;
    // A chart reads its figures, not rows; a form shows none.
    if (layout.type === 'chart' || layout.type === 'barChart' || layout.type === 'lineChart' || layout.type === 'pieChart' || layout.type === 'form') continue;
    // A calendar, the rows of the days it shows first (by a date field).
    if (layout.type === 'calendar') {
      const fieldId = layout.calendar ? layout.calendar.fieldId : undefined;
      if (typeof fieldId === 'string' && data?.config?.fields?.[fieldId]?.type === 'date') {
        paths.push(
          rowsPath(block.id, calendarRowsQuery(layout, fieldId, calendarDays(layout.calendar ? layout.calendar.mode : undefined, today), calendarLimit)),
        );
      }
      continue;
    }
    if (layout.type !== 'board') {
      paths.push(firstRowsPath(block.id, layout, limit));
      continue;
    }
    // A board's columns, but those hidden in the view (they are not drawn); a person field's are
    // known only from the view's groups, so its columns read theirs when the board is drawn.
    // A board with swimlanes reads its cells (a lane's part of each column) when it is drawn.
    if (layout.groupBy && layout.groupBy.sub) continue;
    const hidden = layout.groupBy && Array.isArray(layout.groupBy.hidden) ? layout.groupBy.hidden : [];
    const columns = layout.groupBy ? boardColumnValues(data?.config?.fields?.[layout.groupBy.fieldId]) : null;
    if (!Array.isArray(columns)) continue;
    for (const group of columns) if (hidden.indexOf(group) < 0) paths.push(boardColumnPath(block.id, layout, group, boardLimit));
  }
  return paths;
}

/** The first window (of `limit` rows) of a board's column. */
export function boardColumnPath(
  databaseId: string,
  layout: Pick<DatabaseLayout, 'uid' | 'filter' | 'sorts'>,
  group: string | boolean | null,
  limit: number,
): string {
  return rowsPath(databaseId, { ...viewRowsQuery(layout), group, offset: 0, limit });
}

/** A script's expression whose value is `firstRowsPaths`, written from the functions' text (they call each other by name there). */
export function rowsAddressScript(): string {
  const texts = [
    jsonQuery,
    rowsPath,
    viewRowsQuery,
    firstRowsPath,
    boardColumnValues,
    boardColumnPath,
    calendarDays,
    calendarFields,
    calendarRowsQuery,
    firstLayoutOf,
    firstRowsPaths,
  ].map((fn) => fn.toString());
  return `(() => {\n${texts.join('\n')}\nreturn ${firstRowsPaths.name};\n})()`;
}
