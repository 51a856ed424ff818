import { marked, type Token as MdToken, type Tokens } from 'marked';
import { definitionForWireType } from '../../schema/blocks';
import { codeLanguageNamed } from '../blocks/code/block';
import { MAX_FORCED_ORDER } from '../blocks/orderedList/block';
import type { BlockElement } from '../../schema/slate';
import { inlineTokens } from '../../schema/markdown/read';
import { canonicalTokens, isSafeHref, type Token } from '../../schema/token';
import { limitTokens, makeBlock, paragraph, soundDepths, splitLines, type PastedContent } from './content';

/** Text lines as text blocks, one per non-empty line; a line that is just a link is linked. */
function lineBlocks(tokens: readonly Token[], depth: number, out: BlockElement[]): void {
  for (const line of splitLines(tokens)) {
    const trimmed = canonicalTokens(line.map((t, i) => ({ ...t, text: i === 0 ? t.text.replace(/^\s+/, '') : t.text })));
    if (trimmed.every((t) => t.text.trim() === '')) continue;
    out.push(paragraph(linkedLine(trimmed), depth));
  }
}

/** A line whose whole text is an http(s) address becomes one link token. */
function linkedLine(tokens: Token[]): Token[] {
  const text = tokens
    .map((t) => t.text)
    .join('')
    .trim();
  if (/^\S+$/.test(text) && /^https?:\/\//i.test(text) && isSafeHref(text)) return [{ text, link: { href: text } }];
  return tokens;
}

function block(wireType: string, data: Record<string, unknown>, depth: number, fallback: Token[], out: BlockElement[]): void {
  const made = definitionForWireType(wireType) ? makeBlock(wireType, data, depth) : null;
  if (made) out.push(made);
  else if (fallback.length > 0) lineBlocks(fallback, depth, out);
}

function tableBlock(table: Tokens.Table, depth: number, out: BlockElement[]): void {
  const rows = [table.header, ...table.rows];
  const columns = Math.max(1, ...rows.map((r) => r.length));
  const tokens: Token[] = [];
  rows.forEach((row, y) =>
    row.forEach((cell, x) => {
      for (const token of inlineTokens(cell.tokens)) tokens.push({ ...token, tableAddress: { x, y } });
    }),
  );
  const data = {
    tokens,
    tableLayout: { columns, rows: rows.length, columnSizes: Array.from({ length: columns }, () => 120) },
    headerRow: true,
    headerColumn: false,
  };
  const fallback = rows.flatMap((row, y) => [...(y > 0 ? [{ text: '\n' }] : []), { text: row.map((c) => c.text).join('\t') }]);
  block('table', data, depth, fallback, out);
}

function listBlocks(list: Tokens.List, depth: number, out: BlockElement[]): void {
  const start = typeof list.start === 'number' ? list.start : 1;
  list.items.forEach((item, index) => {
    const own: Token[] = [];
    const rest: MdToken[] = [];
    for (const child of item.tokens) {
      if (child.type === 'checkbox') continue;
      if (rest.length === 0 && (child.type === 'text' || child.type === 'paragraph') && own.length === 0)
        own.push(...inlineTokens((child as Tokens.Text).tokens ?? [{ type: 'text', raw: child.raw, text: (child as Tokens.Text).text } as MdToken]));
      else rest.push(child);
    }
    const tokens = limitTokens(own);
    if (item.task) block('checkbox', { tokens, checked: item.checked === true }, depth, own, out);
    else if (list.ordered) {
      const forced = index === 0 && start !== 1 && start >= 1 && start <= MAX_FORCED_ORDER ? { forcedOrder: start } : {};
      block('orderedList', { tokens, ...forced }, depth, own, out);
    } else block('bulletList', { tokens }, depth, own, out);
    blocksOf(rest, depth + 1, out);
  });
}

function blocksOf(tokens: readonly MdToken[], depth: number, out: BlockElement[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'heading': {
        const level = Math.min(3, (token as Tokens.Heading).depth);
        const tokens = inlineTokens(token.tokens);
        block(`heading${level}`, { tokens: limitTokens(tokens) }, depth, tokens, out);
        break;
      }
      case 'paragraph':
      case 'text':
        lineBlocks(inlineTokens(token.tokens ?? [{ type: 'text', raw: token.raw, text: token.text } as MdToken]), depth, out);
        break;
      case 'list':
        listBlocks(token as Tokens.List, depth, out);
        break;
      case 'blockquote': {
        // Each line of a quote is a quote block (a quote holds inline text only).
        const inner: BlockElement[] = [];
        blocksOf(token.tokens ?? [], 0, inner);
        for (const child of inner) {
          const tokens = (child.children as Token[]).filter((t) => t.text !== '');
          if (child.type === 'textBlock') block('quote', { tokens }, depth, tokens, out);
          else out.push({ ...child, ...(depth + (child.depth ?? 0) > 0 ? { depth: depth + (child.depth ?? 0) } : {}) });
        }
        break;
      }
      case 'code': {
        const code = token as Tokens.Code;
        const lang = (code.lang ?? '').trim().split(/\s+/)[0];
        const language = codeLanguageNamed(lang) ?? 'plain';
        const text = code.text;
        const tokens = text === '' ? [] : [{ text }];
        if (!makeBlockInto('code', { tokens, language }, depth, out)) block('code', { tokens, language: 'plain' }, depth, [{ text }], out);
        break;
      }
      case 'hr':
        block('divider', {}, depth, [], out);
        break;
      case 'table':
        tableBlock(token as Tokens.Table, depth, out);
        break;
      case 'html':
        lineBlocks([{ text: token.raw }], depth, out);
        break;
      case 'space':
      case 'def':
        break;
      default:
        if (typeof token.raw === 'string') lineBlocks([{ text: token.raw }], depth, out);
    }
  }
}

function makeBlockInto(wireType: string, data: Record<string, unknown>, depth: number, out: BlockElement[]): boolean {
  const made = definitionForWireType(wireType) ? makeBlock(wireType, data, depth) : null;
  if (made) out.push(made);
  return made !== null;
}

/**
 * Pasted plain text, read as markdown (GFM): headings, lists (nesting as depth; an ordered list
 * that does not start at 1 keeps its start), task lists, quotes, fenced code, `---`, tables,
 * and inline bold, italic, code, strike-through and http(s) links. Other text gives one text
 * block per non-empty line; a line that is just an http(s) address becomes a link. One line of
 * plain text is inline content (typed into the caret's block).
 */
export function parseMarkdown(text: string): PastedContent | null {
  const source = text.replace(/\r\n?/g, '\n');
  if (source.trim() === '') return null;
  const blocks: BlockElement[] = [];
  blocksOf(marked.lexer(source, { gfm: true }), 0, blocks);
  if (blocks.length === 0) return null;
  if (blocks.length === 1 && blocks[0].type === 'textBlock' && !source.trim().includes('\n')) {
    return { kind: 'inline', tokens: (blocks[0].children as Token[]).filter((t) => t.text !== '') };
  }
  return { kind: 'blocks', blocks: soundDepths(blocks) };
}
