import type { Kysely } from 'kysely';
import { MAIN_FIELD_ID, titleProblem, type DatabaseData, type RowValue } from '../../../schema/blocks/database';
import type { CreateRowsBody, MoveRowsBody } from '../../../schema/database';
import { ERROR_CODES } from '../../../schema/errors';
import { newId } from '../../../schema/ids';
import { lockPageRows } from '../../db/locks';
import type { Database } from '../../db/types';
import { AppError, invalid, invalidField, notFound } from '../../errors';
import {
  databaseData,
  findDatabaseBlock,
  findRowPages,
  insertRows,
  restoreRows,
  rowKeysAfter,
  rowKeysBefore,
  setRowKeys,
  setViewKeys,
  trashRows,
  viewKeysAfter,
  viewKeysBefore,
  readRows,
  writeCellIfVersion,
  writeCellOver,
  type WrittenCell,
} from '../../repositories/databases';
import { cellConflict } from './cells';
import type { DomainEvent } from '../../events/events';
import { takenPageIds } from '../../repositories/pages';
import type { WireRow } from '../../../schema/database';
import { nowIso } from '../../time';
import { recomputeFormulas } from './formulas';
import { readerRowIds } from './rollups';
import { recomputeCellReaders, recomputeRowReaders } from './formulaJobs';
import { computeNewRows } from './uniqueIds';
import { assertPeopleNameable } from './people';
import { forEveryone, lockTwoWay, mirroredRowIds, relationValues, syncMirrors, withReadableCells, withReadableRelations } from './relations';
import { authorizeRowEdits, authorizedDatabase, cellsWritten, checkValues, checkedCell, liveConfig, rowsChange, type AuthorizedDatabase } from './database';
import { layoutOf } from './structure';
import { computeTemplates, rowsFromTemplates } from './templates';

/** What a rows command did: on which database, the rows it changed (as the wire shows them now: none for rows put in the trash), and its events. */
export interface RowsOutcome extends Pick<AuthorizedDatabase, 'block' | 'holder'> {
  ids: string[];
  rows: WireRow[];
  events: DomainEvent[];
}

/** The rows made, moved or restored, read as they are now, and told to the database's views (`viewId`: only that view's own order changed). */
async function rowsTold(
  db: Kysely<Database>,
  userId: string,
  { block, holder }: Pick<AuthorizedDatabase, 'block' | 'holder'>,
  ids: string[],
  viewId?: string,
): Promise<RowsOutcome> {
  const read = await readRows(db, block.id, ids);
  // The caller is answered their relations' rows to another database; the views hear none (docs/relations.md).
  const { config } = databaseData(block);
  const rows = await withReadableRelations(db, userId, block.id, config, read);
  const change = { kind: 'rows' as const, rows: forEveryone(config, block.id, read), ...(viewId === undefined ? {} : { viewId }) };
  return { block, holder, ids, rows, events: [{ kind: 'rowsChanged', holderId: holder.id, databaseId: block.id, change, at: nowIso() }] };
}

/**
 * Makes rows, in order, after a row, first, or at the end. The title may come as `title` or as
 * the title field's value; it is stored once, as the row page's title. Values are checked against
 * the fields as stored when the rows are made (422); an id already taken is 409 page.already_exists.
 * With `viewId` (404 when the database has no such view) and a row in `placeAfter`, the rows come
 * after that row in the view's own order too (keys of that view); first and last are first and
 * last in every view by their own keys already.
 */
export async function createRows(db: Kysely<Database>, userId: string, databaseId: string, body: CreateRowsBody): Promise<RowsOutcome> {
  return makeRows(db, userId, await authorizedDatabase(db, userId, databaseId, 'edit'), body);
}

/**
 * Makes rows in a database the caller was authorized on (createRows; a form's submission, by the
 * form's access): made by `userId`. `check`: run on the fields and views as stored, in the
 * transaction that makes the rows (a form changed since it was read refuses there). A row named
 * `templateId` starts from that template (templates.ts); `templates`: the rows are row templates
 * themselves (no view hears of them, they take no unique ID, no mirror names them).
 */
