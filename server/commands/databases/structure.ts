import type { Kysely, Transaction } from 'kysely';
import {
  COMPUTED_FIELD_TYPES,
  FORM_FIELD_TYPES,
  MAIN_FIELD_ID,
  chartFitting,
  copyView,
  databaseDataSchema,
  fieldOf,
  hasOptions,
  makesLanes,
  splitsRows,
  timelineFitting,
  timelineWithout,
  valueProblem,
  withNewOptions,
  type DatabaseConfig,
  type DatabaseData,
  type DatabaseField,
  type DatabaseLayout,
  type RowValue,
  type SelectOption,
} from '../../../schema/blocks/database';
import {
  convertValue,
  valueToText,
  type AddFieldBody,
  type AddViewBody,
  type DescribeDatabaseBody,
  type FormulaProgress,
  type MoveViewBody,
  type RetypeReport,
  type UpdateViewBody,
} from '../../../schema/database';
import type { WireBlock } from '../../../schema/block';
import { ERROR_CODES } from '../../../schema/errors';
import { newId } from '../../../schema/ids';
import { lockBlocks } from '../../db/locks';
import type { BlockRow, CellRow, Database } from '../../db/types';
import { AppError, invalid, notFound } from '../../errors';
import type { DomainEvent, EventOf } from '../../events/events';
import { findBlockForUpdate, presentBlock, updateBlockIfVersion } from '../../repositories/blocks';
import { cellsOfField, copyViewKeys, databaseData, deleteCellsOfField, findDatabaseBlock, rewriteCells } from '../../repositories/databases';
import { findPage } from '../../repositories/pages';

import { nowIso } from '../../time';
import { authorizedDatabase } from './database';
import { assertFormulasHold, formulaPlan } from './formulas';
import { recomputeAllFormulas, wakeFormulaJobs } from './formulaJobs';
import { checkedRelationField, syncMirrors } from './relations';
import { checkedRollupField, databasesReading, holderOf, rollupFieldsOf, rollupsReading } from './rollups';
import { numberRows, reprefix } from './uniqueIds';
import { writablePage } from '../../policies/page';

/*
 * A database's fields and views (docs/api/databases.md «Fields», «Views»): they live in the
 * database block's data, which each command changes with optimistic concurrency — read, change,
 * write if the block's version did not move, else again. A field's cells change in the same
 * transaction. Each tells the block's new version (and a reset when a retype changed cells).
 */

/** A field or view change retried this many times when another one got in between. */
const SCHEMA_RETRIES = 8;

/** Who changes, and the realtime origin the block's version is recorded with. */
export interface Changer {
  userId: string;
  origin: string | null;
}

/** The database block as written, what the change reports, and its events. */
export interface StructureOutcome<T = undefined> {
  block: WireBlock;
  result?: T;
  events: DomainEvent[];
}

type Change<T> = (data: DatabaseData, trx: Transaction<Database>, databaseId: string, holderId: string) => Promise<{ data: DatabaseData; result?: T } | null>;

/** Changes the database block's data (edit on its page, not in the trash); 422 when the result would not be valid, 503 after SCHEMA_RETRIES races. */
export async function changeDatabase<T>(db: Kysely<Database>, changer: Changer, id: string, change: Change<T>): Promise<StructureOutcome<T>> {
  const { block, result } = await writeDatabase(db, changer, id, change);
  const wire = await presentBlock(db, block);
  return { block: wire, result, events: [{ kind: 'blockChanged', block: wire, at: block.updated_at }] };
}

