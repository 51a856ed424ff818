import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAIN_FIELD_ID, chartProblems, fieldOf, splitsRows, type DatabaseData, type DatabaseLayout } from '../../schema/blocks/database';
import {
  MAX_ROW_WINDOW,
  addFieldBodySchema,
  addViewBodySchema,
  dateStartMs,
  createRowsBodySchema,
  importRowsBodySchema,
  describeDatabaseBodySchema,
  moveRowsBodySchema,
  moveViewBodySchema,
  rowIdsBodySchema,
  rowsQueryShape,
  updateFieldBodySchema,
  updateViewBodySchema,
  writeCellBodySchema,
  writeCellsBodySchema,
} from '../../schema/database';
import { chartQueryShape } from '../../schema/databaseChart';
import { jsonQuery } from '../../schema/query';
import { asStoredField } from '../../schema/formula/field';
import { dayNumber } from '../../schema/groupBuckets';
import { CLIENT_ID_HEADER } from '../../schema/realtime';
import { isPostgres } from '../db/connect';
import type { BlockRow } from '../db/types';
import { contentDispositionOf } from '../disposition';
import { AppError, forbidden, invalid, notFound } from '../errors';
import type { UserLimits } from '../config';
import { PUBLIC_ROUTE, requireUser } from '../plugins/auth';
import { userLimit } from '../plugins/rateLimit';
import { requestOrigin } from '../realtime/sockets';
import { chartFields, publishedData, publishedFields, rowLayouts, sameConfig } from '../../schema/policies/database';
import { ERROR_CODES } from '../../schema/errors';
import { authorizePage, isPubliclyReadableHeld } from '../policies/page';
import { envelope, presentElement } from '../presenters';
import { findBlock, presentBlock } from '../repositories/blocks';
import { foldChart, keptChartGroups } from '../repositories/databaseCharts';
import { withPreviews } from '../repositories/rowPreviews';
import { databaseCsv } from '../repositories/databaseCsv';
import { findLayoutHolder } from '../repositories/databaseLayouts';
import { databaseRevision } from '../repositories/databaseRevisions';
import {
  analyzeRowTables,
  groupCounts,
  countRows,
  databaseData,
  findDatabaseBlock,
  findRowPages,
  readCell,
  readRows,
  rowsNaming,
  type BucketBy,
  type RowQuery,
  type WrittenCell,
} from '../repositories/databases';
import { findPage } from '../repositories/pages';
import { readableDatabases, withReadableCells, withReadableRelations } from '../commands/databases/relations';
import { importRows } from '../commands/databases/importRows';
import { formulaTimeZone } from '../commands/databases/formulas';
import { cellConflict, writeCell, writeCells } from '../commands/databases/cells';
import { listRowHistory, restoreCellEntry } from '../commands/databases/cellHistory';
import { authorizedDatabase, authorizedRow, type AuthorizedDatabase } from '../commands/databases/database';
import { peopleNamesFor } from '../commands/databases/people';
import { createRows, moveRows, restoreDatabaseRows, trashDatabaseRows } from '../commands/databases/rows';
import { formulaProgress } from '../commands/databases/formulaJobs';
import {
  addField,
  addView,
  deleteField,
  deleteView,
  describeDatabase,
  layoutOf,
  moveView,
  planFieldChange,
  updateField,
  updateView,
  type Changer,
} from '../commands/databases/structure';

const databaseParams = z.object({ id: z.string().min(1).max(128) });
const fieldParams = z.object({ id: z.string().min(1).max(128), fieldId: z.string().min(1).max(64) });
const viewParams = z.object({ id: z.string().min(1).max(128), viewId: z.string().min(1).max(64) });
const layoutParams = z.object({ layoutId: z.string().min(1).max(128) });
const rowsQuerySchema = jsonQuery(rowsQueryShape);
const viewQuerySchema = jsonQuery({ viewId: z.string().max(64).optional() });
/** Row creates and cell pastes carry up to 1,000 rows: a bigger body than the rest of the API. */
const ROWS_BODY_LIMIT = 16 * 1024 * 1024;
/** An import's body: 4 MiB of CSV, or 5,000 JSON rows, with room to spare. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;
/** A create of this many rows or more (an import's batch) refreshes PostgreSQL's statistics, at most every ANALYZE_EVERY_MS. */
const ANALYZE_AFTER_ROWS = 500;
const ANALYZE_EVERY_MS = 5_000;

/** What a cursor belongs to: the rows a view reads and their order (another filter or sort: another order). */
function cursorScope(query: RowQuery): string {
  const scope = [
    query.filter ?? null,
    query.sorts ?? [],
    query.search ?? '',
    query.inTrash === true,
    query.group ?? null,
    query.range ?? null,
    query.undated ?? null,
    query.order ?? null,
    query.split ?? null,
    query.subGroup ?? null,
    query.bucket ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(scope)).digest('base64url').slice(0, 16);
}

