import type { WireElement } from '../../../schema/element';
import type { SearchKind, SearchSection, WireSearchHit } from '../../../schema/search';
import { api } from '../../app/api';
import { searchPath, type SearchAddress } from '../../app/earlyStart';

export type { WireSearchHit };

/**
 * The filters of the full results screen (docs/search.md «Filters»), as its address holds them
 * (`SearchAddress`, src/app/earlyStart.ts) with the kind, the part of the sidebar and the order
 * known ones.
 */
export interface SearchFilters extends Omit<SearchAddress, 'q' | 'kind' | 'section' | 'sort'> {
  /** Pages (not rows), databases (pages holding one), rows of databases, or comments only. */
  kind?: SearchKind;
  /** One part of the sidebar: the workspace's pages («all»), one's private ones, those shared with one. */
  section?: SearchSection;
  /** The last edited first, instead of the best match. */
  sort?: 'edited';
}

/**
 * `GET search/text`: results found by `q`, `limit` of them from `offset`, whether there are more,
 * and the offset of the next ones (a database's rows are one result of up to three hits).
 */
export async function searchPages(
  q: string,
  filters: SearchFilters,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<{ hits: WireSearchHit[]; more: boolean; next: number }> {
  // The path the early script asks for on the screen's address (src/app/earlyStart.ts): the same for the same search.
  const { data, meta } = await api<WireSearchHit[]>(searchPath({ ...filters, q }, offset, limit), { signal, workspaceId: filters.workspaceId });
  const { hasMoreNext, next } = (meta ?? {}) as { hasMoreNext?: boolean; next?: number };
  return { hits: data, more: Boolean(hasMoreNext), next: next ?? offset + data.length };
}

/** A page opened lately, with the titles of its ancestors the caller may read (root first). */
export interface RecentPage {
  page: WireElement;
  path: string[];
}

/** The pages opened last (the finder before anything is typed), each once, with its path. */
export async function recentPages(limit: number, signal?: AbortSignal): Promise<RecentPage[]> {
  const { data, included } = await api<WireElement[]>(`/api/v3/spaces/recents?limit=${limit}`, { signal });
  const titles = new Map(((included ?? []) as WireElement[]).map((page) => [page.id, page.title]));
  const seen = new Set<string>();
  return data.flatMap((page) => {
    if (seen.has(page.id)) return [];
    seen.add(page.id);
    return [{ page, path: page.path.flatMap((id) => (titles.has(id) ? [titles.get(id)!] : [])) }];
  });
}

/** A result as shown: a page found, or a database's rows found (up to three, and how many more). */
export type SearchResult =
  { kind: 'hit'; hit: WireSearchHit } | { kind: 'database'; database: NonNullable<WireSearchHit['database']>; rows: WireSearchHit[]; more: number };

/** The answer's hits as results: a database's rows (one after another, each with `database`) gathered under it. */
export function searchResults(hits: readonly WireSearchHit[]): SearchResult[] {
  const results: SearchResult[] = [];
  for (const hit of hits) {
    const last = results[results.length - 1];
    if (!hit.database) results.push({ kind: 'hit', hit });
    else if (last?.kind === 'database' && last.database.id === hit.database.id) {
      last.rows.push(hit);
      last.more = hit.database.found - last.rows.length;
    } else results.push({ kind: 'database', database: hit.database, rows: [hit], more: hit.database.found - 1 });
  }
  return results;
}

/** The search screen listing one database's rows found by `q` (a result's «ещё N строк»). */
export function databaseRowsAddress(q: string, databaseId: string): string {
  return `/search?${new URLSearchParams({ q: q.trim(), database: databaseId })}`;
}
