import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  DATE_LIKE_TYPES,
  fieldOf,
  hasOptions,
  type ChartBucket,
  type ChartConfig,
  type ChartKey,
  type DatabaseConfig,
  type DatabaseField,
} from '../../schema/blocks/database';
import { CHART_EMPTY_LABEL, type ChartAnswer, type ChartCategory, type ChartPoint } from '../../schema/databaseChart';
import { listKeyIds } from '../../schema/database';
import { asStoredField } from '../../schema/formula/field';
import { foreignOriginals } from '../../schema/formula/rollup';
import { invalid } from '../errors';
import type { BlockRow, Database } from '../db/types';
import { COMPUTED_COLUMNS, queryFields, whereSql, type RowQuery, type ViewOrders } from './databases';
import { inChunks } from '../db/inChunks';

/**
 * Charts of a view (docs/api/databases.md, «Charts»): one SQL query reads each of the view's rows
 * as the chart sees it — the raw value of x (and of the series) and the number of y — and the rows
 * are grouped here by those raw values, each group with its count, and the count, sum, min and max
 * of y; the groups (one per option, day or text, never one per row unless every row has its own
 * value) are then folded into categories: list values (multi-select, person) split into each of
 * their values, days into weeks or months. Each group is a set of distinct rows, so sums, counts,
 * minima and maxima of groups fold exactly, and an average is a sum over a count. The rows and
 * their groups are kept between reads like a view's order (`ViewOrders.kept`, ADR 7); after cells
 * written by this process only the rows written are read again (`ViewOrders.cellsChanged`).
 */

const DAY_MS = 86_400_000;

interface Axis {
  fieldId: string;
  field: DatabaseField;
  bucket: ChartBucket;
}

/** A group's figures: rows, and the numbers of y among them. */
interface Figures {
  n: number;
  yn: number;
  ys: number;
  lo: number | null;
  hi: number | null;
}

const TEXT_TYPES = new Set(['text', 'url', 'email', 'phone']);
const PEOPLE_TYPES = new Set(['person', 'createdBy', 'editedBy']);

/** An axis's raw key in SQL over the row page `p` (a cell joined as `alias`), and the value as written (text, to name its category). */
function axisSql(axis: Axis, alias: string): { join: RawBuilder<unknown> | null; key: RawBuilder<unknown>; sample: RawBuilder<unknown> | null } {
  const { field } = axis;
  if (field.type === 'createdTime' || field.type === 'editedTime')
    return { join: null, key: sql`substr(${sql.raw(COMPUTED_COLUMNS[field.type])}, 1, 10)`, sample: null };
  if (field.type === 'createdBy' || field.type === 'editedBy') return { join: null, key: sql.raw(COMPUTED_COLUMNS[field.type]), sample: null };
  const cell = sql.raw(alias);
  const join = sql`left join database_cells ${cell} on ${cell}.row_id = p.id and ${cell}.field_id = ${axis.fieldId}`;
  switch (field.type) {
    case 'number':
      return { join, key: sql`${cell}.num`, sample: null };
    case 'checkbox':
      // An unchecked box and a box never written are both «no» (as the filter reads them).
      return { join, key: sql`(case when ${cell}.num = 1 then 1 else 0 end)`, sample: null };
    case 'date':
      // The UTC day of the start (a date without a time is its own day).
      return { join, key: sql`floor(${cell}.num / ${sql.raw(`${DAY_MS}.0`)})`, sample: null };
    default:
      // Text compares case-folded (txt, as the filter does): one category, named by the first of
      // its spellings in code-point order (`groupRows`).
      return { join, key: sql`${cell}.txt`, sample: TEXT_TYPES.has(field.type) ? sql`${cell}.value` : null };
  }
}

/** The day number (days since 1970-01-01, UTC) as a bucket's key: 2026-11-03, 2026-W45 (ISO week), 2026-11. */
export function bucketKey(day: number, bucket: ChartBucket): string {
  if (bucket === 'week') {
    const weekday = (new Date(day * DAY_MS).getUTCDay() + 6) % 7; // Monday 0
    const thursday = new Date((day - weekday + 3) * DAY_MS);
    const year = thursday.getUTCFullYear();
    const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1;
    return `${year}-W${String(week).padStart(2, '0')}`;
  }
  const iso = new Date(day * DAY_MS).toISOString();
  return bucket === 'month' ? iso.slice(0, 7) : iso.slice(0, 10);
}

