import { uniqueIdText, type DatabaseField } from '../../schema/blocks/database';

/** What search keeps of a text at most (a snippet is cut from it; the words of the whole are indexed). */
export const MAX_ENTRY_TEXT = 4_000;

type Tokens = ReadonlyArray<{ text?: unknown; tableAddress?: { x?: unknown; y?: unknown } }>;

/** Tokens' text; a table's cells (tokens with another `tableAddress`) apart by a space. */
function tokensText(tokens: Tokens): string {
  let text = '';
  let cell: string | null = null;
  for (const token of tokens) {
    if (typeof token?.text !== 'string') continue;
    const address = token.tableAddress ? `${String(token.tableAddress.x)}:${String(token.tableAddress.y)}` : null;
    if (address !== cell && text) text += ' ';
    cell = address;
    text += token.text;
  }
  return text;
}

/**
 * The text search finds a block by (docs/search.md «What is indexed»): the text of any block made
 * of tokens (paragraphs, headings, lists, to-dos, quotes, callouts, code, tables), a file's name,
 * a formula, an embed's address, an inline database's title and description. A database block is
 * also found by its rows (their titles are pages', their text cells `cellSearchText`); a divider,
 * a page link or an image without a file has none.
 */
export function blockSearchText(type: string, data: unknown): string {
  if (!data || typeof data !== 'object') return '';
  const fields = data as { tokens?: unknown; remoteData?: { title?: unknown } | null; formula?: unknown; url?: unknown };
  if (Array.isArray(fields.tokens)) return tokensText(fields.tokens as Tokens).trim();
  if (type === 'file' && typeof fields.remoteData?.title === 'string') return fields.remoteData.title;
  if (type === 'latex' && typeof fields.formula === 'string') return fields.formula;
  if (type === 'embed' && typeof fields.url === 'string') return fields.url;
  if (type === 'database') {
    const { title, description } = data as { title?: unknown; description?: unknown };
    return [title, description]
      .filter((text): text is string => typeof text === 'string')
      .map((text) => text.trim())
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

/** Field types whose cells search reads: text and the addresses typed as text. */
const SEARCHED_FIELD_TYPES: ReadonlySet<string> = new Set(['text', 'url', 'email', 'phone']);

/** The text search finds a database row by in one of its cells ('' for a field it does not read). */
export function cellSearchText(field: DatabaseField | undefined, value: unknown): string {
  // A unique ID as shown: ЗАДАЧА-42 is found by «ЗАДАЧА-42» (and by «42»).
  if (field?.type === 'uniqueId') return typeof value === 'number' ? uniqueIdText(field.prefix, value) : '';
  if (!field || !SEARCHED_FIELD_TYPES.has(field.type) || typeof value !== 'string') return '';
  return value.trim();
}

/** The text search finds a comment by: its tokens' text (a mention's name, a link's text). */
export function commentSearchText(content: unknown): string {
  return Array.isArray(content) ? tokensText(content as Tokens).trim() : '';
}
