import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  COMPUTED_FIELD_TYPES,
  MAIN_FIELD_ID,
  chartFitting,
  chartProblems,
  checkRowValues,
  copyView,
  databaseDataSchema,
  fieldOf,
  hasOptions,
  timelineFitting,
  timelineWithout,
  valueProblem,
  withNewOptions,
  type DatabaseData,
  type DatabaseField,
  type DatabaseLayout,
  type RowValue,
  type SelectOption,
} from '../../schema/blocks/database';
import {
  MAX_ROW_WINDOW,
  addFieldBodySchema,
  addViewBodySchema,
  convertValue,
  dateStartMs,
  createRowsBodySchema,
  moveRowsBodySchema,
  moveViewBodySchema,
  rowIdsBodySchema,
  rowsQueryShape,
  updateFieldBodySchema,
  updateViewBodySchema,
  valueToText,
  writeCellBodySchema,
  writeCellsBodySchema,
  type DatabaseChange,
  type RetypeReport,
} from '../../schema/database';
import { chartQueryShape } from '../../schema/databaseChart';
import { ERROR_CODES } from '../../schema/errors';
import { newId } from '../../schema/ids';
import { jsonQuery } from '../../schema/query';
import { CLIENT_ID_HEADER } from '../../schema/realtime';
import { isPostgres } from '../db/connect';
import { lockBlocks } from '../db/locks';
import type { BlockRow, CellRow, Database, PageRow } from '../db/types';
import { contentDispositionOf } from '../disposition';
import { AppError, forbidden, invalid, notFound } from '../errors';
import { PUBLIC_ROUTE, requireUser } from '../plugins/auth';
import { requestOrigin } from '../realtime/sockets';
import type { PageAction } from '../../schema/policies/page';
import { authorizePage, isPubliclyReadable } from '../policies/page';
import { envelope, presentElement } from '../presenters';
import { findBlock, presentBlock, updateBlockIfVersion } from '../repositories/blocks';
import { foldChart, keptChartGroups, userNamesOf } from '../repositories/databaseCharts';
import { databaseCsv, workspaceUserNames } from '../repositories/databaseCsv';
import { findLayoutHolder } from '../repositories/databaseLayouts';
import { databaseRevision } from '../repositories/databaseRevisions';
import {
  cellsOfField,
  groupCounts,
  countRows,
  databaseData,
  deleteCellsOfField,
  findDatabaseBlock,
  findRowPage,
  findRowPages,
  insertRows,
  readCell,
  readRows,
  restoreRows,
  rewriteCells,
  rowKeysAfter,
  rowKeysBefore,
  setRowKeys,
  trashRows,
  writeCellIfVersion,
  writeCellOver,
  ViewOrders,
  type RowQuery,
  type CellChange,
  type WrittenCell,
} from '../repositories/databases';
import { assertNotInTrash, findPage, writablePage } from '../repositories/pages';
import { nowIso } from '../time';

const databaseParams = z.object({ id: z.string().min(1).max(128) });
const fieldParams = z.object({ id: z.string().min(1).max(128), fieldId: z.string().min(1).max(64) });
const viewParams = z.object({ id: z.string().min(1).max(128), viewId: z.string().min(1).max(64) });
const layoutParams = z.object({ layoutId: z.string().min(1).max(128) });
const rowsQuerySchema = jsonQuery(rowsQueryShape);
const viewQuerySchema = jsonQuery({ viewId: z.string().max(64).optional() });
/** Row creates and cell pastes carry up to 1,000 rows: a bigger body than the rest of the API. */
const ROWS_BODY_LIMIT = 16 * 1024 * 1024;
/** A create of this many rows or more (an import's batch) refreshes PostgreSQL's statistics, at most every ANALYZE_EVERY_MS. */
const ANALYZE_AFTER_ROWS = 500;
const ANALYZE_EVERY_MS = 5_000;
/** A field or view change retried this many times when another one got in between (optimistic). */
const SCHEMA_RETRIES = 8;