/** The categories a group's raw key falls in (a list value in each of its values). */
function keysOf(axis: Axis, raw: unknown): ChartKey[] {
  const { type } = axis.field;
  if (type === 'checkbox') return [Number(raw) === 1];
  if (raw === null || raw === undefined) return [null];
  switch (type) {
    case 'multiSelect':
    case 'person':
      return listKeyIds(String(raw));
    case 'number':
      return [Number(raw)];
    case 'date':
      return [bucketKey(Number(raw), axis.bucket)];
    case 'createdTime':
    case 'editedTime':
      return [bucketKey(Math.floor(Date.parse(`${String(raw)}T00:00:00Z`) / DAY_MS), axis.bucket)];
    default:
      return [String(raw)];
  }
}

/** Names a category of an axis; `texts` holds text categories' spelling, `people` users' names. */
const DAY_LABEL = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const MONTH_LABEL = new Intl.DateTimeFormat('ru', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A date bucket's key as people read it: «3 нояб. 2026», «нед. 45 · 2026» (ISO), «нояб. 2026». */
export function bucketLabel(key: string): string {
  const week = /^(\d{4})-W(\d{2})$/.exec(key);
  if (week) return `нед. ${Number(week[2])} · ${week[1]}`;
  const at = Date.parse(key.length === 7 ? `${key}-01T00:00:00Z` : `${key}T00:00:00Z`);
  if (!Number.isFinite(at)) return key;
  return (key.length === 7 ? MONTH_LABEL : DAY_LABEL).format(at).replace(/\s*г\.$/, '');
}

function labelOf(axis: Axis, key: ChartKey, texts: Map<ChartKey, string>, people: Map<string, string>): string {
  if (key === null) return CHART_EMPTY_LABEL;
  const { field } = axis;
  if (DATE_LIKE_TYPES.has(field.type) && typeof key === 'string') return bucketLabel(key);
  if (hasOptions(field)) return field.options.find((o) => o.id === key)?.name ?? String(key);
  if (field.type === 'checkbox') return key === true ? 'Да' : 'Нет';
  if (PEOPLE_TYPES.has(field.type)) return people.get(String(key)) ?? String(key);
  return texts.get(key) ?? String(key);
}

/** Natural order of an axis's categories: options' order, dates and numbers ascending, no before yes, text and names alphabetically; no value last. */
function naturalOrder(axis: Axis, label: (key: ChartKey) => string): (a: ChartKey, b: ChartKey) => number {
  const { field } = axis;
  const rank = (key: ChartKey) => {
    if (!hasOptions(field)) return 0;
    const at = field.options.findIndex((o) => o.id === key);
    return at < 0 ? field.options.length : at;
  };
  return (a, b) => {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    const byLabel = PEOPLE_TYPES.has(field.type) ? label(a).localeCompare(label(b), 'ru') : 0;
    return byLabel !== 0 ? byLabel : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  };
}

function emptyFigures(): Figures {
  return { n: 0, yn: 0, ys: 0, lo: null, hi: null };
}

function add(into: Figures, more: Figures): void {
  into.n += more.n;
  into.yn += more.yn;
  into.ys += more.ys;
  if (more.lo !== null && (into.lo === null || more.lo < into.lo)) into.lo = more.lo;
  if (more.hi !== null && (into.hi === null || more.hi > into.hi)) into.hi = more.hi;
}

/** A category's value: rows counted, or y's sum (0 with no numbers), average, min or max (null with no numbers). */
function valueOf(figures: Figures, aggregate: ChartConfig['y']['aggregate']): number | null {
  switch (aggregate) {
    case 'count':
      return figures.n;
    case 'sum':
      return figures.ys;
    case 'average':
      return figures.yn === 0 ? null : figures.ys / figures.yn;
    case 'min':
      return figures.lo;
    case 'max':
      return figures.hi;
  }
}

function axisOf(config: DatabaseConfig, entry: { fieldId: string; bucket?: ChartBucket }): Axis {
  const field = fieldOf(config, entry.fieldId);
  if (!field) throw new Error(`no field ${entry.fieldId}: the chart config is checked before it is read`);
  // A formula as the cells of the type it gives keep it (numbers, texts, dates, yes/no, lists of names).
  const shown = field.type === 'formula' || field.type === 'rollup' ? (asStoredField(config.fields, entry.fieldId) as DatabaseField) : field;
  return { fieldId: entry.fieldId, field: shown, bucket: entry.bucket ?? 'day' };
}

const numeric = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A group of rows with one raw value of x (and of the series) and its figures; `xv`/`sv`: a text's spelling. */
export interface ChartGroup extends Figures {
  x: unknown;
  s: unknown;
  xv: string | null;
  sv: string | null;
}

/** A row as a chart reads it: the raw value of x and of the series, y's number, and texts as written (JSON; null for other types). */
export interface ChartRow {
  x: unknown;
  s: unknown;
  y: number | null;
  xv: string | null;
  sv: string | null;
}

/** The fields a chart reads the cells of: x, the series, and y unless it counts rows. */
function chartFields(chart: ChartConfig): { x: string; series: string | null; y: string | null } {
  return { x: chart.x.fieldId, series: chart.series?.fieldId ?? null, y: chart.y.aggregate !== 'count' && chart.y.fieldId ? chart.y.fieldId : null };
}

/**
 * The view's rows (`query`: its filter; live rows unless inTrash) as the chart reads them, by id,
 * in one SQL query; `ids`: only those rows (the ones of them the view has).
 */
export async function chartRows(
  db: Kysely<Database>,
  config: DatabaseConfig,
  databaseId: string,
  query: RowQuery,
  chart: ChartConfig,
  ids?: readonly string[],
): Promise<Map<string, ChartRow>> {
  const fields = chartFields(chart);
  // A rollup showing another database's originals is no axis: its values would reach every reader (docs/relations.md «Rollups»).
  const guarded = foreignOriginals(databaseId, config);
  if (guarded.has(chart.x.fieldId) || (chart.series && guarded.has(chart.series.fieldId)))
    throw invalid('a chart does not group by the originals of another database', [
      { path: 'chart', message: 'Диаграмма не строится по исходным значениям другой базы' },
    ]);
  const xSql = axisSql(axisOf(config, chart.x), 'cx');
  const sSql = chart.series ? axisSql(axisOf(config, chart.series), 'cs') : null;
  const joins = [xSql.join, sSql?.join ?? null];
  if (fields.y) joins.push(sql`left join database_cells cy on cy.row_id = p.id and cy.field_id = ${fields.y}`);
  const joined = sql.join(
    joins.filter((j): j is RawBuilder<unknown> => j !== null),
    sql.raw(' '),
  );
  // Only what the chart has (a column of nulls costs as much to read as one of values).
  const named: Array<[RawBuilder<unknown> | null, string]> = [
    [sql`p.id`, 'id'],
    [xSql.key, 'x'],
    [sSql?.key ?? null, 's'],
    [fields.y ? sql`cy.num` : null, 'y'],
    [xSql.sample, 'xv'],
    [sSql?.sample ?? null, 'sv'],
  ];
  const columns = sql.join(named.filter(([column]) => column !== null).map(([column, name]) => sql`${column} as ${sql.ref(name)}`));
  const where = whereSql(config, databaseId, query);
  const read = async (wanted: readonly string[] | null) => {
    // The rows asked for first (CROSS JOIN keeps SQLite from walking every row of the database by its index).
    const from = wanted
      ? sql`(values ${sql.join(wanted.map((id) => sql`(${id})`))}) w cross join pages p ${joined} where p.id = w.column1 and`
      : sql`pages p ${joined} where`;
    return (
      await sql<{
        id: string;
        x: unknown;
        s?: unknown;
        y?: number | string | null;
        xv?: string | null;
        sv?: string | null;
      }>`select ${columns} from ${from} ${where}`.execute(db)
    ).rows;
  };
  const rows = new Map<string, ChartRow>();
  for (const chunk of ids ? inChunks(ids) : [null]) {
    for (const row of await read(chunk)) rows.set(row.id, { x: row.x, s: row.s ?? null, y: numeric(row.y), xv: row.xv ?? null, sv: row.sv ?? null });
  }
  return rows;
}

/** Whether `a` comes before `b` in code-point order (as SQLite and PostgreSQL's "C" compare text; JavaScript's `<` compares UTF-16 units). */
export function codePointBefore(a: string, b: string): boolean {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    const pa = ca >= 0xd800 && ca <= 0xdfff;
    const pb = cb >= 0xd800 && cb <= 0xdfff;
    // A surrogate is half of a code point past U+FFFF: after every other unit that differs from it.
    return pa === pb ? ca < cb : pb;
  }
  return a.length < b.length;
}

