import { escapeMarkdown, tokensToMarkdown as writeTokens } from '../../schema/markdown/write';
import type { Token, TokenLink } from '../../schema/token';

/**
 * Blocks as Markdown (issue 18, export; docs/import-export.md when it lands): CommonMark with
 * GitHub's tables, task lists and strikethrough — what Notion, Outline and Obsidian read. A block's
 * children are indented under it (list items nest; other blocks take the same indentation, as
 * Notion's export does). Page links and files are written with the addresses `links` gives (paths
 * relative to the exported file). Text is written by the one Markdown writer
 * (schema/markdown/write.ts), which the import's reader reads back as it was.
 */

export interface MarkdownBlock {
  id: string;
  type: string;
  data: unknown;
  parentId: string | null;
}

export interface MarkdownLinks {
  /** The address of a linked page in the export (or null: the app's own address is kept). */
  page(pageId: string): string | null;
  /** The address of a file's copy in the export. */
  file(fileId: string, name: string): string;
  /** What a database block reads as (its first view's table and a link to its CSV: pageExport.ts), or nothing. */
  database?(blockId: string): string[];
}

/** A link's address: `%`, spaces and parentheses encoded (a relative path with spaces breaks `[](…)`; a `%` in a name must not read as an escape). */
export const address = (href: string) => href.replace(/%/g, '%25').replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');

/** Inline Markdown of tokens (line breaks as `\\` line ends); a page link by its path in the export (else the app's address). */
export function tokensToMarkdown(tokens: readonly Token[], links: MarkdownLinks, atLineStart = true): string {
  // A path in the export has its spaces and parentheses encoded; an address of the web its spaces (the writer encloses what else needs it).
  const href = (link: TokenLink) => {
    const path = link.pageId ? links.page(link.pageId) : null;
    return path !== null ? address(path) : link.href.replace(/ /g, '%20');
  };
  return writeTokens(tokens, { atLineStart, href });
}

type TextData = {
  tokens?: Token[];
  checked?: boolean;
  icon?: string;
  language?: string;
  forcedOrder?: number;
  formula?: string;
  url?: string | null;
  remoteData?: { fileId: string; title: string } | null;
  pageId?: string;
  tableLayout?: { columns: number; rows: number };
  headerRow?: boolean;
};

/** One block's Markdown lines (without its children), given its number in a run of ordered items. */
function blockLines(block: MarkdownBlock, links: MarkdownLinks, number: number): string[] {
  const data = (block.data ?? {}) as TextData;
  const inline = () => tokensToMarkdown(data.tokens ?? [], links);
  // A heading is one line: its line breaks are spaces.
  const oneLine = () =>
    tokensToMarkdown(
      (data.tokens ?? []).map((t) => ({ ...t, text: t.text.replace(/\n/g, ' ') })),
      links,
    );
  switch (block.type) {
    case 'heading1':
      return [`# ${oneLine()}`];
    case 'heading2':
      return [`## ${oneLine()}`];
    case 'heading3':
      return [`### ${oneLine()}`];
    case 'bulletList':
      return [`- ${inline()}`];
    case 'orderedList':
      return [`${number}. ${inline()}`];
    case 'checkbox':
      return [`- [${data.checked ? 'x' : ' '}] ${inline()}`];
    case 'quote':
      return inline()
        .split('\n')
        .map((line) => `> ${line}`);
    case 'callout':
      return inline()
        .split('\n')
        .map((line, i) => `> ${i === 0 && data.icon ? `${data.icon} ` : ''}${line}`);
    case 'code': {
      const code = (data.tokens ?? []).map((t) => t.text).join('');
      const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
      const fence = '`'.repeat(longest + 1);
      return [`${fence}${data.language && data.language !== 'plain' ? data.language : ''}`, ...code.split('\n'), fence];
    }
    case 'divider':
      return ['---'];
    case 'latex':
      return ['$$', data.formula ?? '', '$$'];
    case 'embed':
      return data.url ? [`<${data.url}>`] : [];
    case 'image':
      return data.remoteData ? [`![${escapeMarkdown(data.remoteData.title)}](${address(links.file(data.remoteData.fileId, data.remoteData.title))})`] : [];
    case 'file':
      return data.remoteData ? [`[${escapeMarkdown(data.remoteData.title)}](${address(links.file(data.remoteData.fileId, data.remoteData.title))})`] : [];
    case 'document': {
      const target = data.pageId ? links.page(data.pageId) : null;
      return target ? [`[↗ ${escapeMarkdown(target.replace(/^.*\//, '').replace(/\.md$/, ''))}](${address(target)})`] : [];
    }
    case 'table':
      return tableLines(data, links);
    case 'database':
      return links.database?.(block.id) ?? [];
    default:
      return data.tokens ? inline().split('\n') : [];
  }
}

/** A table as a GitHub table: its first row is the header (Markdown tables have one). */
function tableLines(data: TextData, links: MarkdownLinks): string[] {
  const columns = data.tableLayout?.columns ?? 0;
  const rows = data.tableLayout?.rows ?? 0;
  if (columns === 0 || rows === 0) return [];
  const cells: Token[][][] = Array.from({ length: rows }, () => Array.from({ length: columns }, () => [] as Token[]));
  for (const token of data.tokens ?? []) {
    const at = token.tableAddress;
    if (at && at.y < rows && at.x < columns) cells[at.y][at.x].push(token);
  }
  // A cell's lines joined by `<br>`, its `|` escaped (it would end the cell).
  const cellText = (cell: Token[]) => tokensToMarkdown(cell, links, false).replace(/\\\n/g, '<br>').replace(/\|/g, '\\|');
  const line = (row: Token[][]) => `| ${row.map((cell) => cellText(cell) || ' ').join(' | ')} |`;
  return [line(cells[0]), `|${' --- |'.repeat(columns)}`, ...cells.slice(1).map(line)];
}

const LISTY = new Set(['bulletList', 'orderedList', 'checkbox']);

/** Blocks in document order as a Markdown document: a blank line between blocks, none between items of one list; children indented under their block. */
export function blocksToMarkdown(blocks: readonly MarkdownBlock[], links: MarkdownLinks): string {
  const depth = new Map<string, number>();
  /** The number of the last ordered item under each parent (a run of items counts on). */
  const counted = new Map<string, { number: number; after: string }>();
  let text = '';
  let previous: { id: string; type: string } | null = null;
  for (const block of blocks) {
    const level = block.parentId !== null && depth.has(block.parentId) ? depth.get(block.parentId)! + 1 : 0;
    depth.set(block.id, level);
    let number = 0;
    if (block.type === 'orderedList') {
      const run = counted.get(block.parentId ?? '');
      const forced = (block.data as TextData).forcedOrder;
      number = forced ?? (run && run.after === previous?.id ? run.number + 1 : 1);
      counted.set(block.parentId ?? '', { number, after: block.id });
    }
    const lines = blockLines(block, links, number);
    if (lines.length === 0) continue;
    const indent = '    '.repeat(level);
    const body = lines.map((line) => (line ? indent + line : line)).join('\n');
    // Items of one list, and a list item's children, sit line under line.
    const tight = previous !== null && LISTY.has(block.type) && LISTY.has(previous.type);
    text += text ? (tight ? '\n' : '\n\n') + body : body;
    previous = { id: block.id, type: block.type };
  }
  return text + '\n';
}
