import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Kysely } from 'kysely';
import type { WireBlock } from '../../schema/block';
import { blocksToSlate } from '../../schema/block';
import { escapeHtml } from '../../schema/html';
import { storableMimeType } from '../../schema/file';
import { blocksToHtml } from '../../plugins/withClipboard/serialize';
import type { BlockRow, Database, PageRow } from '../db/types';
import { allows } from '../../schema/policies/page';
import { pageAccessLevels } from '../policies/page';
import { findBlock, listPageBlocks } from '../repositories/blocks';
import { findReadyFiles, type FileRow } from '../repositories/files';
import type { FileStore } from '../files/store';
import { listLivePagesUnder, listLiveWorkspacePages, pagePath } from '../repositories/pages';
import { listLiveCommentsWithAuthors } from '../repositories/comments';
import { address, blocksToMarkdown, type MarkdownLinks } from './markdown';
import { escapeMarkdown } from '../../schema/markdown/write';
import { BLOCK_DEFINITIONS, dataVersionOf } from '../../schema/blocks';
import { COMPUTED_FIELD_TYPES, MAIN_FIELD_ID, type DatabaseData, type RowValue } from '../../schema/blocks/database';
import { valueToText } from '../../schema/database';
import { holdsDatabase } from '../../schema/element';
import type { PageType } from '../../schema/constants';
import type { ExportFormat } from '../../schema/exportJob';
import type { CommentAttach, CommentToken } from '../../schema/comment';
import { peopleNamesFor } from '../commands/databases/people';
import { databaseCells, databaseCsv } from '../repositories/databaseCsv';
import { findRowPages, readRows, templateIdsOf, ViewOrders } from '../repositories/databases';
import { withReadableRelations } from '../commands/databases/relations';
import type { WireRow } from '../../schema/database';
import { SyncedExpansion } from './synced';

/**
 * Exporting pages (issue 18, docs/import-export.md): a page, and its subpages the caller may read,
 * as a zip — Markdown files (with their pictures and files beside them, linked by relative paths
 * that open offline), HTML files, or our JSON (`export.json`, lossless: what import reads back).
 */

export { EXPORT_FORMATS, type ExportFormat } from '../../schema/exportJob';

/** The JSON export's shape (`export.json`). */
export interface JsonExport {
  format: 'blocknote-export';
  version: 1;
  exportedAt: string;
  /** The version of each block type's data (schema/blocks/versions.ts): an import made after a shape changed takes it up. */
  dataVersions: Record<string, number>;
  pages: Array<{
    id: string;
    parentId: string | null;
    type: string;
    title: string;
    icon: string | null;
    cover: unknown;
    blocks: JsonBlock[];
    databases?: JsonDatabase[];
    comments?: JsonComment[];
  }>;
  files: Array<{ id: string; name: string; mimeType: string; size: number; path: string }>;
}
type JsonBlock = Pick<WireBlock, 'id' | 'type' | 'data' | 'parentId'>;
/** The rows of one of a page's database blocks, in their order: each row's title, icon, written values (not the computed ones) and blocks. */
export interface JsonDatabase {
  blockId: string;
  rows: Array<{ id: string; title: string; icon: string | null; values: Record<string, RowValue>; blocks: JsonBlock[] }>;
  /** Its row templates (docs/api/databases.md «Row templates»), as rows are written. */
  templates: JsonDatabase['rows'];
}

/** The page and, with `subpages`, its live descendants (not database rows) the user may read; parents before children. */
export async function pagesToExport(db: Kysely<Database>, userId: string, root: PageRow, subpages: boolean): Promise<PageRow[]> {
  if (!subpages) return [root];
  const below = await listLivePagesUnder(db, root.id);
  return [root, ...(await readableTree(db, userId, below, new Set([root.id])))];
}

/** Every live page (not database rows) of a workspace the user may read, as trees: parents before children. */
export async function workspacePagesToExport(db: Kysely<Database>, userId: string, workspaceId: string): Promise<PageRow[]> {
  const pages = await listLiveWorkspacePages(db, workspaceId);
  return readableTree(db, userId, pages, new Set());
}

/**
 * Of `pages`, those the user may read whose parent is kept too (a top page, or one under `kept`):
 * a page under one the user may not read has no place in the tree exported and is left out.
 * Shallower first, then in their order among siblings.
 */