/**
 * Rows grouped by the raw value of x and of the series. A sum adds its numbers in ascending order,
 * so the same rows give the same sum to the last bit however they were read (all at once, or a few
 * again after a write).
 */
export function groupRows(rows: Iterable<ChartRow>): ChartGroup[] {
  const byX = new Map<unknown, Map<unknown, ChartGroup & { numbers: number[] }>>();
  const all: Array<ChartGroup & { numbers: number[] }> = [];
  const first = (a: string | null, b: string | null) => (a === null || (b !== null && codePointBefore(b, a)) ? b : a);
  for (const row of rows) {
    let bySeries = byX.get(row.x);
    if (!bySeries) byX.set(row.x, (bySeries = new Map()));
    let group = bySeries.get(row.s);
    if (!group) {
      group = { x: row.x, s: row.s, ...emptyFigures(), xv: null, sv: null, numbers: [] };
      bySeries.set(row.s, group);
      all.push(group);
    }
    group.n += 1;
    if (row.y !== null) group.numbers.push(row.y);
    group.xv = first(group.xv, row.xv);
    group.sv = first(group.sv, row.sv);
  }
  return all.map(({ numbers, ...group }) => {
    const sorted = Float64Array.from(numbers).sort();
    return {
      ...group,
      yn: sorted.length,
      ys: sorted.reduce((total, y) => total + y, 0),
      lo: sorted.length > 0 ? sorted[0] : null,
      hi: sorted.length > 0 ? sorted[sorted.length - 1] : null,
    };
  });
}

