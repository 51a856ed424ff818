import { generateNKeysBetween } from 'fractional-indexing';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import { definitionForWireType } from '../../schema/blocks';
import type { BlockData } from '../../schema/block';
import { newId } from '../../schema/ids';
import { PAGE_TYPES, type PageType } from '../../schema/constants';
import type { BlockRow, Database, PageRow } from '../db/types';
import { cellProblem, COMPUTED_FIELD_TYPES, fieldOf, type DatabaseData, type FileRef, type RowValue } from '../../schema/blocks/database';
import { computeNewRows, raiseSequence } from '../commands/databases/uniqueIds';
import { computeTemplates } from '../commands/databases/templates';
import { insertRows } from '../repositories/databases';
import { COMMENT_LIMITS, commentContentSchema, type CommentToken } from '../../schema/comment';
import { fitTitle } from '../../schema/text';
import { storableMimeType } from '../../schema/file';
import { insertBlockRows, type InsertBlockInput } from '../repositories/blocks';
import { judgeSyncedBlocks } from '../repositories/syncedContent';
import { assertWithinQuota } from '../policies/file';
import { FILE_STATUS, insertFile, newFileRow, storageKeyFor } from '../repositories/files';
import type { FileStore } from '../files/store';
import { insertPage, listPagesAt, updatePageFields } from '../repositories/pages';
import { insertCommentRow } from '../repositories/comments';
import { listMemberIds } from '../repositories/workspaces';
import { sortKeysAtEnd } from '../repositories/pageOrder';
import { nowIso } from '../time';
import { type ImportProblem, importProblem } from '../../schema/importProblems';
import type { ImportBlock, ImportDocument } from './readExport';

/**
 * Importing our JSON export (issue 18, docs/import-export.md «Importing»): the document an upload
 * was read into (server/export/readExport.ts, in the import's worker) written into a workspace.
 * Every page, block and file gets a new id; links between the pages imported, page blocks and
 * files follow the new ids. What cannot be imported (a block of an unknown type or with data that
 * does not fit, a database, a missing file) is reported, never dropped silently.
 */

/** What an import made, and what it could not. */
export interface ImportReport {
  pages: Array<{ id: string; title: string }>;
  blocks: number;
  files: number;
  problems: ImportProblem[];
}

/** Data with its page links, page blocks and files moved to the new ids. */
function remap(data: Record<string, unknown>, pages: ReadonlyMap<string, string>, files: ReadonlyMap<string, string>): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  const tokens = copy.tokens as Array<{ link?: { href: string; pageId?: string } }> | undefined;
  for (const token of tokens ?? []) {
    const target = token.link?.pageId ? pages.get(token.link.pageId) : undefined;
    if (token.link && target) token.link = { href: `/${target}`, pageId: target };
  }
  if (typeof copy.pageId === 'string' && pages.has(copy.pageId)) copy.pageId = pages.get(copy.pageId);
  // A database's default row template: its copy (one not in the export: none).
  if (typeof copy.defaultTemplate === 'string') copy.defaultTemplate = pages.get(copy.defaultTemplate) ?? null;
  const remote = copy.remoteData as { fileId?: string } | null | undefined;
  if (remote?.fileId && files.has(remote.fileId)) remote.fileId = files.get(remote.fileId);
  return copy;
}

/**
 * A database's relations to another database of the export name its new id; those to a database
 * not in it name none (its rows are not here: the cells are left empty, below) and pair with
 * nothing. Rollups over them follow their relation.
 */
function withImportedRelations(data: Record<string, unknown>, ids: Pick<ImportIds, 'databases'>): Record<string, unknown> {
  const fields = (data.config as { fields?: Record<string, Record<string, unknown>> } | undefined)?.fields;
  for (const field of Object.values(fields ?? {})) {
    if (field?.type !== 'relation' || typeof field.databaseId !== 'string') continue;
    const target = ids.databases.get(field.databaseId);
    if (target) field.databaseId = target;
    else {
      delete field.databaseId;
      delete field.twoWay;
    }
  }
  return data;
}

/**
 * Makes the pages of an export under `place` (a parent page, or a section of the workspace): in
 * one transaction that holds the tree lock. Its files are in the store already, written before
 * the transaction and taken out again if it fails (`importAt`, server/commands/export/exports.ts).
 */