async function writeDatabase<T>(db: Kysely<Database>, { userId, origin }: Changer, id: string, change: Change<T>): Promise<{ block: BlockRow; result?: T }> {
  for (let attempt = 0; attempt < SCHEMA_RETRIES; attempt++) {
    const { block, holder } = await authorizedDatabase(db, userId, id, 'edit');
    const at = nowIso();
    const outcome = await db.transaction().execute(async (trx) => {
      await lockBlocks(trx, holder.id);
      await writablePage(trx, holder.id);
      // Held for update before any cell is touched: a cell write holds the block for share
      // first, so the two wait for each other in one order and never deadlock (PostgreSQL).
      const current = await findBlockForUpdate(trx, block.id);
      if (!current || current.deleted_at !== null || current.type !== 'database') throw notFound('database');
      if (current.version !== block.version) return 'retry' as const;
      const changed = await change(databaseData(current), trx, current.id, holder.id);
      if (changed === null) return { block: current, result: undefined };
      const parsed = databaseDataSchema.safeParse(changed.data);
      if (!parsed.success)
        throw invalid(
          'the database would not be valid',
          parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        );
      const version = await updateBlockIfVersion(trx, current.id, current.version, 'database', parsed.data, userId, origin, at);
      if (version === null) return 'retry' as const;
      return { block: { ...current, data: JSON.stringify(parsed.data), version, updated_at: at, updated_by: userId }, result: changed.result };
    });
    if (outcome !== 'retry') return outcome;
  }
  throw new AppError(503, ERROR_CODES.internal, 'the database is being changed by others: try again');
}

/** The view named by `viewId` (404 when the database has none such). */
export function layoutOf(data: DatabaseData, viewId: string): DatabaseLayout {
  const layout = data.view.layouts.find((l) => l.uid === viewId);
  if (!layout) throw notFound('view');
  return layout;
}

// ---- Title and description ----------------------------------------------------------------------

/**
 * Sets an inline database's title and description (docs/api/databases.md «Title and
 * description»): a key given replaces the stored one, null or blank text removes it, a key left
 * out stays. Plain text; the limits are the body schema's (422 validation_failed).
 */
export function describeDatabase(db: Kysely<Database>, changer: Changer, databaseId: string, body: DescribeDatabaseBody): Promise<StructureOutcome> {
  return changeDatabase(db, changer, databaseId, async (data) => {
    const next: DatabaseData = { ...data };
    for (const key of ['title', 'description'] as const) {
      const value = body[key];
      if (value === undefined) continue;
      if (value === null || value.trim() === '') delete next[key];
      else next[key] = value;
    }
    return next.title === data.title && next.description === data.description ? null : { data: next };
  });
}

// ---- Fields -----------------------------------------------------------------------------------

/** Adds a field, shown in every view after `placeAfter` (else last); the title field exists already (422 database.main_field). */
export async function addField(db: Kysely<Database>, changer: Changer, databaseId: string, body: AddFieldBody): Promise<StructureOutcome<string>> {
  const { placeAfter } = body;
  const field = await checkedRelationField(db, changer.userId, databaseId, body.field);
  const fieldId = body.id ?? newId().replace(/-/g, '').slice(0, 12);
  if (fieldId === MAIN_FIELD_ID) throw new AppError(422, ERROR_CODES.databaseMainField, 'the title field exists already');
  let computed: Recomputed = null;
  let numbered = false;
  const outcome = await changeDatabase(db, changer, databaseId, async (data, trx, id, holderId) => {
    if (fieldOf(data.config, fieldId)) throw invalid(`a field ${fieldId} exists`);
    const view = copyView(data.view);
    // Every view shows it, but a form: what a form asks for is chosen, not added to it.
    for (const layout of view.layouts.filter((l) => l.type !== 'form')) {
      const at = placeAfter ? layout.orderedFields.findIndex((f) => f.fieldId === placeAfter) : -1;
      const entry = { fieldId, isWrap: false };
      if (at >= 0) layout.orderedFields.splice(at + 1, 0, entry);
      else layout.orderedFields.push(entry);
    }
    const config = { fields: { ...data.config.fields, [fieldId]: field } };
    assertFormulasHold(data.config, config, fieldId);
    await checkedRollupField(trx, changer.userId, id, config, field);
    // A formula's or a rollup's column is computed for every row: at once, or in the background for a big database (docs/formulas.md).
    if (field.type === 'formula' || field.type === 'rollup') computed = await recomputeAllFormulas(trx, id, holderId, config, changer.userId);
    // A unique ID: every row numbered, in the order rows were made.
    if (field.type === 'uniqueId') numbered = (await numberRows(trx, id, config, 'all', changer.userId, undefined, fieldId)).length > 0;
    return { data: { ...data, config, view }, result: fieldId };
  });
  outcome.events.push(...(await pairMirror(db, changer, databaseId, fieldId, field)));
  return withRecomputed(outcome, computed, numbered);
}

