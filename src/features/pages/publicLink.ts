import { useEffect, useState } from 'react';
import { api } from '../../app/api';
import { publicUrl } from './pageErrors';

/** Aliases already read, by page id: an alias once given never changes (docs/api/pages.md). */
const aliases = new Map<string, string | null>();

/**
 * The one public address of a published page, as the page menu and the share dialog both show
 * it: `/{alias}` when the page has one (the server gives it on the first publish), else
 * `/{pageId}`. Null while the page is not public or the alias is still being read, so nobody
 * is shown one address and then another.
 */
export function usePublicLink(page: { id: string; isPublic: boolean }): string | null {
  const [, setRead] = useState(0);
  const [failed, setFailed] = useState(false);
  const known = aliases.has(page.id);
  useEffect(() => {
    if (!page.isPublic || known) return;
    let cancelled = false;
    api<{ id: string; alias: string | null }>(`/api/v3/spaces/pagealias/${encodeURIComponent(page.id)}`)
      // No alias yet (a publish not yet committed when this was read): not kept, asked again next time.
      .then(({ data }) => (data.alias ? aliases.set(page.id, data.alias) : setFailed(true)))
      // Not readable now: the id, which always works; the alias is asked again next time.
      .catch(() => {
        if (!cancelled) setFailed(true);
      })
      .finally(() => {
        if (!cancelled) setRead((n) => n + 1);
      });
    return () => {
      cancelled = true;
    };
  }, [page.id, page.isPublic, known]);
  if (!page.isPublic || (!known && !failed)) return null;
  return publicUrl(aliases.get(page.id) ?? page.id);
}