export async function importExport(
  trx: Transaction<Database>,
  input: {
    /** Text made storable already (`storableValue`: NUL, a lone surrogate from a file are made storable, not refused; schema/text.ts) — the files were planned on it. */
    document: ImportDocument;
    /** The files that go in, already in the store (`planImportFiles`, `storeImportFiles`). */
    files: ImportFilePlan;
    workspaceId: string;
    parent: PageRow | null;
    section: 'private' | 'all' | null;
    userId: string;
    quotaBytes?: number;
  },
): Promise<ImportReport> {
  const { document } = input;
  const report: ImportReport = { pages: [], blocks: 0, files: 0, problems: input.files.missing.map((name) => importProblem('', 'fileMissing', { name })) };
  // New ids for pages and database rows alike (a link may point at either); the files have theirs from the plan.
  const rows = document.pages.flatMap((page) => (page.databases ?? []).flatMap(rowsAndTemplates));
  const pageIds = new Map([...document.pages, ...rows].map((p) => [p.id, newId()]));
  // The databases' new ids, known before any is made: a relation to another database of the export names its new id (docs/relations.md).
  const exportedDatabases = document.pages.flatMap((page) => page.databases ?? []);
  const databaseIds = new Map(exportedDatabases.map((database) => [database.blockId, newId()]));
  // Each row's database, by their new ids: a relation cell keeps only rows of the database it names.
  const rowDatabase = new Map(
    exportedDatabases.flatMap((database) => database.rows.map((row) => [pageIds.get(row.id)!, databaseIds.get(database.blockId)!] as const)),
  );
  const fileIds = new Map([...input.files.files].map(([exported, file]) => [exported, file.id]));
  // Refused whole (413 file.quota_exceeded) before anything is made when its files would not fit the workspace's quota.
  await assertWithinQuota(trx, input.quotaBytes ?? 0, input.workspaceId, input.files.bytes);
  // Pages, parents first: an export lists them so; one whose parent is not in it goes under `place`.
  const sortKeys = await importSortKeys(trx, document.pages, input);
  const made = new Map<string, PageRow>();
  for (const page of document.pages) {
    const parent = page.parentId && made.has(page.parentId) ? made.get(page.parentId)! : input.parent;
    const holdsItsDatabase = page.type === 'Database' && page.blocks.some((b) => b.type === 'database');
    const type: PageType =
      (PAGE_TYPES as readonly string[]).includes(page.type) &&
      (page.type !== 'Database' || holdsItsDatabase) &&
      page.type !== 'Widget' &&
      page.type !== 'WidgetView'
        ? (page.type as PageType)
        : 'Note';
    if (type !== page.type) report.problems.push(importProblem(page.title, 'pageTypeChanged', { type: page.type }));
    const row = await insertPage(trx, {
      id: pageIds.get(page.id)!,
      workspaceId: input.workspaceId,
      parent,
      section: parent ? null : input.section,
      type,
      title: fitTitle(page.title),
      createdBy: input.userId,
      grantCreatorFull: parent === null,
      sortKey: sortKeys.get(page.id),
    });
    made.set(page.id, page.icon ? await updatePageFields(trx, row, { icon: page.icon }) : row);
    report.pages.push({ id: row.id, title: page.title });
  }
  const members = new Set(await listMemberIds(trx, input.workspaceId));
  const ids = { pages: pageIds, files: fileIds, members, databases: databaseIds, rowDatabase };
  for (const page of document.pages) {
    const holder = made.get(page.id)!;
    const databases = new Map((page.databases ?? []).map((d) => [d.blockId, d]));
    for (const made of await insertBlocks(trx, holder.id, page.title, page.blocks, ids, input.userId, report, databases))
      await insertDatabaseRows(trx, holder, made.block, made.rows, ids, input.userId, report);
  }
  // Files last, attached to the page or row that shows them (all made by now).
  for (const file of input.files.files.values()) {
    await insertFile(
      trx,
      newFileRow({
        id: file.id,
        ownerId: input.userId,
        pageId: pageIds.get(file.owner)!,
        workspaceId: input.workspaceId,
        name: file.name,
        mimeType: file.mimeType,
        size: file.bytes.length,
        status: FILE_STATUS.ready,
      }),
    );
    report.files += 1;
  }
  for (const page of document.pages)
    if (page.comments?.length) await insertComments(trx, pageIds.get(page.id)!, page.title, page.comments, ids, input.userId, report);
  return report;
}

