import { marked, type Token as MdToken, type Tokens } from 'marked';
import { CODE_LANGUAGES } from '../../plugins/blocks/code/block';
import { DEFAULT_CALLOUT_ICON } from '../../plugins/blocks/callout/block';
import path from 'node:path';
import { foldersUp } from './archive';
import { inlineTokens, type InlineReading } from '../../schema/markdown/read';
import { canonicalTokens, isSafeHref, PAGE_LINK_TEXT, type Token } from '../../schema/token';
import type { ImportDocument } from './readExport';
import { newId } from '../../schema/ids';
import { type ImportNote, type ImportProblem, importNote } from '../../schema/importProblems';

/**
 * Markdown as blocks (issue 18, import; docs/import-export.md «Markdown»), by `marked`'s lexer
 * (CommonMark and GitHub's tables, task lists, strikethrough): headings, paragraphs, lists (nested
 * items as child blocks; task items as to-dos), quotes, code with its language, tables, dividers,
 * `$$` formulas, pictures and links. Links and pictures that point into the import are given to
 * `resolve` (a page of the import, a file of the zip); others stay links (http(s) only).
 */

export interface ImportedBlock {
  /** A key of this block within the page (its parent is named by it). */
  key: number;
  parent: number | null;
  type: string;
  data: Record<string, unknown>;
}

export interface MarkdownTargets {
  /** A link's target inside the import: a page (its key in the import) or a file (bytes and name), else null. */
  resolve(href: string): { page: string } | { file: string; name: string } | null;
  /** Whether a page of the import is a subpage of this one: a link to it alone in its paragraph is its page block. */
  isChild?(page: string): boolean;
}

/**
 * Our Markdown export writes a database as its first view's table after a marker holding the
 * database's fields, then a link to its CSV alone in its paragraph (server/export/pageExport.ts
 * `viewMarkdown`): the marker and the table, which the CSV gives again, as found in `markdown`.
 */
const DATABASE_VIEW = /<!-- stranitsy-database (\{[^\n]*\}) -->\n\n(?:\|[^\n]*\n)+\n(?=\[[^\]\n]*\]\(([^)\s]+\.csv)\))/g;

/** The databases' fields our export wrote before their tables, by the CSV link that follows (as written). */
export function databaseViews(markdown: string): Map<string, Record<string, unknown>> {
  const views = new Map<string, Record<string, unknown>>();
  for (const [, json, href] of markdown.matchAll(DATABASE_VIEW)) {
    try {
      const read = JSON.parse(json) as { fields?: unknown };
      if (read.fields && typeof read.fields === 'object') views.set(href, read.fields as Record<string, unknown>);
    } catch {
      // Not ours after all: the fields are guessed from the CSV.
    }
  }
  return views;
}

/** The Markdown without our export's database tables (and their markers): each database is its CSV link alone. */
export function withoutDatabaseViews(markdown: string): string {
  return markdown.replace(DATABASE_VIEW, '');
}