async function readableTree(db: Kysely<Database>, userId: string, pages: PageRow[], kept: Set<string>): Promise<PageRow[]> {
  const levels = await pageAccessLevels(db, userId, pages);
  const ordered: PageRow[] = [];
  for (const page of pages
    .filter((p) => allows(levels.get(p.id) ?? 'none', 'read'))
    .sort((a, b) => pagePath(a).length - pagePath(b).length || (a.sort_key < b.sort_key ? -1 : 1))) {
    if (page.parent_id === null || kept.has(page.parent_id)) {
      kept.add(page.id);
      ordered.push(page);
    }
  }
  return ordered;
}

// eslint-disable-next-line no-control-regex -- control characters are what file systems refuse
const REFUSED_IN_NAMES = /[\\/:*?"<>|\u0000-\u001f]/g;

/** A name for a file in the zip: no path separators or characters file systems refuse, not too long. */
export function fileName(title: string, fallback: string): string {
  const clean = title
    .replace(REFUSED_IN_NAMES, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .replace(/[. ]+$/, '');
  return clean || fallback;
}

/** Each page's place in the zip, without extension: its title, under its parent's folder; the same title twice gets « (2)». */
export function pagePaths(pages: readonly PageRow[], untitled: string): Map<string, string> {
  const paths = new Map<string, string>();
  const taken = new Set<string>();
  for (const page of pages) {
    const parent = page.parent_id ? paths.get(page.parent_id) : undefined;
    const base = (parent ? `${parent}/` : '') + fileName(page.title, untitled);
    let candidate = base;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${base} (${n})`;
    taken.add(candidate.toLowerCase());
    paths.set(page.id, candidate);
  }
  return paths;
}

const relative = (fromFile: string, to: string) => {
  const from = path.posix.dirname(fromFile);
  return path.posix.relative(from === '.' ? '' : from, to) || path.posix.basename(to);
};

/**
 * Writes the export of `pages` into a zip stream: Markdown (`.md`), HTML (`.html`) or JSON
 * (`export.json`); the files their blocks show (pictures, attachments) under `files/` — those of
 * the exported pages only. The stream errs if reading fails half-way.
 */
export interface ExportOptions {
  format: ExportFormat;
  /** The name of a page without a title. */
  untitled: string;
  /** The JSON export carries the pages' comments too. */
  comments?: boolean;
  /** Who exports: people in databases are named as they may see them (server/commands/databases/people.ts). */
  viewerId: string;
  /** Told as each page is read. */
  onProgress?(done: number, total: number): void;
}

export function exportZip(
  db: Kysely<Database>,
  store: FileStore,
  pages: readonly PageRow[],
  { format, untitled, comments = false, onProgress, viewerId }: ExportOptions,
): Readable {
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) out.destroy(error);
    else {
      out.write(Buffer.from(chunk));
      if (final) out.end();
    }
  });
  const encoder = new TextEncoder();
  const addText = (name: string, text: string) => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(encoder.encode(text), true);
  };
  // Whoever reads the zip sets the pace: a page at a time, never the whole export in memory.
  const flowing = async () => {
    if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve));
  };
  void (async () => {
    const paths = pagePaths(pages, untitled);
    const pageIds = new Set(pages.map((p) => p.id));
    const orders = new ViewOrders();
    // Synced blocks written as the blocks they show (./synced.ts); the files shown there are the export's too.
    const synced = new SyncedExpansion(db, viewerId);
    // The files shown (attached to one of these pages or rows, by a block, a files cell or a comment), found page by page.
    const files = new Map<string, FileRow>();
    const filePath = (id: string) => `files/${id}/${fileName(files.get(id)!.name, 'file')}`;
    const takeFiles = async (ids: Iterable<string>) => {
      const wanted = [...new Set(ids)].filter((id) => !files.has(id));
      for (const f of await findReadyFiles(db, wanted)) if (f.page_id !== null && (pageIds.has(f.page_id) || synced.wrote(f.page_id))) files.set(f.id, f);
    };
    const extension = format === 'html' ? 'html' : 'md';
    // export.json is written as it is read: the pages one by one, the files last.
    const json = format === 'json' ? new ZipDeflate('export.json', { level: 6 }) : null;
    if (json) {
      zip.add(json);
      const dataVersions = Object.fromEntries(BLOCK_DEFINITIONS.map((definition) => [definition.wireType, dataVersionOf(definition)]));
      json.push(
        encoder.encode(
          `{"format":"blocknote-export","version":1,"exportedAt":${JSON.stringify(new Date().toISOString())},"dataVersions":${JSON.stringify(dataVersions)},"pages":[`,
        ),
      );
    }
    for (const [at, page] of pages.entries()) {
      const blocks = await synced.expandSynced(await listPageBlocks(db, page.id));
      if (json) {
        const databases: JsonDatabase[] = [];
        for (const block of blocks) if (block.type === 'database') databases.push(await jsonDatabase(db, orders, block.id, pageIds, viewerId, synced));
        const pageComments = comments ? await jsonComments(db, page.id) : [];
        await takeFiles([
          ...filesShown(blocks),
          ...databases.flatMap((d) => [...d.rows, ...d.templates].flatMap((row) => [...filesShown(row.blocks), ...filesInValues(row.values)])),
          ...pageComments.flatMap((c) => c.attaches.map((a) => a.id)),
        ]);
        const entry: JsonExport['pages'][number] = {
          id: page.id,
          parentId: at === 0 ? null : page.parent_id,
          type: page.type,
          title: page.title,
          icon: page.icon,
          cover: page.cover ? (JSON.parse(page.cover) as unknown) : null,
          blocks: blocks.map(jsonBlock),
          ...(databases.length ? { databases } : {}),
          ...(comments && pageComments.length ? { comments: pageComments } : {}),
        };
        json.push(encoder.encode(`${at === 0 ? '' : ','}${JSON.stringify(entry)}`));
      } else {
        await takeFiles(filesShown(blocks));
        const file = `${paths.get(page.id)!}.${extension}`;
        const links: MarkdownLinks = {
          page: (id) => (pageIds.has(id) ? relative(file, `${paths.get(id)!}.${extension}`) : null),
          file: (id, name) => (files.has(id) ? relative(file, filePath(id)) : `files/${id}/${name}`),
        };
        const title = page.title || untitled;
        // Its databases: the rows as CSV, and each row as a page of its own (its fields, then its
        // blocks); in the page, each one's first view as a table with a link to its CSV.
        const databases = blocks.filter((b) => b.type === 'database');
        const views = new Map<string, DatabaseView>();
        for (const [n, database] of databases.entries()) {
          // A database page's database is the page itself: `Клиенты.csv`, `Клиенты/<row>.md`.
          const folder =
            holdsDatabase(page.type as PageType) && databases.length === 1
              ? paths.get(page.id)!
              : `${paths.get(page.id)!}/${fileName(title, untitled)}${databases.length > 1 ? ` ${n + 1}` : ''}`;
          const view = await addDatabase(db, orders, database, folder, extension, addText, untitled, viewerId, synced);
          if (view)
            views.set(database.id, { ...view, folder: relative(file, folder), rows: view.rows.map((row) => ({ ...row, file: relative(file, row.file) })) });
        }
        if (format === 'markdown')
          addText(
            file,
            `# ${escapeMarkdown(title)}\n\n${blocksToMarkdown(blocks, { ...links, database: (id) => (views.has(id) ? viewMarkdown(views.get(id)!) : []) })}`,
          );
        else addText(file, htmlDocument(title, blocks, links, views));
      }
      onProgress?.(at + 1, pages.length);
      await flowing();
    }
    if (json)
      json.push(
        encoder.encode(
          `],"files":${JSON.stringify([...files.values()].map((f) => ({ id: f.id, name: f.name, mimeType: storableMimeType(f.mime_type), size: f.size, path: filePath(f.id) })))}}`,
        ),
        true,
      );
    for (const f of files.values()) {
      // Pictures and archives are compressed already: stored as they are.
      const entry = /^(image|video|audio)\/|zip|compressed/.test(f.mime_type)
        ? new ZipPassThrough(filePath(f.id))
        : new ZipDeflate(filePath(f.id), { level: 6 });
      zip.add(entry);
      const stream = await store.get(f.storage_key);
      if (!stream) throw new Error(`the bytes of file ${f.id} are missing from the file store`);
      for await (const chunk of stream) {
        entry.push(chunk as Buffer);
        await flowing();
      }
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** The files blocks show (pictures, attachments). */
function filesShown(blocks: readonly JsonBlock[]): string[] {
  return blocks.flatMap((block) => {
    const remote = (block.data as { remoteData?: { fileId?: unknown } | null }).remoteData;
    return typeof remote?.fileId === 'string' ? [remote.fileId] : [];
  });
}

/** The files a row's files cells hold. */
function filesInValues(values: Record<string, RowValue>): string[] {
  return Object.values(values).flatMap((value) => (Array.isArray(value) ? value.flatMap((ref) => (typeof ref === 'object' ? [ref.id] : [])) : []));
}

/** A comment in the JSON export (with `comments`): who wrote it, when, its text and files; replies name what they answer. */
export interface JsonComment {
  id: string;
  repliedTo: string | null;
  author: { id: string; name: string; email: string };
  content: CommentToken[];
  attaches: CommentAttach[];
  createdAt: string;
  updatedAt: string;
}

/** The live comments of a page, oldest first (a reply to a deleted comment answers nothing). */
async function jsonComments(db: Kysely<Database>, pageId: string): Promise<JsonComment[]> {
  const rows = await listLiveCommentsWithAuthors(db, pageId);
  const live = new Set(rows.map((r) => r.id));
  return rows.map((row) => ({
    id: row.id,
    repliedTo: row.replied_comment_id && live.has(row.replied_comment_id) ? row.replied_comment_id : null,
    author: { id: row.author_id, name: row.name, email: row.email },
    content: JSON.parse(row.content) as CommentToken[],
    attaches: JSON.parse(row.attaches) as CommentAttach[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

const jsonBlock = (b: WireBlock): JsonBlock => ({ id: b.id, type: b.type, data: b.data, parentId: b.parentId });

/** A database's live rows in their order (no view's filter or sorts), read 500 at a time. */
async function* rowsInOrder(db: Kysely<Database>, orders: ViewOrders, block: BlockRow, data: DatabaseData): AsyncGenerator<WireRow> {
  const ids = await orders.ids(db, block, data.config, { filter: null, sorts: [] });
  for (let at = 0; at < ids.length; at += 500) yield* await readRows(db, block.id, ids.slice(at, at + 500));
}

/** A database's live rows for the JSON export, in their order; their ids join `pageIds` (their files are theirs). */
async function jsonDatabase(
  db: Kysely<Database>,
  orders: ViewOrders,
  blockId: string,
  pageIds: Set<string>,
  viewerId: string,
  synced: SyncedExpansion,
): Promise<JsonDatabase> {
  const block = await findBlock(db, blockId);
  if (!block) throw new Error(`no database block ${blockId}`);
  const data = JSON.parse(block.data) as DatabaseData;
  const written = async (read: WireRow): Promise<JsonDatabase['rows'][number]> => {
    // A relation to another database: the rows of it the exporter may read (docs/relations.md).
    const [row] = await withReadableRelations(db, viewerId, block.id, data.config, [read]);
    const values = Object.fromEntries(
      Object.entries(row.data.values).filter(
        // Computed values are computed again by the import; a unique ID's number travels (the import keeps it).
        ([id]) =>
          id !== MAIN_FIELD_ID &&
          id in data.config.fields &&
          (!COMPUTED_FIELD_TYPES.has(data.config.fields[id].type) || data.config.fields[id].type === 'uniqueId'),
      ),
    );
    pageIds.add(row.id);
    return {
      id: row.id,
      title: row.data.title,
      icon: row.data.icon,
      values,
      blocks: (await synced.expandSynced(await listPageBlocks(db, row.id))).map(jsonBlock),
    };
  };
  const rows: JsonDatabase['rows'] = [];
  for await (const read of rowsInOrder(db, orders, block, data)) rows.push(await written(read));
  const templates: JsonDatabase['rows'] = [];
  for (const read of await readRows(db, block.id, await templateIdsOf(db, block.id))) templates.push(await written(read));
  return { blockId, rows, templates };
}

/** Rows of a database shown in its page's table in an export (the rest are in its CSV and its rows' files). */
export const VIEW_ROWS = 100;

/**
 * A database as its page shows it in an export: its first view's fields and rows (filtered and
 * sorted as the view is, the first VIEW_ROWS), the rows' files, and the database's fields (written
 * beside the table so that importing the export makes the fields again with their types).
 */
interface DatabaseView {
  /** The database's files' name in the export, relative to the page's file (`Клиенты` → `Клиенты.csv`, `Клиенты/…`); the rows' files too. */
  folder: string;
  columns: string[];
  rows: Array<{ file: string; cells: Array<string | number> }>;
  total: number;
  fields: DatabaseData['config']['fields'];
}

/** A marker before a database's table in a Markdown export, with its fields (read back on import: notionImport.ts). */
export const DATABASE_MARKER = 'stranitsy-database';

/** A database's view in a Markdown page: the marker, a table of its first view (the titles linking to the rows' files), a link to the CSV alone. */
function viewMarkdown(view: DatabaseView): string[] {
  // JSON in an HTML comment: no `<`, `>` or `&` in it (escaped in JSON's own way), so nothing in a
  // field's name can end the comment or open a tag.
  const json = JSON.stringify({ fields: view.fields }).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const marker = `<!-- ${DATABASE_MARKER} ${json} -->`;
  // A cell's text as Markdown text (no link, tag or emphasis of its own), its lines joined by
  // `<br>`, a `|` escaped (it would end the cell).
  const cell = (value: string | number) =>
    escapeMarkdown(String(value))
      .replace(/\r\n?|\n/g, '<br>')
      .replace(/\|/g, '\\|') || ' ';
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rows = view.rows.map((row) => line(row.cells.map((value, at) => (at === 0 ? `[${cell(value)}](${address(row.file)})` : cell(value)))));
  const more = view.total - view.rows.length;
  return [
    marker,
    '',
    line(view.columns.map(cell)),
    `|${' --- |'.repeat(view.columns.length)}`,
    ...rows,
    ...(more > 0 ? [line([`… ещё ${more}`, ...view.columns.slice(1).map(() => ' ')])] : []),
    '',
    `[${escapeMarkdown(`${view.folder.replace(/^.*\//, '')}.csv`)}](${address(`${view.folder}.csv`)})`,
  ];
}

/** A database's view in an HTML page: a table of its first view and a link to the CSV. */
function viewHtml(view: DatabaseView): string {
  const head = `<tr>${view.columns.map((name) => `<th>${escapeHtml(name)}</th>`).join('')}</tr>`;
  const rows = view.rows.map(
    (row) =>
      `<tr>${row.cells.map((value, at) => `<td>${at === 0 ? `<a href="${escapeHtml(row.file)}">${escapeHtml(String(value))}</a>` : escapeHtml(String(value))}</td>`).join('')}</tr>`,
  );
  const more = view.total - view.rows.length;
  const tail = more > 0 ? `<tr><td colspan="${view.columns.length}">… ещё ${more}</td></tr>` : '';
  return `<table>${head}${rows.join('')}${tail}</table>\n<p><a href="${escapeHtml(`${view.folder}.csv`)}">${escapeHtml(`${view.folder.replace(/^.*\//, '')}.csv`)}</a></p>`;
}

/**
 * A database in an export: `<folder>.csv` (its rows, every field, as the CSV export writes them)
 * and `<folder>/<row>.<ext>`, each row a page: its fields as a list, then its blocks. Answers its
 * first view for the page (files relative to the page's folder: the caller makes them so).
 */
async function addDatabase(
  db: Kysely<Database>,
  orders: ViewOrders,
  database: WireBlock,
  folder: string,
  extension: string,
  addText: (name: string, text: string) => void,
  untitled: string,
  viewerId: string,
  synced: SyncedExpansion,
): Promise<Omit<DatabaseView, 'folder'> | null> {
  const block = await findBlock(db, database.id);
  if (!block) return null;
  const data = JSON.parse(block.data) as DatabaseData;
  const columns = [MAIN_FIELD_ID, ...Object.keys(data.config.fields).filter((id) => id !== MAIN_FIELD_ID)];
  const peopleNames = peopleNamesFor(db, viewerId);
  let csv = '';
  const readable = (rows: WireRow[]) => withReadableRelations(db, viewerId, block.id, data.config, rows);
  for await (const part of databaseCsv(db, orders, block, data, columns, { filter: null, sorts: [] }, peopleNames, readable)) csv += part;
  addText(`${folder}.csv`, csv);
  const taken = new Set<string>();
  /** Each row's file, by the row's id. */
  const files = new Map<string, string>();
  const noLinks: MarkdownLinks = { page: () => null, file: (id, name) => `files/${id}/${name}` };
  for await (const read of rowsInOrder(db, orders, block, data)) {
    // Relations by the titles of the rows the exporter may read (of the database each names).
    const [row] = await readable([read]);
    const titles = new Map<string, string>();
    for (const [id, field] of Object.entries(data.config.fields)) {
      const ids = field.type === 'relation' && Array.isArray(row.data.values[id]) ? (row.data.values[id] as string[]) : [];
      if (field.type === 'relation' && ids.length > 0)
        for (const page of await findRowPages(db, field.databaseId ?? block.id, ids)) if (page.in_trash === 0) titles.set(page.id, page.title);
    }
    const names = await peopleNames(
      Object.entries(data.config.fields).flatMap(([id, field]) =>
        field.type === 'person' && Array.isArray(row.data.values[id]) ? (row.data.values[id] as string[]) : [],
      ),
    );
    let name = fileName(row.data.title, untitled);
    for (let k = 2; taken.has(name.toLowerCase()); k += 1) name = `${fileName(row.data.title, untitled)} (${k})`;
    taken.add(name.toLowerCase());
    files.set(row.id, `${folder}/${name}.${extension}`);
    const fields = Object.entries(data.config.fields)
      .filter(([id]) => id !== MAIN_FIELD_ID)
      .map(
        ([id, field]) =>
          [field.name || id, valueToText(field, row.data.values[id], { userName: (uid) => names.get(uid), rowTitle: (rid) => titles.get(rid) })] as const,
      )
      .filter(([, text]) => text !== '');
    const rowBlocks = await synced.expandSynced(await listPageBlocks(db, row.id));
    const title = row.data.title || untitled;
    if (extension === 'md') {
      const list = fields.map(([fieldName, text]) => `- **${fieldName}**: ${text}`).join('\n');
      addText(`${folder}/${name}.md`, `# ${escapeMarkdown(title)}\n\n${list ? `${list}\n\n` : ''}${blocksToMarkdown(rowBlocks, noLinks)}`);
    } else {
      const list = fields.length
        ? `<ul>${fields.map(([fieldName, text]) => `<li><strong>${escapeHtml(fieldName)}</strong>: ${escapeHtml(text)}</li>`).join('')}</ul>\n`
        : '';
      addText(`${folder}/${name}.html`, htmlDocument(title, rowBlocks, noLinks).replace('</h1>\n', `</h1>\n${list}`));
    }
  }
  // The first view: its fields (the title first), its filter and sorts.
  const layout = data.view.layouts[0];
  const shown = (layout?.orderedFields ?? []).map((f) => f.fieldId).filter((id) => id !== MAIN_FIELD_ID && data.config.fields[id]);
  const viewColumns = [MAIN_FIELD_ID, ...shown];
  const view: Omit<DatabaseView, 'folder'> = {
    columns: viewColumns.map((id) => data.config.fields[id]?.name || id),
    rows: [],
    total: 0,
    fields: data.config.fields,
  };
  for await (const read of databaseCells(
    db,
    orders,
    block,
    data,
    viewColumns,
    { filter: layout?.filter ?? null, sorts: layout?.sorts ?? [] },
    peopleNames,
    VIEW_ROWS,
    readable,
  )) {
    view.total = read.total;
    // The rows' files by their paths in the export (the caller makes them relative to the page's file).
    view.rows.push(...read.rows.map((row) => ({ file: files.get(row.id) ?? '', cells: row.cells })));
  }
  return view;
}

/**
 * A page as a standalone HTML file: its blocks through their types' HTML (the clipboard's), links
 * made relative; a database block as its first view's table (`views`).
 */
function htmlDocument(title: string, blocks: readonly WireBlock[], links: MarkdownLinks, views: ReadonlyMap<string, DatabaseView> = new Map()): string {
  // The blocks between databases through the clipboard's HTML; each database's view in its place.
  const parts: string[] = [];
  let run: WireBlock[] = [];
  const flush = () => {
    if (run.length > 0) parts.push(blocksToHtml(blocksToSlate(run)));
    run = [];
  };
  for (const block of blocks) {
    const view = block.type === 'database' ? views.get(block.id) : undefined;
    if (!view) run.push(block);
    else {
      flush();
      parts.push(viewHtml(view));
    }
  }
  flush();
  let body = parts.join('\n');
  // Page links and files point into the export.
  body = body.replace(/href="\/([0-9a-f-]{36})"/g, (whole, id: string) => {
    const target = links.page(id);
    return target ? `href="${escapeHtml(target)}"` : whole;
  });
  body = body.replace(
    /(src|href)="\/api\/file\/([^"/]+)"/g,
    (_whole, attribute: string, id: string) => `${attribute}="${escapeHtml(links.file(decodeURIComponent(id), 'file'))}"`,
  );
  return `<!doctype html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(title)}</title>\n</head>\n<body>\n<h1>${escapeHtml(title)}</h1>\n${body}\n</body>\n</html>\n`;
}
