import type { DatabaseLayout, FilterGroup, ViewSort } from '../../../schema/blocks/database';
import { prefetchGet } from '../../app/api';

/**
 * The address of a window of a database view's rows — shared by the Table view's calls
 * (src/features/database/api.ts) and the page, which asks for a view's first window as soon as
 * it draws the database block, while the Table view's code is still loading (the first `api()`
 * call of the same address takes that answer).
 */

export const DATABASE_WINDOW = 100;

export interface RowsQuery {
  viewId?: string;
  filter?: FilterGroup | null;
  sorts?: ViewSort[];
  search?: string;
  offset?: number;
  limit?: number;
  inTrash?: boolean;
}

/** A query string of JSON-encoded values (spec §7); undefined ones are left out. */
export function jsonQuery(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, JSON.stringify(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function rowsPath(databaseId: string, query: RowsQuery): string {
  return `/api/v3/spaces/database/${encodeURIComponent(databaseId)}/rows${jsonQuery({ ...query })}`;
}

/** The query a Table view reads its rows with (its filter and sorts given, as edited, with the view's id). */
export function viewRowsQuery(layout: Pick<DatabaseLayout, 'uid' | 'filter' | 'sorts'>): RowsQuery {
  return { viewId: layout.uid, filter: layout.filter ?? null, sorts: layout.sorts ?? [] };
}

const asked = new Set<string>();

/** Asks for the first window of a view's rows now (once per address and page load). */
export function prefetchFirstRows(databaseId: string, layout: DatabaseLayout | undefined): void {
  if (!layout) return;
  const path = rowsPath(databaseId, { ...viewRowsQuery(layout), offset: 0, limit: DATABASE_WINDOW });
  if (asked.has(path)) return;
  asked.add(path);
  prefetchGet(path);
  // Asked again later (another visit), it is asked for again.
  setTimeout(() => asked.delete(path), 10_000);
}
