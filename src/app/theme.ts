import { readUiSettings, type UiSettings } from '../features/settings/uiSettings';

export type ThemeSetting = UiSettings['theme'];

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme from the UI settings (default auto: follow the OS; a stored value of the wrong type is ignored there). */
export function readThemeSetting(): ThemeSetting {
  return readUiSettings().theme;
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