/** The files of an import that go in — those the zip holds and a page or row shows — each with its new id, its key in the store and its type; the names of the others. */
export interface ImportFilePlan {
  files: Map<string, { id: string; key: string; name: string; mimeType: string; bytes: Uint8Array; owner: string }>;
  missing: string[];
  /** All of their bytes (the quota's question). */
  bytes: number;
}

/** Which of a document's files go in (`document` as storableValue gives it), and where each will be kept. */
export function planImportFiles(document: ImportDocument, zipFiles: ReadonlyMap<string, Uint8Array>): ImportFilePlan {
  const rows = document.pages.flatMap((page) => (page.databases ?? []).flatMap(rowsAndTemplates));
  const ownerOfFile = new Map<string, string>();
  for (const owner of [...document.pages, ...rows]) {
    for (const fileId of filesShown(owner)) if (!ownerOfFile.has(fileId)) ownerOfFile.set(fileId, owner.id);
  }
  const plan: ImportFilePlan = { files: new Map(), missing: [], bytes: 0 };
  for (const file of document.files) {
    const bytes = zipFiles.get(file.path);
    if (!bytes || !ownerOfFile.has(file.id)) {
      plan.missing.push(file.name);
      continue;
    }
    const id = newId();
    // The export's word for the type is not trusted: a media type, else application/octet-stream.
    plan.files.set(file.id, {
      id,
      key: storageKeyFor(id),
      name: file.name,
      mimeType: storableMimeType(file.mimeType),
      bytes,
      owner: ownerOfFile.get(file.id)!,
    });
    plan.bytes += bytes.length;
  }
  return plan;
}

/**
 * Puts an import's files in the store before its transaction (a big file's seconds of writing hold
 * no lock, and on SQLite not the one connection everybody's requests share); `removeImportFiles`
 * takes them out again when the import does not happen.
 */
export async function storeImportFiles(plan: ImportFilePlan, store: FileStore): Promise<void> {
  for (const file of plan.files.values()) await store.put(file.key, file.bytes, file.mimeType);
}

export async function removeImportFiles(plan: ImportFilePlan, store: FileStore): Promise<void> {
  for (const file of plan.files.values()) await store.delete(file.key).catch(() => undefined);
}

/**
 * Each imported page's sort key, in the export's order under its parent: the pages under the
 * place after its present children (read once), those under an imported page from the start. Read
 * per page, the siblings made an import quadratic (2,000 pages side by side took 47 s on SQLite).
 */
async function importSortKeys(
  trx: Transaction<Database>,
  pages: ImportDocument['pages'],
  input: { workspaceId: string; parent: PageRow | null; section: 'private' | 'all' | null },
): Promise<Map<string, string>> {
  const PLACE = Symbol('place');
  const seen = new Set<string>();
  const byParent = new Map<string | typeof PLACE, string[]>();
  for (const page of pages) {
    const parent = page.parentId && seen.has(page.parentId) ? page.parentId : PLACE;
    seen.add(page.id);
    const children = byParent.get(parent);
    if (children) children.push(page.id);
    else byParent.set(parent, [page.id]);
  }
  const keys = new Map<string, string>();
  for (const [parent, children] of byParent) {
    const siblings =
      parent === PLACE
        ? await listPagesAt(trx, input.parent ? { parent: input.parent } : { workspaceId: input.workspaceId, section: input.section ?? 'private' })
        : [];
    sortKeysAtEnd(siblings, children.length).forEach((key, i) => keys.set(children[i], key));
  }
  return keys;
}

/**
 * A page's comments, oldest first, with their times: a reply answers the copy of what it answered;
 * files follow theirs. Every comment is the importer's (issue 33: an export names its authors, and
 * anybody can write a file naming anybody): one by someone else starts with its author's name and
 * date as text («Иван, 12.03.2020: …»; reported, counted). Nobody is notified: nothing new was said.
 */