/** A chart's rows as kept, and their groups. */
interface KeptChart {
  rows: Map<string, ChartRow>;
  groups: ChartGroup[];
}

const keptChart = (rows: Map<string, ChartRow>): KeptChart => ({ rows, groups: groupRows(rows.values()) });

/**
 * A chart's groups, kept (`ViewOrders.kept`) while the rows and the fields the chart and the
 * view's filter read stay: a chart read again, or previewed with another sort, bucket, hidden
 * categories or running totals, is folded from them without a query. After cells written by this
 * process, only their rows are read again (in the view or no longer) and the rows grouped anew.
 */
export async function keptChartGroups(
  orders: ViewOrders,
  db: Kysely<Database>,
  database: Pick<BlockRow, 'id' | 'version'>,
  config: DatabaseConfig,
  query: RowQuery,
  chart: ChartConfig,
): Promise<ChartGroup[]> {
  const fields = chartFields(chart);
  const key = `chart\n${database.id}\n${JSON.stringify([query.filter ?? null, query.search ?? '', query.inTrash === true, fields])}`;
  const read = [fields.x, fields.series, fields.y].filter((id): id is string => id !== null);
  const used = queryFields(config, { ...query, sorts: read.map((fieldId) => ({ fieldId, direction: 'asc' as const })) });
  const kept = await orders.kept(
    db,
    database,
    key,
    used,
    async () => keptChart(await chartRows(db, config, database.id, query, chart)),
    (k) => k.rows.size,
    async (before: KeptChart, ids: string[]) => {
      const again = await chartRows(db, config, database.id, query, chart, ids);
      // In place (a copy of 50,000 rows costs as much as grouping them): two reads doing this at
      // once each write rows at least as new as the revisions they keep the value at, and the rows
      // written after those revisions are read again by the next read (ViewOrders.kept).
      const { rows } = before;
      for (const id of ids) {
        const row = again.get(id);
        if (row) rows.set(id, row);
        else rows.delete(id);
      }
      return keptChart(rows);
    },
  );
  return kept.groups;
}

/**
 * The answer: the groups folded into categories and series, sorted, hidden categories left out,
 * running totals. `names` gives people's names for their labels (a published page's reader gets
 * «Участник» from the route instead).
 */
