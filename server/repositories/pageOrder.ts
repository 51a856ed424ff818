/* Sibling order of pages: comparing and making fractional sort keys (pure; no queries). */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { PageRow } from '../db/types';

/**
 * Sibling order: sort key, then id, compared as JavaScript compares strings (code units), which
 * for these ASCII keys is byte order. Sorting here rather than in SQL keeps ties identical on
 * PostgreSQL, whose id column may carry a linguistic collation.
 */
export function compareSiblings(a: PageRow, b: PageRow): number {
  if (a.sort_key !== b.sort_key) return a.sort_key < b.sort_key ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * A sort key for a page put right after `after` (null: first) among ordered `siblings` (which do
 * not include the page itself). Siblings that share `after`'s key (concurrent inserts) are passed
 * over, so the key always lies strictly between two existing keys.
 */
export function sortKeyAfter(siblings: readonly PageRow[], after: PageRow | null): string {
  if (after === null) return generateKeyBetween(null, siblings[0]?.sort_key ?? null);
  const low = after.sort_key;
  const next = siblings.find((s) => s.sort_key > low);
  return generateKeyBetween(low, next?.sort_key ?? null);
}

/** A sort key after every sibling. */
export function sortKeyAtEnd(siblings: readonly PageRow[]): string {
  return generateKeyBetween(siblings[siblings.length - 1]?.sort_key ?? null, null);
}

/** `count` sort keys in order after the last of `siblings` (many pages put at the end at once: an import). */
export function sortKeysAtEnd(siblings: readonly PageRow[], count: number): string[] {
  return generateNKeysBetween(siblings[siblings.length - 1]?.sort_key ?? null, null, count);
}