export async function makeRows(
  db: Kysely<Database>,
  userId: string,
  { block, holder, data }: AuthorizedDatabase,
  body: CreateRowsBody,
  check?: (now: DatabaseData) => void,
  { templates = false }: { templates?: boolean } = {},
): Promise<RowsOutcome> {
  if (body.viewId !== undefined) layoutOf(data, body.viewId);
  if (templates && body.rows.some((row) => row.templateId)) throw invalid('a template is not made from a template');
  const fromTemplates = await rowsFromTemplates(db, block.id, data, body.rows);
  const rows = fromTemplates.rows.map(({ values = {}, templateId: _template, ...row }, at) => {
    const { [MAIN_FIELD_ID]: main, ...rest } = values;
    const problem = main === undefined ? null : titleProblem(main);
    if (problem) throw invalid('the title does not fit', [{ path: `rows.${at}.values.${MAIN_FIELD_ID}`, message: problem }]);
    return { ...row, title: row.title ?? (typeof main === 'string' ? main : undefined), values: rest, id: row.id ?? newId() };
  });
  if (new Set(rows.map((r) => r.id)).size !== rows.length) throw invalid('row ids repeat');
  // New rows: each relation to another database names rows the maker may read; a two-way one
  // puts the new rows in those rows' mirror cells (locked first, in one order).
  const relationWrites = rows.flatMap((row, at) =>
    Object.entries(row.values).map(([fieldId, value]) => ({ path: `rows.${at}.values.${fieldId}`, fieldId, value, rowId: row.id })),
  );
  await relationValues(
    db,
    userId,
    block.id,
    data.config,
    relationWrites.map(({ rowId: _new, ...write }) => write),
  );
  const mirrored = await mirroredRowIds(db, block.id, data.config, relationWrites);
  let mirrors: DomainEvent[] = [];
  await assertPeopleNameable(
    db,
    holder,
    data.config,
    rows.flatMap((row, at) => Object.entries(row.values).map(([fieldId, value]) => ({ path: `rows.${at}.values.${fieldId}`, fieldId, value }))),
  );
  const pages = await rowsChange(db, holder, async (trx) => {
    const live = await findDatabaseBlock(trx, block.id);
    if (!live) throw notFound('database');
    // The fields may have changed since they were checked: check again against what is stored now.
    const now = databaseData(live);
    check?.(now);
    rows.forEach((row, at) => checkValues(now, row.values ?? {}, `rows.${at}.values`));
    await assertPeopleNameable(
      trx,
      holder,
      now.config,
      rows.flatMap((row, at) => Object.entries(row.values).map(([fieldId, value]) => ({ path: `rows.${at}.values.${fieldId}`, fieldId, value }))),
    );
    const taken = await takenPageIds(
      trx,
      rows.map((r) => r.id),
    );
    if (taken.length > 0) throw new AppError(409, ERROR_CODES.pageExists, 'a page with this id exists', { ids: taken });
    if (body.viewId !== undefined) layoutOf(now, body.viewId);
    const keys = await rowKeysAfter(trx, block.id, body.placeAfter, rows.length);
    const inView = body.viewId !== undefined && typeof body.placeAfter === 'string' ? body.viewId : undefined;
    const viewKeys = inView === undefined ? [] : await viewKeysAfter(trx, block.id, inView, body.placeAfter!, rows.length);
    await lockTwoWay(
      trx,
      block.id,
      now.config,
      relationWrites.map((w) => w.fieldId),
    );
    await lockPageRows(trx, mirrored);
    const pages = await insertRows(trx, { database: live, holder, rows, sortKeys: keys, userId, templates });
    if (templates) {
      await computeTemplates(
        trx,
        block.id,
        now.config,
        pages.map((p) => p.id),
        userId,
      );
      return pages;
    }
    mirrors = await syncMirrors(trx, userId, block.id, now.config, relationWrites);
    // Their templates' covers and contents; their unique IDs and formulas, before anyone reads them.
    await fromTemplates.copy(trx, pages, userId);
    await computeNewRows(
      trx,
      block.id,
      now.config,
      pages.map((p) => p.id),
      userId,
    );
    if (inView !== undefined)
      await setViewKeys(
        trx,
        block.id,
        inView,
        rows.map((r) => r.id),
        viewKeys,
      );
    return pages;
  });
  const outcome = await rowsTold(
    db,
    userId,
    { block, holder },
    pages.map((p) => p.id),
  );
  if (templates) return { ...outcome, events: [] };
  outcome.events.push(...mirrors);
  return outcome;
}

