import { useEffect, useSyncExternalStore } from 'react';
import { useAppSelector } from '../../app/store';
import { fetchPage } from '../pages/pagesSlice';

/*
 * Titles of the pages notifications are about. A page the app already holds gives its title
 * from the store; others are fetched once (GET element/{id}) and kept here for the visit.
 */
const titles = new Map<string, string | null>();
const asked = new Set<string>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function ask(id: string) {
  if (asked.has(id)) return;
  asked.add(id);
  fetchPage(id)
    .then((page) => titles.set(id, page.title))
    // No title to show (no access any more, gone): the line says «Без названия» rather than wait forever.
    .catch(() => titles.set(id, null))
    .finally(notify);
}

/** Forgets the fetched titles (tests). */
export function resetPageTitles(): void {
  titles.clear();
  asked.clear();
}

/** The page's title: a string (maybe empty), or undefined while it is being fetched. */
export function usePageTitle(id: string): string | undefined {
  const known = useAppSelector((state) => state.pages.entities[id]?.title);
  useEffect(() => {
    if (known === undefined) ask(id);
  }, [id, known]);
  const fetched = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => titles.get(id),
    () => titles.get(id),
  );
  if (known !== undefined) return known;
  return fetched === null ? '' : fetched;
}
