import { marked, type Token as MdToken, type Tokens } from 'marked';
import { CODE_LANGUAGES } from '../../schema/blocks/code';
import path from 'node:path';
import { canonicalTokens, isSafeHref, type Token } from '../../schema/token';
import type { ImportDocument } from './jsonImport';
import { newId } from '../../schema/ids';

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
  resolve(href: string): { page: string } | { file: string } | null;
}

/** What a Markdown document becomes: its title (a leading `# ` heading, as our export writes it) and its blocks. */
export function markdownToBlocks(markdown: string, targets: MarkdownTargets): { title: string | null; blocks: ImportedBlock[]; problems: string[] } {
  const blocks: ImportedBlock[] = [];
  const problems: string[] = [];
  let key = 0;
  const add = (parent: number | null, type: string, data: Record<string, unknown>) => {
    const block = { key: key++, parent, type, data };
    blocks.push(block);
    return block.key;
  };
  const tokens = marked.lexer(markdown);
  let title: string | null = null;
  const first = tokens.find((t) => t.type !== 'space');
  if (first?.type === 'heading' && (first as Tokens.Heading).depth === 1) {
    title = (first as Tokens.Heading).text.trim();
    tokens.splice(tokens.indexOf(first), 1);
  }

  const inline = (list: readonly MdToken[] | undefined, marks: Omit<Token, 'text'> = {}): Token[] => {
    const out: Token[] = [];
    for (const token of list ?? []) {
      switch (token.type) {
        case 'text':
        case 'escape':
          if ('tokens' in token && token.tokens?.length) out.push(...inline(token.tokens, marks));
          else if (token.text) out.push({ text: decode(token.text), ...marks });
          break;
        case 'strong':
          out.push(...inline((token as Tokens.Strong).tokens, { ...marks, bold: true }));
          break;
        case 'em':
          out.push(...inline((token as Tokens.Em).tokens, { ...marks, italic: true }));
          break;
        case 'del':
          out.push(...inline((token as Tokens.Del).tokens, { ...marks, struckOut: true }));
          break;
        case 'codespan':
          out.push({ text: decode((token as Tokens.Codespan).text), ...marks, code: true });
          break;
        case 'br':
          out.push({ text: '\n', ...marks });
          break;
        case 'link': {
          const link = token as Tokens.Link;
          const target = targets.resolve(link.href);
          const inner = inline(link.tokens, marks);
          if (target && 'page' in target) out.push(...inner.map((t) => ({ ...t, link: { href: `/${target.page}`, pageId: target.page } })));
          else if (isSafeHref(link.href)) out.push(...inner.map((t) => ({ ...t, link: { href: link.href } })));
          else out.push(...inner);
          break;
        }
        case 'image':
          // A picture inside text: its alt text (pictures are blocks here).
          out.push({ text: (token as Tokens.Image).text || '', ...marks });
          break;
        case 'html':
          out.push({ text: (token as Tokens.HTML).text.replace(/<[^>]*>/g, ''), ...marks });
          break;
        default:
          if ('text' in token && typeof token.text === 'string') out.push({ text: token.text, ...marks });
      }
    }
    return out.filter((t) => t.text !== '');
  };
  const tokensOf = (list: readonly MdToken[] | undefined) => canonicalTokens(inline(list));

  const walk = (list: readonly MdToken[], parent: number | null) => {
    for (const token of list) {
      switch (token.type) {
        case 'space':
          break;
        case 'heading': {
          const heading = token as Tokens.Heading;
          add(parent, `heading${Math.min(3, heading.depth)}`, { tokens: tokensOf(heading.tokens) });
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
          const formula = /^\$\$\s*([\s\S]*?)\s*\$\$$/.exec(paragraph.text.trim());
          if (formula) add(parent, 'latex', { formula: formula[1] });
          else add(parent, 'text', { tokens: tokensOf(paragraph.tokens) });
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
          add(parent, 'table', { tokens: cells, tableLayout: { columns, rows: rows.length, columnSizes: Array.from({ length: columns }, () => 120) }, headerRow: true, headerColumn: false });
          break;
        }
        case 'html': {
          const text = (token as Tokens.HTML).text.replace(/<[^>]*>/g, '').trim();
          if (text) add(parent, 'text', { tokens: [{ text }] });
          break;
        }
        default:
          problems.push(`a part of Markdown the import does not know («${token.type}») is left out`);
      }
    }
  };
  const picture = (image: Tokens.Image, parent: number | null) => {
    const target = targets.resolve(image.href);
    if (target && 'file' in target) add(parent, 'image', { remoteData: { fileId: target.file, title: image.text || 'picture', size: 0, mimeType: 'image/png' }, crop: null, scale: 1, align: 'center' });
    else problems.push(`a picture not in the import (${image.href}) is left out`);
  };
  walk(tokens, null);
  return { title, blocks, problems };
}