/** A cell a move writes at its version has changed since (thrown in the move's transaction, which it undoes). */
class CellMovedOn extends Error {
  constructor(
    readonly rowId: string,
    readonly fieldId: string,
  ) {
    super('the cell changed since the move was made');
  }
}

/**
 * Puts rows (in this order) after a row, first, or before a row, and writes one cell on each when
 * `set` says so (a card moved to another column: each row is then edited, by its own grants), or
 * two (a card moved to another swimlane's column: the lane's field too).
 * With `viewId`, in that view's own order only: keys of that view between the place's neighbours
 * in it; the rows' own keys (and their «edited») and every other view stay as they are.
 */
export async function moveRows(db: Kysely<Database>, userId: string, databaseId: string, body: MoveRowsBody): Promise<RowsOutcome> {
  const { block, holder, data } = await authorizedDatabase(db, userId, databaseId, 'edit');
  const { ids, placeAfter, placeBefore, viewId } = body;
  // The cells written on every row: a column's value, and a swimlane's (`set` as a list).
  const sets = body.set === undefined ? [] : Array.isArray(body.set) ? body.set : [body.set];
  const setPath = (at: number) => (Array.isArray(body.set) ? `set.${at}.value` : 'set.value');
  if (viewId !== undefined) layoutOf(data, viewId);
  if (new Set(ids).size !== ids.length) throw invalid('row ids repeat');
  if ((placeAfter === undefined) === (placeBefore === undefined)) throw invalid('give placeAfter or placeBefore, not both');
  const anchor = placeBefore ?? placeAfter ?? null;
  if (anchor !== null && ids.includes(anchor)) throw invalid(`${placeBefore === undefined ? 'placeAfter' : 'placeBefore'} is one of the rows moved`);
  sets.forEach((set, at) => checkedCell(data.config, set.fieldId, set.value, setPath(at)));
  if (ids.length > 1 && sets.some((set) => set.version !== undefined)) throw invalidField('a cell written at its version moves one row', 'set');
  if (sets.length > 0)
    await assertPeopleNameable(
      db,
      holder,
      data.config,
      sets.map((set, at) => ({ path: setPath(at), ...set })),
    );
  const rowPages = await findRowPages(db, block.id, ids);
  // Per field and row: a relation to another database keeps the rows of it the mover cannot see.
  const writes = sets.flatMap((set, at) => ids.map((rowId) => ({ path: setPath(at), ...set, rowId })));
  let setValues: RowValue[] = [];
  if (sets.length > 0) {
    await authorizeRowEdits(db, userId, rowPages);
    setValues = await relationValues(db, userId, block.id, data.config, writes);
  }
  const mirrored =
    sets.length > 0
      ? await mirroredRowIds(
          db,
          block.id,
          data.config,
          writes.map((write, i) => ({ ...write, value: setValues[i] })),
        )
      : [];
  const readers = sets.length > 0 ? await readerRowIds(db, ids) : [];
  let mirrors: DomainEvent[] = [];
  let written: WrittenCell[];
  try {
    written = await rowsChange(db, holder, async (trx) => {
      if (sets.length > 0)
        await lockTwoWay(
          trx,
          block.id,
          data.config,
          sets.map((set) => set.fieldId),
        );
      await lockPageRows(trx, [...ids, ...mirrored, ...readers]);
      const found = await findRowPages(trx, block.id, ids);
      if (found.length !== ids.length) throw invalid('some ids are not rows of this database');
      if (anchor !== null && (await findRowPages(trx, block.id, [anchor])).length === 0)
        throw invalid(`${placeBefore === undefined ? 'placeAfter' : 'placeBefore'} is not a row of this database`);
      if (viewId !== undefined) {
        // The view may have been deleted since it was checked: keys of no view are never written.
        const live = await findDatabaseBlock(trx, block.id);
        if (!live) throw notFound('database');
        layoutOf(databaseData(live), viewId);
        const keys =
          placeBefore !== undefined
            ? await viewKeysBefore(trx, block.id, viewId, placeBefore, ids.length, ids)
            : await viewKeysAfter(trx, block.id, viewId, placeAfter!, ids.length, ids);
        await setViewKeys(trx, block.id, viewId, ids, keys);
      } else {
        const keys =
          placeBefore !== undefined
            ? await rowKeysBefore(trx, block.id, placeBefore, ids.length, ids)
            : await rowKeysAfter(trx, block.id, placeAfter, ids.length, ids);
        await setRowKeys(trx, block.id, ids, keys, userId);
      }
      if (sets.length === 0) return [];
      // The fields may have changed since they were checked: check again against what is stored now.
      const config = await liveConfig(trx, block.id);
      const fields = sets.map((set, at) => checkedCell(config, set.fieldId, set.value, setPath(at)));
      await assertPeopleNameable(
        trx,
        holder,
        config,
        sets.map((set, at) => ({ path: setPath(at), ...set })),
      );
      const byId = new Map(found.map((row) => [row.id, row]));
      const cells: WrittenCell[] = [];
      for (const [s, set] of sets.entries())
        for (const [i, id] of ids.entries()) {
          const value = setValues[s * ids.length + i] ?? set.value;
          const cell =
            set.version === undefined
              ? await writeCellOver(trx, byId.get(id)!, fields[s], set.fieldId, value, userId)
              : await writeCellIfVersion(trx, byId.get(id)!, fields[s], set.fieldId, value, set.version, userId);
          if (!cell) throw new CellMovedOn(id, set.fieldId);
          cells.push(cell);
        }
      mirrors = await syncMirrors(trx, userId, block.id, config, cells);
      cells.push(...(await recomputeFormulas(trx, block.id, config, ids, userId)));
      mirrors.push(...(await recomputeCellReaders(trx, cells, userId)));
      return cells;
    });
  } catch (error) {
    // A cell written at its version changed meanwhile: the whole move undone, answered with the cell as it is.
    if (!(error instanceof CellMovedOn)) throw error;
    throw await cellConflict(db, error.rowId, error.fieldId, (cell) => withReadableCells(db, userId, block.id, data.config, [cell]).then(([one]) => one));
  }
  // Moved in one view's own order alone (no cell written): the other views need not read again
  // (docs/api/databases.md «Order per view»). With `set`, every view may show the rows elsewhere.
  const outcome = await rowsTold(db, userId, { block, holder }, ids, viewId !== undefined && written.length === 0 ? viewId : undefined);
  if (written.length > 0)
    outcome.events.push(...cellsWritten({ block, holder }, new Map(rowPages.map((row) => [row.id, row])), written, [], data.config), ...mirrors);
  return outcome;
}