export async function foldChart(
  config: DatabaseConfig,
  chart: ChartConfig,
  groups: readonly ChartGroup[],
  names: (ids: string[]) => Promise<Map<string, string>>,
): Promise<ChartAnswer> {
  const x = axisOf(config, chart.x);
  const series = chart.series ? axisOf(config, chart.series) : null;
  const hidden = chart.hidden ?? [];
  const shown = (key: ChartKey) => !hidden.includes(key);
  const cells = new Map<ChartKey, Map<ChartKey, Figures>>();
  const totals = new Map<ChartKey, Figures>();
  const texts = { x: new Map<ChartKey, string>(), series: new Map<ChartKey, string>() };
  const spell = (into: Map<ChartKey, string>, key: ChartKey, sample: string | null) => {
    if (sample === null || key === null) return;
    const text = JSON.parse(sample) as unknown;
    const before = into.get(key);
    if (typeof text === 'string' && (before === undefined || text < before)) into.set(key, text);
  };
  let rows = 0;
  for (const group of groups) {
    const xs = keysOf(x, group.x);
    const ss = series ? keysOf(series, group.s) : [null];
    if (xs.some(shown)) rows += group.n;
    for (const xKey of xs) {
      spell(texts.x, xKey, group.xv);
      if (!totals.has(xKey)) totals.set(xKey, emptyFigures());
      add(totals.get(xKey)!, group);
      const row = cells.get(xKey) ?? new Map<ChartKey, Figures>();
      cells.set(xKey, row);
      for (const sKey of ss) {
        spell(texts.series, sKey, group.sv);
        if (!row.has(sKey)) row.set(sKey, emptyFigures());
        add(row.get(sKey)!, group);
      }
    }
  }

  const people = new Set<string>();
  const personKeys = (axis: Axis | null, keys: Iterable<ChartKey>) => {
    if (axis && PEOPLE_TYPES.has(axis.field.type)) for (const key of keys) if (typeof key === 'string') people.add(key);
  };
  const categoryKeys = [...totals.keys()].filter(shown);
  const hiddenKeys = [...totals.keys()].filter((key) => !shown(key));
  const seriesKeys = [...new Set(categoryKeys.flatMap((key) => [...cells.get(key)!.keys()]))];
  personKeys(x, [...categoryKeys, ...hiddenKeys]);
  personKeys(series, seriesKeys);
  const nameOf = people.size > 0 ? await names([...people]) : new Map<string, string>();

  const xLabel = (key: ChartKey) => labelOf(x, key, texts.x, nameOf);
  const byX = naturalOrder(x, xLabel);
  const aggregate = chart.y.aggregate;
  const sort = chart.sort ?? 'xAsc';
  categoryKeys.sort((a, b) => {
    // «Без значения» (the rows without a value) last in every order, by x or by value (issue 34).
    if (a === null || b === null) return byX(a, b);
    if (sort === 'xAsc' || sort === 'xDesc') return sort === 'xAsc' ? byX(a, b) : byX(b, a);
    const va = valueOf(totals.get(a)!, aggregate);
    const vb = valueOf(totals.get(b)!, aggregate);
    if (va === null || vb === null) return va === vb ? byX(a, b) : va === null ? 1 : -1;
    return (sort === 'yAsc' ? va - vb : vb - va) || byX(a, b);
  });
  const categories: ChartCategory[] = categoryKeys.map((key) => ({ key, label: xLabel(key) }));
  const hiddenCategories: ChartCategory[] = hiddenKeys.sort(byX).map((key) => ({ key, label: xLabel(key) }));

  let seriesList: ChartCategory[] = [];
  if (series) {
    const sLabel = (key: ChartKey) => labelOf(series, key, texts.series, nameOf);
    seriesList = seriesKeys.sort(naturalOrder(series, sLabel)).map((key) => ({ key, label: sLabel(key) }));
  }

  const points: ChartPoint[] = [];
  const lines: ChartKey[] = series ? seriesList.map((s) => s.key) : [null];
  const running = new Map<ChartKey, number>();
  for (const xKey of categoryKeys) {
    const row = cells.get(xKey)!;
    for (const sKey of lines) {
      const figures = row.get(sKey);
      if (chart.cumulative) {
        const total = (running.get(sKey) ?? 0) + (figures ? (valueOf(figures, aggregate) ?? 0) : 0);
        running.set(sKey, total);
        points.push({ x: xKey, series: sKey, value: total });
      } else if (figures) {
        points.push({ x: xKey, series: sKey, value: valueOf(figures, aggregate) });
      }
    }
  }
  return { categories, series: seriesList, points, rows, hidden: hiddenCategories };
}
