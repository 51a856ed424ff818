import type { WireElement } from './element';

/** Where a search match is: a page's title, a block's text, a database row's text cell, a comment on the page. */
export type SearchMatchKind = 'title' | 'block' | 'cell' | 'comment';

/** One page found by `GET search/text` (docs/search.md «API»). */
export interface WireSearchHit {
  /** The page as the caller sees it. */
  page: WireElement;
  /** Its ancestors, root first, that the caller may read (others are left out: their titles are not given away). */
  path: Array<{ id: string; title: string; icon: string | null }>;
  /** The passage that matched. */
  match: {
    kind: SearchMatchKind;
    /** The block (kind `block`) or the row's field (kind `cell`) it is in. */
    blockId: string | null;
    fieldId: string | null;
    /** The comment (kind `comment`) it is in: the page opens with it shown (`?commentId=`). */
    commentId: string | null;
    /** A passage of the text around what was found (at most 160 characters). */
    text: string;
    /** [start, end) of each word found, in `text`. */
    marks: Array<[number, number]>;
    /** Text was left out before / after the passage. */
    cutBefore: boolean;
    cutAfter: boolean;
    /** Found by a title like the query (a typo), not by its words. */
    fuzzy: boolean;
  };
  /**
   * A row of a database: the database's rows found are one result (at the place of the best),
   * at most three of them given, each with this; `found` counts the rows found that the caller
   * may read («ещё N строк в «title»»: `found` − the rows given). Absent for other pages, and
   * when the search asked for one database's rows (`database`).
   */
  database?: { id: string; title: string; pageId: string; found: number };
}

/**
 * What kind of result a search keeps to (docs/search.md «Filters»): pages (not rows), databases
 * (pages holding one), rows of databases, comments (pages whose comments hold the words, each
 * shown with its comment).
 */
export const SEARCH_KINDS = ['pages', 'databases', 'rows', 'comments'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
/** The parts of the sidebar a search may keep to: the workspace's pages, one's private ones, those shared with one (favourites are a list, not offered). */
export const SEARCH_SECTIONS = ['all', 'private', 'shared'] as const;
export type SearchSection = (typeof SEARCH_SECTIONS)[number];
/** The orders of results: the best match first (the default), the last edited first. */
export const SEARCH_SORTS = ['relevance', 'edited'] as const;
