import type { Token } from '../../schema/token';

/**
 * Blocks as Markdown (issue 18, export; docs/import-export.md when it lands): CommonMark with
 * GitHub's tables, task lists and strikethrough — what Notion, Outline and Obsidian read. A block's
 * children are indented under it (list items nest; other blocks take the same indentation, as
 * Notion's export does). Page links and files are written with the addresses `links` gives (paths
 * relative to the exported file).
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
}

/** Characters Markdown would read as formatting, escaped in plain text. */
const SPECIAL = /([\\`*_[\]<>#|~])/g;
const escape = (text: string) => text.replace(SPECIAL, '\\$1');
/** A link's address: spaces and parentheses encoded (a relative path with spaces breaks `[](…)`). */
const address = (href: string) => href.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');

/** Inline Markdown of tokens: bold, italic, struck out, code, links (underline has no Markdown: kept as text). */
export function tokensToMarkdown(tokens: readonly Token[], links: MarkdownLinks): string {
  return tokens
    .map((token) => {
      if (token.code) return wrapCode(token.text);
      let text = escape(token.text);
      // Markers hug the text: spaces at the ends go outside them.
      const lead = /^\s*/.exec(text)![0];
      const trail = /\s*$/.exec(text)![0];
      let core = text.slice(lead.length, text.length - trail.length);
      if (!core) return text;
      if (token.bold) core = `**${core}**`;
      if (token.italic) core = `*${core}*`;
      if (token.struckOut) core = `~~${core}~~`;
      if (token.link) {
        const target = token.link.pageId ? (links.page(token.link.pageId) ?? token.link.href) : token.link.href;
        core = `[${core}](${address(target)})`;
      }
      text = lead + core + trail;
      return text;
    })
    .join('');
}

/** Inline code with as many backticks around as it needs. */
function wrapCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
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
  switch (block.type) {
    case 'heading1':
      return [`# ${inline()}`];
    case 'heading2':
      return [`## ${inline()}`];
    case 'heading3':
      return [`### ${inline()}`];
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
      return data.remoteData ? [`![${escape(data.remoteData.title)}](${address(links.file(data.remoteData.fileId, data.remoteData.title))})`] : [];
    case 'file':
      return data.remoteData ? [`[${escape(data.remoteData.title)}](${address(links.file(data.remoteData.fileId, data.remoteData.title))})`] : [];
    case 'document': {
      const target = data.pageId ? links.page(data.pageId) : null;
      return target ? [`[↗ ${escape(target.replace(/^.*\//, '').replace(/\.md$/, ''))}](${address(target)})`] : [];
    }
    case 'table':
      return tableLines(data, links);
    case 'database':
      return [];
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
  const line = (row: Token[][]) => `| ${row.map((cell) => tokensToMarkdown(cell, links).replace(/\n/g, '<br>') || ' ').join(' | ')} |`;
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
