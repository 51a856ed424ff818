import { createStore } from '../../app/store';
import {
  commentsPanelWidthSet,
  DEFAULT_UI_SETTINGS,
  inboxPanelSet,
  mergeSettings,
  normalizeUiSettings,
  pageTreeWidthSet,
  readUiSettings,
  serverFromUi,
  treeSectionToggled,
  uiFromServer,
  UI_SERVER_KEYS,
  UI_SETTINGS_KEY,
} from './uiSettings';
import { USER_SETTINGS } from '../../../schema/user';
import { parseUserSettings, userSettingsLoaded } from './serverSettings';

describe('settings merge', () => {
  beforeEach(() => localStorage.clear());

  it('gives the spec defaults when nothing is stored', () => {
    expect(readUiSettings()).toEqual({
      inboxPanel: { pinned: false, width: 400, filter: 'all' },
      pageTree: { open: true, width: 300, sections: { favorite: true, all: true, shared: true, private: true } },
      commentsPanel: { width: 400 },
      theme: 'auto',
      recentColors: [],
      messengerBanner: true,
    });
  });

  it('gives the defaults for corrupt JSON or a stored value that is not an object', () => {
    for (const raw of ['{not json', 'null', '42', '"dark"', '[1,2]']) {
      localStorage.setItem(UI_SETTINGS_KEY, raw);
      expect(readUiSettings()).toEqual(DEFAULT_UI_SETTINGS);
    }
  });

  it('merges objects key by key, recursively, keeping defaults for what is missing', () => {
    localStorage.setItem(UI_SETTINGS_KEY, JSON.stringify({ pageTree: { width: 350, sections: { shared: false } }, theme: 'dark' }));
    const settings = readUiSettings();
    expect(settings.pageTree).toEqual({ open: true, width: 350, sections: { favorite: true, all: true, shared: false, private: true } });
    expect(settings.theme).toBe('dark');
    expect(settings.inboxPanel).toEqual(DEFAULT_UI_SETTINGS.inboxPanel);
  });

  it('accepts a stored value only when its type is the default’s', () => {
    const merged = mergeSettings(DEFAULT_UI_SETTINGS, {
      inboxPanel: { pinned: 'yes', width: '500', filter: 7 },
      pageTree: { open: 0, width: null, sections: 'all' },
      commentsPanel: [],
      messengerBanner: 'false',
    });
    expect(merged.inboxPanel).toEqual(DEFAULT_UI_SETTINGS.inboxPanel);
    expect(merged.pageTree).toEqual(DEFAULT_UI_SETTINGS.pageTree);
    expect(merged.commentsPanel).toEqual(DEFAULT_UI_SETTINGS.commentsPanel);
    expect(merged.messengerBanner).toBe(true);
  });

  it('takes arrays only for arrays, and objects never for arrays', () => {
    expect(mergeSettings(DEFAULT_UI_SETTINGS, { recentColors: { 0: '#fff' } }).recentColors).toEqual([]);
    expect(mergeSettings(DEFAULT_UI_SETTINGS, { recentColors: '#fff' }).recentColors).toEqual([]);
    expect(mergeSettings(DEFAULT_UI_SETTINGS, { recentColors: ['#fff', '#000'] }).recentColors).toEqual(['#fff', '#000']);
    expect(mergeSettings(DEFAULT_UI_SETTINGS, { pageTree: [true] }).pageTree).toEqual(DEFAULT_UI_SETTINGS.pageTree);
  });

  it('drops keys the defaults do not have, at every level', () => {
    const merged = mergeSettings(DEFAULT_UI_SETTINGS, {
      extra: 1,
      pageTree: { extra: 2, sections: { trash: false } },
      __proto__: { polluted: true },
    }) as unknown as Record<string, unknown>;
    expect(Object.keys(merged).sort()).toEqual(Object.keys(DEFAULT_UI_SETTINGS).sort());
    expect(Object.keys(merged.pageTree as object).sort()).toEqual(['open', 'sections', 'width']);
    expect(Object.keys((merged.pageTree as { sections: object }).sections).sort()).toEqual(['all', 'favorite', 'private', 'shared']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses non-finite numbers, an unknown theme, an out-of-range tree width and non-string colours', () => {
    const settings = normalizeUiSettings({ theme: 'sepia', pageTree: { width: 5000 }, inboxPanel: { width: -3 }, recentColors: ['#111', 3, null, '#222'] });
    expect(settings.theme).toBe('auto');
    expect(settings.pageTree.width).toBe(480);
    expect(normalizeUiSettings({ pageTree: { width: 100 } }).pageTree.width).toBe(220);
    expect(mergeSettings(DEFAULT_UI_SETTINGS, { commentsPanel: { width: Number.NaN } }).commentsPanel.width).toBe(400);
    expect(settings.inboxPanel.width).toBe(400);
    expect(settings.recentColors).toEqual(['#111', '#222']);
  });

  it('keeps the side panels (inbox, comments) within 320–600 px, read or set', () => {
    expect(normalizeUiSettings({ commentsPanel: { width: 100 }, inboxPanel: { width: 5000 } })).toMatchObject({
      commentsPanel: { width: 320 },
      inboxPanel: { width: 600 },
    });
    expect(normalizeUiSettings({ commentsPanel: { width: 455.4 } }).commentsPanel.width).toBe(455);
    const store = createStore();
    store.dispatch(commentsPanelWidthSet(9999));
    store.dispatch(inboxPanelSet({ width: 10 }));
    expect(store.getState().uiSettings.commentsPanel.width).toBe(600);
    expect(store.getState().uiSettings.inboxPanel.width).toBe(320);
    store.dispatch(inboxPanelSet({ pinned: true }));
    expect(store.getState().uiSettings.inboxPanel).toMatchObject({ pinned: true, width: 320 });
  });

  it('is read by a new store, and the slice keeps the tree width in range', () => {
    localStorage.setItem(UI_SETTINGS_KEY, JSON.stringify({ pageTree: { open: false, width: 260 } }));
    const store = createStore();
    expect(store.getState().uiSettings.pageTree).toMatchObject({ open: false, width: 260 });
    store.dispatch(pageTreeWidthSet(9999));
    expect(store.getState().uiSettings.pageTree.width).toBe(480);
    store.dispatch(treeSectionToggled({ section: 'favorite' }));
    expect(store.getState().uiSettings.pageTree.sections.favorite).toBe(false);
  });
});

describe('the server keeps the UI settings', () => {
  const server = {
    theme: 'dark' as const,
    inboxPinned: true,
    inboxWidth: 520,
    inboxFilter: 'unread' as const,
    treeOpen: false,
    treeWidth: 360,
    treeSections: { favorite: false, all: true, shared: true, private: false },
    commentsWidth: 450,
    recentColors: ['#ff0000'],
    messengerBanner: false,
  };

  it('maps the server keys to the UI settings and back', () => {
    const ui = uiFromServer(server);
    expect(ui).toEqual({
      theme: 'dark',
      inboxPanel: { pinned: true, width: 520, filter: 'unread' },
      pageTree: { open: false, width: 360, sections: { favorite: false, all: true, shared: true, private: false } },
      commentsPanel: { width: 450 },
      recentColors: ['#ff0000'],
      messengerBanner: false,
    });
    expect(serverFromUi(ui)).toEqual(server);
  });

  it('sends only what the server accepts: widths in its range, known filters, #rrggbb colours', () => {
    const sent = serverFromUi({
      ...DEFAULT_UI_SETTINGS,
      inboxPanel: { pinned: false, width: 90, filter: 'weird' },
      commentsPanel: { width: 5000 },
      recentColors: ['red', '#00ff00'],
    });
    expect(sent).toMatchObject({ inboxWidth: 160, inboxFilter: 'all', commentsWidth: 2000, recentColors: ['#00ff00'] });
    for (const key of UI_SERVER_KEYS) expect(USER_SETTINGS[key].schema.safeParse(sent[key]).success).toBe(true);
  });

  it("the account's settings replace the cached ones when they arrive (and a bad key keeps its default)", () => {
    localStorage.setItem(UI_SETTINGS_KEY, JSON.stringify({ theme: 'light' }));
    const store = createStore();
    expect(store.getState().uiSettings.theme).toBe('light');
    const parsed = parseUserSettings({ ...server, treeWidth: 'wide', activeWorkspace: null });
    expect(parsed?.treeWidth).toBe(300);
    store.dispatch(userSettingsLoaded(parsed!));
    expect(store.getState().uiSettings).toMatchObject({ theme: 'dark', pageTree: { open: false, width: 300 }, inboxPanel: { width: 520 } });
    expect(parseUserSettings([1, 2])).toBeNull();
  });
});
