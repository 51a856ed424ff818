import type { Kysely, Transaction } from 'kysely';
import { COMPUTED_FIELD_TYPES, MAIN_FIELD_ID, fieldOf, type DatabaseData, type RowValue } from '../../../schema/blocks/database';
import type { CreateTemplateBody, NewRow, WireRowTemplate } from '../../../schema/database';
import type { Database, PageRow } from '../../db/types';
import type { DomainEvent } from '../../events/events';
import { invalid, notFound } from '../../errors';
import { copyPageContent } from '../../repositories/blocks';
import { ROW_TEMPLATE, databaseData, dropTemplateData, findRowPages, listTemplatePages, readRows } from '../../repositories/databases';
import { removeSubtreeForever } from '../../repositories/trash';
import { listDescendants } from '../../repositories/pages';
import { lockPageRows } from '../../db/locks';
import { authorizedDatabase, rowsChange } from './database';
import { recomputeFormulas } from './formulas';
import { makeRows } from './rows';
import { changeDatabase, type Changer, type StructureOutcome } from './structure';

/*
 * Row templates (docs/api/databases.md «Row templates»): a database's templates are row pages in
 * a state of their own (`in_trash` = ROW_TEMPLATE: neither live nor in the trash, so no view,
 * count, search or trash lists them), changed on their pages as rows are — title, icon, cover,
 * values, content. A row made from one takes its values (under the ones given), its title, icon
 * and cover unless given, and a copy of its content. `defaultTemplate` in the database's data
 * names the one «Новая строка» starts from.
 */

/** Rows made from templates in one request at most (each copies its template's content). */
export const TEMPLATE_ROWS_PER_REQUEST = 100;

/** A template read to make rows from: its page and its values (the ones a row can be given). */
interface Template {
  page: PageRow;
  values: Record<string, RowValue>;
}

/** The templates of this database among `ids` (a row, another database's template or no page: not there). */
async function templatesAmong(db: Kysely<Database>, databaseId: string, data: DatabaseData, ids: readonly string[]): Promise<Map<string, Template>> {
  const pages = (await findRowPages(db, databaseId, ids)).filter((page) => page.in_trash === ROW_TEMPLATE);
  const rows = await readRows(
    db,
    databaseId,
    pages.map((page) => page.id),
  );
  const byId = new Map(pages.map((page) => [page.id, page]));
  return new Map(
    rows.map((row) => {
      // What a row is given: not computed values, not the title (a row's own), only fields there are.
      const values = Object.fromEntries(
        Object.entries(row.data.values ?? {}).filter(([fieldId]) => {
          const field = fieldOf(data.config, fieldId);
          return fieldId !== MAIN_FIELD_ID && field !== undefined && !COMPUTED_FIELD_TYPES.has(field.type);
        }),
      ) as Record<string, RowValue>;
      return [row.id, { page: byId.get(row.id)!, values }];
    }),
  );
}

/**
 * New rows as their templates make them (422 `rows.N.templateId` for one that is no template of
 * this database): each template's values under the row's own, its title and icon unless given.
 * `copy` copies the templates' covers and contents onto the rows once they are made.
 */
export async function rowsFromTemplates<R extends NewRow>(
  db: Kysely<Database>,
  databaseId: string,
  data: DatabaseData,
  rows: readonly R[],
): Promise<{ rows: R[]; copy: (trx: Transaction<Database>, made: readonly { id: string }[], userId: string) => Promise<void> }> {
  const named = [...new Set(rows.flatMap((row) => (row.templateId ? [row.templateId] : [])))];
  if (named.length === 0) return { rows: [...rows], copy: async () => {} };
  // Each copies the template's content: a bounded number a request.
  if (rows.filter((row) => row.templateId).length > TEMPLATE_ROWS_PER_REQUEST)
    throw invalid(`at most ${TEMPLATE_ROWS_PER_REQUEST} rows from templates a request`, [{ path: 'rows', message: 'too many rows from templates' }]);
  const templates = await templatesAmong(db, databaseId, data, named);
  rows.forEach((row, at) => {
    if (row.templateId && !templates.has(row.templateId))
      throw invalid('no such row template', [{ path: `rows.${at}.templateId`, message: 'not a row template of this database' }]);
  });
  const expanded = rows.map((row) => {
    const template = row.templateId ? templates.get(row.templateId) : undefined;
    if (!template) return row;
    const title = row.title ?? (typeof row.values?.[MAIN_FIELD_ID] === 'string' ? undefined : template.page.title);
    return {
      ...row,
      ...(title !== undefined ? { title } : {}),
      icon: row.icon !== undefined ? row.icon : template.page.icon,
      values: { ...template.values, ...row.values },
    };
  });
  const copy = async (trx: Transaction<Database>, made: readonly { id: string }[], userId: string) => {
    // Under the database's lock (rowsChange), as a template's deletion is: deleted since it was read, refused.
    const still = new Set((await findRowPages(trx, databaseId, [...templates.keys()])).filter((page) => page.in_trash === ROW_TEMPLATE).map((page) => page.id));
    rows.forEach((row, at) => {
      if (row.templateId && !still.has(row.templateId))
        throw invalid('the row template was deleted', [{ path: `rows.${at}.templateId`, message: 'not a row template of this database' }]);
    });
    for (const [templateId, template] of templates) {
      const ids = made.filter((_row, at) => rows[at].templateId === templateId).map((row) => row.id);
      if (ids.length === 0) continue;
      // A cover of the library or a link; a picture uploaded into the template is its page's file, not the rows' (left out).
      if (template.page.cover !== null && (JSON.parse(template.page.cover) as { contentType?: string }).contentType !== 'FileCover')
        await trx.updateTable('pages').set({ cover: template.page.cover }).where('id', 'in', ids).execute();
      await copyPageContent(trx, templateId, ids, userId);
    }
  };
  return { rows: expanded, copy };
}

