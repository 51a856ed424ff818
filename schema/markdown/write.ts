import { canonicalTokens, type Token, type TokenLink } from '../token';
import { readInline } from './read';

/*
 * The one Markdown writer of inline text (docs/import-export.md «Markdown»): the export, the AI
 * assistant's prompts and whatever else writes Markdown write tokens with it, and `read.ts` reads
 * them back as they were: **bold**, *italic*, ~~struck out~~, <u>underline</u> (Markdown has
 * none; the reader reads the tag), `code` and [links](https://…); the rest escaped so that it
 * stays text; a line break inside the text as a `\` line end, the next line's start escaped too.
 * Comments and table addresses are not marks of the text and are left out. Whitespace at the
 * edges of a marked run is written outside it (`**a** b`: a delimiter next to a space would not
 * count), so such a space comes back unmarked.
 */

type MarkKey = 'link' | 'bold' | 'italic' | 'struckOut' | 'underline' | 'code';
/** Outermost first, when two start at the same place and last as long. */
const MARK_KEYS: readonly MarkKey[] = ['link', 'bold', 'italic', 'struckOut', 'underline', 'code'];

/** The identity of a mark of a token (a link's address tells two links apart), or null when the token has not got it. */
function markId(token: Token, key: MarkKey): string | null {
  if (key === 'link') return token.link ? token.link.href : null;
  return token[key] ? key : null;
}

function withoutMark(token: Token, key: MarkKey): Token {
  const { [key]: _dropped, ...rest } = token;
  return rest as Token;
}

/** Tokens cut at their edge whitespace, and the marks taken off the whitespace at the edges of every marked run. */
function edgeWhitespaceUnmarked(tokens: readonly Token[]): Token[] {
  let pieces: Token[] = [];
  for (const token of tokens) {
    const { comments: _comments, tableAddress: _address, ...rest } = token;
    const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(token.text)!;
    for (const text of [match[1], match[2], match[3]]) if (text !== '') pieces.push({ ...rest, text });
  }
  const blank = (t: Token) => t.text.trim() === '';
  for (const key of MARK_KEYS) {
    let i = 0;
    while (i < pieces.length) {
      const id = markId(pieces[i], key);
      if (id === null) {
        i += 1;
        continue;
      }
      let end = i;
      while (end < pieces.length && markId(pieces[end], key) === id) end += 1;
      for (let k = i; k < end && blank(pieces[k]); k++) pieces[k] = withoutMark(pieces[k], key);
      for (let k = end - 1; k >= i && blank(pieces[k]); k--) pieces[k] = withoutMark(pieces[k], key);
      i = end;
    }
  }
  pieces = canonicalTokens(pieces);
  return pieces;
}

const ALNUM = /[\p{L}\p{N}]/u;

/** Plain text escaped so that markdown reads it as the same text. `atLineStart`: block marks (`# `, `- `, `1. `, `> `) too. */
export function escapeMarkdown(text: string, atLineStart = false): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const before = i > 0 ? text[i - 1] : '';
    const after = text[i + 1] ?? '';
    if (c === '\\' || c === '*' || c === '`' || c === '~' || c === '[' || c === ']') out += `\\${c}`;
    // snake_case stays as typed: an underscore inside a word is no emphasis.
    else if (c === '_') out += ALNUM.test(before) && ALNUM.test(after) ? c : `\\${c}`;
    else if (c === '<') out += /[A-Za-z/!?]/.test(after) ? `\\${c}` : c;
    else if (c === '&') out += /^&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i.test(text.slice(i)) ? `\\${c}` : c;
    // An address typed as text stays text (GFM links `https://…` and `www.…` by itself).
    else if (c === ':' && text.startsWith('//', i + 1) && /(?:https?|ftp)$/i.test(text.slice(0, i))) out += `\\${c}`;
    else if (c === '.' && /(?:^|[^\p{L}\p{N}])www$/iu.test(text.slice(0, i))) out += `\\${c}`;
    else out += c;
  }
  return atLineStart ? escapeLineStart(out) : out;
}