async function insertComments(
  trx: Transaction<Database>,
  pageId: string,
  title: string,
  comments: NonNullable<ImportDocument['pages'][number]['comments']>,
  ids: ImportIds,
  userId: string,
  report: ImportReport,
): Promise<void> {
  const commentIds = new Map<string, string>();
  let adopted = 0;
  for (const comment of comments) {
    const parsed = commentContentSchema.safeParse(comment.content);
    const attaches = comment.attaches.flatMap((a) => (ids.files.has(a.id) ? [{ ...a, id: ids.files.get(a.id)! }] : []));
    if (!parsed.success || (parsed.data.every((t) => t.text.trim() === '') && attaches.length === 0)) {
      report.problems.push(importProblem(title, 'commentUnfit'));
      continue;
    }
    const at = isIsoTime(comment.createdAt) ? comment.createdAt : nowIso();
    let content = parsed.data;
    if (comment.author.id !== userId) {
      adopted += 1;
      const attributed = attributedContent(authorLine(comment.author, at), content);
      if (attributed.cut) report.problems.push(importProblem(title, 'commentCut', { max: COMMENT_LIMITS.textLength }));
      content = attributed.content;
    }
    const id = newId();
    commentIds.set(comment.id, id);
    await insertCommentRow(trx, {
      id,
      page_id: pageId,
      replied_comment_id: comment.repliedTo ? (commentIds.get(comment.repliedTo) ?? null) : null,
      author_id: userId,
      content: JSON.stringify(content),
      attaches: JSON.stringify(attaches),
      created_at: at,
      updated_at: isIsoTime(comment.updatedAt) ? comment.updatedAt : at,
      deleted_at: null,
    });
  }
  if (adopted > 0) report.problems.push(importProblem(title, 'commentsAdopted', { count: adopted }));
}