/** What a database is called (a mirror field is named after it): its own title, else its page's. */
async function databaseTitleOf(db: Kysely<Database>, databaseId: string): Promise<string> {
  const block = await findDatabaseBlock(db, databaseId);
  const holder = block ? await findPage(db, block.page_id) : undefined;
  return (block ? databaseData(block).title?.trim() : undefined) || holder?.title || 'Связь';
}

/** Whether two relation configs are the same pair (the same other database and mirror field). */
const samePair = (a: DatabaseField | undefined, b: DatabaseField) =>
  a?.type === 'relation' && b.type === 'relation' && a.databaseId === b.databaseId && a.twoWay?.fieldId === b.twoWay?.fieldId;

/**
 * A relation made two-way (docs/relations.md «Two-way»): the other database gets the mirror field,
 * named after this database and shown in its views, and the rows this field names get these rows
 * in their mirror cells. Made after this field is stored: should the other database not take it (a
 * field of that id made there meanwhile), the pair does not hold and both stay one-way.
 */
async function pairMirror(db: Kysely<Database>, changer: Changer, databaseId: string, fieldId: string, field: DatabaseField): Promise<DomainEvent[]> {
  if (field.type !== 'relation' || !field.twoWay || !field.databaseId) return [];
  const mirrorId = field.twoWay.fieldId;
  const mirror: DatabaseField = { name: await databaseTitleOf(db, databaseId), type: 'relation', databaseId, twoWay: { fieldId } };
  let made: StructureOutcome;
  try {
    made = await changeDatabase(db, changer, field.databaseId, async (data) => {
      if (fieldOf(data.config, mirrorId)) throw invalid('the mirror is a new field of the other database');
      const view = copyView(data.view);
      for (const layout of view.layouts) if (layout.type !== 'form') layout.orderedFields.push({ fieldId: mirrorId, isWrap: false });
      return { data: { ...data, config: { fields: { ...data.config.fields, [mirrorId]: mirror } }, view } };
    });
  } catch (error) {
    // The other side refused (a field of that id made there meanwhile, edit there lost): this field
    // is stored one-way, and the request says why.
    await changeDatabase(db, changer, databaseId, async (data) => {
      const now = fieldOf(data.config, fieldId);
      if (now?.type !== 'relation' || now.twoWay?.fieldId !== mirrorId) return null;
      const { twoWay: _pair, ...oneWay } = now;
      return { data: { ...data, config: { fields: { ...data.config.fields, [fieldId]: oneWay } } } };
    }).catch(() => undefined);
    throw error;
  }
  const cells: Array<{ rowId: string; fieldId: string; value: RowValue }> = [];
  for await (const chunk of cellsOfField(db, databaseId, fieldId))
    for (const cell of chunk) cells.push({ rowId: cell.row_id, fieldId, value: JSON.parse(cell.value) as RowValue });
  const live = await findDatabaseBlock(db, databaseId);
  const synced =
    cells.length > 0 && live ? await db.transaction().execute((trx) => syncMirrors(trx, changer.userId, databaseId, databaseData(live).config, cells)) : [];
  return [...made.events, ...synced];
}

/**
 * A two-way relation changed into something else (another database, one-way, another type) or
 * deleted: its mirror, if it still names it, becomes one-way (kept, with its cells). Best effort:
 * one who may not edit the other database leaves the mirror as it is — a pair one side of which
 * is gone holds no more either way (`mirrorOf`).
 */
async function unpairMirror(
  db: Kysely<Database>,
  changer: Changer,
  databaseId: string,
  fieldId: string,
  before: DatabaseField | undefined,
): Promise<DomainEvent[]> {
  if (before?.type !== 'relation' || !before.twoWay || !before.databaseId) return [];
  const mirrorId = before.twoWay.fieldId;
  try {
    const changed = await changeDatabase(db, changer, before.databaseId, async (data) => {
      const mirror = fieldOf(data.config, mirrorId);
      if (mirror?.type !== 'relation' || mirror.databaseId !== databaseId || mirror.twoWay?.fieldId !== fieldId) return null;
      const { twoWay: _pair, ...oneWay } = mirror;
      return { data: { ...data, config: { fields: { ...data.config.fields, [mirrorId]: oneWay } } } };
    });
    return changed.events;
  } catch {
    return [];
  }
}

