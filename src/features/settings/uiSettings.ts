import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { useEffect, useRef } from 'react';
import type { SectionId } from '../../../schema/constants';
import { USER_SETTINGS, type UserSettingKey, type UserSettings } from '../../../schema/user';
import { useSelector } from 'react-redux';
import type { RootState } from '../../app/store';
import { applyTheme } from '../../app/theme';
import { saveUserSetting, userSettingsLoaded } from './serverSettings';
import { reportError } from '../../app/report';

/**
 * UI settings (spec §2 "Sidebar"): the user's, kept by the server (`/api/user/settings`), so they
 * follow them to every browser; localStorage under one key is the cache for the first paint.
 */
export interface UiSettings {
  inboxPanel: { pinned: boolean; width: number; filter: string };
  pageTree: { open: boolean; width: number; sections: Record<SectionId, boolean> };
  commentsPanel: { width: number };
  theme: 'auto' | 'light' | 'dark';
  recentColors: string[];
  messengerBanner: boolean;
}

export const UI_SETTINGS_KEY = 'uiSettings';
export const TREE_WIDTH_MIN = 220;
export const TREE_WIDTH_MAX = 480;
export const TREE_WIDTH_DEFAULT = 300;
/** The side panels on the page's sides — the inbox and the comments — are resizable within these (spec default 400). */
export const PANEL_WIDTH_MIN = 320;
export const PANEL_WIDTH_MAX = 600;
export const PANEL_WIDTH_DEFAULT = 400;
const RECENT_COLORS_MAX = 10;
const THEMES = ['auto', 'light', 'dark'] as const;

export const DEFAULT_UI_SETTINGS: UiSettings = {
  inboxPanel: { pinned: false, width: PANEL_WIDTH_DEFAULT, filter: 'all' },
  pageTree: { open: true, width: TREE_WIDTH_DEFAULT, sections: { favorite: true, all: true, shared: true, private: true } },
  commentsPanel: { width: PANEL_WIDTH_DEFAULT },
  theme: 'auto',
  recentColors: [],
  messengerBanner: true,
};

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A stored value merged over the default, recursively: objects key by key (keys the default
 * lacks are dropped), arrays only for arrays, anything else only when its type is the default's
 * (a number must be finite).
 */
export function mergeSettings<T>(defaults: T, stored: unknown): T {
  if (Array.isArray(defaults)) return (Array.isArray(stored) ? stored : defaults) as T;
  if (isPlainObject(defaults)) {
    if (!isPlainObject(stored)) return defaults;
    const merged: Record<string, unknown> = {};
    for (const key of Object.keys(defaults)) {
      merged[key] = Object.prototype.hasOwnProperty.call(stored, key) ? mergeSettings(defaults[key], stored[key]) : defaults[key];
    }
    return merged as T;
  }
  if (typeof stored !== typeof defaults) return defaults;
  if (typeof stored === 'number' && !Number.isFinite(stored)) return defaults;
  return stored as T;
}

export const clampTreeWidth = (width: number) => Math.round(Math.min(TREE_WIDTH_MAX, Math.max(TREE_WIDTH_MIN, width)));
export const clampPanelWidth = (width: number) => Math.round(Math.min(PANEL_WIDTH_MAX, Math.max(PANEL_WIDTH_MIN, width)));

/** Merge, then the few rules types alone do not say: the theme is one of three, widths in their ranges, colours are strings. */
export function normalizeUiSettings(stored: unknown): UiSettings {
  const settings = mergeSettings(DEFAULT_UI_SETTINGS, stored);
  // A width that is no width (0, negative) is the default's; any other is fitted into the panels' range.
  const panel = (value: number) => (value > 0 ? clampPanelWidth(value) : PANEL_WIDTH_DEFAULT);
  return {
    ...settings,
    theme: (THEMES as readonly string[]).includes(settings.theme) ? settings.theme : DEFAULT_UI_SETTINGS.theme,
    pageTree: { ...settings.pageTree, width: clampTreeWidth(settings.pageTree.width) },
    inboxPanel: { ...settings.inboxPanel, width: panel(settings.inboxPanel.width) },
    commentsPanel: { width: panel(settings.commentsPanel.width) },
    recentColors: settings.recentColors.filter((c): c is string => typeof c === 'string').slice(0, RECENT_COLORS_MAX),
  };
}