/** Who wrote an imported comment and when (an ISO time), as its text begins: «Иван, 12.03.2020: » — the name, else the e-mail; the day in UTC. */
export function authorLine(author: { name: string; email: string }, createdAt: string): string {
  const name = (author.name.trim() || author.email.trim() || '?').replace(/\s+/g, ' ').slice(0, 200);
  const date = new Date(createdAt);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${name}, ${two(date.getUTCDate())}.${two(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}: `;
}

/**
 * A comment's content after its author line, within a comment's limits (COMMENT_LIMITS: the line
 * takes its place among the tokens and characters): what no longer fits is cut from the end
 * (`cut`), never a surrogate pair in two.
 */
export function attributedContent(line: string, content: readonly CommentToken[]): { content: CommentToken[]; cut: boolean } {
  const tokens: CommentToken[] = [{ text: line }, ...content];
  const kept: CommentToken[] = [];
  let room = COMMENT_LIMITS.textLength;
  for (const token of tokens.slice(0, COMMENT_LIMITS.tokens)) {
    let text = token.text.slice(0, room);
    if (text.length < token.text.length && /[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1);
    if (text === '') break;
    kept.push({ ...token, text });
    room -= text.length;
  }
  const cut = kept.length < tokens.length || kept.some((token, at) => token.text !== tokens[at].text);
  return { content: kept, cut };
}

const isIsoTime = (text: string) => z.iso.datetime({ offset: true }).safeParse(text).success;

type ImportDatabase = NonNullable<ImportDocument['pages'][number]['databases']>[number];
interface ImportIds {
  pages: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, string>;
  members: ReadonlySet<string>;
  /** The export's databases (their blocks' ids) → their new ids. */
  databases: ReadonlyMap<string, string>;
  /** A row's new id → its database's new id. */
  rowDatabase: ReadonlyMap<string, string>;
}

/** The files a page or row shows: its pictures' and attachments' files, its files cells', its comments'. */
function filesShown(owner: {
  blocks: readonly ImportBlock[];
  values?: Record<string, unknown>;
  comments?: ReadonlyArray<{ attaches: ReadonlyArray<{ id: string }> }>;
}): string[] {
  const ids: string[] = (owner.comments ?? []).flatMap((c) => c.attaches.map((a) => a.id));
  for (const block of owner.blocks) {
    const fileId = (block.data.remoteData as { fileId?: unknown } | null | undefined)?.fileId;
    if (typeof fileId === 'string') ids.push(fileId);
  }
  for (const value of Object.values(owner.values ?? {})) {
    if (Array.isArray(value))
      for (const ref of value as unknown[])
        if (typeof ref === 'object' && ref !== null && typeof (ref as { id?: unknown }).id === 'string') ids.push((ref as { id: string }).id);
  }
  return ids;
}

/**
 * A page's (or row's) blocks, in document order: each parent's children get keys in their order.
 * What does not fit is reported and left out; a database block comes in only with its rows in the
 * export (`databases`). Answers the database blocks made.
 */
async function insertBlocks(
  trx: Transaction<Database>,
  pageId: string,
  title: string,
  blocks: readonly ImportBlock[],
  ids: ImportIds,
  userId: string,
  report: ImportReport,
  databases: ReadonlyMap<string, ImportDatabase>,
): Promise<Array<{ block: BlockRow; rows: ImportDatabase }>> {
  const blockIds = new Map<string, string>();
  const kept = blocks.filter((block) => {
    const definition = definitionForWireType(block.type);
    if (!definition || block.type === 'databaseRow' || (block.type === 'database' && !databases.has(block.id))) {
      report.problems.push(
        block.type === 'database' ? importProblem(title, 'databaseWithoutRows') : importProblem(title, 'unknownBlock', { type: block.type }),
      );
      return false;
    }
    const remote = (block.data.remoteData as { fileId?: string } | null | undefined)?.fileId;
    if (remote && !ids.files.has(remote)) {
      report.problems.push(importProblem(title, 'blockFileMissing'));
      return false;
    }
    blockIds.set(block.id, (block.type === 'database' ? ids.databases.get(block.id) : undefined) ?? newId());
    return true;
  });
  const siblingsOf = new Map<string | null, string[]>();
  const parentOf = (block: ImportBlock) => (block.parentId && blockIds.has(block.parentId) ? block.parentId : null);
  for (const block of kept) siblingsOf.set(parentOf(block), [...(siblingsOf.get(parentOf(block)) ?? []), block.id]);
  const keyOf = new Map<string, string>();
  for (const siblings of siblingsOf.values()) generateNKeysBetween(null, null, siblings.length).forEach((key, at) => keyOf.set(siblings[at], key));
  const inputs: InsertBlockInput[] = [];
  const exported: string[] = [];
  for (const block of kept) {
    const definition = definitionForWireType(block.type)!;
    const data = definition.dataSchema.safeParse(
      block.type === 'database' ? withImportedRelations(remap(block.data, ids.pages, ids.files), ids) : remap(block.data, ids.pages, ids.files),
    );
    // A synced block stays one only when it names synced content of this workspace (a paste's HTML
    // from another page of it); another's (another workspace's or server's) is left out, as data that
    // does not fit (docs/api/blocks.md «Synced blocks»).
    if (!data.success || (block.type === 'synced' && (await judgeSyncedBlocks(trx, [{ pageId, type: block.type, data: data.data }]))[0] !== null)) {
      report.problems.push(importProblem(title, 'blockUnfit', { type: block.type }));
      blockIds.delete(block.id);
      continue;
    }
    const parent = parentOf(block);
    inputs.push({
      id: blockIds.get(block.id)!,
      pageId,
      parentId: parent === null || !blockIds.has(parent) ? null : blockIds.get(parent)!,
      sortKey: keyOf.get(block.id)!,
      type: block.type as never,
      data: definition.canonicalize(data.data) as BlockData,
      userId,
    });
    exported.push(block.id);
  }
  // The page's blocks in a few statements, not one each (20,000 pages took 200 s on PostgreSQL).
  const rows = await insertBlockRows(trx, inputs);
  report.blocks += rows.length;
  return rows.flatMap((row, at) => (row.type === 'database' ? [{ block: row, rows: databases.get(exported[at])! }] : []));
}

/**
 * A database's rows, in their order, with their blocks: relations follow the rows' new ids (to rows
 * not imported: dropped), people stay where they are members of the workspace, files follow theirs;
 * a value that still does not fit its field is reported and left out.
 */
async function insertDatabaseRows(
  trx: Transaction<Database>,
  holder: PageRow,
  database: BlockRow,
  exported: ImportDatabase,
  ids: ImportIds,
  userId: string,
  report: ImportReport,
): Promise<void> {
  const { config } = JSON.parse(database.data) as DatabaseData;
  let strangers = 0;
  const written = (row: ImportDatabase['rows'][number]) => {
    const values: Record<string, RowValue> = {};
    for (const [fieldId, value] of Object.entries(row.values)) {
      const field = fieldOf(config, fieldId);
      // A unique ID keeps its number (the counter goes past the highest, below).
      if (field?.type === 'uniqueId') {
        if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) values[fieldId] = value;
        continue;
      }
      // A formula's values are computed again here (below), not written.
      if (field && COMPUTED_FIELD_TYPES.has(field.type)) continue;
      let next: RowValue = value;
      if (field?.type === 'relation' && Array.isArray(value)) {
        // Rows of the database the relation names, as imported (one not in the export: none).
        const target = field.databaseId ?? database.id;
        next = (value as string[]).flatMap((id) => {
          const row = ids.pages.get(id);
          return row && ids.rowDatabase.get(row) === target ? [row] : [];
        });
      } else if (field?.type === 'person' && Array.isArray(value)) {
        next = (value as string[]).filter((id) => ids.members.has(id));
        strangers += value.length - next.length;
      } else if (field?.type === 'files' && Array.isArray(value))
        next = (value as FileRef[]).flatMap((ref) => (ids.files.has(ref.id) ? [{ id: ids.files.get(ref.id)!, name: ref.name }] : []));
      const problem = field ? cellProblem(fieldId, field, next) : 'no such field in the database';
      if (problem) report.problems.push(importProblem(row.title, 'valueUnfit', { field: field?.name ?? fieldId, reason: problem }));
      else if (!Array.isArray(next) || next.length > 0) values[fieldId] = next;
    }
    return { id: ids.pages.get(row.id)!, title: fitTitle(row.title), icon: row.icon ?? null, values };
  };
  const rows = exported.rows.map(written);
  const templates = (exported.templates ?? []).map(written);
  if (strangers > 0) report.problems.push(importProblem(holder.title, 'peopleNotMembers', { count: strangers }));
  const made = await insertRows(trx, { database, holder, rows, sortKeys: generateNKeysBetween(null, null, rows.length), userId });
  // Its row templates (docs/api/databases.md «Row templates»), after the rows: made as templates, no unique ID of theirs.
  const madeTemplates =
    templates.length === 0
      ? []
      : await insertRows(trx, {
          database,
          holder,
          rows: templates.map(({ values, ...template }) => ({ ...template, values: withoutUniqueIds(config, values) })),
          sortKeys: generateNKeysBetween(made.length > 0 ? made[made.length - 1].sort_key : null, null, templates.length),
          userId,
          templates: true,
        });
  // Unique IDs: the next row after the highest number brought; a row that brought none gets one.
  for (const [fieldId, field] of Object.entries(config.fields)) if (field.type === 'uniqueId') await raiseSequence(trx, database.id, fieldId);
  await computeNewRows(
    trx,
    database.id,
    config,
    made.map((row) => row.id),
    userId,
  );
  await computeTemplates(
    trx,
    database.id,
    config,
    madeTemplates.map((template) => template.id),
    userId,
  );
  for (const [at, row] of exported.rows.entries()) await insertBlocks(trx, made[at].id, row.title, row.blocks, ids, userId, report, new Map());
  for (const [at, template] of (exported.templates ?? []).entries())
    await insertBlocks(trx, madeTemplates[at].id, template.title, template.blocks, ids, userId, report, new Map());
}

/** A database's rows and its row templates (their ids are mapped, their files kept, alike). */
const rowsAndTemplates = (database: ImportDatabase) => [...database.rows, ...(database.templates ?? [])];

/** Values without unique IDs (a template takes none). */
function withoutUniqueIds(config: DatabaseData['config'], values: Record<string, RowValue>): Record<string, RowValue> {
  return Object.fromEntries(Object.entries(values).filter(([fieldId]) => fieldOf(config, fieldId)?.type !== 'uniqueId'));
}