/** A database's templates, in their order (readers of the database). */
export async function listTemplates(db: Kysely<Database>, userId: string, databaseId: string): Promise<WireRowTemplate[]> {
  const { block, data } = await authorizedDatabase(db, userId, databaseId, 'read');
  const pages = await listTemplatePages(db, block.id);
  return pages.map((page) => ({ id: page.id, title: page.title, icon: page.icon, isDefault: page.id === data.defaultTemplate }));
}

/** Makes a template (edit on the database): a row page of the template state with its title, icon and values; its content is written on its page. */
export async function createTemplate(db: Kysely<Database>, userId: string, databaseId: string, body: CreateTemplateBody): Promise<WireRowTemplate> {
  const database = await authorizedDatabase(db, userId, databaseId, 'edit');
  const { ids } = await makeRows(db, userId, database, { rows: [body] }, undefined, { templates: true });
  const [made] = await readRows(db, database.block.id, ids);
  return { id: made.id, title: made.data.title, icon: made.data.icon, isDefault: false };
}

/** The template «Новая строка» starts from (null: none); 422 when `templateId` is no template of this database. */
export async function setDefaultTemplate(db: Kysely<Database>, changer: Changer, databaseId: string, templateId: string | null): Promise<StructureOutcome> {
  return changeDatabase(db, changer, databaseId, async (data, trx, id) => {
    if (templateId !== null) {
      const [page] = await findRowPages(trx, id, [templateId]);
      if (page?.in_trash !== ROW_TEMPLATE) throw invalid('no such row template', [{ path: 'templateId', message: 'not a row template of this database' }]);
    }
    return { data: { ...data, defaultTemplate: templateId } };
  });
}

/**
 * Deletes a template for good (edit on the database): its page, content and values; the pictures
 * uploaded into it stay, given to the database's page — rows made from it show them still.
 * The default, when it was, is none now. 404 for anything but a template of this database.
 */
export async function deleteTemplate(
  db: Kysely<Database>,
  changer: Changer,
  databaseId: string,
  templateId: string,
): Promise<{ events: DomainEvent[]; storageKeys: string[] }> {
  const { block, holder } = await authorizedDatabase(db, changer.userId, databaseId, 'edit');
  const { storageKeys } = await rowsChange(db, holder, async (trx) => {
    const [page] = await findRowPages(trx, block.id, [templateId]);
    if (page?.in_trash !== ROW_TEMPLATE) throw notFound('template');
    await lockPageRows(trx, [page.id], 'update');
    // Pages made under it are not the database editor's to delete for good: moved out first (the
    // rows of a database in its content are its content: they go with it).
    if ((await listDescendants(trx, page)).some((below) => below.database_id === null))
      throw invalid('the template has pages under it: move them out first', [{ path: 'templateId', message: 'pages under the template' }]);
    await dropTemplateData(trx, page.id, holder.id);
    return removeSubtreeForever(trx, page);
  });
  if (databaseData(block).defaultTemplate !== templateId) return { events: [], storageKeys };
  return { events: (await setDefaultTemplate(db, changer, databaseId, null)).events, storageKeys };
}

/** A template's formulas, computed as a row's are (it takes no unique ID: a row made from it does). */
export async function computeTemplates(
  trx: Transaction<Database>,
  databaseId: string,
  config: DatabaseData['config'],
  ids: readonly string[],
  userId: string,
): Promise<void> {
  await recomputeFormulas(trx, databaseId, config, ids, userId);
}