/** Rows of the database among `ids` that are not in the trash, into it as one batch (restorable together). Others are left out of the answer. */
export function trashDatabaseRows(db: Kysely<Database>, userId: string, databaseId: string, ids: readonly string[]): Promise<RowsOutcome> {
  return trashOrRestore(db, userId, databaseId, ids, true);
}

/** Rows of the database among `ids` that are in the trash, back out of it. */
export function restoreDatabaseRows(db: Kysely<Database>, userId: string, databaseId: string, ids: readonly string[]): Promise<RowsOutcome> {
  return trashOrRestore(db, userId, databaseId, ids, false);
}

async function trashOrRestore(db: Kysely<Database>, userId: string, databaseId: string, ids: readonly string[], trash: boolean): Promise<RowsOutcome> {
  const { block, holder } = await authorizedDatabase(db, userId, databaseId, 'edit');
  let readers: DomainEvent[] = [];
  const naming = await readerRowIds(db, ids);
  const changed = await rowsChange(db, holder, async (trx) => {
    await lockPageRows(trx, [...ids, ...naming]);
    const found = (await findRowPages(trx, block.id, ids)).filter((p) => p.in_trash === (trash ? 0 : 1)).map((p) => p.id);
    if (trash) await trashRows(trx, block.id, found, userId);
    else await restoreRows(trx, block.id, found);
    // Rollups counting these rows (a row in the trash is no related row: docs/relations.md «Rollups»).
    readers = await recomputeRowReaders(trx, found, userId);
    return found;
  });
  if (!trash) {
    const told = await rowsTold(db, userId, { block, holder }, changed);
    told.events.push(...readers);
    return told;
  }
  return {
    block,
    holder,
    ids: changed,
    rows: [],
    events: [{ kind: 'rowsChanged', holderId: holder.id, databaseId: block.id, change: { kind: 'removed', ids: changed }, at: nowIso() }, ...readers],
  };
}
