import { useEffect, useState } from 'react';
import { MEDIA } from './breakpoints';

/** Whether a media query matches, kept up to date. */
export function useMediaQuery(query: string): boolean {
  const get = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  const [matches, setMatches] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}

/** Phone layout: the xs range (src/ui/breakpoints.ts), where the sidebar is a drawer. */
const PHONE_QUERY = MEDIA.xs;
export const useIsPhone = () => useMediaQuery(PHONE_QUERY);

/** Whether the phone layout is on now, and a subscription to its changes (for useSyncExternalStore). */
export const onPhone = () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;
export const watchPhone = (notify: () => void) => {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', notify);
  return () => query.removeEventListener('change', notify);
};