/** A relation some rollups of the database read is not deleted nor made another thing (422, the rollups named). */
function assertNoRollupReads(config: DatabaseConfig, fieldId: string): void {
  const readers = rollupsReading(config, fieldId);
  if (readers.length === 0) return;
  const names = readers.map((id) => `«${config.fields[id].name}»`).join(', ');
  throw invalid(`rollups read this relation: ${names}`, [{ path: 'field', message: `Связь читают сводки: ${names}` }]);
}

/**
 * A field of `databaseId` changed or deleted: the databases whose rollups read it compute them
 * again, every row (in the background for a big one), and their views hear it.
 */
async function recomputeReaders(db: Kysely<Database>, changer: Changer, databaseId: string, fieldId: string): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  for (const readerId of await databasesReading(db, databaseId)) {
    const reader = await holderOf(db, readerId);
    if (!reader) continue;
    const config = databaseData(reader.block).config;
    if (!rollupFieldsOf(config).some(([, rollup]) => rollup.targetFieldId === fieldId)) continue;
    const recomputed = await db.transaction().execute((trx) => recomputeAllFormulas(trx, readerId, reader.holder.id, config, changer.userId));
    const event = (change: EventOf<'rowsChanged'>['change']): DomainEvent => ({
      kind: 'rowsChanged',
      holderId: reader.holder.id,
      databaseId: readerId,
      change,
      at: nowIso(),
    });
    if ('queued' in recomputed) {
      events.push(event({ kind: 'computing', ...recomputed.queued }));
      wakeFormulaJobs();
    } else {
      events.push(...recomputed.events);
      if (recomputed.computed > 0) events.push(event({ kind: 'reset' }));
    }
  }
  return events;
}

/** What a field change did to the formulas of every row: computed (how many cells), queued (the progress to tell), or nothing. */
type Recomputed = { computed: number; events: DomainEvent[] } | { queued: FormulaProgress } | null;

/**
 * The views hear of formulas computed again: they read their rows again (cells of many rows
 * changed), or learn that a job computes them in the background (which the worker, woken, runs).
 */
function withRecomputed<T>(outcome: StructureOutcome<T>, recomputed: Recomputed, cellsChanged = false): StructureOutcome<T> {
  const event = (change: EventOf<'rowsChanged'>['change']): DomainEvent => ({
    kind: 'rowsChanged',
    holderId: outcome.block.pageId,
    databaseId: outcome.block.id,
    change,
    at: nowIso(),
  });
  // Rollups of other databases reading the rows computed here: their cells, to their views.
  if (recomputed && 'events' in recomputed) outcome.events.push(...recomputed.events);
  if (recomputed && 'queued' in recomputed) {
    if (cellsChanged) outcome.events.push(event({ kind: 'reset' }));
    outcome.events.push(event({ kind: 'computing', ...recomputed.queued }));
    wakeFormulaJobs();
  } else if (cellsChanged || (recomputed && recomputed.computed > 0)) outcome.events.push(event({ kind: 'reset' }));
  return outcome;
}

/** The title field stays text. */
function checkMainField(fieldId: string, next: DatabaseField): void {
  if (fieldId === MAIN_FIELD_ID && next.type !== 'text') throw new AppError(422, ERROR_CODES.databaseMainField, 'the title field stays text');
}

/** What a field change would do to its cells, changing nothing (the retype warning). */
export async function planFieldChange(db: Kysely<Database>, userId: string, databaseId: string, fieldId: string, next: DatabaseField): Promise<RetypeReport> {
  checkMainField(fieldId, next);
  const { block, data } = await authorizedDatabase(db, userId, databaseId, 'edit');
  const before = fieldOf(data.config, fieldId);
  if (!before) throw notFound('field');
  return (await planRetype(db, block.id, fieldId, before, next)).report;
}

