import { useEffect, useSyncExternalStore } from 'react';
import { MAIN_FIELD_ID } from '../../../../schema/blocks/database';
import { MAX_ROW_WINDOW, type DatabaseChange } from '../../../../schema/database';
import { databaseApi, type RowTitle } from '../api';

/**
 * The titles of rows a relation's cells name (`GET database/{id}/titles`), per database, asked
 * for together: the cells drawn in one frame make one call. A row not found (deleted, in the
 * trash, of another database) is null: its id is left out of the cell. Kept for the page's life;
 * titles read with rows elsewhere (a picker's search) are put in too (`rememberTitles`).
 */
const known = new Map<string, Map<string, RowTitle | null>>();
const waiting = new Map<string, Set<string>>();
const listeners = new Set<() => void>();
let version = 0;
let scheduled = false;

function emit(): void {
  version += 1;
  for (const listener of listeners) listener();
}

async function flush(): Promise<void> {
  scheduled = false;
  const asks = [...waiting.entries()];
  waiting.clear();
  for (const [databaseId, ids] of asks) {
    const list = [...ids];
    for (let at = 0; at < list.length; at += MAX_ROW_WINDOW) {
      const chunk = list.slice(at, at + MAX_ROW_WINDOW);
      const titles = known.get(databaseId) ?? new Map<string, RowTitle | null>();
      known.set(databaseId, titles);
      try {
        const found = new Map((await databaseApi.titles(databaseId, chunk)).map((row) => [row.id, row]));
        for (const id of chunk) titles.set(id, found.get(id) ?? null);
      } catch {
        // Asked again by the next drawing that needs them.
        for (const id of chunk) titles.delete(id);
      }
    }
  }
  emit();
}

function ask(databaseId: string, ids: readonly string[]): void {
  const titles = known.get(databaseId);
  const missing = ids.filter((id) => !titles?.has(id));
  if (missing.length === 0) return;
  const set = waiting.get(databaseId) ?? new Set<string>();
  for (const id of missing) set.add(id);
  waiting.set(databaseId, set);
  if (!scheduled) {
    scheduled = true;
    setTimeout(() => void flush(), 0);
  }
}

/** Titles known from rows read elsewhere. */
export function rememberTitles(databaseId: string, rows: ReadonlyArray<RowTitle>): void {
  const titles = known.get(databaseId) ?? new Map<string, RowTitle | null>();
  known.set(databaseId, titles);
  for (const row of rows) titles.set(row.id, { id: row.id, title: row.title, icon: row.icon });
  emit();
}

/**
 * Others' changes (and ours coming back) to titles already known: a row renamed shows its new
 * title in the cells naming it, a row removed leaves them, a row back (restored) shows again.
 */
export function titlesChanged(databaseId: string, change: DatabaseChange): void {
  const titles = known.get(databaseId);
  if (!titles) return;
  let changed = false;
  const set = (id: string, title: RowTitle | null) => {
    titles.set(id, title);
    changed = true;
  };
  if (change.kind === 'cells') {
    const renamed = change.cells.find((cell) => cell.fieldId === MAIN_FIELD_ID);
    const was = titles.get(change.rowId);
    if (renamed && was) set(change.rowId, { ...was, title: typeof renamed.value === 'string' ? renamed.value : '' });
  } else if (change.kind === 'removed') {
    for (const id of change.ids) if (titles.get(id)) set(id, null);
  } else if (change.kind === 'rows') {
    for (const row of change.rows) if (titles.has(row.id)) set(row.id, { id: row.id, title: row.data.title, icon: row.data.icon });
  }
  if (changed) emit();
}

/** Forgets every title (tests; signing out). */
export function clearTitles(): void {
  known.clear();
  waiting.clear();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The titles of `ids` in `databaseId`: a row's title, null for one not there, undefined while asked for. */
export function useRowTitles(databaseId: string | undefined, ids: readonly string[]): (id: string) => RowTitle | null | undefined {
  useSyncExternalStore(subscribe, () => version);
  const key = ids.join(',');
  useEffect(() => {
    if (databaseId) ask(databaseId, ids);
  }, [databaseId, key]); // eslint-disable-line react-hooks/exhaustive-deps
  const titles = databaseId ? known.get(databaseId) : undefined;
  return (id) => titles?.get(id);
}