/** HTML entities marked leaves in text (&amp; &lt; &gt; &quot; &#39;). */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? _m);
}

/** A page file's reading (Markdown, HTML): its title and icon if it names them, its blocks (`parentId` naming an earlier block's `id`), what it could not take. */
export type PageFileReader = (text: Uint8Array, targets: MarkdownTargets) => { title: string | null; icon?: string | null; blocks: ImportDocument['pages'][number]['blocks']; problems: string[] };

/** Markdown as a page file's reading. */
export const readMarkdownFile: PageFileReader = (bytes, targets) => {
  const parsed = markdownToBlocks(new TextDecoder().decode(bytes), targets);
  return { ...parsed, blocks: parsed.blocks.map((b) => ({ id: `b${b.key}`, type: b.type, data: b.data, parentId: b.parent === null ? null : `b${b.parent}` })) };
};

/** Markdown files (a zip's entries by path, or one file) as our export's document: a page per `.md`, a folder's pages under the page of the same name, pictures from the zip. */
export function markdownToDocument(entries: ReadonlyMap<string, Uint8Array>): { document: ImportDocument; problems: Array<{ page: string; message: string }> } {
  return pageFilesToDocument(entries, { md: readMarkdownFile });
}

/**
 * Page files (a zip's entries by path) as our export's document: a page per file whose extension
 * has a reader (`md`, `html`…), a folder's pages under the page of the same name beside it,
 * links between them and pictures from the zip given to the readers as targets.
 */
export function pageFilesToDocument(entries: ReadonlyMap<string, Uint8Array>, readers: Readonly<Record<string, PageFileReader>>): { document: ImportDocument; problems: Array<{ page: string; message: string }> } {
  const extensionOf = (name: string) => /\.([a-z]+)$/i.exec(name)?.[1].toLowerCase() ?? '';
  const pages = [...entries.keys()].filter((name) => Object.hasOwn(readers, extensionOf(name)) && !name.startsWith('__MACOSX/')).sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  // Page keys are uuids: a reader may hand them to code that takes page links only to uuids (the clipboard's HTML reader).
  const keyOf = new Map(pages.map((name) => [name, newId()]));
  const files = new Map<string, { id: string; name: string; mimeType: string; size: number; path: string }>();
  const problems: Array<{ page: string; message: string }> = [];
  const document: ImportDocument = { format: 'blocknote-export', version: 1, pages: [], files: [] };
  for (const name of pages) {
    const dir = path.posix.dirname(name);
    const resolve = (href: string): { page: string } | { file: string } | null => {
      if (/^[a-z]+:/i.test(href) || href.startsWith('/') || href.startsWith('#')) return null;
      let target: string;
      try {
        target = path.posix.normalize(path.posix.join(dir === '.' ? '' : dir, decodeURIComponent(href.split('#')[0])));
      } catch {
        return null;
      }
      if (keyOf.has(target)) return { page: keyOf.get(target)! };
      const bytes = entries.get(target);
      if (!bytes) return null;
      if (!files.has(target)) files.set(target, { id: `md-file-${files.size}`, name: path.posix.basename(target), mimeType: mimeOf(target), size: bytes.length, path: target });
      return { file: files.get(target)!.id };
    };
    const parsed = readers[extensionOf(name)](entries.get(name)!, { resolve });
    const title = parsed.title ?? path.posix.basename(name).replace(/\.[a-z]+$/i, '').replace(/ [0-9a-f]{32}$/, '');
    // The page of a folder is the file beside it with the folder's name (Notion's and our export's way).
    const pageOfFolder = (folder: string) => Object.keys(readers).map((extension) => `${folder}.${extension}`).find((file) => keyOf.has(file));
    let folder = dir;
    while (folder !== '.' && !pageOfFolder(folder)) folder = path.posix.dirname(folder);
    const parentName = folder === '.' ? undefined : pageOfFolder(folder);
    document.pages.push({ id: keyOf.get(name)!, parentId: parentName ? keyOf.get(parentName)! : null, type: 'Note', title, icon: parsed.icon ?? null, blocks: parsed.blocks });
    problems.push(...parsed.problems.map((message) => ({ page: title, message })));
  }
  // Pictures: their real size and type; files no block shows are not imported.
  const shown = new Set<string>();
  const fileById = new Map([...files.values()].map((file) => [file.id, file]));
  for (const page of document.pages) {
    for (const block of page.blocks) {
      const remote = block.data.remoteData as { fileId: string; size: number; mimeType: string } | undefined;
      const file = remote ? fileById.get(remote.fileId) : undefined;
      if (remote && file) {
        Object.assign(remote, { size: file.size, mimeType: file.mimeType });
        shown.add(file.id);
      }
    }
  }
  document.files = [...files.values()].filter((file) => shown.has(file.id));
  return { document, problems };
}

const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', pdf: 'application/pdf' };
const mimeOf = (name: string) => MIME[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
