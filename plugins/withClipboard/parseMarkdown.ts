import { marked, type Token as MdToken, type Tokens } from 'marked';
import { definitionForWireType } from '../../schema/blocks';
import { codeLanguageNamed } from '../../schema/blocks/code';
import { MAX_FORCED_ORDER } from '../../schema/blocks/orderedList';
import type { BlockElement } from '../../schema/slate';
import { canonicalTokens, isPageLink, isSafeHref, PAGE_LINK_TEXT, type Token, type TokenMarks } from '../../schema/token';
import { limitTokens, makeBlock, paragraph, soundDepths, splitLines, type PastedContent } from './content';

/** Inline HTML tags that mark text (`<u>`: markdown has no underline; tokensToMarkdown writes tags where delimiters would not hold). */
const TAG_MARKS: Record<string, 'bold' | 'italic' | 'struckOut' | 'underline'> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  s: 'struckOut',
  del: 'struckOut',
  strike: 'struckOut',
  u: 'underline',
  ins: 'underline',
};

/** Markdown inline tokens as our tokens (marks nested as they come, and those of the tags above between their opening and closing). */
function inlineTokens(tokens: readonly MdToken[] | undefined, outer: TokenMarks = {}): Token[] {
  const out: Token[] = [];
  let marks = outer;
  const openTags: Partial<Record<string, number>> = {};
  for (const token of tokens ?? []) {
    const tag = token.type === 'html' ? /^<(\/?)([a-z]+)>$/i.exec(token.raw.trim()) : null;
    const mark = tag ? TAG_MARKS[tag[2].toLowerCase()] : undefined;
    if (tag && mark) {
      openTags[mark] = Math.max(0, (openTags[mark] ?? 0) + (tag[1] ? -1 : 1));
      marks = { ...outer };
      for (const [name, count] of Object.entries(openTags)) if (count) marks = { ...marks, [name]: true };
      continue;
    }
    switch (token.type) {
      case 'strong':
        out.push(...inlineTokens(token.tokens, { ...marks, bold: true }));
        break;
      case 'em':
        out.push(...inlineTokens(token.tokens, { ...marks, italic: true }));
        break;
      case 'del':
        out.push(...inlineTokens(token.tokens, { ...marks, struckOut: true }));
        break;
      case 'codespan':
        // A code span's text is as typed (entities in code are not read).
        out.push({ ...marks, code: true, text: token.text });
        break;
      case 'br':
        out.push({ ...marks, text: '\n' });
        break;
      case 'link': {
        const href = (token as Tokens.Link).href;
        // `[title](/{pageId})`: a page link (what tokensToMarkdown writes for one).
        const pageId = href.slice(1);
        if (isPageLink({ href, pageId })) out.push({ ...marks, text: PAGE_LINK_TEXT, link: { href, pageId } });
        else out.push(...inlineTokens(token.tokens, isSafeHref(href) ? { ...marks, link: { href } } : marks));
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        const text = image.text || image.href;
        out.push(isSafeHref(image.href) ? { ...marks, text, link: { href: image.href } } : { ...marks, text });
        break;
      }
      case 'text':
      case 'escape':
      case 'html':
        if ('tokens' in token && token.tokens && token.tokens.length > 0) out.push(...inlineTokens(token.tokens, marks));
        else out.push({ ...marks, text: token.type === 'html' ? token.raw : decodeEntities(token.text) });
        break;
      default:
        if ('raw' in token && typeof token.raw === 'string') out.push({ ...marks, text: token.raw });
    }
  }
  return canonicalTokens(out.filter((t) => t.text !== ''));
}

/** Marked keeps entities of the source (`&amp;`) as they were typed; text wants the characters. */
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? _m);
}

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
