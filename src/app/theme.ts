export type ThemeSetting = 'auto' | 'light' | 'dark';

const SETTINGS_KEY = 'settings';

/** The theme from local settings (default auto: follow the OS). A stored value of the wrong type is ignored. */
export function readThemeSetting(): ThemeSetting {
  try {
    const stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as { theme?: unknown };
    return stored.theme === 'light' || stored.theme === 'dark' ? stored.theme : 'auto';
  } catch {
    return 'auto';
  }
}

export function applyTheme(theme: ThemeSetting = readThemeSetting()) {
  document.documentElement.dataset.theme = theme;
}
