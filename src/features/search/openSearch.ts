import { createOpenFlag } from '../../ui/openFlag';

/* Whether the quick finder is open: one flag for the app (Ctrl+K anywhere, the sidebar's «Поиск»). */
const flag = createOpenFlag();

export const openSearch = flag.open;
export const closeSearch = flag.close;
export const toggleSearch = flag.toggle;
export const useSearchOpen = flag.useOpen;