/** A cursor: the sort values of the row a window ended with, and what they are values of. Opaque to clients. */
function writeCursor(keys: readonly unknown[], query: RowQuery): string {
  return Buffer.from(JSON.stringify({ s: cursorScope(query), k: keys })).toString('base64url');
}

/** The sort values a cursor carries; 422 when it is not one of ours or belongs to another filter or sort. */
function readCursor(cursor: string, query: RowQuery): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const { s, k } = (parsed ?? {}) as { s?: unknown; k?: unknown };
  if (typeof s !== 'string' || !Array.isArray(k) || !k.every((v) => v === null || typeof v === 'string' || typeof v === 'number'))
    throw invalid('not a cursor of this API', [{ path: 'query.cursor', message: 'give a meta.nextCursor as it was answered' }]);
  if (s !== cursorScope(query))
    throw invalid('the cursor belongs to another filter or sort', [
      { path: 'query.cursor', message: 'a cursor pages the filter and sorts it was answered with' },
    ]);
  return k;
}

export async function databaseRoutes(server: FastifyInstance, { limits }: { limits: UserLimits }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const originOf = (request: FastifyRequest) => requestOrigin(request.headers[CLIENT_ID_HEADER]);
  /** The ordered ids of the views being read, kept while their data stays (ADR 7). */
  const orders = app.viewOrders;
  /**
   * Row batches per user (docs/security.md «Request limits»): the web app's CSV import writes
   * ROWS_PER_REQUEST rows a call — a 50,000-row file is 50 calls — so a minute's allowance passes
   * any legitimate import while a flood of batches stops; the import waits out a 429 and goes on.
   */
  const rowBatchLimit = userLimit(app, 'rows', limits.rowBatchesPerMinute, 60_000, requireUser);

  /**
   * A database to read: by the caller's access to the page holding it, or by anyone (signed in
   * or not) while that page is published (docs/api/databases.md, «Public pages»). Denied: 401 for
   * an anonymous caller, 403 for a signed-in one, as for any page.
   */
  async function readableDatabase(request: FastifyRequest, id: string): Promise<AuthorizedDatabase & { publicly: boolean; viewerId: string | null }> {
    let denied: unknown = null;
    if (request.user) {
      try {
        return { ...(await authorizedDatabase(app.db, request.user.id, id, 'read')), publicly: false, viewerId: request.user.id };
      } catch (error) {
        if (!(error instanceof AppError) || error.statusCode !== 403) throw error;
        denied = error;
      }
    }
    const block = await findDatabaseBlock(app.db, id);
    const holder = block ? await findPage(app.db, block.page_id) : undefined;
    // (A database in a synced block's content: public while the content's holder is.)
    if (block && holder && (await isPubliclyReadableHeld(app.db, holder))) return { block, holder, data: databaseData(block), publicly: true, viewerId: null };
    if (denied) throw denied;
    requireUser(request);
    throw notFound('database');
  }

  /** 403 database.not_published: a public reader asked for what no published view shows. */
  const notShown = (path: string, message: string) =>
    new AppError(403, ERROR_CODES.databaseNotPublished, 'a published database shows only what its views show', [{ path, message }]);

  /**
   * A public reader's rows query (docs/security.md «What a public reader can see»): always through
   * a view (the first when none is named) whose own filter holds — another filter is refused, so
   * rows every view filters out are never read —, sorted, dated and read by the fields the views
   * show only. `fields`: the cells the answer may carry.
   */
  function publicRowsQuery(data: DatabaseData, query: z.infer<typeof rowsQuerySchema>): z.infer<typeof rowsQuerySchema> & { fields: string[] } {
    const layout = publicLayout(data, query.viewId);
    const shown = publishedFields(data);
    const check = (fieldId: string, path: string) => {
      if (!shown.has(fieldId)) throw notShown(path, `no published view shows ${fieldId}`);
    };
    if (query.filter !== undefined && !sameConfig(query.filter, layout.filter ?? null)) throw notShown('query.filter', "the view's own filter only");
    if (query.sorts !== undefined && !sameConfig(query.sorts, layout.sorts ?? []))
      query.sorts.forEach((sort, at) => check(sort.fieldId, `query.sorts.${at}.fieldId`));
    if (query.range) check(query.range.fieldId, 'query.range.fieldId');
    if (query.undated !== undefined) check(query.undated, 'query.undated');
    query.fields?.forEach((fieldId, at) => check(fieldId, `query.fields.${at}`));
    return { ...query, viewId: layout.uid, filter: undefined, fields: query.fields ?? [...shown] };
  }

  /** The view a public reader reads rows through: the one named, else the first; a form shows no rows (403). */
  function publicLayout(data: DatabaseData, viewId: string | undefined): DatabaseLayout {
    const layout = viewId ? layoutOf(data, viewId) : rowLayouts(data)[0];
    if (!layout) throw notShown('query.viewId', 'the database has no view');
    if (layout.type === 'form') throw notShown('query.viewId', 'a form shows no rows');
    return layout;
  }

  /** The live rows a published database shows: those some view lets through (each view's order is kept, ADR 7). */
  async function publishedRowIds(block: BlockRow, data: DatabaseData): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const layout of rowLayouts(data))
      for (const id of await orders.ids(app.db, block, data.config, rowQueryOf(data, block.id, { viewId: layout.uid }))) ids.add(id);
    return ids;
  }

  /** Which of `ids` the relation cells the views show name, on rows the views show (their titles are on the page). */
  async function relatedFrom(block: BlockRow, data: DatabaseData, shown: ReadonlySet<string>, ids: readonly string[]): Promise<Set<string>> {
    const fields = [...publishedFields(data)].filter((id) => fieldOf(data.config, id)?.type === 'relation');
    const naming = await rowsNaming(app.db, block.id, fields, ids);
    return new Set([...naming].filter(([, rows]) => rows.some((row) => shown.has(row))).map(([id]) => id));
  }

  /** Whether a view's groups have their sub-groups: a table's, not by or under a list field (`splitsRows`; a field retyped since: none). */
  const subGroupsOf = (data: DatabaseData, layout: DatabaseLayout, databaseId: string) =>
    !!layout.groupBy?.sub &&
    layout.type === 'table' &&
    !!fieldOf(data.config, layout.groupBy.sub.fieldId) &&
    !splitsRows(data.config, databaseId, layout.groupBy.fieldId) &&
    !splitsRows(data.config, databaseId, layout.groupBy.sub.fieldId);

  /**
   * A table grouped or sub-grouped by a date's or a number's buckets: its rows ordered by the
   * buckets (`RowQuery.bucket`), so each group and sub-group is one run (days counted as the groups count them).
   */
  const bucketOf = (data: DatabaseData, layout: DatabaseLayout, databaseId: string): RowQuery['bucket'] => {
    if (layout.type !== 'table' || !layout.groupBy || splitsRows(data.config, databaseId, layout.groupBy.fieldId)) return undefined;
    const bucketed = (by: BucketBy | null | undefined): BucketBy | undefined => {
      const type = by && fieldOf(data.config, by.fieldId) ? asStoredField(data.config.fields, by.fieldId).type : undefined;
      return by && (type === 'date' || type === 'number') ? { fieldId: by.fieldId, by: by.by, step: by.step } : undefined;
    };
    const group = bucketed(layout.groupBy);
    const sub = subGroupsOf(data, layout, databaseId) ? bucketed(layout.groupBy.sub) : undefined;
    if (!group && !sub) return undefined;
    const timeZone = formulaTimeZone();
    // Relative buckets move at midnight: today is part of the order's key only for them.
    const relative = [group, sub].some((b) => b && asStoredField(data.config.fields, b.fieldId).type === 'date' && (b.by ?? 'relative') === 'relative');
    return { timeZone, today: relative ? dayNumber(Date.now(), timeZone) : 0, ...(group ? { group } : {}), ...(sub ? { sub } : {}) };
  };

  /** The list field a view's rows are split by (`RowQuery.split`): a table's group field when a row is in each of its values' groups. */
  const splitOf = (data: DatabaseData, layout: DatabaseLayout | undefined, databaseId: string) =>
    layout?.type === 'table' && layout.groupBy && splitsRows(data.config, databaseId, layout.groupBy.fieldId) ? layout.groupBy.fieldId : undefined;

  /** What a rows query reads: the view's filter and sorts (its group first), replaced by what the query gives. */
  function rowQueryOf(data: DatabaseData, databaseId: string, query: z.infer<typeof rowsQuerySchema>): RowQuery {
    const layout = query.viewId ? layoutOf(data, query.viewId) : undefined;
    const sorts = query.sorts ?? layout?.sorts ?? [];
    // Grouped: by the group first, then by the sub-group (a table's), so each makes one run of rows.
    const group = layout?.groupBy
      ? [layout.groupBy.fieldId, ...(subGroupsOf(data, layout, databaseId) ? [layout.groupBy.sub!.fieldId] : [])].map((fieldId) => ({
          fieldId,
          direction: 'asc' as const,
        }))
      : [];
    const filter = query.filter !== undefined ? query.filter : (layout?.filter ?? null);
    for (const sort of [...sorts, ...group]) if (!fieldOf(data.config, sort.fieldId)) throw invalid(`no field ${sort.fieldId}`);
    if (query.group !== undefined && !layout?.groupBy)
      throw invalid('a group is read from a grouped view', [{ path: 'query.group', message: 'viewId names no grouped view' }]);
    const only = query.group !== undefined && layout?.groupBy ? { fieldId: layout.groupBy.fieldId, value: query.group } : undefined;
    // A board's swimlane: its rows (with `group`, of one column in it).
    if (query.sub !== undefined && !(layout?.type === 'board' && layout.groupBy?.sub))
      throw invalid('a swimlane is read from a board with swimlanes', [{ path: 'query.sub', message: 'viewId names no board with swimlanes' }]);
    const lane = query.sub !== undefined ? { fieldId: layout!.groupBy!.sub!.fieldId, value: query.sub } : undefined;
    const dated = (fieldId: string, path: string) => {
      if (fieldOf(data.config, fieldId)?.type !== 'date')
        throw invalid('rows are read by the dates of a date field', [{ path, message: `${fieldId} is no date field` }]);
    };
    let range: RowQuery['range'];
    if (query.range) {
      dated(query.range.fieldId, 'query.range.fieldId');
      range = { fieldId: query.range.fieldId, from: dateStartMs(query.range.from)!, to: dateStartMs(query.range.to)! };
      if (!(range.from < range.to)) throw invalid('a range ends after it starts', [{ path: 'query.range.to', message: 'to is not after from' }]);
    }
    if (query.undated !== undefined) dated(query.undated, 'query.undated');
    // One group's rows (a board's column) come in their own order: not by the group field first,
    // whose stored values may differ within a group (a person's column: cards of several people; «Нет»: false or never ticked).
    // A table by a list field: each value's rows in the sorts' order (a row in each of its values' groups).
    const split = only ? undefined : splitOf(data, layout, databaseId);
    const first = only || split ? [] : group;
    const bucket = only || !layout ? undefined : bucketOf(data, layout, databaseId);
    return {
      ...(split !== undefined ? { split } : {}),
      ...(bucket !== undefined ? { bucket } : {}),
      filter,
      // The view's own order breaks the sorts' ties (a linked view, by the same uid, shows it too).
      order: layout?.uid,
      sorts: [...first, ...sorts.filter((s) => !group.some((g) => g.fieldId === s.fieldId))],
      search: query.search,
      inTrash: query.inTrash,
      group: only,
      ...(lane ? { subGroup: lane } : {}),
      range,
      undated: query.undated,
    };
  }

  const changerOf = (request: FastifyRequest): Changer => ({ userId: requireUser(request).id, origin: originOf(request) });

  /**
   * PostgreSQL plans a view's first read from its statistics, which autovacuum gathers only a
   * while after a big import: right after 50,000 rows the first window took 1.9 s instead of a
   * few hundred ms. An import (batches of rows) therefore refreshes them itself, at most every
   * ANALYZE_EVERY_MS per process; SQLite needs nothing.
   */
  let analyzedAt = 0;
  async function freshStatistics(): Promise<void> {
    if (!isPostgres(app.db) || Date.now() - analyzedAt < ANALYZE_EVERY_MS) return;
    analyzedAt = Date.now();
    await analyzeRowTables(app.db).catch((error: unknown) => app.log.warn({ err: error }, 'analyze after an import'));
  }

  // ---- Reading ---------------------------------------------------------------------------------

  app.get(
    '/api/v3/spaces/database/:id',
    { ...PUBLIC_ROUTE, schema: { tags: ['databases'], summary: 'A database block with its row count', params: databaseParams } },
    async (request) => {
      const { block, data, publicly } = await readableDatabase(request, request.params.id);
      if (!publicly) return envelope(await presentBlock(app.db, block), { rowCount: await countRows(app.db, block.id) });
      // A public reader: the fields the views name, and the rows the views show counted (not those every view filters out).
      const wire = await presentBlock(app.db, block);
      return envelope({ ...wire, data: publishedData(data) }, { rowCount: (await publishedRowIds(block, data)).size });
    },
  );

  app.get(
    '/api/v3/spaces/database/view/:layoutId',
    {
      schema: {
        tags: ['databases'],
        summary: "The database holding a view (by the view's uid: a WidgetView page's defaultLayoutId), the view, and the page holding the database",
        params: layoutParams,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { layoutId } = request.params;
      const databaseId = await findLayoutHolder(app.db, layoutId);
      const block = databaseId ? await findBlock(app.db, databaseId) : undefined;
      const holder = block ? await findPage(app.db, block.page_id) : undefined;
      if (!block || !holder) throw notFound('view');
      // Read access to the database's own page, whatever page asks (a linked view shows no more than its source).
      const level = await authorizePage(app.db, user.id, holder, 'read');
      // Deleted or in the trash: said only after the access check, so an outsider learns nothing.
      if (block.deleted_at !== null || holder.in_trash === 1) throw notFound('database');
      const layout = databaseData(block).view.layouts.find((l) => l.uid === layoutId);
      if (!layout) throw notFound('view');
      return envelope(await presentBlock(app.db, block), { view: layout, page: presentElement(holder, level), rowCount: await countRows(app.db, block.id) });
    },
  );

  app.get(
    '/api/v3/spaces/database/:id/rows',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['databases'],
        summary: "A window of a view's rows (filtered and sorted on the server)",
        params: databaseParams,
        querystring: rowsQuerySchema,
      },
    },
    async (request) => {
      const { block, data, publicly, viewerId } = await readableDatabase(request, request.params.id);
      // The trash of a published database is not published.
      if (publicly && request.query.inTrash) throw forbidden('the trash of this database');
      // A public reader reads through a view, the fields the views show only.
      const query = publicly ? publicRowsQuery(data, request.query) : request.query;
      const offset = request.query.offset ?? 0;
      const limit = request.query.limit ?? 100;
      if (limit > MAX_ROW_WINDOW && !request.query.range)
        throw invalid(`at most ${MAX_ROW_WINDOW} rows a window`, [{ path: 'query.limit', message: `more than ${MAX_ROW_WINDOW} only with a range` }]);
      // Read before the rows: a write landing in between makes it older than they are (a join then reads them again), never newer.
      const revision = await databaseRevision(app.db, block);
      const rowQuery = rowQueryOf(data, block.id, query);
      const after = request.query.cursor === undefined ? undefined : readCursor(request.query.cursor, rowQuery);
      const window = await orders.window(app.db, block, data.config, rowQuery, { offset, limit, after });
      // Relations to another database name only the rows of it this reader may read (docs/relations.md).
      const readable = await withReadableRelations(app.db, viewerId, block.id, data.config, await readRows(app.db, block.id, window.ids, query.fields));
      // A gallery's cards: the row pages' covers or first pictures (docs/api/databases.md «Gallery and list»).
      const rows = request.query.preview ? await withPreviews(app.db, readable, request.query.preview) : readable;
      const hasMoreNext = window.offset + rows.length < window.count;
      // Formulas being computed again in the background: the view shows how far (docs/formulas.md). Only a database with formulas has such a job.
      const computing = Object.values(data.config.fields).some((field) => field.type === 'formula' || field.type === 'rollup')
        ? await formulaProgress(app.db, block.id)
        : undefined;
      return envelope(rows, {
        count: window.count,
        offset: window.offset,
        hasMoreNext,
        nextCursor: hasMoreNext && window.lastKeys ? writeCursor(window.lastKeys, rowQuery) : null,
        revision,
        ...(computing ? { computing } : {}),
      });
    },
  );

  app.get(
    '/api/v3/spaces/database/:id/revision',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['databases'],
        summary: "Where the database stands (as the rows' meta.revision): a view joining its live channel reads its rows again only when it moved",
        params: databaseParams,
      },
    },
    async (request) => {
      const { block } = await readableDatabase(request, request.params.id);
      return envelope({ revision: await databaseRevision(app.db, block) });
    },
  );

  app.get(
    '/api/v3/spaces/database/:id/titles',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['databases'],
        summary: "Rows' titles and icons by id (a relation's cells): live rows of this database only",
        params: databaseParams,
        querystring: jsonQuery({ ids: z.array(z.string().max(128)).max(MAX_ROW_WINDOW) }),
      },
    },
    async (request) => {
      const { block, data, publicly } = await readableDatabase(request, request.params.id);
      let ids = request.query.ids;
      if (publicly) {
        // A public reader: the rows the views show, and those their shown relation cells name; no other title.
        const shown = await publishedRowIds(block, data);
        const named = await relatedFrom(
          block,
          data,
          shown,
          ids.filter((id) => !shown.has(id)),
        );
        ids = ids.filter((id) => shown.has(id) || named.has(id));
      }
      const pages = await findRowPages(app.db, block.id, ids);
      return envelope(pages.filter((p) => p.in_trash === 0).map((p) => ({ id: p.id, title: p.title, icon: p.icon })));
    },
  );

  app.get(
    '/api/v3/spaces/database/:id/relatable',
    {
      schema: {
        tags: ['databases'],
        summary: "The databases of this one's workspace the caller may read, by title (what a relation field of it can name)",
        params: databaseParams,
        querystring: jsonQuery({ search: z.string().max(200).optional() }),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { holder } = await authorizedDatabase(app.db, user.id, request.params.id, 'read');
      return envelope(await readableDatabases(app.db, user.id, holder.workspace_id, request.query.search));
    },
  );

  app.get('/api/v3/spaces/row/:id', { schema: { tags: ['databases'], summary: 'One row', params: databaseParams } }, async (request) => {
    const user = requireUser(request);
    const { row, block, data } = await authorizedRow(app.db, user.id, request.params.id, 'read');
    const [wire] = await withReadableRelations(app.db, user.id, block.id, data.config, await readRows(app.db, block.id, [row.id]));
    return envelope(wire, { database: await presentBlock(app.db, block) });
  });

  app.get(
    '/api/v3/spaces/database/:id/calculations',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['databases'],
        summary: "A view's footer: each column's calculation over the view's rows",
        params: databaseParams,
        querystring: jsonQuery({ viewId: z.string().max(64) }),
      },
    },
    async (request) => {
      const { block, data, publicly } = await readableDatabase(request, request.params.id);
      const layout = publicly ? publicLayout(data, request.query.viewId) : layoutOf(data, request.query.viewId);
      // A public reader: the figures of the fields the views show only.
      const shown = publicly ? publishedFields(data) : null;
      const calculations = Object.fromEntries(Object.entries(layout.calculations ?? {}).filter(([fieldId]) => !shown || shown.has(fieldId)));
      return envelope(await orders.figures(app.db, block, data.config, rowQueryOf(data, block.id, { viewId: layout.uid }), calculations));
    },
  );

  app.get(
    '/api/v3/spaces/database/:id/groups',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['databases'],
        summary: "A grouped view's groups in order, with their counts",
        params: databaseParams,
        querystring: jsonQuery({ viewId: z.string().max(64), lanes: z.boolean().optional() }),
      },
    },
    async (request) => {
      const { block, data, viewerId, publicly } = await readableDatabase(request, request.params.id);
      const layout = publicly ? publicLayout(data, request.query.viewId) : layoutOf(data, request.query.viewId);
      if (!layout.groupBy) return envelope([]);
      /** A board's columns or lanes by a relation to its own rows: a related row's (by title), a row in each of its rows'. */
      const byRelation = (fieldId: string) =>
        layout.type === 'board' && fieldOf(data.config, fieldId)?.type === 'relation' && splitsRows(data.config, block.id, fieldId);
      const relatedGroups = (query: RowQuery, fieldId: string) =>
        orders.splitGroups(app.db, block, data.config, { ...query, sorts: query.sorts?.filter((sort) => sort.fieldId !== fieldId), split: fieldId });
      if (request.query.lanes) {
        // A board's swimlanes: the groups of its `sub` field as a board's columns by it would be (people, options, related rows split).
        const sub = layout.type === 'board' ? layout.groupBy.sub : undefined;
        if (!sub || !fieldOf(data.config, sub.fieldId)) return envelope([]);
        const query = rowQueryOf(data, block.id, { viewId: layout.uid });
        if (byRelation(sub.fieldId)) return envelope(await relatedGroups(query, sub.fieldId));
        return envelope(await groupCounts(app.db, data.config, block.id, query, sub.fieldId, peopleNamesFor(app.db, viewerId)));
      }
      // A board's columns by a person field are its people, each one (by the names the caller may see); a table's groups are its runs of rows.
      const people = layout.type === 'board' ? peopleNamesFor(app.db, viewerId) : undefined;
      // Dates by day, week, month, year or relative to today (days as in the formulas' zone), numbers by ranges.
      const { by, step, sub } = layout.groupBy;
      const buckets = { by, step, timeZone: formulaTimeZone(), now: Date.now() };
      const subGroups = sub && subGroupsOf(data, layout, block.id) ? { fieldId: sub.fieldId, by: sub.by, step: sub.step } : undefined;
      const query = rowQueryOf(data, block.id, { viewId: layout.uid });
      // A table by a list field: its groups are the runs of its split order (a row in each of its values').
      if (query.split !== undefined) return envelope(await orders.splitGroups(app.db, block, data.config, query));
      // A board by a relation to its own rows: the same groups (a row naming only rows in the trash is in «Без значения», as its column reads it).
      if (byRelation(layout.groupBy.fieldId)) return envelope(await relatedGroups(query, layout.groupBy.fieldId));
      return envelope(await groupCounts(app.db, data.config, block.id, query, layout.groupBy.fieldId, people, buckets, subGroups));
    },
  );

  app.get(
    '/api/v3/spaces/database/:id/chart',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['databases'],
        summary: "A chart of a view's rows (its chart config, or one given for a preview), grouped in SQL",
        params: databaseParams,
        querystring: jsonQuery(chartQueryShape),
      },
    },
    async (request) => {
      const { block, data, publicly, viewerId } = await readableDatabase(request, request.params.id);
      const layout = publicly ? publicLayout(data, request.query.viewId) : layoutOf(data, request.query.viewId);
      const chart = request.query.chart ?? layout.chart;
      if (!chart) throw invalid('the view has no chart', [{ path: 'chart', message: 'no chart config in the view or the query' }]);
      // A public reader's preview: of the fields the views show only.
      if (publicly && request.query.chart) {
        const shown = publishedFields(data);
        const hidden = chartFields(chart).find((fieldId) => !shown.has(fieldId));
        if (hidden !== undefined) throw notShown('chart', `no published view shows ${hidden}`);
      }
      // A stored config was checked when it was written; one given for a preview is checked here.
      const problems = request.query.chart ? chartProblems(data.config, chart, layout.type) : [];
      if (problems.length > 0)
        throw invalid(
          'the chart does not fit the fields',
          problems.map((p) => ({ path: ['chart', ...p.path].join('.'), message: p.message })),
        );
      // People by the names the caller may see: none on a published page (docs/api/databases.md, «Public pages»).
      const names = peopleNamesFor(app.db, viewerId);
      const groups = await keptChartGroups(orders, app.db, block, data.config, rowQueryOf(data, block.id, { viewId: layout.uid }), chart);
      return envelope(await foldChart(data.config, chart, groups, names));
    },
  );

  // ---- Rows --------------------------------------------------------------------------------------
  // Each write: the command (server/commands/databases/) checks, authorizes and changes; the
  // handler tells realtime what it changed and answers.

  app.post(
    '/api/v3/spaces/database/:id/rows',
    {
      bodyLimit: ROWS_BODY_LIMIT,
      schema: { tags: ['databases'], summary: 'Make rows (in order) after a row, first, or at the end', params: databaseParams, body: createRowsBodySchema },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await rowBatchLimit(request, reply);
      const { ids, rows, events } = await createRows(app.db, user.id, request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      if (ids.length >= ANALYZE_AFTER_ROWS) await freshStatistics();
      reply.status(201);
      return envelope(rows, { count: rows.length });
    },
  );

  app.post(
    '/api/v3/spaces/row/:id/cells/:fieldId',
    { schema: { tags: ['databases'], summary: 'Write one cell if it is still at the version the edit saw', params: fieldParams, body: writeCellBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { fieldId } = request.params;
      const { row, block, data, written, events } = await writeCell(app.db, user.id, request.params.id, fieldId, request.body);
      await app.events.dispatch(events, originOf(request));
      // A relation to another database: the writer is answered the rows of it they may read (docs/relations.md).
      const readable = (cell: WrittenCell) => withReadableCells(app.db, user.id, block.id, data.config, [cell]).then(([one]) => one);
      if (written === null) throw await cellConflict(app.db, row.id, fieldId, readable);
      return envelope(await readable(written));
    },
  );

  // ---- A row's property changes (docs/history.md «A row's property changes») -------------------

  app.get(
    '/api/v3/spaces/row/:id/history',
    {
      schema: {
        tags: ['databases', 'history'],
        summary: "A row's property changes, newest first (readers of the row)",
        params: databaseParams,
        querystring: jsonQuery({ limit: z.number().int().min(1).max(200).optional(), before: z.number().int().min(1).optional() }),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { entries, more } = await listRowHistory(app.db, user.id, request.params.id, { limit: request.query.limit ?? 50, before: request.query.before });
      return envelope(entries, { hasMoreNext: more });
    },
  );

  app.post(
    '/api/v3/spaces/row/:id/history/:entryId/restore',
    {
      schema: {
        tags: ['databases', 'history'],
        summary: "Write a change's earlier value back into its cell, as a cell write (editors of the row)",
        params: z.object({ id: z.string().min(1).max(128), entryId: z.coerce.number().int().min(1) }),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { row, block, data, written, events, fieldId } = await restoreCellEntry(app.db, user.id, request.params.id, request.params.entryId);
      await app.events.dispatch(events, originOf(request));
      const readable = (cell: WrittenCell) => withReadableCells(app.db, user.id, block.id, data.config, [cell]).then(([one]) => one);
      if (written === null) throw await cellConflict(app.db, row.id, fieldId, readable);
      return envelope(await readable(written));
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags: ['databases'],
        summary: 'Import rows from CSV or JSON: columns matched to fields by id or name, upserted by a key field, or a dry run saying what would change',
        params: databaseParams,
        body: importRowsBodySchema,
      },
    },
    async (request) => {
      const { report, events } = await importRows(app.db, changerOf(request), request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(report);
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/cells',
    {
      schema: {
        tags: ['databases'],
        summary: 'Write several cells, each if it is still at the version its edit saw',
        params: databaseParams,
        body: writeCellsBodySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { block, data, written, refused, events } = await writeCells(app.db, user.id, request.params.id, request.body.cells);
      await app.events.dispatch(events, originOf(request));
      // A cell someone changed since its edit was made is not written: the server's copy comes back (as a 422 of one cell would).
      const conflicts = await Promise.all(refused.map((c) => readCell(app.db, c.rowId, c.fieldId)));
      const readable = <C extends WrittenCell>(cells: C[]) => withReadableCells(app.db, user.id, block.id, data.config, cells);
      return envelope({ written: await readable(written), conflicts: await readable(conflicts) });
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/rows/move',
    {
      schema: {
        tags: ['databases'],
        summary: "Put rows (in this order) after a row, first, or before a row; and write one cell on each (a board's column)",
        params: databaseParams,
        body: moveRowsBodySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { rows, events } = await moveRows(app.db, user.id, request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(rows);
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/rows/delete',
    { schema: { tags: ['databases'], summary: 'Rows into the trash (restorable as one batch)', params: databaseParams, body: rowIdsBodySchema } },
    async (request) => {
      const { ids, events } = await trashDatabaseRows(app.db, requireUser(request).id, request.params.id, request.body.ids);
      await app.events.dispatch(events, originOf(request));
      return envelope({ ids });
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/rows/restore',
    { schema: { tags: ['databases'], summary: 'Rows back from the trash', params: databaseParams, body: rowIdsBodySchema } },
    async (request) => {
      const { rows, events } = await restoreDatabaseRows(app.db, requireUser(request).id, request.params.id, request.body.ids);
      await app.events.dispatch(events, originOf(request));
      return envelope(rows);
    },
  );

  // ---- Fields and views -------------------------------------------------------------------------------

  app.post(
    '/api/v3/spaces/database/:id',
    {
      schema: {
        tags: ['databases'],
        summary: "Set an inline database's title and description (null or blank: none; a key left out stays)",
        params: databaseParams,
        body: describeDatabaseBodySchema,
      },
    },
    async (request) => {
      const { block, events } = await describeDatabase(app.db, changerOf(request), request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(block);
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/fields',
    { schema: { tags: ['databases'], summary: 'Add a field, shown in every view', params: databaseParams, body: addFieldBodySchema } },
    async (request) => {
      const { block, result: fieldId, events } = await addField(app.db, changerOf(request), request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(block, { fieldId });
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/fields/:fieldId',
    {
      schema: {
        tags: ['databases'],
        summary: 'Rename, retype or change the options of a field (dryRun: only say what a retype drops)',
        params: fieldParams,
        body: updateFieldBodySchema,
      },
    },
    async (request) => {
      const { id, fieldId } = request.params;
      const { field, dryRun } = request.body;
      if (dryRun) return envelope(await planFieldChange(app.db, requireUser(request).id, id, fieldId, field));
      const { block, result, events } = await updateField(app.db, changerOf(request), id, fieldId, field);
      await app.events.dispatch(events, originOf(request));
      return envelope(block, { report: result });
    },
  );

  app.delete(
    '/api/v3/spaces/database/:id/fields/:fieldId',
    { schema: { tags: ['databases'], summary: 'Delete a field: out of every view, its cells cleared', params: fieldParams } },
    async (request) => {
      const { block, events } = await deleteField(app.db, changerOf(request), request.params.id, request.params.fieldId);
      await app.events.dispatch(events, originOf(request));
      return envelope(block);
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/views',
    { schema: { tags: ['databases'], summary: 'Add a view', params: databaseParams, body: addViewBodySchema } },
    async (request) => {
      const { block, events } = await addView(app.db, changerOf(request), request.params.id, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(block);
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/views/:viewId',
    {
      schema: {
        tags: ['databases'],
        summary: "Change a view's keys (name, columns, filter, sorts, group, calculations, type)",
        params: viewParams,
        body: updateViewBodySchema,
      },
    },
    async (request) => {
      const { block, events } = await updateView(app.db, changerOf(request), request.params.id, request.params.viewId, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(block);
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/views/:viewId/move',
    { schema: { tags: ['databases'], summary: 'Reorder the views', params: viewParams, body: moveViewBodySchema } },
    async (request) => {
      const { block, events } = await moveView(app.db, changerOf(request), request.params.id, request.params.viewId, request.body);
      await app.events.dispatch(events, originOf(request));
      return envelope(block);
    },
  );

  app.delete(
    '/api/v3/spaces/database/:id/views/:viewId',
    { schema: { tags: ['databases'], summary: 'Delete a view', params: viewParams } },
    async (request) => {
      const { block, events } = await deleteView(app.db, changerOf(request), request.params.id, request.params.viewId);
      await app.events.dispatch(events, originOf(request));
      return envelope(block);
    },
  );

  // ---- Export ------------------------------------------------------------------------------------

  app.get(
    '/api/v3/spaces/database/:id/export.csv',
    {
      ...PUBLIC_ROUTE,
      schema: {
        tags: ['databases'],
        summary: "A view's rows as CSV (its filter, sorts and visible columns)",
        params: databaseParams,
        querystring: viewQuerySchema,
      },
    },
    async (request, reply) => {
      const { block, holder, data, viewerId, publicly } = await readableDatabase(request, request.params.id);
      // Without a view a database shows nothing published (a member's CSV is then every field).
      const layout = publicly ? publicLayout(data, request.query.viewId) : request.query.viewId ? layoutOf(data, request.query.viewId) : data.view.layouts[0];
      const columns = (layout?.orderedFields.map((f) => f.fieldId) ?? Object.keys(data.config.fields)).filter((id) => fieldOf(data.config, id));
      if (!columns.includes(MAIN_FIELD_ID)) columns.unshift(MAIN_FIELD_ID);
      const query = rowQueryOf(data, block.id, { viewId: layout?.uid });
      // People by the names the caller may see (a public reader: none).
      const names = peopleNamesFor(app.db, viewerId);
      const csv = () =>
        databaseCsv(app.db, orders, block, data, columns, query, names, (rows) => withReadableRelations(app.db, viewerId, block.id, data.config, rows));
      const filename = `${(holder.title || 'database').replace(/[^\p{L}\p{N} _-]+/gu, '_').slice(0, 80)}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', contentDispositionOf(filename))
        .send(
          // A failure half-way cuts the download short (the status is gone by then): the log says why.
          Readable.from(csv()).on('error', (error: unknown) => request.log.error({ err: error, databaseId: block.id }, 'CSV export stopped half-way')),
        );
    },
  );
}
