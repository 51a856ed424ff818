import { marked, type Token as MdToken, type Tokens } from 'marked';
import { canonicalTokens, isPageLink, isSafeHref, PAGE_LINK_TEXT, type Token, type TokenMarks } from '../token';

/*
 * The one Markdown reader of inline text (docs/import-export.md «Markdown»): a paste, the AI
 * assistant's answer and an imported file read marks, links and entities the same way, and read
 * back what `write.ts` writes — `<b>`, `<i>`, `<s>` where delimiters would not hold, `<u>` for
 * underline (Markdown has none), `\` line ends as line breaks.
 */

/** Inline HTML tags that mark text. */
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

/** Marked keeps entities of the source (`&amp;`) as they were typed; text wants the characters. */
export function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? _m);
}

/** How a reader takes links and pictures inside text (an import resolves them to its pages and files). */
export interface InlineReading {
  /** A link's tokens, given its address and its text's tokens (with the marks around). Default: a page link by `/{pageId}`, else a safe address. */
  link?: (href: string, inner: Token[], marks: TokenMarks) => Token[];
  /** A picture inside text. Default: its alt text (else its address), linked to it when safe. */
  image?: (image: Tokens.Image, marks: TokenMarks) => Token[];
  /** Inline HTML that marks nothing (`<span>`, `<kbd>`): kept as typed (default: a paste's `a <div> b` is text), or left out with its text kept (a file's). */
  otherTags?: 'keep' | 'drop';
}

function defaultLink(href: string, inner: Token[], marks: TokenMarks): Token[] {
  // `[title](/{pageId})`: a page link (what the writer writes for one).
  const pageId = href.slice(1);
  if (isPageLink({ href, pageId })) return [{ ...marks, text: PAGE_LINK_TEXT, link: { href, pageId } }];
  return isSafeHref(href) ? inner.map((t) => ({ ...t, link: { href } })) : inner;
}

function defaultImage(image: Tokens.Image, marks: TokenMarks): Token[] {
  const text = image.text || image.href;
  return [isSafeHref(image.href) ? { ...marks, text, link: { href: image.href } } : { ...marks, text }];
}

/** Markdown inline tokens (marked's) as our tokens: marks nested as they come, and those of the tags above between their opening and closing. */
export function inlineTokens(tokens: readonly MdToken[] | undefined, reading: InlineReading = {}, outer: TokenMarks = {}): Token[] {
  const out: Token[] = [];
  let marks = outer;
  const openTags: Partial<Record<string, number>> = {};
  for (const token of tokens ?? []) {
    if (token.type === 'html' && /^<br\s*\/?>$/i.test(token.raw.trim())) {
      // A line break written as a tag (a table cell's lines).
      out.push({ ...marks, text: '\n' });
      continue;
    }
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
        out.push(...inlineTokens(token.tokens, reading, { ...marks, bold: true }));
        break;
      case 'em':
        out.push(...inlineTokens(token.tokens, reading, { ...marks, italic: true }));
        break;
      case 'del':
        out.push(...inlineTokens(token.tokens, reading, { ...marks, struckOut: true }));
        break;
      case 'codespan':
        // A code span's text is as typed (entities in code are not read).
        out.push({ ...marks, code: true, text: token.text });
        break;
      case 'br':
        out.push({ ...marks, text: '\n' });
        break;
      case 'link': {
        const link = token as Tokens.Link;
        out.push(...(reading.link ?? defaultLink)(link.href, inlineTokens(link.tokens, reading, marks), marks));
        break;
      }
      case 'image':
        out.push(...(reading.image ?? defaultImage)(token as Tokens.Image, marks));
        break;
      case 'text':
      case 'escape':
      case 'html':
        if ('tokens' in token && token.tokens && token.tokens.length > 0) out.push(...inlineTokens(token.tokens, reading, marks));
        else if (token.type !== 'html') out.push({ ...marks, text: decodeEntities(token.text) });
        else out.push({ ...marks, text: reading.otherTags === 'drop' ? decodeEntities(token.raw.replace(/<[^>]*>/g, '')) : token.raw });
        break;
      default:
        if ('raw' in token && typeof token.raw === 'string') out.push({ ...marks, text: token.raw });
    }
  }
  return canonicalTokens(out.filter((t) => t.text !== ''));
}

/** The inline tokens Markdown reads from `text` when it is one paragraph (else null: it reads blocks). */
export function readInline(text: string, reading: InlineReading = {}): Token[] | null {
  const blocks = marked.lexer(text, { gfm: true }).filter((token) => token.type !== 'space');
  if (blocks.length === 0) return [];
  const [only] = blocks;
  return blocks.length === 1 && only.type === 'paragraph' ? inlineTokens((only as Tokens.Paragraph).tokens, reading) : null;
}
