import { useSyncExternalStore } from 'react';
import type { WireElement } from '../../../../schema/element';

/** Where an import goes: a new database page (in a section or under a page), or an existing database page. */
export type CsvImportTarget =
  | { kind: 'new'; place: { section: 'private' | 'all' } | { parentId: string } }
  | { kind: 'existing'; page: WireElement; /** The database block, when the caller knows it (else it is looked up). */ databaseId?: string };

/* The import dialog is one for the app: the sidebar's «+» menu and a database page's «⋯» menu open it. */
let target: CsvImportTarget | null = null;
const listeners = new Set<() => void>();
const set = (next: CsvImportTarget | null) => {
  target = next;
  listeners.forEach((listener) => listener());
};

export const openCsvImport = (next: CsvImportTarget) => set(next);
export const closeCsvImport = () => set(null);
export const useCsvImportTarget = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    () => target,
    () => target,
  );
