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

/** GET /api/config: the links, and the installation's own host (where the service worker runs). */
export interface AppConfig {
  links: AppLinks;
  defaultHost: string | null;
}

let loading: Promise<AppConfig> | null = null;

/** Asked once per page load; a failure is asked again next time (and shows no links meanwhile). */
export function loadAppConfig(): Promise<AppConfig> {
  loading ??= api<AppConfig>('/api/config').then(
    (response) => ({ links: { ...NO_LINKS, ...response.data.links }, defaultHost: response.data.defaultHost ?? null }),
    () => {
      loading = null;
      return { links: NO_LINKS, defaultHost: null };
    },
  );
  return loading;
}

export const loadAppLinks = (): Promise<AppLinks> => loadAppConfig().then((config) => config.links);

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
