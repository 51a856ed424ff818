import { definitionForWireType, headingLevelOf, type MarkdownContext, type RegisteredBlock } from '../../schema/blocks';
import { tokensToMarkdown as writeTokens } from '../../schema/markdown/write';
import type { Token, TokenLink } from '../../schema/token';

/**
 * Blocks as Markdown (issue 18, export; docs/import-export.md when it lands): CommonMark with
 * GitHub's tables, task lists and strikethrough — what Notion, Outline and Obsidian read. A block's
 * children are indented under it (list items nest; other blocks take the same indentation, as
 * Notion's export does). Page links and files are written with the addresses `links` gives (paths
 * relative to the exported file). Each block is written by its type's definition (`markdown`,
 * plugins/blocks/<type>/block.ts) with this file's helpers. Text is written by the one Markdown writer
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

/** The export's helpers a block type's Markdown writes with (schema/blocks/definition.ts `MarkdownContext`). */
function contextOf(block: MarkdownBlock, links: MarkdownLinks, number: number, headings: () => { level: 1 | 2 | 3; tokens: Token[] }[]): MarkdownContext {
  return {
    headings,
    inline: (tokens) => tokensToMarkdown(tokens, links),
    inlineMidLine: (tokens) => tokensToMarkdown(tokens, links, false),
    file: (fileId, name) => address(links.file(fileId, name)),
    page: (pageId) => links.page(pageId),
    address,
    number,
    blockId: block.id,
    database: (blockId) => links.database?.(blockId) ?? [],
  };
}

/** One block's Markdown lines (without its children), by its type's definition; given its number in a run of numbered items. */
function blockLines(
  block: MarkdownBlock,
  definition: RegisteredBlock | undefined,
  links: MarkdownLinks,
  number: number,
  headings: () => { level: 1 | 2 | 3; tokens: Token[] }[],
): string[] {
  if (definition?.markdown) {
    // Stored data was checked when written; data a later, stricter schema would refuse is written as it is, if it can be.
    try {
      return definition.markdown.serialize(block.data, contextOf(block, links, number, headings));
    } catch {
      // Not of the shape its type writes: its text, as below.
    }
  }
  // A type without a Markdown form: its text, if it has any.
  const tokens = (block.data as { tokens?: unknown } | null)?.tokens;
  return Array.isArray(tokens) ? tokensToMarkdown(tokens as Token[], links).split('\n') : [];
}

/** Blocks in document order as a Markdown document: a blank line between blocks, none between items of one list; children indented under their block. */
export function blocksToMarkdown(blocks: readonly MarkdownBlock[], links: MarkdownLinks): string {
  const depth = new Map<string, number>();
  /** Blocks whose children are written at their own level. */
  const flat = new Set<string>();
  /** The number of the last ordered item under each parent (a run of items counts on). */
  const counted = new Map<string, { number: number; after: string }>();
  let text = '';
  let previous: { id: string; listItem: boolean } | null = null;
  // The document's headings, read once if a block asks (a table of contents).
  let listed: { level: 1 | 2 | 3; tokens: Token[] }[] | undefined;
  const headings = () =>
    (listed ??= blocks.flatMap((b) => {
      const level = headingLevelOf(b.type);
      const tokens = (b.data as { tokens?: unknown } | null)?.tokens;
      return level && Array.isArray(tokens) ? [{ level, tokens: (tokens as Token[]).map((t) => ({ ...t, text: t.text.replace(/\n/g, ' ') })) }] : [];
    }));
  for (const block of blocks) {
    const definition = definitionForWireType(block.type);
    const markdown = definition?.markdown;
    // Children are indented under their block, unless it keeps them at its own level (columns).
    const level = block.parentId !== null && depth.has(block.parentId) ? depth.get(block.parentId)! + (flat.has(block.parentId) ? 0 : 1) : 0;
    depth.set(block.id, level);
    if (markdown?.childrenUnindented) flat.add(block.id);
    let number = 0;
    if (markdown?.list === 'numbered') {
      const run = counted.get(block.parentId ?? '');
      const forced = markdown.startsAt?.(block.data);
      number = forced ?? (run && run.after === previous?.id ? run.number + 1 : 1);
      counted.set(block.parentId ?? '', { number, after: block.id });
    }
    const lines = blockLines(block, definition, links, number, headings);
    if (lines.length === 0) continue;
    const indent = '    '.repeat(level);
    const body = lines.map((line) => (line ? indent + line : line)).join('\n');
    // Items of one list, and a list item's children, sit line under line.
    const listItem = markdown?.list !== undefined;
    const tight = previous !== null && listItem && previous.listItem;
    text += text ? (tight ? '\n' : '\n\n') + body : body;
    previous = { id: block.id, listItem };
  }
  return text + '\n';
}
