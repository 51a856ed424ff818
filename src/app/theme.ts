export type ThemeSetting = 'auto' | 'light' | 'dark';

const SETTINGS_KEY = 'settings';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme from local settings (default auto: follow the OS). A stored value of the wrong type is ignored. */
export function readThemeSetting(): ThemeSetting {
  try {
    const stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as { theme?: unknown };
    return stored.theme === 'light' || stored.theme === 'dark' ? stored.theme : 'auto';
  } catch {
    return 'auto';
  }
}

let stopFollowingOs: (() => void) | null = null;

/**
 * Sets data-theme on <html> to light or dark. "auto" follows the OS, and keeps following it
 * when the OS switches while the app is open.
 */
export function applyTheme(theme: ThemeSetting = readThemeSetting()) {
  stopFollowingOs?.();
  stopFollowingOs = null;
  const root = document.documentElement;
  if (theme !== 'auto') {
    root.dataset.theme = theme;
    return;
  }
  const query = window.matchMedia(DARK_QUERY);
  const follow = () => {
    root.dataset.theme = query.matches ? 'dark' : 'light';
  };
  follow();
  query.addEventListener('change', follow);
  stopFollowingOs = () => query.removeEventListener('change', follow);
}