/** A line's start that markdown would read as a block mark (`# `, `- `, `+ `, `> `, `1. `, `---`) escaped. */
function escapeLineStart(line: string): string {
  return line.replace(/^(\s*)([#>+=-])/, '$1\\$2').replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

/** Inline code with a fence longer than any run of backticks in it. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (/^ .* $/.test(text) && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function linkDestination(href: string): string {
  let balance = 0;
  for (const c of href) {
    if (c === '(') balance += 1;
    else if (c === ')' && --balance < 0) break;
  }
  return /[\s<>]/.test(href) || balance !== 0 ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href;
}

interface Open {
  key: MarkKey;
  id: string;
  close: string;
  /** Its opening delimiter is written (it is held back until text that is not whitespace follows). */
  written: boolean;
  open: string;
}

/** The line written with delimiters (`tags`: with HTML tags for bold, italic, strike-through); `href`: a link's address as written. */
function render(pieces: readonly Token[], tags: boolean, href: (link: TokenLink) => string): string {
  const stack: Open[] = [];
  let out = '';

  const closeTop = () => {
    const top = stack.pop()!;
    if (!top.written) return;
    // Whitespace before a closing delimiter goes after it.
    const trailing = /\s*$/.exec(out)![0];
    out = out.slice(0, out.length - trailing.length) + top.close + trailing;
  };
  const write = (raw: string) => {
    const pending = stack.filter((o) => !o.written);
    if (pending.length > 0) {
      if (raw.trim() === '') {
        out += raw;
        return;
      }
      // Whitespace after an opening delimiter goes before it.
      const leading = /^\s*/.exec(raw)![0];
      const opens = pending.map((o) => o.open).join('');
      // `![` would open an image.
      if (leading === '' && opens.startsWith('[') && out.endsWith('!')) out = `${out.slice(0, -1)}\\!`;
      out += leading + opens;
      for (const o of pending) o.written = true;
      raw = raw.slice(leading.length);
    }
    out += raw;
  };

  pieces.forEach((token, index) => {
    // Close what this token has not got (and whatever was opened inside it).
    const keep = stack.findIndex((o) => markId(token, o.key) !== o.id);
    if (keep >= 0) while (stack.length > keep) closeTop();
    // Open what it has and is not open yet, the longest lasting outermost.
    const missing = MARK_KEYS.filter((key) => key !== 'code' && markId(token, key) !== null && !stack.some((o) => o.key === key));
    const lasting = (key: MarkKey) => {
      const id = markId(token, key);
      let n = index + 1;
      while (n < pieces.length && markId(pieces[n], key) === id) n += 1;
      return n;
    };
    missing.sort((a, b) => lasting(b) - lasting(a) || MARK_KEYS.indexOf(a) - MARK_KEYS.indexOf(b));
    for (const key of missing) {
      const id = markId(token, key)!;
      const [open, close] = key === 'link' ? ['[', `](${linkDestination(href(token.link!))})`] : (tags ? TAGS : DELIMITERS)[key as keyof typeof TAGS];
      stack.push({ key, id, open, close, written: false });
    }
    write(token.code ? codeSpan(token.text) : escapeMarkdown(token.text));
  });
  while (stack.length > 0) closeTop();
  return out;
}

const DELIMITERS = { bold: ['**', '**'], italic: ['*', '*'], struckOut: ['~~', '~~'], underline: ['<u>', '</u>'] } as const;
const TAGS = { bold: ['<b>', '</b>'], italic: ['<i>', '</i>'], struckOut: ['<s>', '</s>'], underline: ['<u>', '</u>'] } as const;

/** Tokens as compared after a round trip: a link whose text is its address is a bare address (markdown links those itself), the line's edge whitespace aside. */
function comparable(tokens: readonly Token[]): string {
  const unlinked = tokens.map((t) => (t.link && t.link.href === t.text ? withoutMark(t, 'link') : t));
  const text = unlinked.map((t) => t.text).join('');
  const lead = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  const out: Token[] = [];
  let at = 0;
  for (const token of unlinked) {
    const from = Math.max(lead, at);
    const to = Math.min(end, at + token.text.length);
    if (to > from) out.push({ ...token, text: token.text.slice(from - at, to - at) });
    at += token.text.length;
  }
  return JSON.stringify(canonicalTokens(out).map((t) => Object.fromEntries(Object.entries(t).sort(([a], [b]) => (a < b ? -1 : 1)))));
}

/**
 * One line of tokens (no line break in them) as Markdown. Delimiters (`**`, `*`, `~~`) hold only
 * next to the right characters (CommonMark's flanking rules: `слово**(а)**` is no bold): when the
 * line does not read back as the tokens, bold, italic and strike-through are written as tags
 * (`<b>`, `<i>`, `<s>`), which the reader reads.
 */
function lineToMarkdown(tokens: readonly Token[], atLineStart: boolean, href: (link: TokenLink) => string): string {
  const pieces = edgeWhitespaceUnmarked(tokens);
  const finish = (line: string) => (atLineStart ? escapeLineStart(line) : line);
  const line = finish(render(pieces, false, href));
  if (!pieces.some((t) => t.bold || t.italic || t.struckOut)) return line;
  // Compared by the links' addresses as written (a path of an export is no address of the web, yet a link).
  const expected = comparable(pieces.map((t) => (t.link ? { ...t, link: { href: href(t.link) } } : t)));
  const back = readInline(atLineStart ? line : escapeLineStart(line), { link: (written, inner) => inner.map((t) => ({ ...t, link: { href: written } })) });
  return back && comparable(back) === expected ? line : finish(render(pieces, true, href));
}

/** Tokens cut into lines at their line breaks (the breaks left out; a line may be empty). */
function tokenLines(tokens: readonly Token[]): Token[][] {
  const lines: Token[][] = [[]];
  for (const token of tokens) {
    token.text.split('\n').forEach((text, i) => {
      if (i > 0) lines.push([]);
      if (text !== '') lines[lines.length - 1].push({ ...token, text });
    });
  }
  return lines;
}

export interface MarkdownWriting {
  /** The text starts a line (default), so a leading `# `, `- `, `1. ` or `> ` is escaped (else it would become a heading, a list, a quote). */
  atLineStart?: boolean;
  /** A link's address as written (an export's relative path for a page of it). Default: the link's own. */
  href?: (link: TokenLink) => string;
}

/**
 * Tokens as Markdown: one line, or lines joined by hard breaks (a `\\` ends each line but the
 * last) where the text has line breaks — each line's start escaped, marks closed at a line's end
 * and opened again on the next. Line breaks at the text's start or end are left out (Markdown has
 * no room for them).
 */
export function tokensToMarkdown(tokens: readonly Token[], { atLineStart = true, href = (link) => link.href }: MarkdownWriting = {}): string {
  const lines = tokenLines(tokens);
  const blank = (line: Token[]) => line.every((t) => t.text.trim() === '');
  while (lines.length > 1 && blank(lines[0])) lines.shift();
  while (lines.length > 1 && blank(lines[lines.length - 1])) lines.pop();
  return lines.map((line, i) => lineToMarkdown(line, i === 0 ? atLineStart : true, href)).join('\\\n');
}