/** Renames, retypes or changes the options of a field; its cells that no longer fit are converted or cleared (the report says how many). */
export async function updateField(
  db: Kysely<Database>,
  changer: Changer,
  databaseId: string,
  fieldId: string,
  next: DatabaseField,
): Promise<StructureOutcome<RetypeReport>> {
  checkMainField(fieldId, next);
  const was = fieldOf((await authorizedDatabase(db, changer.userId, databaseId, 'edit')).data.config, fieldId);
  next = await checkedRelationField(db, changer.userId, databaseId, next, was);
  let computed: Recomputed = null;
  /** Unique IDs given, or their text changed with a new prefix. */
  let renumbered = false;
  const outcome = await changeDatabase<RetypeReport>(db, changer, databaseId, async (data, trx, id, holderId) => {
    const before = fieldOf(data.config, fieldId);
    if (!before) throw notFound('field');
    const { report, field, rewrites } = await planRetype(trx, id, fieldId, before, next);
    const config = { fields: { ...data.config.fields, [fieldId]: field } };
    assertFormulasHold(data.config, config, fieldId);
    const relinked = before.type === 'relation' && (field.type !== 'relation' || field.databaseId !== before.databaseId);
    if (relinked) assertNoRollupReads(data.config, fieldId);
    // A rollup changed (not only renamed): checked again, its maker reading the other database.
    if (JSON.stringify({ ...before, name: field.name }) !== JSON.stringify(field)) await checkedRollupField(trx, changer.userId, id, config, field);
    await rewriteCells(trx, field, rewrites, changer.userId);
    // A relation no more (or naming another database, its cells cleared): its links go.
    if (relinked) await trx.deleteFrom('row_links').where('database_id', '=', id).where('field_id', '=', fieldId).execute();
    // A unique ID: rows without a number get one (a field retyped to it); a new prefix, its cells' text.
    if (field.type === 'uniqueId') {
      renumbered = (await numberRows(trx, id, config, 'all', changer.userId, undefined, fieldId)).length > 0;
      if (before.type === 'uniqueId' && before.prefix !== field.prefix) {
        await reprefix(trx, id, config, fieldId, changer.userId);
        renumbered = true;
      }
    }
    // A formula changed, or a field formulas read changed more than its name (its type, its options' names): the formulas again, every row.
    const { name: _was, ...beforeRest } = before;
    const { name: _is, ...afterRest } = field;
    const read = formulaPlan(config).order.some((p) => p.formula.references.includes(fieldId));
    const rolled = rollupFieldsOf(config).some(([, rollup]) => rollup.relationFieldId === fieldId);
    if (
      field.type === 'formula' ||
      before.type === 'formula' ||
      field.type === 'rollup' ||
      before.type === 'rollup' ||
      ((read || rolled) && JSON.stringify(beforeRest) !== JSON.stringify(afterRest))
    )
      computed = await recomputeAllFormulas(trx, id, holderId, config, changer.userId);
    return { data: { ...data, config, view: withoutDeadConditions(data, id, fieldId, field) }, result: report };
  });
  // Rollups of other databases reading this field: computed again (its values may read otherwise now).
  const { name: _old, ...wasRest } = was ?? { name: '' };
  const { name: _new, ...nextRest } = next;
  if (JSON.stringify(wasRest) !== JSON.stringify(nextRest)) outcome.events.push(...(await recomputeReaders(db, changer, databaseId, fieldId)));
  // A pair made, or one left: the other database's mirror field follows.
  if (!samePair(was, next))
    outcome.events.push(...(await unpairMirror(db, changer, databaseId, fieldId, was)), ...(await pairMirror(db, changer, databaseId, fieldId, next)));
  // Cells converted or cleared, or formulas computed again: the database's views read them again.
  const report = outcome.result;
  return withRecomputed(outcome, computed, (!!report && (report.converted > 0 || report.dropped > 0)) || renumbered);
}

/**
 * What a field change does to its cells: values that no longer fit are converted through their
 * text (options are made for names that have none), or cleared. Returns the field with the
 * options made, the report, and the cells to rewrite.
 */
