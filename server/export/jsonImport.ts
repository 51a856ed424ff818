import fs from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { generateNKeysBetween } from 'fractional-indexing';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import { definitionForWireType } from '../../schema/blocks';
import type { BlockData } from '../../schema/block';
import { newId } from '../../schema/ids';
import { PAGE_TYPES, type PageType } from '../../schema/constants';
import type { Database, PageRow } from '../db/types';
import { insertBlock } from '../repositories/blocks';
import { storageKeyFor, storagePath } from '../repositories/files';
import { insertPage } from '../repositories/pages';
import { markdownToDocument } from './markdownImport';
import { nowIso } from '../time';

/**
 * Importing our JSON export (issue 18, docs/import-export.md «Importing»): `export.json` alone or
 * in its zip (with the files). Every page, block and file gets a new id; links between the pages
 * imported, page blocks and files follow the new ids. What cannot be imported (a block of an
 * unknown type or with data that does not fit, a database, a missing file) is reported, never
 * dropped silently.
 */

const exportSchema = z.object({
  format: z.literal('blocknote-export'),
  version: z.literal(1),
  pages: z
    .array(
      z.object({
        id: z.string().min(1).max(128),
        parentId: z.string().max(128).nullable(),
        type: z.string().max(40),
        title: z.string().max(2000),
        icon: z.string().max(256).nullable().optional(),
        blocks: z.array(z.object({ id: z.string().min(1).max(128), type: z.string().max(40), data: z.record(z.string(), z.unknown()), parentId: z.string().max(128).nullable() })).max(100_000),
      }),
    )
    .min(1)
    .max(10_000),
  files: z.array(z.object({ id: z.string().min(1).max(128), name: z.string().max(255), mimeType: z.string().max(200), size: z.number().int().min(0), path: z.string().max(1000) })).max(10_000).default([]),
});
export type ImportDocument = z.infer<typeof exportSchema>;

/** What an import made, and what it could not. */
export interface ImportReport {
  pages: Array<{ id: string; title: string }>;
  blocks: number;
  files: number;
  problems: Array<{ page: string; message: string }>;
}

/**
 * What an upload holds, as our export's document: a zip with `export.json` (our JSON export), a
 * zip of Markdown or HTML files (with their pictures; each file read by its extension), our JSON
 * alone, or one Markdown or HTML file (`name` ends in `.md`, `.html`…). Throws with a message a
 * person can read.
 */