/** What a Markdown document becomes: its title (a leading `# ` heading, as our export writes it) and its blocks. */
export function markdownToBlocks(source: string, targets: MarkdownTargets): { title: string | null; blocks: ImportedBlock[]; problems: ImportNote[] } {
  const markdown = withoutDatabaseViews(source);
  const blocks: ImportedBlock[] = [];
  const problems: ImportNote[] = [];
  let key = 0;
  const add = (parent: number | null, type: string, data: Record<string, unknown>) => {
    const block = { key: key++, parent, type, data };
    blocks.push(block);
    return block.key;
  };
  const tokens = marked.lexer(markdown);

  // Inline text as every reader of Markdown reads it (schema/markdown/read.ts), links and pictures resolved against the import's pages and files.
  const reading: InlineReading = {
    link: (href, inner, marks) => {
      const target = targets.resolve(href);
      // A page link reads as the app's do: the page's icon and current title drawn before its text, `↗` (its Markdown text would repeat the title).
      if (target && 'page' in target) return [{ text: PAGE_LINK_TEXT, ...marks, link: { href: `/${target.page}`, pageId: target.page } }];
      return isSafeHref(href) ? inner.map((t) => ({ ...t, link: { href } })) : inner;
    },
    // A picture inside text: its alt text (pictures are blocks here).
    image: (image, marks) => [{ text: image.text || '', ...marks }],
    otherTags: 'drop',
  };
  const inline = (list: readonly MdToken[] | undefined): Token[] => inlineTokens(list, reading);
  // The first heading of level 1 is the page's title (as the export writes it).
  let title: string | null = null;
  const first = tokens.find((t) => t.type !== 'space');
  if (first?.type === 'heading' && (first as Tokens.Heading).depth === 1) {
    title = inline((first as Tokens.Heading).tokens)
      .map((t) => t.text)
      .join('')
      .trim();
    tokens.splice(tokens.indexOf(first), 1);
  }

  const walk = (list: readonly MdToken[], parent: number | null) => {
    for (const token of list) {
      switch (token.type) {
        case 'space':
          break;
        case 'heading': {
          const heading = token as Tokens.Heading;
          add(parent, `heading${Math.min(3, heading.depth)}`, { tokens: inline(heading.tokens) });
          break;
        }
        case 'paragraph': {
          const paragraph = token as Tokens.Paragraph;
          // A paragraph that is a picture alone (how pictures are written) is a picture block.
          const only = paragraph.tokens.filter((t) => !(t.type === 'text' && !t.text.trim()));
          if (only.length === 1 && only[0].type === 'image') {
            picture(only[0] as Tokens.Image, parent);
            break;
          }
          // A link alone to a file of the import is the file (an attachment); to a subpage, its page block.
          const target = only.length === 1 && only[0].type === 'link' ? targets.resolve((only[0] as Tokens.Link).href) : null;
          if (target && 'file' in target) {
            add(parent, 'file', {
              remoteData: { fileId: target.file, title: (only[0] as Tokens.Link).text.trim() || target.name, size: 0, mimeType: 'application/octet-stream' },
            });
            break;
          }
          if (target && targets.isChild?.(target.page)) {
            add(parent, 'document', { pageId: target.page });
            break;
          }
          const formula = /^\$\$\s*([\s\S]*?)\s*\$\$$/.exec(paragraph.text.trim());
          if (formula) add(parent, 'latex', { formula: formula[1] });
          else add(parent, 'text', { tokens: inline(paragraph.tokens) });
          break;
        }
        case 'list': {
          const list = token as Tokens.List;
          list.items.forEach((item, at) => {
            const own = item.tokens.filter((t) => t.type !== 'list' && t.type !== 'checkbox');
            const nested = item.tokens.filter((t) => t.type === 'list');
            const text = canonicalTokens(own.flatMap((t) => ('tokens' in t && t.tokens ? inline(t.tokens) : t.type === 'text' ? inline([t]) : [])));
            const type = item.task ? 'checkbox' : list.ordered ? 'orderedList' : 'bulletList';
            const data: Record<string, unknown> = { tokens: text };
            if (item.task) data.checked = Boolean(item.checked);
            if (list.ordered && at === 0 && typeof list.start === 'number' && list.start !== 1) data.forcedOrder = list.start;
            const itemKey = add(parent, type, data);
            walk(nested, itemKey);
          });
          break;
        }
        case 'blockquote': {
          const quote = token as Tokens.Blockquote;
          const text = quote.tokens.flatMap((t, i) => [...(i > 0 ? [{ text: '\n' }] : []), ...('tokens' in t && t.tokens ? inline(t.tokens) : [])]);
          add(parent, 'quote', { tokens: canonicalTokens(text) });
          break;
        }
        case 'code': {
          const code = token as Tokens.Code;
          const language = (CODE_LANGUAGES as readonly string[]).includes(code.lang ?? '') ? code.lang : 'plain';
          if (code.lang === 'math' || code.lang === 'latex') add(parent, 'latex', { formula: code.text });
          else add(parent, 'code', { tokens: code.text ? [{ text: code.text }] : [], language });
          break;
        }
        case 'hr':
          add(parent, 'divider', {});
          break;
        case 'table': {
          const table = token as Tokens.Table;
          const rows = [table.header, ...table.rows];
          const columns = table.header.length;
          const cells: Token[] = [];
          rows.forEach((row, y) => row.forEach((cell, x) => cells.push(...inline(cell.tokens).map((t) => ({ ...t, tableAddress: { x, y } })))));
          add(parent, 'table', {
            tokens: cells,
            tableLayout: { columns, rows: rows.length, columnSizes: Array.from({ length: columns }, () => 120) },
            headerRow: true,
            headerColumn: false,
          });
          break;
        }
        case 'html': {
          const html = (token as Tokens.HTML).text;
          const text = html.replace(/<[^>]*>/g, '').trim();
          // Notion writes its callouts as `<aside>💡 text</aside>`: a callout, its leading emoji the icon.
          const callout = /^<aside>/i.test(html.trim()) ? /^(\p{Extended_Pictographic}\uFE0F?)\s*([\s\S]*)$/u.exec(text) : null;
          if (/^<aside>/i.test(html.trim()))
            add(parent, 'callout', {
              tokens: canonicalTokens([{ text: callout ? callout[2] : text }].filter((t) => t.text !== '')),
              icon: callout ? callout[1] : DEFAULT_CALLOUT_ICON,
            });
          else if (text) add(parent, 'text', { tokens: [{ text }] });
          break;
        }
        default:
          problems.push(importNote('markdownUnknown', { kind: token.type }));
      }
    }
  };
  const picture = (image: Tokens.Image, parent: number | null) => {
    const target = targets.resolve(image.href);
    if (target && 'file' in target)
      add(parent, 'image', {
        remoteData: { fileId: target.file, title: image.text || 'picture', size: 0, mimeType: 'image/png' },
        crop: null,
        scale: 1,
        align: 'center',
      });
    else problems.push(importNote('pictureMissing', { src: image.href }));
  };
  walk(tokens, null);
  return { title, blocks, problems };
}

