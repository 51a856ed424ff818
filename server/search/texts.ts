import { definitionForWireType } from '../../schema/blocks';
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
 * of tokens (paragraphs, headings, lists, to-dos, quotes, callouts, code, tables); for a type
 * without tokens, its definition's `searchText`: a file's name, a formula, an embed's address, a
 * bookmark's address and card, an inline database's title and description. A database block is
 * also found by its rows (their titles are pages', their text cells `cellSearchText`); a divider,
 * a page link or an image without a file has none.
 */
export function blockSearchText(type: string, data: unknown): string {
  if (!data || typeof data !== 'object') return '';
  const tokens = (data as { tokens?: unknown }).tokens;
  if (Array.isArray(tokens)) return tokensText(tokens as Tokens).trim();
  // A type without text says what it is found by (its definition's searchText).
  const definition = definitionForWireType(type);
  return definition?.searchText ? definition.searchText(data) : '';
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