export async function databaseRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const { realtime } = server;
  const originOf = (request: FastifyRequest) => requestOrigin(request.headers[CLIENT_ID_HEADER]);
  /** The ordered ids of the views being read, kept while their data stays (ADR 7). */
  const orders = new ViewOrders();

  interface Authorized {
    block: BlockRow;
    holder: PageRow;
    data: DatabaseData;
  }

  /** The live database block of the path and the page holding it, authorized there for the action. */
  async function authorizedDatabase(userId: string, id: string, action: PageAction): Promise<Authorized> {
    const block = await findDatabaseBlock(app.db, id);
    if (!block) throw notFound('database');
    const holder = await findPage(app.db, block.page_id);
    if (!holder) throw notFound('database');
    await authorizePage(app.db, userId, holder, action);
    if (action !== 'read') assertNotInTrash(holder);
    return { block, holder, data: databaseData(block) };
  }

  /**
   * A database to read: by the caller's access to the page holding it, or by anyone (signed in
   * or not) while that page is published (docs/api/databases.md, «Public pages»). Denied: 401 for
   * an anonymous caller, 403 for a signed-in one, as for any page.
   */
  async function readableDatabase(request: FastifyRequest, id: string): Promise<Authorized & { publicly: boolean }> {
    let denied: unknown = null;
    if (request.user) {
      try {
        return { ...(await authorizedDatabase(request.user.id, id, 'read')), publicly: false };
      } catch (error) {
        if (!(error instanceof AppError) || error.statusCode !== 403) throw error;
        denied = error;
      }
    }
    const block = await findDatabaseBlock(app.db, id);
    const holder = block ? await findPage(app.db, block.page_id) : undefined;
    if (block && holder && isPubliclyReadable(holder)) return { block, holder, data: databaseData(block), publicly: true };
    if (denied) throw denied;
    requireUser(request);
    throw notFound('database');
  }

  /** A row (its page), authorized on the row page itself (it inherits from the holder, and may have its own grants). */
  async function authorizedRow(userId: string, id: string, action: PageAction): Promise<Authorized & { row: PageRow }> {
    const row = await findRowPage(app.db, id);
    if (!row) throw notFound('row');
    await authorizePage(app.db, userId, row, action);
    const block = await findDatabaseBlock(app.db, row.database_id!);
    const holder = block ? await findPage(app.db, block.page_id) : undefined;
    if (!block || !holder) throw notFound('row');
    if (action !== 'read') {
      assertNotInTrash(holder);
      assertNotInTrash(row);
    }
    return { row, block, holder, data: databaseData(block) };
  }

  /** The view named by `viewId` (404 when the database has none such). */
  function layoutOf(data: DatabaseData, viewId: string): DatabaseLayout {
    const layout = data.view.layouts.find((l) => l.uid === viewId);
    if (!layout) throw notFound('view');
    return layout;
  }

  /** What a rows query reads: the view's filter and sorts (its group first), replaced by what the query gives. */
  function rowQueryOf(data: DatabaseData, query: z.infer<typeof rowsQuerySchema>): RowQuery {
    const layout = query.viewId ? layoutOf(data, query.viewId) : undefined;
    const sorts = query.sorts ?? layout?.sorts ?? [];
    const group = layout?.groupBy ? [{ fieldId: layout.groupBy.fieldId, direction: 'asc' as const }] : [];
    const filter = query.filter !== undefined ? query.filter : (layout?.filter ?? null);
    for (const sort of [...sorts, ...group]) if (!fieldOf(data.config, sort.fieldId)) throw invalid(`no field ${sort.fieldId}`);
    if (query.group !== undefined && !layout?.groupBy)
      throw invalid('a group is read from a grouped view', [{ path: 'query.group', message: 'viewId names no grouped view' }]);
    const only = query.group !== undefined && layout?.groupBy ? { fieldId: layout.groupBy.fieldId, value: query.group } : undefined;
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
    const first = only ? [] : group;
    return {
      filter,
      sorts: [...first, ...sorts.filter((s) => !group.some((g) => g.fieldId === s.fieldId))],
      search: query.search,
      inTrash: query.inTrash,
      group: only,
      range,
      undated: query.undated,
    };
  }

  /** Values checked against the fields: computed fields refused, each value fitting its type. */
  function checkValues(data: DatabaseData, values: Record<string, RowValue>, path = 'values'): void {
    const problems = checkRowValues(data.config, values).map((p) => ({ ...p, path: p.path.replace('data.values', path) }));
    if (problems.length > 0) throw invalid('the values do not fit the database fields', problems);
  }

  /**
   * Changes the database block's data (fields, views) with optimistic concurrency: read, change,
   * write if the version did not move, else again. `extra` runs in the same transaction (cells).
   */
  async function changeDatabase<T>(
    request: FastifyRequest,
    id: string,
    change: (data: DatabaseData, trx: Transaction<Database>, databaseId: string) => Promise<{ data: DatabaseData; result?: T } | null>,
  ): Promise<{ block: BlockRow; result?: T }> {
    const user = requireUser(request);
    const origin = originOf(request);
    for (let attempt = 0; attempt < SCHEMA_RETRIES; attempt++) {
      const { block, holder } = await authorizedDatabase(user.id, id, 'edit');
      const at = nowIso();
      const outcome = await app.db.transaction().execute(async (trx) => {
        await lockBlocks(trx, holder.id);
        await writablePage(trx, holder.id);
        // Held for update before any cell is touched: a cell write holds the block for share
        // first, so the two wait for each other in one order and never deadlock (PostgreSQL).
        const read = trx.selectFrom('blocks').selectAll().where('id', '=', block.id);
        const current = await (isPostgres(trx) ? read.forUpdate() : read).executeTakeFirst();
        if (!current || current.deleted_at !== null || current.type !== 'database') throw notFound('database');
        if (current.version !== block.version) return 'retry' as const;
        const changed = await change(databaseData(current), trx, current.id);
        if (changed === null) return { block: current, result: undefined };
        const parsed = databaseDataSchema.safeParse(changed.data);
        if (!parsed.success)
          throw invalid(
            'the database would not be valid',
            parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
          );
        const version = await updateBlockIfVersion(trx, current.id, current.version, 'database', parsed.data, user.id, origin, at);
        if (version === null) return 'retry' as const;
        return { block: { ...current, data: JSON.stringify(parsed.data), version, updated_at: at, updated_by: user.id }, result: changed.result };
      });
      if (outcome === 'retry') continue;
      realtime.blockEdited(await presentBlock(app.db, outcome.block), origin, at);
      return outcome;
    }
    throw new AppError(503, ERROR_CODES.internal, 'the database is being changed by others: try again');
  }

  /**
   * A change of a database's rows, in one transaction holding the holding page's block lock, with
   * the page read again there (404 gone, 409 in the trash): the rows' places and the fields they
   * are checked against do not move meanwhile (docs/adr/0003-concurrency.md).
   */
  function rowsChange<T>(holder: PageRow, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return app.db.transaction().execute(async (trx) => {
      await lockBlocks(trx, holder.id);
      await writablePage(trx, holder.id);
      return work(trx);
    });
  }

  function told(holder: PageRow, databaseId: string, change: DatabaseChange, request: FastifyRequest): void {
    realtime.databaseChanged(holder.id, databaseId, change, originOf(request), nowIso());
  }

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
    await sql`analyze pages, database_cells`.execute(app.db).catch((error: unknown) => app.log.warn({ err: error }, 'analyze after an import'));
  }

  // ---- Reading ---------------------------------------------------------------------------------

  app.get(
    '/api/v3/spaces/database/:id',
    { ...PUBLIC_ROUTE, schema: { tags: ['databases'], summary: 'A database block with its row count', params: databaseParams } },
    async (request) => {
      const { block } = await readableDatabase(request, request.params.id);
      return envelope(await presentBlock(app.db, block), { rowCount: await countRows(app.db, block.id) });
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
      const { block, data, publicly } = await readableDatabase(request, request.params.id);
      // The trash of a published database is not published.
      if (publicly && request.query.inTrash) throw forbidden('the trash of this database');
      const offset = request.query.offset ?? 0;
      const limit = request.query.limit ?? 100;
      if (limit > MAX_ROW_WINDOW && !request.query.range)
        throw invalid(`at most ${MAX_ROW_WINDOW} rows a window`, [{ path: 'query.limit', message: `more than ${MAX_ROW_WINDOW} only with a range` }]);
      // Read before the rows: a write landing in between makes it older than they are (a join then reads them again), never newer.
      const revision = await databaseRevision(app.db, block);
      const { ids, count } = await orders.window(app.db, block, data.config, rowQueryOf(data, request.query), { offset, limit });
      const rows = await readRows(app.db, block.id, ids, request.query.fields);
      return envelope(rows, { count, offset, hasMoreNext: offset + rows.length < count, revision });
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
      const { block } = await readableDatabase(request, request.params.id);
      const pages = await findRowPages(app.db, block.id, request.query.ids);
      return envelope(pages.filter((p) => p.in_trash === 0).map((p) => ({ id: p.id, title: p.title, icon: p.icon })));
    },
  );

  app.get('/api/v3/spaces/row/:id', { schema: { tags: ['databases'], summary: 'One row', params: databaseParams } }, async (request) => {
    const user = requireUser(request);
    const { row, block } = await authorizedRow(user.id, request.params.id, 'read');
    const [wire] = await readRows(app.db, block.id, [row.id]);
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
      const { block, data } = await readableDatabase(request, request.params.id);
      const layout = layoutOf(data, request.query.viewId);
      return envelope(await orders.figures(app.db, block, data.config, rowQueryOf(data, { viewId: layout.uid }), layout.calculations ?? {}));
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
        querystring: jsonQuery({ viewId: z.string().max(64) }),
      },
    },
    async (request) => {
      const { block, data } = await readableDatabase(request, request.params.id);
      const layout = layoutOf(data, request.query.viewId);
      if (!layout.groupBy) return envelope([]);
      // A board's columns by a person field are its people, each one (by name); a table's groups are its runs of rows.
      const people = layout.type === 'board' ? (ids: string[]) => userNamesOf(app.db, ids) : undefined;
      return envelope(await groupCounts(app.db, data.config, block.id, rowQueryOf(data, { viewId: layout.uid }), layout.groupBy.fieldId, people));
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
      const { block, data, publicly } = await readableDatabase(request, request.params.id);
      const layout = layoutOf(data, request.query.viewId);
      const chart = request.query.chart ?? layout.chart;
      if (!chart) throw invalid('the view has no chart', [{ path: 'chart', message: 'no chart config in the view or the query' }]);
      // A stored config was checked when it was written; one given for a preview is checked here.
      const problems = request.query.chart ? chartProblems(data.config, chart, layout.type) : [];
      if (problems.length > 0)
        throw invalid(
          'the chart does not fit the fields',
          problems.map((p) => ({ path: ['chart', ...p.path].join('.'), message: p.message })),
        );
      // People stay anonymous on a published page (docs/api/databases.md, «Public pages»).
      const names = publicly ? async (ids: string[]) => new Map(ids.map((id) => [id, 'Участник'])) : (ids: string[]) => userNamesOf(app.db, ids);
      const groups = await keptChartGroups(orders, app.db, block, data.config, rowQueryOf(data, { viewId: layout.uid }), chart);
      return envelope(await foldChart(data.config, chart, groups, names));
    },
  );

  // ---- Rows --------------------------------------------------------------------------------------

  app.post(
    '/api/v3/spaces/database/:id/rows',
    {
      bodyLimit: ROWS_BODY_LIMIT,
      schema: { tags: ['databases'], summary: 'Make rows (in order) after a row, first, or at the end', params: databaseParams, body: createRowsBodySchema },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { block, holder } = await authorizedDatabase(user.id, request.params.id, 'edit');
      // The title may come as `title` or as the MAIN_FIELD value; it is stored once, as the title.
      const rows = request.body.rows.map(({ values = {}, ...row }) => {
        const { [MAIN_FIELD_ID]: main, ...rest } = values;
        if (main !== undefined && typeof main !== 'string' && main !== null)
          throw invalid('the title is text', [{ path: `values.${MAIN_FIELD_ID}`, message: 'a string' }]);
        return { ...row, title: row.title ?? (typeof main === 'string' ? main : undefined), values: rest, id: row.id ?? newId() };
      });
      if (new Set(rows.map((r) => r.id)).size !== rows.length) throw invalid('row ids repeat');
      const pages = await rowsChange(holder, async (trx) => {
        const live = await findDatabaseBlock(trx, block.id);
        if (!live) throw notFound('database');
        // The fields may have changed since they were checked: check again against what is stored now.
        const now = databaseData(live);
        rows.forEach((row, at) => checkValues(now, row.values ?? {}, `rows.${at}.values`));
        const taken = await trx
          .selectFrom('pages')
          .select('id')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        if (taken.length > 0) throw new AppError(409, ERROR_CODES.pageExists, 'a page with this id exists', { ids: taken.map((t) => t.id) });
        const keys = await rowKeysAfter(trx, block.id, request.body.placeAfter, rows.length);
        return insertRows(trx, { database: live, holder, rows, sortKeys: keys, userId: user.id });
      });
      if (rows.length >= ANALYZE_AFTER_ROWS) await freshStatistics();
      const wire = await readRows(
        app.db,
        block.id,
        pages.map((p) => p.id),
      );
      told(holder, block.id, { kind: 'rows', rows: wire }, request);
      reply.status(201);
      return envelope(wire, { count: wire.length });
    },
  );

  /** A cell's new value checked against its field: 404 no such field, 422 a computed one, 400 a value that does not fit. */
  function checkedCell(config: DatabaseData['config'], fieldId: string, value: RowValue, path = 'value'): DatabaseField {
    const field = fieldOf(config, fieldId);
    if (!field) throw notFound('field');
    if (COMPUTED_FIELD_TYPES.has(field.type))
      throw new AppError(422, ERROR_CODES.databaseFieldComputed, 'this field is computed from the row and cannot be written');
    const problem = fieldId === MAIN_FIELD_ID && typeof value !== 'string' && value !== null ? 'the title is text' : valueProblem(field, value);
    if (problem) throw invalid('the value does not fit the field', [{ path, message: problem }]);
    return field;
  }

  /** Cells written (of one row or many): one realtime change per row; a title also renames the row's page. */
  function tellCells(holder: PageRow, databaseId: string, rows: ReadonlyMap<string, PageRow>, written: readonly WrittenCell[], request: FastifyRequest): void {
    const byRow = new Map<string, WrittenCell[]>();
    for (const cell of written) byRow.set(cell.rowId, [...(byRow.get(cell.rowId) ?? []), cell]);
    for (const [rowId, cells] of byRow) {
      const last = cells[cells.length - 1];
      told(
        holder,
        databaseId,
        {
          kind: 'cells',
          rowId,
          cells: cells.map(({ fieldId, value, version }) => ({ fieldId, value, version })),
          updatedAt: last.updatedAt,
          updatedBy: last.updatedBy,
        },
        request,
      );
      const title = cells.find((cell) => cell.fieldId === MAIN_FIELD_ID);
      const row = rows.get(rowId);
      if (title && row)
        realtime.pageEdited(
          { id: row.id, title: String(title.value ?? ''), icon: row.icon, cover: row.cover ? JSON.parse(row.cover) : null },
          originOf(request),
          title.updatedAt,
        );
    }
  }

  app.post(
    '/api/v3/spaces/row/:id/cells/:fieldId',
    { schema: { tags: ['databases'], summary: 'Write one cell if it is still at the version the edit saw', params: fieldParams, body: writeCellBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { row, block, holder, data } = await authorizedRow(user.id, request.params.id, 'edit');
      const { fieldId } = request.params;
      const { value, version } = request.body;
      checkedCell(data.config, fieldId, value);
      const changes: CellChange[] = [];
      const written = await app.db.transaction().execute(async (trx) => {
        const live = await findDatabaseBlock(trx, block.id, true);
        // A retype or an option removed in between: the value is checked against the field as it is now.
        const liveField = checkedCell(live ? databaseData(live).config : { fields: {} }, fieldId, value);
        return writeCellIfVersion(trx, row, liveField, fieldId, fieldId === MAIN_FIELD_ID && value === null ? '' : value, version, user.id, changes);
      });
      orders.cellsChanged(block.id, changes);
      if (written === null) {
        throw new AppError(
          422,
          ERROR_CODES.databaseCellConflict,
          'the cell changed since this edit was made',
          undefined,
          await readCell(app.db, row.id, fieldId),
        );
      }
      tellCells(holder, block.id, new Map([[row.id, row]]), [written], request);
      return envelope(written);
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
      const { block, holder, data } = await authorizedDatabase(user.id, request.params.id, 'edit');
      const { cells } = request.body;
      if (new Set(cells.map((c) => `${c.rowId} ${c.fieldId}`)).size !== cells.length) throw invalid('a cell is named twice');
      cells.forEach((c, i) => checkedCell(data.config, c.fieldId, c.value, `cells.${i}.value`));
      const rows = new Map(
        (
          await findRowPages(
            app.db,
            block.id,
            cells.map((c) => c.rowId),
          )
        ).map((row) => [row.id, row]),
      );
      const missing = cells.findIndex((c) => !rows.get(c.rowId));
      if (missing >= 0) throw invalid('not a row of this database', [{ path: `cells.${missing}.rowId`, message: 'not a row of this database' }]);
      // Each row is a page with its own grants (it inherits the database's, and may have more or fewer).
      for (const row of rows.values()) {
        await authorizePage(app.db, user.id, row, 'edit');
        assertNotInTrash(row);
      }
      const changes: CellChange[] = [];
      const outcome = await app.db.transaction().execute(async (trx) => {
        const live = await findDatabaseBlock(trx, block.id, true);
        const config = live ? databaseData(live).config : { fields: {} };
        const written: WrittenCell[] = [];
        const refused: Array<{ rowId: string; fieldId: string }> = [];
        for (const [i, c] of cells.entries()) {
          const field = checkedCell(config, c.fieldId, c.value, `cells.${i}.value`);
          const cell = await writeCellIfVersion(
            trx,
            rows.get(c.rowId)!,
            field,
            c.fieldId,
            c.fieldId === MAIN_FIELD_ID && c.value === null ? '' : c.value,
            c.version,
            user.id,
            changes,
          );
          if (cell) written.push(cell);
          else refused.push(c);
        }
        return { written, refused };
      });
      orders.cellsChanged(block.id, changes);
      // A cell someone changed since its edit was made is not written: the server's copy comes back (as a 422 of one cell would).
      const conflicts = await Promise.all(outcome.refused.map((c) => readCell(app.db, c.rowId, c.fieldId)));
      tellCells(holder, block.id, rows, outcome.written, request);
      return envelope({ written: outcome.written, conflicts });
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
      const { block, holder, data } = await authorizedDatabase(user.id, request.params.id, 'edit');
      const { ids, placeAfter, placeBefore, set } = request.body;
      if (new Set(ids).size !== ids.length) throw invalid('row ids repeat');
      if ((placeAfter === undefined) === (placeBefore === undefined)) throw invalid('give placeAfter or placeBefore, not both');
      const anchor = placeBefore ?? placeAfter ?? null;
      if (anchor !== null && ids.includes(anchor)) throw invalid(`${placeBefore === undefined ? 'placeAfter' : 'placeBefore'} is one of the rows moved`);
      if (set) checkedCell(data.config, set.fieldId, set.value, 'set.value');
      // A cell is written on each row: each row is a page with its own grants (as for cells).
      const pages = await findRowPages(app.db, block.id, ids);
      if (set) {
        for (const row of pages) {
          await authorizePage(app.db, user.id, row, 'edit');
          assertNotInTrash(row);
        }
      }
      const written = await rowsChange(holder, async (trx) => {
        const found = await findRowPages(trx, block.id, ids);
        if (found.length !== ids.length) throw invalid('some ids are not rows of this database');
        if (anchor !== null && (await findRowPages(trx, block.id, [anchor])).length === 0)
          throw invalid(`${placeBefore === undefined ? 'placeAfter' : 'placeBefore'} is not a row of this database`);
        const keys =
          placeBefore !== undefined
            ? await rowKeysBefore(trx, block.id, placeBefore, ids.length, ids)
            : await rowKeysAfter(trx, block.id, placeAfter, ids.length, ids);
        await setRowKeys(trx, block.id, ids, keys, user.id);
        if (!set) return [];
        // The fields may have changed since they were checked: check again against what is stored now.
        const live = await findDatabaseBlock(trx, block.id, true);
        const field = checkedCell(live ? databaseData(live).config : { fields: {} }, set.fieldId, set.value, 'set.value');
        const byId = new Map(found.map((row) => [row.id, row]));
        const cells: WrittenCell[] = [];
        for (const id of ids) cells.push(await writeCellOver(trx, byId.get(id)!, field, set.fieldId, set.value, user.id));
        return cells;
      });
      const rows = await readRows(app.db, block.id, ids);
      told(holder, block.id, { kind: 'rows', rows }, request);
      if (written.length > 0) tellCells(holder, block.id, new Map(pages.map((row) => [row.id, row])), written, request);
      return envelope(rows);
    },
  );

  /** Rows of the database among `ids` that are (not) in the trash, moved out of (into) it as one batch. */
  async function trashOrRestore(request: FastifyRequest<{ Params: { id: string }; Body: { ids: string[] } }>, trash: boolean) {
    const user = requireUser(request);
    const { block, holder } = await authorizedDatabase(user.id, request.params.id, 'edit');
    const ids = await rowsChange(holder, async (trx) => {
      const found = (await findRowPages(trx, block.id, request.body.ids)).filter((p) => p.in_trash === (trash ? 0 : 1)).map((p) => p.id);
      if (trash) await trashRows(trx, block.id, found, user.id);
      else await restoreRows(trx, block.id, found);
      return found;
    });
    return { block, holder, ids };
  }

  app.post(
    '/api/v3/spaces/database/:id/rows/delete',
    { schema: { tags: ['databases'], summary: 'Rows into the trash (restorable as one batch)', params: databaseParams, body: rowIdsBodySchema } },
    async (request) => {
      const { block, holder, ids } = await trashOrRestore(request, true);
      told(holder, block.id, { kind: 'removed', ids }, request);
      return envelope({ ids });
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/rows/restore',
    { schema: { tags: ['databases'], summary: 'Rows back from the trash', params: databaseParams, body: rowIdsBodySchema } },
    async (request) => {
      const { block, holder, ids } = await trashOrRestore(request, false);
      const rows = await readRows(app.db, block.id, ids);
      told(holder, block.id, { kind: 'rows', rows }, request);
      return envelope(rows);
    },
  );

  // ---- Fields --------------------------------------------------------------------------------------

  app.post(
    '/api/v3/spaces/database/:id/fields',
    { schema: { tags: ['databases'], summary: 'Add a field, shown in every view', params: databaseParams, body: addFieldBodySchema } },
    async (request) => {
      const { field, placeAfter } = request.body;
      const fieldId = request.body.id ?? newId().replace(/-/g, '').slice(0, 12);
      if (fieldId === MAIN_FIELD_ID) throw new AppError(422, ERROR_CODES.databaseMainField, 'the title field exists already');
      const { block } = await changeDatabase(request, request.params.id, async (data) => {
        if (fieldOf(data.config, fieldId)) throw invalid(`a field ${fieldId} exists`);
        const view = copyView(data.view);
        for (const layout of view.layouts) {
          const at = placeAfter ? layout.orderedFields.findIndex((f) => f.fieldId === placeAfter) : -1;
          const entry = { fieldId, isWrap: false };
          if (at >= 0) layout.orderedFields.splice(at + 1, 0, entry);
          else layout.orderedFields.push(entry);
        }
        return { data: { config: { fields: { ...data.config.fields, [fieldId]: field } }, view } };
      });
      return envelope(await presentBlock(app.db, block), { fieldId });
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
      const { fieldId } = request.params;
      const { field: next, dryRun } = request.body;
      if (fieldId === MAIN_FIELD_ID && next.type !== 'text') throw new AppError(422, ERROR_CODES.databaseMainField, 'the title field stays text');
      if (dryRun) {
        const user = requireUser(request);
        const { block, data } = await authorizedDatabase(user.id, request.params.id, 'edit');
        const before = fieldOf(data.config, fieldId);
        if (!before) throw notFound('field');
        const { report } = await planRetype(block.id, fieldId, before, next);
        return envelope(report);
      }
      const { block, result } = await changeDatabase<RetypeReport>(request, request.params.id, async (data, trx, databaseId) => {
        const before = fieldOf(data.config, fieldId);
        if (!before) throw notFound('field');
        const { report, field, rewrites } = await planRetype(databaseId, fieldId, before, next, trx);
        await rewriteCells(trx, field, rewrites, requireUser(request).id);
        return { data: { config: { fields: { ...data.config.fields, [fieldId]: field } }, view: withoutDeadConditions(data, fieldId, field) }, result: report };
      });
      if (result && (result.converted > 0 || result.dropped > 0)) {
        const holder = await findPage(app.db, block.page_id);
        if (holder) told(holder, block.id, { kind: 'reset' }, request);
      }
      return envelope(await presentBlock(app.db, block), { report: result });
    },
  );

  /**
   * What a field change does to its cells: values that no longer fit are converted through their
   * text (options are made for names that have none), or cleared. Returns the field with the
   * options made, the report, and the cells to rewrite.
   */
  async function planRetype(
    databaseId: string,
    fieldId: string,
    before: DatabaseField,
    after: DatabaseField,
    db: Transaction<Database> | typeof app.db = app.db,
  ) {
    const newOptions: SelectOption[] = [];
    let field: DatabaseField = JSON.parse(JSON.stringify(after)) as DatabaseField;
    // Options are made from values only when the type changes: an option removed from a select
    // (same type) clears the cells that held it, it does not come back.
    const retyped = before.type !== after.type;
    const addOption = (name: string): string | undefined => {
      if (!retyped || !hasOptions(field)) return undefined;
      const existing = newOptions.find((o) => o.name.toLocaleLowerCase('ru') === name.toLocaleLowerCase('ru'));
      if (existing) return existing.id;
      const option = { id: newId().slice(0, 8), name, color: 'default' as const };
      newOptions.push(option);
      field = withNewOptions(field, [option]);
      return option.id;
    };
    const report: RetypeReport = { converted: 0, dropped: 0, droppedExamples: [], newOptions };
    const rewrites: Array<{ cell: CellRow; value: RowValue }> = [];
    if (fieldId === MAIN_FIELD_ID) return { report, field, rewrites };
    for await (const cells of cellsOfField(db, databaseId, fieldId)) {
      for (const cell of cells) {
        const value = JSON.parse(cell.value) as RowValue;
        if (value === null) continue;
        if (valueProblem(field, value) === null && before.type === field.type) continue;
        const converted = convertValue(before, field, value, { addOption });
        if (converted !== undefined && valueProblem(field, converted) === null) {
          report.converted++;
          rewrites.push({ cell, value: converted });
        } else {
          report.dropped++;
          if (report.droppedExamples.length < 5) report.droppedExamples.push(valueToText(before, value));
          rewrites.push({ cell, value: null });
        }
      }
    }
    return { report, field, rewrites };
  }

  /** A field's type changed: filter rules whose condition the new type has not go, a chart's references to it that no longer fit change (chartFitting), a calendar by it goes if it is no date field now, a board's cover of it when it is no files field. */
  function withoutDeadConditions(data: DatabaseData, fieldId: string, field: DatabaseField) {
    const view = copyView(data.view);
    const config = { fields: { ...data.config.fields, [fieldId]: field } };
    for (const layout of view.layouts) {
      if (layout.filter) {
        const keep = (rule: { fieldId: string; condition: string }) =>
          rule.fieldId !== fieldId ||
          databaseDataSchema.safeParse({ config, view: { layouts: [{ uid: 'x', type: 'table', orderedFields: [], filter: { op: 'and', rules: [rule] } }] } })
            .success;
        layout.filter.rules = layout.filter.rules
          .map((rule) => ('op' in rule ? { ...rule, rules: rule.rules.filter(keep) } : rule))
          .filter((rule) => ('op' in rule ? true : keep(rule)));
      }
      if (layout.chart) layout.chart = chartFitting(config, layout.chart);
      if (layout.calendar?.fieldId === fieldId && field.type !== 'date') layout.calendar = null;
      if (layout.cover?.fieldId === fieldId && field.type !== 'files') layout.cover = null;
      if (layout.timeline) layout.timeline = timelineFitting(config, layout.timeline);
    }
    return view;
  }

  app.delete(
    '/api/v3/spaces/database/:id/fields/:fieldId',
    { schema: { tags: ['databases'], summary: 'Delete a field: out of every view, its cells cleared', params: fieldParams } },
    async (request) => {
      const { fieldId } = request.params;
      if (fieldId === MAIN_FIELD_ID) throw new AppError(422, ERROR_CODES.databaseMainField, 'the title field cannot be deleted');
      const { block } = await changeDatabase(request, request.params.id, async (data, trx, databaseId) => {
        if (!fieldOf(data.config, fieldId)) throw notFound('field');
        const { [fieldId]: _gone, ...fields } = data.config.fields;
        const view = copyView(data.view);
        for (const layout of view.layouts) {
          layout.orderedFields = layout.orderedFields.filter((f) => f.fieldId !== fieldId);
          if (layout.filter) {
            layout.filter.rules = layout.filter.rules
              .map((rule) => ('op' in rule ? { ...rule, rules: rule.rules.filter((r) => r.fieldId !== fieldId) } : rule))
              .filter((rule) => ('op' in rule ? rule.rules.length > 0 : rule.fieldId !== fieldId));
          }
          if (layout.sorts) layout.sorts = layout.sorts.filter((s) => s.fieldId !== fieldId);
          if (layout.groupBy?.fieldId === fieldId) layout.groupBy = null;
          if (layout.calculations) delete layout.calculations[fieldId];
          if (layout.chart) layout.chart = chartFitting({ fields }, layout.chart);
          if (layout.calendar?.fieldId === fieldId) layout.calendar = null;
          if (layout.cover?.fieldId === fieldId) layout.cover = null;
          if (layout.timeline) layout.timeline = timelineWithout(layout.timeline, fieldId);
        }
        await deleteCellsOfField(trx, databaseId, fieldId);
        return { data: { config: { fields }, view } };
      });
      return envelope(await presentBlock(app.db, block));
    },
  );

  // ---- Views ---------------------------------------------------------------------------------------

  app.post(
    '/api/v3/spaces/database/:id/views',
    { schema: { tags: ['databases'], summary: 'Add a view', params: databaseParams, body: addViewBodySchema } },
    async (request) => {
      const { layout, placeAfter } = request.body;
      const { block } = await changeDatabase(request, request.params.id, async (data) => {
        if (data.view.layouts.some((l) => l.uid === layout.uid)) throw invalid(`a view ${layout.uid} exists`);
        const layouts = [...copyView(data.view).layouts];
        const at = placeAfter ? layouts.findIndex((l) => l.uid === placeAfter) : -1;
        if (at >= 0) layouts.splice(at + 1, 0, layout);
        else if (placeAfter === null) layouts.unshift(layout);
        else layouts.push(layout);
        return { data: { config: data.config, view: { layouts } } };
      });
      return envelope(await presentBlock(app.db, block));
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
      const { block } = await changeDatabase(request, request.params.id, async (data) => {
        layoutOf(data, request.params.viewId);
        const layouts = copyView(data.view).layouts.map((l) => (l.uid === request.params.viewId ? { ...l, ...request.body.layout, uid: l.uid } : l));
        return { data: { config: data.config, view: { layouts } } };
      });
      return envelope(await presentBlock(app.db, block));
    },
  );

  app.post(
    '/api/v3/spaces/database/:id/views/:viewId/move',
    { schema: { tags: ['databases'], summary: 'Reorder the views', params: viewParams, body: moveViewBodySchema } },
    async (request) => {
      const { block } = await changeDatabase(request, request.params.id, async (data) => {
        const moving = layoutOf(data, request.params.viewId);
        const layouts = copyView(data.view).layouts.filter((l) => l.uid !== moving.uid);
        const { placeAfter } = request.body;
        const at = placeAfter === null ? -1 : layouts.findIndex((l) => l.uid === placeAfter);
        if (placeAfter !== null && at < 0) throw invalid('placeAfter is not a view of this database');
        layouts.splice(at + 1, 0, moving);
        return { data: { config: data.config, view: { layouts } } };
      });
      return envelope(await presentBlock(app.db, block));
    },
  );

  app.delete(
    '/api/v3/spaces/database/:id/views/:viewId',
    { schema: { tags: ['databases'], summary: 'Delete a view', params: viewParams } },
    async (request) => {
      const { block } = await changeDatabase(request, request.params.id, async (data) => {
        layoutOf(data, request.params.viewId);
        return { data: { config: data.config, view: { layouts: data.view.layouts.filter((l) => l.uid !== request.params.viewId) } } };
      });
      return envelope(await presentBlock(app.db, block));
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
      const { block, holder, data } = await readableDatabase(request, request.params.id);
      const layout = request.query.viewId ? layoutOf(data, request.query.viewId) : data.view.layouts[0];
      const columns = (layout?.orderedFields.map((f) => f.fieldId) ?? Object.keys(data.config.fields)).filter((id) => fieldOf(data.config, id));
      if (!columns.includes(MAIN_FIELD_ID)) columns.unshift(MAIN_FIELD_ID);
      const query = rowQueryOf(data, { viewId: layout?.uid });
      const names = await workspaceUserNames(app.db, holder.workspace_id);
      const csv = () => databaseCsv(app.db, orders, block, data, columns, query, names);
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
