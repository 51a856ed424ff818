import { useSyncExternalStore } from 'react';
import type { NewRow, WireRowTemplate } from '../../../../schema/database';
import type { DatabaseApi } from '../api';
import type { DatabaseContextValue } from '../context';

/*
 * A database's row templates (issue 38, docs/api/databases.md «Row templates») as the views know
 * them: read once per database for the session (when «▾» beside «Новая строка» opens, or when a
 * plain «Новая строка» needs to know the default), read again when the menu opens and after a
 * change made here. A failed read is not kept: the next one asks again.
 */

export interface RowTemplatesState {
  /** null: not read yet. */
  list: readonly WireRowTemplate[] | null;
  loading: boolean;
  failed: boolean;
}

interface Entry {
  state: RowTemplatesState;
  reading: Promise<readonly WireRowTemplate[]> | null;
  listeners: Set<() => void>;
}

const EMPTY: RowTemplatesState = { list: null, loading: false, failed: false };
const entries = new Map<string, Entry>();

function entryOf(databaseId: string): Entry {
  let entry = entries.get(databaseId);
  if (!entry) entries.set(databaseId, (entry = { state: EMPTY, reading: null, listeners: new Set() }));
  return entry;
}

function setState(entry: Entry, patch: Partial<RowTemplatesState>): void {
  entry.state = { ...entry.state, ...patch };
  for (const listener of entry.listeners) listener();
}

/** The templates as read (`fresh`: read again even when known); a failure answers what was known before, or none. */
export function loadRowTemplates(api: DatabaseApi, databaseId: string, fresh = false): Promise<readonly WireRowTemplate[]> {
  const entry = entryOf(databaseId);
  if (entry.reading) return entry.reading;
  if (entry.state.list && !fresh) return Promise.resolve(entry.state.list);
  setState(entry, { loading: true, failed: false });
  const reading = api.templates(databaseId).then(
    (list) => {
      if (entry.reading === reading) setState(entry, { list, loading: false, failed: false });
      return list;
    },
    () => {
      if (entry.reading === reading) setState(entry, { loading: false, failed: true });
      return entry.state.list ?? [];
    },
  );
  entry.reading = reading;
  void reading.finally(() => {
    if (entry.reading === reading) entry.reading = null;
  });
  return reading;
}

/** The list changed here (a template made, deleted, made the default): shown at once, whatever a read in flight answers. */
export function putRowTemplates(databaseId: string, change: (list: readonly WireRowTemplate[]) => readonly WireRowTemplate[]): void {
  const entry = entryOf(databaseId);
  entry.reading = null;
  setState(entry, { list: change(entry.state.list ?? []), loading: false, failed: false });
}

/** The default marked on the one given (null: none). */
export const withDefault = (templateId: string | null) => (list: readonly WireRowTemplate[]) =>
  list.map((template) => ({ ...template, isDefault: template.id === templateId }));

/** A database's templates as they are known, drawn again as that changes. */
export function useRowTemplates(databaseId: string): RowTemplatesState {
  const entry = entryOf(databaseId);
  return useSyncExternalStore(
    (listener) => {
      entry.listeners.add(listener);
      return () => void entry.listeners.delete(listener);
    },
    () => entry.state,
    () => entry.state,
  );
}

/**
 * Which template a plain «Новая строка» starts from: the database's default when it is among its
 * templates. `hint`: the database's `defaultTemplate` where the view knows its data (null: none,
 * so nothing is read; undefined: not known, the list says).
 */
export async function defaultRowTemplate(api: DatabaseApi, databaseId: string, hint: string | null | undefined): Promise<string | undefined> {
  if (hint === null) return undefined;
  let list = await loadRowTemplates(api, databaseId);
  // Named by the data but not in the list known: a template made elsewhere since it was read.
  if (hint !== undefined && !list.some((template) => template.id === hint)) list = await loadRowTemplates(api, databaseId, true);
  return (hint === undefined ? list.find((template) => template.isDefault) : list.find((template) => template.id === hint))?.id;
}

/**
 * The template a new row made from a button starts from: `choice` a template's id (chosen in the
 * «▾» menu), null (chosen «Пустая строка»: none), or undefined (the plain button: the default).
 */
export function templateFor(db: Pick<DatabaseContextValue, 'api' | 'databaseId' | 'defaultTemplate'>, choice?: string | null): Promise<string | undefined> {
  if (choice !== undefined) return Promise.resolve(choice ?? undefined);
  return defaultRowTemplate(db.api, db.databaseId, db.defaultTemplate);
}

/**
 * What a new row is made of, from a template or not: its `templateId`, and an empty title left
 * out (the template's title goes to the row unless one is given).
 */
export function fromTemplate<R extends NewRow>(row: R, templateId: string | undefined): R {
  if (!templateId) return row;
  const { title, ...rest } = row;
  return { ...rest, ...(title ? { title } : {}), templateId } as R;
}

/**
 * A row made from a template (`make`): refused, the templates are read again — the template was
 * deleted elsewhere since they were read (so was the default, if it was), and the next new row
 * does not ask for it again.
 */
export async function madeFromTemplate<T>(
  db: Pick<DatabaseContextValue, 'api' | 'databaseId'>,
  templateId: string | undefined,
  make: () => Promise<T>,
): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (templateId) void loadRowTemplates(db.api, db.databaseId, true);
    throw error;
  }
}

/** Forgets every database's templates (tests: each starts with none known). */
export function clearRowTemplates(): void {
  entries.clear();
}