type DocumentPage = ImportDocument['pages'][number];
type DocumentBlock = DocumentPage['blocks'][number];
type DocumentFile = ImportDocument['files'][number];

/** A page file's reading (Markdown, HTML): its title and icon if it names them, its blocks (`parentId` naming an earlier block's `id`), what it could not take. */
export type PageFileReader = (
  bytes: Uint8Array,
  targets: MarkdownTargets,
) => { title: string | null; icon?: string | null; blocks: DocumentBlock[]; problems: ImportNote[] };

/** Markdown as a page file's reading. */
export const readMarkdownPage: PageFileReader = (bytes, targets) => {
  const parsed = markdownToBlocks(new TextDecoder().decode(bytes), targets);
  return {
    title: parsed.title,
    problems: parsed.problems,
    blocks: parsed.blocks.map((b) => ({ id: `b${b.key}`, type: b.type, data: b.data, parentId: b.parent === null ? null : `b${b.parent}` })),
  };
};

/**
 * What a set of page files holds beyond plain files in folders (a Notion export,
 * server/export/notionImport.ts, says more): the defaults read ours and plain folders of files.
 */
export interface MarkdownLayout {
  /** Files that are not pages of their own (a database's rows, which the caller reads). */
  rows?: ReadonlySet<string>;
  /** The page files and their keys, when the caller worked them out first (`pageFiles`, with `rows`). */
  pages?: Map<string, string>;
  /** A link's target when it is no page file of the import: a page's key (a database's page, a row) or null. `path` is the link resolved against the file's folder (null for an address). */
  target?(path: string | null, href: string): string | null;
  /** The key of the page a folder's files go under; the default is the page file beside it of the folder's name, else the nearest such page up. */
  folderPage?(dir: string): string | null;
  /** The parent of a page that `target` names (a subpage's link alone in its paragraph is its page block). */
  parentOf?(key: string): string | null;
}

/** The page files of an import as they are read: the pages' keys by file, the files of the zip their links show. */
export interface MarkdownReading {
  entries: ReadonlyMap<string, Uint8Array>;
  layout: MarkdownLayout;
  /** Page files → their keys in the document. */
  pages: Map<string, string>;
  /** Page keys → their parents' keys. */
  parents: Map<string, string | null>;
  /** Files of the zip that links and pictures pointed at, by path. */
  files: Map<string, DocumentFile>;
}

const extensionOf = (name: string) => /\.([a-z]+)$/i.exec(name)?.[1].toLowerCase() ?? '';

/**
 * The files of an import that are pages (of the `extensions` read; not `rows`, not macOS's
 * leftovers), parents' folders first, with their keys in the document: uuids, since a reader may
 * hand them to code that takes page links only to uuids (the clipboard's HTML reader).
 */
export function pageFiles(
  entries: ReadonlyMap<string, Uint8Array>,
  rows: ReadonlySet<string> = new Set(),
  extensions: readonly string[] = ['md'],
): Map<string, string> {
  const names = [...entries.keys()]
    .filter((name) => extensions.includes(extensionOf(name)) && !name.startsWith('__MACOSX/') && !rows.has(name))
    .sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  return new Map(names.map((name) => [name, newId()]));
}

/** The page under which a folder's files go: the page file beside it with the folder's name, else the nearest such page up. */
export function nearestFolderPage(dir: string, pages: ReadonlyMap<string, string>, extensions: readonly string[] = ['md']): string | null {
  for (const at of foldersUp(dir)) {
    for (const extension of extensions) if (pages.has(`${at}.${extension}`)) return pages.get(`${at}.${extension}`)!;
  }
  return null;
}

/** A file's title when it names none itself: its name without its extension and a Notion-style id suffix (` <32 hex>`). */
export function titleOfName(name: string): string {
  return path.posix
    .basename(name)
    .replace(/\.(md|csv|html?)$/i, '')
    .replace(/_all$/, '')
    .replace(/\s?[0-9a-f]{32}$/, '')
    .trim();
}

/**
 * The targets of one page file's links, resolved from its folder: a page of the import (a page
 * link, or a page block for a subpage alone in its paragraph), a file of the zip (a picture, an
 * attachment); `key` is the page's own key.
 */