async function planRetype(db: Kysely<Database>, databaseId: string, fieldId: string, before: DatabaseField, after: DatabaseField) {
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
  // The title keeps its text; a formula changed into another keeps its cells until they are
  // computed again, a unique ID its numbers (a new prefix: its text follows): nothing to convert.
  if (fieldId === MAIN_FIELD_ID || (before.type === after.type && COMPUTED_FIELD_TYPES.has(after.type))) return { report, field, rewrites };
  // A relation made to name another database: the rows its cells named are of the one before (cleared).
  const retargeted = before.type === 'relation' && after.type === 'relation' && before.databaseId !== after.databaseId;
  for await (const cells of cellsOfField(db, databaseId, fieldId)) {
    for (const cell of cells) {
      const value = JSON.parse(cell.value) as RowValue;
      if (value === null) continue;
      if (retargeted) {
        report.dropped++;
        rewrites.push({ cell, value: null });
        continue;
      }
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
function withoutDeadConditions(data: DatabaseData, databaseId: string, fieldId: string, field: DatabaseField) {
  const view = copyView(data.view);
  const config = { fields: { ...data.config.fields, [fieldId]: field } };
  // Swimlanes or sub-groups the field can no longer make go (a lane field made text, a group field made a multi-select).
  view.layouts = view.layouts.map((layout) => withFittingSub(config, databaseId, layout));
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
    if (layout.type === 'form' && !FORM_FIELD_TYPES.has(field.type)) withoutQuestion(layout, fieldId);
  }
  return view;
}

/** A form no longer asks for a field (deleted, or retyped to a type forms do not ask for). */
function withoutQuestion(layout: DatabaseLayout, fieldId: string): void {
  layout.orderedFields = layout.orderedFields.filter((f) => f.fieldId !== fieldId);
  if (layout.form?.required) layout.form.required = layout.form.required.filter((id) => id !== fieldId);
}

/** Deletes a field: out of every view (columns, filters, sorts, group, footer, chart, calendar, cover, timeline), its cells cleared; never the title. */
export async function deleteField(db: Kysely<Database>, changer: Changer, databaseId: string, fieldId: string): Promise<StructureOutcome> {
  if (fieldId === MAIN_FIELD_ID) throw new AppError(422, ERROR_CODES.databaseMainField, 'the title field cannot be deleted');
  let was: DatabaseField | undefined;
  const outcome = await changeDatabase<undefined>(db, changer, databaseId, async (data, trx, id) => {
    was = fieldOf(data.config, fieldId);
    if (!fieldOf(data.config, fieldId)) throw notFound('field');
    const { [fieldId]: _gone, ...fields } = data.config.fields;
    // A field a formula reads stays until the formula no longer reads it (422, the formulas named); a relation a rollup reads, likewise.
    assertFormulasHold(data.config, { fields }, fieldId);
    assertNoRollupReads(data.config, fieldId);
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
      if (layout.groupBy?.sub?.fieldId === fieldId) layout.groupBy.sub = null;
      if (layout.calculations) delete layout.calculations[fieldId];
      if (layout.chart) layout.chart = chartFitting({ fields }, layout.chart);
      if (layout.calendar?.fieldId === fieldId) layout.calendar = null;
      if (layout.cover?.fieldId === fieldId) layout.cover = null;
      if (layout.timeline) layout.timeline = timelineWithout(layout.timeline, fieldId);
      withoutQuestion(layout, fieldId);
    }
    await deleteCellsOfField(trx, id, fieldId);
    return { data: { ...data, config: { fields }, view } };
  });
  // A two-way relation deleted: its mirror stays, one-way (as Notion keeps it unless asked).
  outcome.events.push(...(await unpairMirror(db, changer, databaseId, fieldId, was)));
  // Rollups of other databases reading it: empty now.
  outcome.events.push(...(await recomputeReaders(db, changer, databaseId, fieldId)));
  return outcome;
}

// ---- Views ------------------------------------------------------------------------------------

/**
 * Adds a view after `placeAfter` (null: first; missing or unknown: last); its uid must be new.
 * `orderOf`: a view of the database whose own order the new view starts with (a view duplicated:
 * its keys copied; 422 when there is no such view).
 */
export function addView(db: Kysely<Database>, changer: Changer, databaseId: string, { layout, placeAfter, orderOf }: AddViewBody): Promise<StructureOutcome> {
  return changeDatabase(db, changer, databaseId, async (data, trx, id) => {
    if (data.view.layouts.some((l) => l.uid === layout.uid)) throw invalid(`a view ${layout.uid} exists`);
    if (orderOf !== undefined) {
      if (!data.view.layouts.some((l) => l.uid === orderOf))
        throw invalid('orderOf is not a view of this database', [{ path: 'orderOf', message: 'no such view' }]);
      await copyViewKeys(trx, id, orderOf, layout.uid);
    }
    assertSubGroups(data.config, id, layout);
    const layouts = [...copyView(data.view).layouts];
    const at = placeAfter ? layouts.findIndex((l) => l.uid === placeAfter) : -1;
    if (at >= 0) layouts.splice(at + 1, 0, layout);
    else if (placeAfter === null) layouts.unshift(layout);
    else layouts.push(layout);
    return { data: { ...data, view: { layouts } } };
  });
}

/**
 * 422: sub-groups by or under a table's groups by a list field (a row in several groups: `splitsRows`).
 */
function assertSubGroups(config: DatabaseConfig, databaseId: string, layout: DatabaseLayout): void {
  const sub = layout.groupBy?.sub;
  if (sub && layout.type === 'table' && (splitsRows(config, databaseId, layout.groupBy!.fieldId) || splitsRows(config, databaseId, sub.fieldId)))
    throw invalid('no sub-groups by or under a multi-select’s or a relation’s groups yet', [
      { path: 'layout.groupBy.sub', message: 'a row is in each of its values’ groups: group and sub-group by other fields' },
    ]);
}

/**
 * A view's sub-groups kept only where they can be: a board's swimlanes by a field that makes lanes
 * (`makesLanes`), a table's not by or under a list field (`splitsRows`), no other view's; else
 * `sub` becomes null (a field retyped, a view made into another type).
 */
function withFittingSub(config: DatabaseConfig, databaseId: string, layout: DatabaseLayout): DatabaseLayout {
  const groupBy = layout.groupBy;
  if (!groupBy?.sub) return layout;
  const sub = groupBy.sub.fieldId;
  const fits =
    layout.type === 'board'
      ? makesLanes(fieldOf(config, sub))
      : layout.type === 'table' && !splitsRows(config, databaseId, groupBy.fieldId) && !splitsRows(config, databaseId, sub);
  return fits ? layout : { ...layout, groupBy: { ...groupBy, sub: null } };
}

/** A view made into another type: a form no longer (its form settings go), or a form now (asking for the columns forms ask for). */
function retyped(config: DatabaseConfig, was: DatabaseLayout, now: DatabaseLayout): DatabaseLayout {
  if (now.type !== 'form') {
    const { form: _gone, ...rest } = now;
    return rest;
  }
  if (was.type === 'form') return now;
  return { ...now, orderedFields: now.orderedFields.filter((f) => FORM_FIELD_TYPES.has(fieldOf(config, f.fieldId)?.type ?? 'relation')) };
}

/** Changes a view's keys (name, columns, filter, sorts, group, calculations, type). */
export function updateView(db: Kysely<Database>, changer: Changer, databaseId: string, viewId: string, { layout }: UpdateViewBody): Promise<StructureOutcome> {
  return changeDatabase(db, changer, databaseId, async (data) => {
    layoutOf(data, viewId);
    // Sub-groups asked for and not possible: 422; kept from before and no longer possible (another type of view): dropped.
    const next = (l: DatabaseLayout) => {
      const merged = retyped(data.config, l, { ...l, ...layout, uid: l.uid });
      if (layout.groupBy === undefined) return withFittingSub(data.config, databaseId, merged);
      assertSubGroups(data.config, databaseId, merged);
      return merged;
    };
    const layouts = copyView(data.view).layouts.map((l) => (l.uid === viewId ? next(l) : l));
    return { data: { ...data, view: { layouts } } };
  });
}

/** Puts a view after another (null: first). */
export function moveView(db: Kysely<Database>, changer: Changer, databaseId: string, viewId: string, { placeAfter }: MoveViewBody): Promise<StructureOutcome> {
  return changeDatabase(db, changer, databaseId, async (data) => {
    const moving = layoutOf(data, viewId);
    const layouts = copyView(data.view).layouts.filter((l) => l.uid !== moving.uid);
    const at = placeAfter === null ? -1 : layouts.findIndex((l) => l.uid === placeAfter);
    if (placeAfter !== null && at < 0) throw invalid('placeAfter is not a view of this database');
    layouts.splice(at + 1, 0, moving);
    return { data: { ...data, view: { layouts } } };
  });
}

/** Deletes a view. */
export function deleteView(db: Kysely<Database>, changer: Changer, databaseId: string, viewId: string): Promise<StructureOutcome> {
  return changeDatabase(db, changer, databaseId, async (data) => {
    layoutOf(data, viewId);
    return { data: { ...data, view: { layouts: data.view.layouts.filter((l) => l.uid !== viewId) } } };
  });
}
