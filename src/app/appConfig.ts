import { useEffect, useState } from 'react';
import { api } from './api';

/** Links this installation shows (GET /api/config; set by the server's environment). */
export interface AppLinks {
  /** The feedback chat; null: the built-in feedback form. */
  help: string | null;
  privacy: string | null;
  terms: string | null;
  docs: string | null;
  templates: string | null;
}

export const NO_LINKS: AppLinks = { help: null, privacy: null, terms: null, docs: null, templates: null };

let loading: Promise<AppLinks> | null = null;

/** Asked once per page load; a failure is asked again next time (and shows no links meanwhile). */
export function loadAppLinks(): Promise<AppLinks> {
  loading ??= api<{ links: AppLinks }>('/api/config').then(
    (response) => ({ ...NO_LINKS, ...response.data.links }),
    () => {
      loading = null;
      return NO_LINKS;
    },
  );
  return loading;
}

/** For tests: forget the cached answer. */
export function resetAppLinks(): void {
  loading = null;
}

export function useAppLinks(): AppLinks {
  const [links, setLinks] = useState<AppLinks>(NO_LINKS);
  useEffect(() => {
    let cancelled = false;
    void loadAppLinks().then((value) => !cancelled && setLinks(value));
    return () => {
      cancelled = true;
    };
  }, []);
  return links;
}
