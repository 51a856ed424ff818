import { strFromU8 } from 'fflate';
import { z } from 'zod';
import { definitionForWireType, upgradeData } from '../../schema/blocks';
import { rowValueSchema } from '../../schema/blocks/database';
import { type ImportProblem, importProblem } from '../../schema/importProblems';
import { markdownToDocument } from './markdownImport';
import { archiveBudget, ImportError, unzipWithin } from './archive';
import { isNotionExport, notionToDocument } from './notionImport';

/**
 * Reading an upload into our export's document (issue 18, docs/import-export.md «Importing»): our
 * JSON export (`export.json` alone or in its zip), a Notion export, Markdown or HTML files — what
 * the import's worker thread runs (server/export/importRead.ts). Nothing here touches the
 * database or the file store (server/export/jsonImport.ts writes the document), so the worker
 * loads no more than reading needs.
 */

const blocksSchema = z
  .array(
    z.object({ id: z.string().min(1).max(128), type: z.string().max(40), data: z.record(z.string(), z.unknown()), parentId: z.string().max(128).nullable() }),
  )
  .max(100_000);

/** A database's row (or row template) in `export.json`: its title, icon, written values and blocks. */
const exportedRowSchema = z.object({
  id: z.string().min(1).max(128),
  title: z.string().max(2000),
  icon: z.string().max(256).nullable().optional(),
  values: z.record(z.string(), rowValueSchema),
  blocks: blocksSchema,
});

const exportSchema = z.object({
  format: z.literal('blocknote-export'),
  version: z.literal(1),
  /** The version of each block type's data in the export (schema/blocks/versions.ts); absent, or a type not named: 1. */
  dataVersions: z.record(z.string().max(40), z.number().int().min(1)).optional(),
  pages: z
    .array(
      z.object({
        id: z.string().min(1).max(128),
        parentId: z.string().max(128).nullable(),
        type: z.string().max(40),
        title: z.string().max(2000),
        icon: z.string().max(256).nullable().optional(),
        blocks: blocksSchema,
        databases: z
          .array(
            z.object({
              blockId: z.string().min(1).max(128),
              rows: z.array(exportedRowSchema).max(100_000),
              /** Its row templates (docs/api/databases.md «Row templates»); exports before them have none. */
              templates: z.array(exportedRowSchema).max(1_000).optional(),
            }),
          )
          .max(1_000)
          .optional(),
        comments: z
          .array(
            z.object({
              id: z.string().min(1).max(128),
              repliedTo: z.string().max(128).nullable(),
              author: z.object({ id: z.string().max(128), name: z.string().max(500), email: z.string().max(500) }),
              content: z.array(z.record(z.string(), z.unknown())).max(10_000),
              attaches: z.array(z.object({ id: z.string().max(128), name: z.string().max(500), extension: z.string().max(100) })).max(100),
              createdAt: z.string().max(40),
              updatedAt: z.string().max(40),
            }),
          )
          .max(100_000)
          .optional(),
      }),
    )
    .min(1)
    .max(10_000),
  files: z
    .array(
      z.object({
        id: z.string().min(1).max(128),
        name: z.string().max(255),
        // Any text: what is not a media type is stored as application/octet-stream (importExport).
        mimeType: z.string().max(1000),
        size: z.number().int().min(0),
        path: z.string().max(1000),
      }),
    )
    .max(10_000)
    .default([]),
});
export type ImportDocument = z.infer<typeof exportSchema>;

/** A block of the document. */
export type ImportBlock = ImportDocument['pages'][number]['blocks'][number];

/**
 * What an upload holds, as our export's document: a zip with `export.json` (our JSON export), a
 * Notion «Markdown & CSV» export (server/export/notionImport.ts), a zip of Markdown or HTML files
 * (with their pictures; each file read by its extension), our JSON alone, or one Markdown or HTML
 * file (`name` ends in `.md`, `.html`…). Throws with a message a person can read.
 */
export async function readExport(
  bytes: Uint8Array,
  name = '',
): Promise<{ document: ImportDocument; files: Map<string, Uint8Array>; problems: ImportProblem[] }> {
  let json: string;
  let entries: Record<string, Uint8Array> = {};
  const lower = name.toLowerCase();
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    // Within bounds: a zip (and a Notion export's zips inside it) may not unpack into more than ARCHIVE_LIMITS.
    const budget = archiveBudget();
    entries = unzipWithin(bytes, budget);
    const found = Object.keys(entries).find((n) => n === 'export.json' || n.endsWith('/export.json'));
    if (!found) {
      const files = new Map(Object.entries(entries));
      const has = (pattern: RegExp) => [...files.keys()].some((n) => pattern.test(n) && !n.startsWith('__MACOSX/'));
      const markdown = has(/\.md$/i);
      // Notion's «Markdown & CSV» (its parts as zips inside, or its `.md` files with ids); its HTML export is read as HTML.
      if ((markdown || has(/\.zip$/i)) && isNotionExport([...files.keys()])) return notionToDocument(files, budget);
      // HTML (with any Markdown beside it) is read in a worker with a DOM: see htmlImport.ts.
      if (has(/\.html?$/i)) return { ...(await (await import('./htmlImport')).htmlToDocument(files, { markdown })), files };
      if (!markdown) throw new ImportError('the zip holds neither export.json nor Markdown or HTML files');
      const { document, problems } = markdownToDocument(files);
      return { document, problems, files };
    }
    json = strFromU8(entries[found]);
  } else if (lower.endsWith('.md') || lower.endsWith('.markdown')) {
    const files = new Map([[name.replace(/\.markdown$/i, '.md').replace(/^.*[\\/]/, ''), bytes]]);
    const { document, problems } = markdownToDocument(files);
    return { document, problems, files };
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
  const problems: ImportProblem[] = [];
  return { document: upgradeDocument(parsed.data, problems), files: new Map(Object.entries(entries)), problems };
}

/**
 * An export's blocks with their data taken up to the current version of their type (an export
 * made before a shape changed; one without `dataVersions` is from before versions: 1). A block
 * whose data this server cannot take up (newer than it knows) is left out and reported.
 */
function upgradeDocument(document: ImportDocument, problems: ImportProblem[]): ImportDocument {
  const upgrade =
    (title: string) =>
    (kept: ImportBlock[], block: ImportBlock): ImportBlock[] => {
      const definition = definitionForWireType(block.type);
      const upgraded = definition ? upgradeData(definition, block.data, document.dataVersions?.[block.type] ?? 1) : null;
      if (upgraded && 'error' in upgraded) problems.push(importProblem(title, 'blockUnfit', { type: block.type }));
      else kept.push(upgraded ? { ...block, data: upgraded.data } : block);
      return kept;
    };
  return {
    ...document,
    pages: document.pages.map((page) => ({
      ...page,
      blocks: page.blocks.reduce(upgrade(page.title), []),
      databases: page.databases?.map((database) => ({
        ...database,
        rows: database.rows.map((row) => ({ ...row, blocks: row.blocks.reduce(upgrade(row.title), []) })),
      })),
    })),
  };
}

export { ImportError };
