import type { WireElement } from '../../../schema/element';
import type { WireSearchHit } from '../../../schema/search';
import { api } from '../../app/api';

export type { WireSearchHit };

/** The filters of the full results screen (docs/search.md «Filters»). */
export interface SearchFilters {
  /** Another workspace than the active one. */
  workspaceId?: string;
  /** Pages made by this user. */
  author?: string;
  /** Changed on or after / before these days (YYYY-MM-DD, the browser's days). */
  after?: string;
  before?: string;
  /** Pages in the trash instead. */
  inTrash?: boolean;
}

/** A day of the browser's as the instant it starts. */
const dayStart = (day: string) => new Date(`${day}T00:00:00`).toISOString();
/** The instant the day after `day` starts («changed before the 5th» takes the 5th in). */
const dayAfter = (day: string) => {
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
};

/** `GET search/text`: pages found by `q`, `limit` from `offset`, and whether there are more. */
export async function searchPages(
  q: string,
  filters: SearchFilters,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<{ hits: WireSearchHit[]; more: boolean }> {
  const params = new URLSearchParams({ q: JSON.stringify(q), offset: String(offset), limit: String(limit) });
  if (filters.author) params.set('author', JSON.stringify(filters.author));
  if (filters.after) params.set('after', JSON.stringify(dayStart(filters.after)));
  if (filters.before) params.set('before', JSON.stringify(dayAfter(filters.before)));
  if (filters.inTrash) params.set('inTrash', 'true');
  const { data, meta } = await api<WireSearchHit[]>(`/api/v3/spaces/search/text?${params}`, { signal, workspaceId: filters.workspaceId });
  return { hits: data, more: Boolean((meta as { hasMoreNext?: boolean } | undefined)?.hasMoreNext) };
}

/** The pages opened last (the finder before anything is typed). */
export async function recentPages(limit: number, signal?: AbortSignal): Promise<WireElement[]> {
  return (await api<WireElement[]>(`/api/v3/spaces/recents?limit=${limit}`, { signal })).data;
}