export async function readExport(bytes: Uint8Array, name = ''): Promise<{ document: ImportDocument; files: Map<string, Uint8Array>; problems: Array<{ page: string; message: string }> }> {
  let json: string;
  let entries: Record<string, Uint8Array> = {};
  const lower = name.toLowerCase();
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    try {
      entries = unzipSync(bytes);
    } catch {
      throw new ImportError('the zip cannot be read');
    }
    const found = Object.keys(entries).find((n) => n === 'export.json' || n.endsWith('/export.json'));
    if (!found) {
      const files = new Map(Object.entries(entries));
      const has = (pattern: RegExp) => [...files.keys()].some((n) => pattern.test(n) && !n.startsWith('__MACOSX/'));
      const markdown = has(/\.md$/i);
      // HTML (with any Markdown beside it) is read in a worker with a DOM: see htmlImport.ts.
      if (has(/\.html?$/i)) return { ...(await (await import('./htmlImport')).htmlToDocument(files, { markdown })), files };
      if (!markdown) throw new ImportError('the zip holds neither export.json nor Markdown or HTML files');
      return { ...markdownToDocument(files), files };
    }
    json = strFromU8(entries[found]);
  } else if (lower.endsWith('.md') || lower.endsWith('.markdown')) {
    const files = new Map([[name.replace(/\.markdown$/i, '.md').replace(/^.*[\\/]/, ''), bytes]]);
    return { ...markdownToDocument(files), files };
  } else if (lower.endsWith('.html') || lower.endsWith('.htm')) {
    const files = new Map([[name.replace(/^.*[\\/]/, ''), bytes]]);
    return { ...(await (await import('./htmlImport')).htmlToDocument(files)), files };
  } else json = new TextDecoder().decode(bytes);
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ImportError('export.json is not JSON');
  }
  const parsed = exportSchema.safeParse(raw);
  if (!parsed.success) throw new ImportError(`export.json is not our export: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
  return { document: parsed.data, files: new Map(Object.entries(entries)), problems: [] };
}

export class ImportError extends Error {}

/** Data with its page links, page blocks and files moved to the new ids. */
function remap(data: Record<string, unknown>, pages: ReadonlyMap<string, string>, files: ReadonlyMap<string, string>): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  const tokens = copy.tokens as Array<{ link?: { href: string; pageId?: string } }> | undefined;
  for (const token of tokens ?? []) {
    const target = token.link?.pageId ? pages.get(token.link.pageId) : undefined;
    if (token.link && target) token.link = { href: `/${target}`, pageId: target };
  }
  if (typeof copy.pageId === 'string' && pages.has(copy.pageId)) copy.pageId = pages.get(copy.pageId);
  const remote = copy.remoteData as { fileId?: string } | null | undefined;
  if (remote?.fileId && files.has(remote.fileId)) remote.fileId = files.get(remote.fileId);
  return copy;
}

/**
 * Makes the pages of an export under `place` (a parent page, or a section of the workspace): in
 * one transaction that holds the tree lock. Files are written to the store first; those of a
 * failed import stay unreferenced (the store's sweep takes them).
 */
export async function importExport(
  trx: Transaction<Database>,
  input: { document: ImportDocument; files: Map<string, Uint8Array>; workspaceId: string; parent: PageRow | null; section: 'private' | 'all' | null; userId: string; filesDir: string },
): Promise<ImportReport> {
  const { document } = input;
  const report: ImportReport = { pages: [], blocks: 0, files: 0, problems: [] };
  const pageIds = new Map(document.pages.map((p) => [p.id, newId()]));
  const pageOfFile = new Map<string, string>();
  for (const page of document.pages) {
    for (const block of page.blocks) {
      const fileId = (block.data.remoteData as { fileId?: unknown } | null | undefined)?.fileId;
      if (typeof fileId === 'string' && !pageOfFile.has(fileId)) pageOfFile.set(fileId, page.id);
    }
  }
  // Pages, parents first: an export lists them so; one whose parent is not in it goes under `place`.
  const made = new Map<string, PageRow>();
  for (const page of document.pages) {
    const parent = page.parentId && made.has(page.parentId) ? made.get(page.parentId)! : input.parent;
    const type: PageType = (PAGE_TYPES as readonly string[]).includes(page.type) && page.type !== 'Database' && page.type !== 'Widget' && page.type !== 'WidgetView' ? (page.type as PageType) : 'Note';
    if (type !== page.type) report.problems.push({ page: page.title, message: `a ${page.type} page is imported as a plain page` });
    const row = await insertPage(trx, { id: pageIds.get(page.id)!, workspaceId: input.workspaceId, parent, section: parent ? null : input.section, type, title: page.title, createdBy: input.userId, grantCreatorFull: parent === null });
    if (page.icon) await trx.updateTable('pages').set({ icon: page.icon }).where('id', '=', row.id).execute();
    made.set(page.id, row);
    report.pages.push({ id: row.id, title: page.title });
  }
  // Files: new ids, attached to the page that shows them.
  const fileIds = new Map<string, string>();
  for (const file of document.files) {
    const bytes = input.files.get(file.path);
    const owner = pageOfFile.get(file.id);
    if (!bytes || !owner) {
      report.problems.push({ page: '', message: `the file «${file.name}» is not in the zip` });
      continue;
    }
    const id = newId();
    const key = storageKeyFor(id);
    const target = storagePath(input.filesDir, key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, bytes);
    const page = made.get(owner)!;
    await trx
      .insertInto('files')
      .values({ id, owner_id: input.userId, page_id: page.id, workspace_id: page.workspace_id, name: file.name, mime_type: file.mimeType, size: bytes.length, storage_key: key, is_public: 0, status: 'ready', upload_token_hash: null, upload_expires_at: null, created_at: nowIso() })
      .execute();
    fileIds.set(file.id, id);
    report.files += 1;
  }
  // Blocks, in document order: each parent's children get keys in that order.
  for (const page of document.pages) {
    const pageRow = made.get(page.id)!;
    const blockIds = new Map<string, string>();
    const kept = page.blocks.filter((block) => {
      const definition = definitionForWireType(block.type);
      if (!definition || block.type === 'database' || block.type === 'databaseRow') {
        report.problems.push({ page: page.title, message: block.type === 'database' ? 'a database is not imported yet' : `a block of the unknown type «${block.type}» is left out` });
        return false;
      }
      const remote = (block.data.remoteData as { fileId?: string } | null | undefined)?.fileId;
      if (remote && !fileIds.has(remote)) {
        report.problems.push({ page: page.title, message: 'a picture or file whose file is missing is left out' });
        return false;
      }
      blockIds.set(block.id, newId());
      return true;
    });
    // Each parent's children get keys in their order; blocks go in in document order (parents first).
    const siblingsOf = new Map<string | null, string[]>();
    const parentOf = (block: (typeof kept)[number]) => (block.parentId && blockIds.has(block.parentId) ? block.parentId : null);
    for (const block of kept) siblingsOf.set(parentOf(block), [...(siblingsOf.get(parentOf(block)) ?? []), block.id]);
    const keyOf = new Map<string, string>();
    for (const ids of siblingsOf.values()) generateNKeysBetween(null, null, ids.length).forEach((key, at) => keyOf.set(ids[at], key));
    for (const block of kept) {
      const definition = definitionForWireType(block.type)!;
      const data = definition.dataSchema.safeParse(remap(block.data, pageIds, fileIds));
      if (!data.success) {
        report.problems.push({ page: page.title, message: `a ${block.type} block whose data does not fit is left out` });
        blockIds.delete(block.id);
        continue;
      }
      const parent = parentOf(block);
      await insertBlock(trx, { id: blockIds.get(block.id)!, pageId: pageRow.id, parentId: parent === null || !blockIds.has(parent) ? null : blockIds.get(parent)!, sortKey: keyOf.get(block.id)!, type: block.type as never, data: definition.canonicalize(data.data) as BlockData, userId: input.userId });
      report.blocks += 1;
    }
  }
  return report;
}
