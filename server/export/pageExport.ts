import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Kysely } from 'kysely';
import type { WireBlock } from '../../schema/block';
import { blocksToSlate } from '../../schema/block';
import { escapeHtml } from '../../schema/html';
import { blocksToHtml } from '../../plugins/withClipboard/serialize';
import type { Database, PageRow } from '../db/types';
import { allows, pageAccessLevels } from '../policies/page';
import { listPageBlocks } from '../repositories/blocks';
import { storagePath } from '../repositories/files';
import { pagePath } from '../repositories/pages';
import { blocksToMarkdown, type MarkdownLinks } from './markdown';

/**
 * Exporting pages (issue 18, docs/import-export.md): a page, and its subpages the caller may read,
 * as a zip — Markdown files (with their pictures and files beside them, linked by relative paths
 * that open offline), HTML files, or our JSON (`export.json`, lossless: what import reads back).
 */

export const EXPORT_FORMATS = ['markdown', 'html', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The JSON export's shape (`export.json`). */
export interface JsonExport {
  format: 'blocknote-export';
  version: 1;
  exportedAt: string;
  pages: Array<{ id: string; parentId: string | null; type: string; title: string; icon: string | null; cover: unknown; blocks: Array<Pick<WireBlock, 'id' | 'type' | 'data' | 'parentId'>> }>;
  files: Array<{ id: string; name: string; mimeType: string; size: number; path: string }>;
}

/** The page and, with `subpages`, its live descendants (not database rows) the user may read; parents before children. */
export async function pagesToExport(db: Kysely<Database>, userId: string, root: PageRow, subpages: boolean): Promise<PageRow[]> {
  if (!subpages) return [root];
  const below = await db
    .selectFrom('pages')
    .selectAll()
    .where('path', 'like', `%"${root.id}"%`)
    .where('in_trash', '=', 0)
    .where('database_id', 'is', null)
    .execute();
  const levels = await pageAccessLevels(db, userId, below);
  const readable = below.filter((p) => allows(levels.get(p.id) ?? 'none', 'read'));
  // A page under one the user may not read has no place in the tree exported: left out.
  const kept = new Set([root.id]);
  const ordered = [root];
  for (const page of readable.sort((a, b) => pagePath(a).length - pagePath(b).length || (a.sort_key < b.sort_key ? -1 : 1))) {
    if (page.parent_id && kept.has(page.parent_id)) {
      kept.add(page.id);
      ordered.push(page);
    }
  }
  return ordered;
}

/** A name for a file in the zip: no path separators or characters file systems refuse, not too long. */
export function fileName(title: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what file systems refuse
  const clean = title.replace(/[\\/:*?"<>|\u0000-\u001f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80).replace(/[. ]+$/, '');
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
export function exportZip(db: Kysely<Database>, filesDir: string, pages: readonly PageRow[], format: ExportFormat, untitled: string): Readable {
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) out.destroy(error);
    else {
      out.write(Buffer.from(chunk));
      if (final) out.end();
    }
  });
  const addText = (name: string, text: string) => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(new TextEncoder().encode(text), true);
  };
  void (async () => {
    const paths = pagePaths(pages, untitled);
    const pageIds = new Set(pages.map((p) => p.id));
    const blocksOf = new Map<string, WireBlock[]>();
    for (const page of pages) blocksOf.set(page.id, await listPageBlocks(db, page.id));
    // The files shown: attached to one of these pages.
    const fileIds = new Set<string>();
    for (const blocks of blocksOf.values()) {
      for (const block of blocks) {
        const remote = (block.data as { remoteData?: { fileId?: unknown } | null }).remoteData;
        if (typeof remote?.fileId === 'string') fileIds.add(remote.fileId);
      }
    }
    const files = fileIds.size ? (await db.selectFrom('files').selectAll().where('id', 'in', [...fileIds]).where('status', '=', 'ready').execute()).filter((f) => f.page_id !== null && pageIds.has(f.page_id)) : [];
    const filePath = new Map(files.map((f) => [f.id, `files/${f.id}/${fileName(f.name, 'file')}`]));
    const extension = format === 'html' ? 'html' : 'md';
    if (format === 'json') {
      const document: JsonExport = {
        format: 'blocknote-export',
        version: 1,
        exportedAt: new Date().toISOString(),
        pages: pages.map((p) => ({
          id: p.id,
          parentId: p.id === pages[0].id ? null : p.parent_id,
          type: p.type,
          title: p.title,
          icon: p.icon,
          cover: p.cover ? (JSON.parse(p.cover) as unknown) : null,
          blocks: (blocksOf.get(p.id) ?? []).map((b) => ({ id: b.id, type: b.type, data: b.data, parentId: b.parentId })),
        })),
        files: files.map((f) => ({ id: f.id, name: f.name, mimeType: f.mime_type, size: f.size, path: filePath.get(f.id)! })),
      };
      addText('export.json', JSON.stringify(document, null, 2));
    } else {
      for (const page of pages) {
        const file = `${paths.get(page.id)!}.${extension}`;
        const links: MarkdownLinks = {
          page: (id) => (pageIds.has(id) ? relative(file, `${paths.get(id)!}.${extension}`) : null),
          file: (id, name) => (filePath.has(id) ? relative(file, filePath.get(id)!) : `files/${id}/${name}`),
        };
        const blocks = blocksOf.get(page.id) ?? [];
        const title = page.title || untitled;
        if (format === 'markdown') addText(file, `# ${title}\n\n${blocksToMarkdown(blocks, links)}`);
        else addText(file, htmlDocument(title, blocks, links));
      }
    }
    for (const f of files) {
      // Pictures and archives are compressed already: stored as they are.
      const entry = /^(image|video|audio)\/|zip|compressed/.test(f.mime_type) ? new ZipPassThrough(filePath.get(f.id)!) : new ZipDeflate(filePath.get(f.id)!, { level: 6 });
      zip.add(entry);
      await new Promise<void>((resolve, reject) => {
        const stream = fs.createReadStream(storagePath(filesDir, f.storage_key));
        stream.on('data', (chunk) => entry.push(chunk as Buffer));
        stream.on('end', () => {
          entry.push(new Uint8Array(0), true);
          resolve();
        });
        stream.on('error', reject);
      });
    }
    zip.end();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** A page as a standalone HTML file: its blocks through their types' HTML (the clipboard's), links made relative. */
function htmlDocument(title: string, blocks: readonly WireBlock[], links: MarkdownLinks): string {
  let body = blocksToHtml(blocksToSlate(blocks));
  // Page links and files point into the export.
  body = body.replace(/href="\/([0-9a-f-]{36})"/g, (whole, id: string) => {
    const target = links.page(id);
    return target ? `href="${escapeHtml(target)}"` : whole;
  });
  body = body.replace(/(src|href)="\/api\/file\/([^"/]+)"/g, (_whole, attribute: string, id: string) => `${attribute}="${escapeHtml(links.file(decodeURIComponent(id), 'file'))}"`);
  return `<!doctype html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(title)}</title>\n</head>\n<body>\n<h1>${escapeHtml(title)}</h1>\n${body}\n</body>\n</html>\n`;
}
