import { useSyncExternalStore } from 'react';
import type { FormulaProgress } from '../../../schema/database';

/**
 * How far the background computation of each database's formulas is (docs/formulas.md «A changed
 * formula over many rows»): told by the rows' answers (`meta.computing`) and the realtime
 * `computing` changes, ended by the `reset` that follows the last rows. The database's toolbar
 * shows it.
 */
const progress = new Map<string, FormulaProgress>();
const listeners = new Set<() => void>();

export function noteFormulaProgress(databaseId: string, now: FormulaProgress | undefined): void {
  const before = progress.get(databaseId);
  if (!now && !before) return;
  if (now && before && now.done === before.done && now.total === before.total && now.fieldIds.join() === before.fieldIds.join()) return;
  if (now) progress.set(databaseId, now);
  else progress.delete(databaseId);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The database's formulas being computed, or undefined. */
export function useFormulaProgress(databaseId: string): FormulaProgress | undefined {
  const read = () => progress.get(databaseId);
  // The server's drawing of a page's top reads it too (as nothing computing).
  return useSyncExternalStore(subscribe, read, read);
}