export function targetsOf(reading: MarkdownReading, name: string, key: string | null): MarkdownTargets {
  const dir = path.posix.dirname(name);
  const resolve = (href: string): { page: string } | { file: string; name: string } | null => {
    let target: string | null = null;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('/') && !href.startsWith('#')) {
      try {
        target = path.posix.normalize(path.posix.join(dir === '.' ? '' : dir, decodeURIComponent(href.split('#')[0])));
      } catch {
        target = null;
      }
    }
    if (target !== null && reading.pages.has(target)) return { page: reading.pages.get(target)! };
    const other = reading.layout.target?.(target, href);
    if (other) return { page: other };
    const bytes = target === null || /\.(md|csv|html?)$/i.test(target) ? undefined : reading.entries.get(target);
    if (!bytes || target === null) return null;
    if (!reading.files.has(target))
      reading.files.set(target, {
        id: `md-file-${reading.files.size}`,
        name: path.posix.basename(target),
        mimeType: mimeOf(target),
        size: bytes.length,
        path: target,
      });
    return { file: reading.files.get(target)!.id, name: path.posix.basename(target) };
  };
  const isChild = (page: string) => key !== null && (reading.parents.has(page) ? reading.parents.get(page) : reading.layout.parentOf?.(page)) === key;
  return { resolve, isChild };
}

/** One Markdown file read as a page's (or a row's) blocks, its links resolved from its folder (`targetsOf`). */
export function readMarkdownFile(
  reading: MarkdownReading,
  name: string,
  text: string,
  key: string | null,
): { title: string | null; blocks: DocumentBlock[]; problems: ImportNote[] } {
  return readMarkdownPage(new TextEncoder().encode(text), targetsOf(reading, name, key));
}

/** The files the pages and rows show, with their real size and type; those only linked from text are not taken. */
export function collectFiles(document: ImportDocument, reading: MarkdownReading): void {
  const owners = [...document.pages, ...document.pages.flatMap((page) => (page.databases ?? []).flatMap((database) => database.rows))];
  const byId = new Map([...reading.files.values()].map((file) => [file.id, file]));
  const shown = new Set<string>();
  for (const block of owners.flatMap((owner) => owner.blocks)) {
    const remote = block.data.remoteData as { fileId: string; size: number; mimeType: string } | undefined;
    const file = remote ? byId.get(remote.fileId) : undefined;
    if (!remote || !file) continue;
    shown.add(file.id);
    Object.assign(remote, { size: file.size, mimeType: file.mimeType });
  }
  document.files = [...reading.files.values()].filter((file) => shown.has(file.id));
}

/**
 * Page files (a zip's entries by path, or one file) as our export's document: a page per file
 * whose extension has a reader (`md`, `html`…; but `layout.rows`), a folder's pages under the page
 * of the same name beside it, pictures and attachments from the zip. Answers the reading too, for
 * a caller that reads more files (a database's rows).
 */
export function pageFilesToDocument(
  entries: ReadonlyMap<string, Uint8Array>,
  readers: Readonly<Record<string, PageFileReader>>,
  layout: MarkdownLayout = {},
): { document: ImportDocument; problems: ImportProblem[]; reading: MarkdownReading } {
  const extensions = Object.keys(readers);
  const reading: MarkdownReading = {
    entries,
    layout,
    pages: layout.pages ?? pageFiles(entries, layout.rows, extensions),
    parents: new Map(),
    files: new Map(),
  };
  const names = [...reading.pages.keys()];
  // The page of a folder is the file beside it with the folder's name (Notion's and our export's way).
  for (const name of names) {
    const dir = path.posix.dirname(name);
    reading.parents.set(
      reading.pages.get(name)!,
      dir === '.' ? null : layout.folderPage ? layout.folderPage(dir) : nearestFolderPage(dir, reading.pages, extensions),
    );
  }
  const problems: ImportProblem[] = [];
  const document: ImportDocument = { format: 'blocknote-export', version: 1, pages: [], files: [] };
  for (const name of names) {
    const key = reading.pages.get(name)!;
    const parsed = readers[extensionOf(name)](entries.get(name)!, targetsOf(reading, name, key));
    const title = parsed.title ?? titleOfName(name);
    document.pages.push({ id: key, parentId: reading.parents.get(key) ?? null, type: 'Note', title, icon: parsed.icon ?? null, blocks: parsed.blocks });
    problems.push(...parsed.problems.map((note) => ({ page: title, ...note })));
  }
  collectFiles(document, reading);
  return { document, problems, reading };
}

/** Markdown files as our export's document (`pageFilesToDocument` with the Markdown reader). */
export function markdownToDocument(entries: ReadonlyMap<string, Uint8Array>, layout: MarkdownLayout = {}): ReturnType<typeof pageFilesToDocument> {
  return pageFilesToDocument(entries, { md: readMarkdownPage }, layout);
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};
const mimeOf = (name: string) => MIME[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