/** The settings from localStorage; missing, corrupt or unreadable storage gives the defaults. */
export function readUiSettings(): UiSettings {
  try {
    const raw = globalThis.localStorage?.getItem(UI_SETTINGS_KEY);
    return normalizeUiSettings(raw ? (JSON.parse(raw) as unknown) : undefined);
  } catch {
    return normalizeUiSettings(undefined);
  }
}

export function writeUiSettings(settings: UiSettings): void {
  try {
    globalThis.localStorage?.setItem(UI_SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Storage full or disabled (private mode): the settings still hold for this visit.
  }
}

/** The server keeps these keys for the UI settings (the rest of its settings are not the UI's). */
export const UI_SERVER_KEYS = [
  'theme',
  'inboxPinned',
  'inboxWidth',
  'inboxFilter',
  'treeOpen',
  'treeWidth',
  'treeSections',
  'commentsWidth',
  'recentColors',
  'messengerBanner',
] as const;
type UiServerKey = (typeof UI_SERVER_KEYS)[number];
export type UiServerSettings = Pick<UserSettings, UiServerKey>;

/** The server's flat settings as the app's UI settings. */
export function uiFromServer(server: UiServerSettings): UiSettings {
  return normalizeUiSettings({
    theme: server.theme,
    inboxPanel: { pinned: server.inboxPinned, width: server.inboxWidth, filter: server.inboxFilter },
    pageTree: { open: server.treeOpen, width: server.treeWidth, sections: server.treeSections },
    commentsPanel: { width: server.commentsWidth },
    recentColors: server.recentColors,
    messengerBanner: server.messengerBanner,
  });
}

/** The UI settings as the server's keys, each made to fit the server's rules (a value that cannot: its default). */
export function serverFromUi(ui: UiSettings): UiServerSettings {
  const fit = <K extends UiServerKey>(key: K, value: unknown): UserSettings[K] => {
    const parsed = USER_SETTINGS[key].schema.safeParse(value);
    return (parsed.success ? parsed.data : USER_SETTINGS[key].default) as UserSettings[K];
  };
  const width = (value: number) => Math.min(2000, Math.max(160, Math.round(value)));
  return {
    theme: fit('theme', ui.theme),
    inboxPinned: fit('inboxPinned', ui.inboxPanel.pinned),
    inboxWidth: fit('inboxWidth', width(ui.inboxPanel.width)),
    inboxFilter: fit('inboxFilter', ui.inboxPanel.filter),
    treeOpen: fit('treeOpen', ui.pageTree.open),
    treeWidth: fit('treeWidth', width(ui.pageTree.width)),
    treeSections: fit('treeSections', ui.pageTree.sections),
    commentsWidth: fit('commentsWidth', width(ui.commentsPanel.width)),
    recentColors: fit(
      'recentColors',
      ui.recentColors.filter((c) => /^#[0-9a-fA-F]{6}$/.test(c)),
    ),
    messengerBanner: fit('messengerBanner', ui.messengerBanner),
  };
}

const uiSettingsSlice = createSlice({
  name: 'uiSettings',
  initialState: readUiSettings,
  extraReducers: (builder) => {
    // After sign-in the account's settings replace what this browser had cached.
    builder.addCase(userSettingsLoaded, (_state, action) => uiFromServer(action.payload));
  },
  reducers: {
    pageTreeOpenSet(state, action: PayloadAction<boolean>) {
      state.pageTree.open = action.payload;
    },
    pageTreeWidthSet(state, action: PayloadAction<number>) {
      state.pageTree.width = clampTreeWidth(action.payload);
    },
    treeSectionToggled(state, action: PayloadAction<{ section: SectionId; expanded?: boolean }>) {
      const { section, expanded } = action.payload;
      state.pageTree.sections[section] = expanded ?? !state.pageTree.sections[section];
    },
    inboxPanelSet(state, action: PayloadAction<Partial<UiSettings['inboxPanel']>>) {
      state.inboxPanel = { ...state.inboxPanel, ...action.payload };
      if (action.payload.width !== undefined) state.inboxPanel.width = clampPanelWidth(action.payload.width);
    },
    commentsPanelWidthSet(state, action: PayloadAction<number>) {
      state.commentsPanel.width = clampPanelWidth(action.payload);
    },
    themeSet(state, action: PayloadAction<UiSettings['theme']>) {
      state.theme = action.payload;
    },
    recentColorUsed(state, action: PayloadAction<string>) {
      state.recentColors = [action.payload, ...state.recentColors.filter((c) => c !== action.payload)].slice(0, RECENT_COLORS_MAX);
    },
    messengerBannerSet(state, action: PayloadAction<boolean>) {
      state.messengerBanner = action.payload;
    },
  },
});

export const uiSettingsReducer = uiSettingsSlice.reducer;
export const { pageTreeOpenSet, pageTreeWidthSet, treeSectionToggled, inboxPanelSet, commentsPanelWidthSet, themeSet, recentColorUsed, messengerBannerSet } =
  uiSettingsSlice.actions;

/** Writes the settings back to localStorage whenever they change, and applies the theme (mounted once, by the app shell). */
export function useUiSettingsPersistence(): void {
  const settings = useSelector((state: RootState) => state.uiSettings);
  useEffect(() => {
    writeUiSettings(settings);
  }, [settings]);
  // The theme follows the setting as soon as it changes (main.tsx applies the stored one at start).
  useEffect(() => {
    applyTheme(settings.theme);
  }, [settings.theme]);
}

/** How long after the last change a setting is sent to the server (a drag or several clicks send once). */
export const SETTINGS_SAVE_DELAY_MS = 500;

/**
 * Sends changed UI settings to the server, one key per call, SETTINGS_SAVE_DELAY_MS after the last
 * change (and at once when the page is hidden, so a change right before closing the tab is kept).
 * What the server sent at sign-in is the starting point: loading it sends nothing back. Mounted
 * once, by the app shell, while the user is signed in.
 */
export function useUiSettingsServerSync(ready: boolean): void {
  const settings = useSelector((state: RootState) => state.uiSettings);
  const sent = useRef<Record<string, string> | null>(null);
  const pending = useRef<Map<UiServerKey, unknown>>(new Map());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = useRef((keepalive = false) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const batch = [...pending.current];
    pending.current.clear();
    for (const [key, value] of batch) {
      saveUserSetting(key as UserSettingKey, value as never, { keepalive }).catch((error: unknown) => {
        // Not saved: the next change of this key tries again.
        if (sent.current) delete sent.current[key];
        reportError('settings', { message: `${key} was not saved`, error });
      });
    }
  });

  useEffect(() => {
    if (!ready) return;
    const flat = serverFromUi(settings);
    const encoded = Object.fromEntries(UI_SERVER_KEYS.map((key) => [key, JSON.stringify(flat[key])]));
    if (!sent.current) {
      sent.current = encoded;
      return;
    }
    let changed = false;
    for (const key of UI_SERVER_KEYS) {
      if (sent.current[key] === encoded[key]) continue;
      sent.current[key] = encoded[key];
      pending.current.set(key, flat[key]);
      changed = true;
    }
    if (!changed) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => flush.current(), SETTINGS_SAVE_DELAY_MS);
  }, [ready, settings]);

  useEffect(() => {
    const onHide = () => pending.current.size > 0 && flush.current(true);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      onHide();
    };
  }, []);
}
