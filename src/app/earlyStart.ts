import { rowsAddressScript, type firstRowsPaths } from '../editor/blocks/rowsAddress.ts';

/**
 * The app's first requests, asked for by a small script in index.html while the HTML is read —
 * ≈ 150 ms before the app's code has come and run (docs/web-app.md, «Opening a page»). The build
 * writes that script (server/web/earlyStart.ts) from the functions here, as their text: so they
 * use nothing but their arguments and the browser's globals, and call no other function of this
 * file but `startGets`, `searchOfAddress`, `searchPath`, `startWorkspace`, `earlySearch` and `earlyStart`, which go
 * into the script together; the addresses of a
 * database's rows come from src/editor/blocks/rowsAddress.ts, as the script's text of those
 * functions (an argument of `earlyStart`: an imported name is not a name in the script). The app takes the answers (`takeEarly`: the api's prefetched GETs and the
 * translation files) instead of asking again.
 */

/** What the build tells the script: the translation files and, for a page's address, the page screen's code. */
export interface EarlyPlan {
  /** The translation files (content-hashed URLs under /assets/), asked for on any address. */
  words: string[];
  /** The page screen's chunks (modulepreload) and their style sheets (preload as style). */
  screen: { scripts: string[]; styles: string[] };
  /** The Table view's (src/features/database/DatabaseBlock.tsx), asked for when the page's top holds a database. */
  database: { scripts: string[]; styles: string[] };
  /** Rows in a window (DATABASE_WINDOW): the first window of each of those databases is asked for too; a board's columns' of BOARD_WINDOW. */
  rowsWindow: number;
  boardWindow: number;
  /** A calendar's first days' rows, at most this many (CALENDAR_WINDOW). */
  calendarWindow: number;
  /** The Calendar view's own chunk (FullCalendar), asked for when a database opens on a calendar. */
  calendar: { scripts: string[]; styles: string[] };
  /** The search screen's chunks and style sheets, asked for on its address (`/search`). */
  search: { scripts: string[]; styles: string[] };
}

/** A request the script made: when, and its answer; `workspace`: asked for in that workspace (X-Workspace-Id). */
export interface EarlyRequest {
  at: number;
  response: Promise<Response>;
  workspace?: string;
}

/** The filters of the search screen (its address), as `searchPath` sends them. */
export interface SearchAddress {
  q: string;
  /** Another workspace than the active one (`ws=`). */
  workspaceId?: string;
  /** Pages made by this user. */
  author?: string;
  /** Changed on or after / before these days (YYYY-MM-DD, the browser's days). */
  after?: string;
  before?: string;
  /** Pages in the trash instead. */
  inTrash?: boolean;
  /** Rows of this database (block id) only: a result's «ещё N строк». */
  database?: string;
  kind?: string;
  section?: string;
  sort?: string;
}

/**
 * The search screen's address (`/search?q=…&kind=…`) read as the filters it searches with
 * (src/features/search/SearchScreen.tsx reads it so too). Self-contained (see the top).
 */
export function searchOfAddress(search: string): SearchAddress {
  const params = new URLSearchParams(search);
  const get = (name: string) => params.get(name) || undefined;
  return {
    q: params.get('q') ?? '',
    workspaceId: get('ws'),
    author: get('author'),
    after: get('after'),
    before: get('before'),
    inTrash: params.get('trash') === '1',
    database: get('database'),
    kind: get('kind'),
    section: get('section'),
    sort: params.get('sort') === 'edited' ? 'edited' : undefined,
  };
}

/**
 * `GET search/text`'s path for a search (src/features/search/searchApi.ts asks with it): the
 * days as the instants the browser's days start (`before`: the next day's start, the day taken
 * in). Self-contained (see the top).
 */
export function searchPath(search: SearchAddress, offset: number, limit: number): string {
  const start = (day: string, next: number) => {
    const at = new Date(`${day}T00:00:00`);
    at.setDate(at.getDate() + next);
    return at.toISOString();
  };
  const params = new URLSearchParams({ q: JSON.stringify(search.q), offset: String(offset), limit: String(limit) });
  if (search.author) params.set('author', JSON.stringify(search.author));
  if (search.after) params.set('after', JSON.stringify(start(search.after, 0)));
  if (search.before) params.set('before', JSON.stringify(start(search.before, 1)));
  if (search.inTrash) params.set('inTrash', 'true');
  if (search.database) params.set('database', JSON.stringify(search.database));
  if (search.kind) params.set('kind', JSON.stringify(search.kind));
  if (search.section) params.set('section', JSON.stringify(search.section));
  if (search.sort) params.set('sort', JSON.stringify(search.sort));
  return `/api/v3/spaces/search/text?${params.toString()}`;
}

/** Results the search screen shows at first (and asks for each time «Показать ещё» is pressed). */
export const SEARCH_PAGE = 20;

declare global {
  interface Window {
    /** The script's requests by path, each taken once (`takeEarly`). */
    __early?: Record<string, EarlyRequest | undefined>;
  }
}

/**
 * The page an address opens (`page`: its uid, or null) and the API's GETs a start there asks for
 * at once: the page and the top of its blocks (src/features/pages/pageLoad.ts), and the shell's
 * first questions (who is signed in, their workspaces and settings) on a page and the addresses
 * drawn in the signed-in shell (home, the wizard, a copy). Self-contained (see the top).
 */
export function startGets(pathname: string): { page: string | null; pageGets: string[]; shellGets: string[] } {
  const match = /^\/([A-Za-z0-9_-]+)\/?$/.exec(pathname);
  // Addresses of the app that are not pages (src/app/App.tsx).
  const page = match && ['login', 'new-workspace', 'version', 'public', 'clone', 'oauth', 'search'].indexOf(match[1]) < 0 ? match[1] : null;
  const shell = page !== null || pathname === '/' || /^\/(new-workspace|search|clone\/[A-Za-z0-9_-]+)\/?$/.test(pathname);
  const id = page === null ? '' : encodeURIComponent(page);
  return {
    page,
    // The top of a page: its first 100 blocks (PAGE_HEAD_BLOCKS), more than two screens of paragraphs.
    pageGets: page === null ? [] : [`/api/v3/spaces/element/${id}`, `/api/v3/spaces/note/${id}/blocks?limit=100`],
    shellGets: shell ? ['/api/user/current', '/api/v3/spaces/workspace', '/api/user/settings'] : [],
  };
}

/**
 * The script's body: asks for the words, the start's GETs and, on a page's address, the page
 * screen's code; once the page's top is in, when it holds databases, the Table view's code and
 * their first windows of rows (`rowsOf`: rowsAddress.ts's `firstRowsPaths`). Self-contained (see the top).
 */
export function earlyStart(plan: EarlyPlan, rowsOf: typeof firstRowsPaths): void {
  const early: Record<string, EarlyRequest | undefined> = (window.__early = {});
  const api: RequestInit = { headers: { 'X-App-Type': 'Web' }, credentials: 'same-origin' };
  const get = (path: string, init?: RequestInit) => {
    const response = fetch(path, init);
    response.catch(() => undefined);
    early[path] = { at: Date.now(), response };
  };
  for (const url of plan.words) get(url);
  const start = startGets(location.pathname);
  for (const path of [...start.pageGets, ...start.shellGets]) get(path, api);
  const link = (rel: string, href: string, as?: string) => {
    const element = document.createElement('link');
    element.rel = rel;
    element.href = href;
    element.crossOrigin = '';
    if (as) element.setAttribute('as', as);
    document.head.appendChild(element);
  };
  if (/^\/search\/?$/.test(location.pathname)) {
    earlySearch(plan, early, api, link);
    return;
  }
  if (start.page === null) return;
  for (const href of plan.screen.scripts) link('modulepreload', href);
  for (const href of plan.screen.styles) link('preload', href, 'style');
  // The page's top is read here before the app reads it: databases in it have their rows asked
  // for first (the app asks for the same addresses as soon as it has read the top, and takes these).
  const top = early[start.pageGets[1]]!;
  top.response = top.response.then(async (response) => {
    if (!response.ok) return response;
    const text = await response.text();
    if (text.indexOf('"database"') >= 0) {
      let rows: string[] = [];
      try {
        const blocks = (JSON.parse(text) as { data?: unknown }).data;
        rows = rowsOf(Array.isArray(blocks) ? blocks : [], plan.rowsWindow, plan.boardWindow, plan.calendarWindow);
      } catch {
        // Not JSON, or not blocks as expected: the app reads the answer and says so; nothing is asked for early.
      }
      if (rows.length > 0) {
        for (const href of plan.database.scripts) link('modulepreload', href);
        for (const href of plan.database.styles) link('preload', href, 'style');
        if (rows.some((path) => path.indexOf('range=') >= 0)) {
          for (const href of plan.calendar.scripts) link('modulepreload', href);
          for (const href of plan.calendar.styles) link('preload', href, 'style');
        }
        for (const path of rows) get(path, api);
      }
    }
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  });
  top.response.catch(() => undefined);
}

/**
 * On the search screen's address: its code, and its first results, asked for in the workspace it
 * will search — the address's (`ws=`), else the one the app will open (from copies of the
 * settings' and the workspace list's answers, asked for already). None when there is no query. Self-contained (see the top): the screen's own (SEARCH_PAGE) results, by `searchPath`;
 * `link` adds a preload link to the head (`earlyStart`'s).
 */
export function earlySearch(
  plan: EarlyPlan,
  early: Record<string, EarlyRequest | undefined>,
  api: RequestInit,
  link: (rel: string, href: string, as?: string) => void,
): void {
  for (const href of plan.search.scripts) link('modulepreload', href);
  for (const href of plan.search.styles) link('preload', href, 'style');
  const search = searchOfAddress(location.search);
  if (!search.q.trim()) return;
  const path = searchPath(search, 0, 20);
  const ask = (workspace: string) => {
    const response = fetch(path, { ...api, headers: { ...(api.headers as Record<string, string>), 'X-Workspace-Id': workspace } });
    response.catch(() => undefined);
    early[path] = { at: Date.now(), response, workspace };
  };
  if (search.workspaceId) return ask(search.workspaceId);
  const settings = early['/api/user/settings'];
  const list = early['/api/v3/spaces/workspace'];
  if (!settings || !list) return;
  // Copies of the answers (the app reads the answers themselves): taken before the app's
  // reading, as this runs first.
  const read = (request: EarlyRequest) => request.response.then((response) => (response.ok ? response.clone().json() : null));
  Promise.all([read(settings), read(list)])
    .then(([mine, theirs]: Array<{ data?: unknown } | null>) => {
      const { activeWorkspace, wizardOffered } = (mine?.data ?? {}) as { activeWorkspace?: unknown; wizardOffered?: unknown };
      const workspaces = (Array.isArray(theirs?.data) ? theirs.data : []) as StartWorkspace[];
      // The one the app opens (the same rule); should the app choose another, it asks itself.
      const active = startWorkspace(workspaces, typeof activeWorkspace === 'string' ? activeWorkspace : null, !wizardOffered).id;
      if (active) ask(active);
    })
    .catch(() => undefined);
}

/** A workspace as the start reads it from the workspace list. */
export interface StartWorkspace {
  id: string;
  private?: boolean;
  role?: string;
}

/**
 * The workspace the app opens at start (src/features/workspaces/workspacesSlice.ts, and the early
 * script's search): the one last used (`remembered`) if the person is still in it; on an invited
 * person's first visit (`firstVisit`: the wizard not offered yet, nothing remembered) the team
 * they were invited to — the last one listed that is not private and not a guest's (an
 * invitation made their account and its private workspace at the same moment, so the order alone
 * does not tell; a guest was shown a page, not asked into a team: `invited`); else the first, the
 * personal one made at sign-up. Self-contained (see the top).
 */
export function startWorkspace(workspaces: readonly StartWorkspace[], remembered: string | null, firstVisit: boolean): { id: string | null; invited: boolean } {
  if (remembered && workspaces.some((w) => w.id === remembered)) return { id: remembered, invited: false };
  const teams = workspaces.filter((w) => !w.private && w.role !== 'guest');
  if (firstVisit && !remembered && workspaces.length > 1 && teams.length > 0) return { id: teams[teams.length - 1].id, invited: true };
  return { id: workspaces[0]?.id ?? null, invited: false };
}

/**
 * The script's request for `path` (once; a second call, or one after `maxAgeMs`, gets null). One
 * asked for in a workspace (`EarlyRequest.workspace`) is taken only by a call acting in that
 * workspace (`workspace`); another is left for a later one.
 */
export function takeEarly(path: string, maxAgeMs = 10_000, workspace?: string | null): Promise<Response> | null {
  const early = typeof window === 'undefined' ? undefined : window.__early;
  const entry = early?.[path];
  if (!entry) return null;
  if (entry.workspace !== undefined && entry.workspace !== workspace) return null;
  early[path] = undefined;
  return Date.now() - entry.at < maxAgeMs ? entry.response : null;
}

/** Drops the script's request for `path`, whatever workspace it was asked in (a write may change its answer). */
export function dropEarly(path: string): void {
  const early = typeof window === 'undefined' ? undefined : window.__early;
  if (early) early[path] = undefined;
}

/** Drops what the script asked for (signing out: its answers were someone else's). */
export function clearEarly(): void {
  if (typeof window !== 'undefined' && window.__early) window.__early = {};
}

/**
 * Zod's settings (read from this global when zod loads), set before any of the app's code runs:
 * `jitless`, so zod neither compiles parsers with `new Function` nor probes whether it may —
 * under the app's CSP (no 'unsafe-eval'; docs/security.md) the probe is reported as a violation.
 * Here and not in a module of the app: the bundle runs shared chunks, which make schemas, before
 * the entry's own code.
 */
export const ZOD_SETTINGS = 'window.__zod_globalConfig = Object.assign(window.__zod_globalConfig || {}, { jitless: true });';

/**
 * The theme on <html> before anything is drawn, as src/app/theme.ts's `applyTheme` sets it from
 * the UI settings' cache (localStorage `uiSettings`, src/features/settings/uiSettings.ts): the
 * page's top drawn by the server shows in the reader's theme, not in the light one first.
 * Self-contained (see the top).
 */
export function earlyTheme(): void {
  // Nothing here may stop the script: the app sets the theme again anyway.
  try {
    let theme: unknown = 'auto';
    try {
      theme = (JSON.parse(localStorage.getItem('uiSettings') ?? '{}') as { theme?: unknown }).theme;
    } catch {
      // No storage, or not JSON: the OS decides.
    }
    document.documentElement.dataset.theme =
      theme === 'light' || theme === 'dark' ? theme : window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    // No matchMedia: the app's theme code decides when it runs.
  }
}

/** A key typed before the editor could take it: a character, or `Enter` / `Backspace`. */
export type EarlyKey = string;

/** What the person did on a page's top before the editor could take it (`recordEarlyInput`). */
export interface EarlyInput {
  /** The last click in the server-drawn top: the block, and the caret's offset in its text. */
  click: { blockId: string; offset: number } | null;
  /** The last click was in a page's top not yet editable (the server's, or the app's read-only one): keys typed now are kept. */
  armed: boolean;
  /** Keys typed since, in order. */
  keys: EarlyKey[];
  /** Stops recording (the editor took the keys, or the page is not the reader's to edit). */
  stop(): void;
}

declare global {
  interface Window {
    __earlyInput?: EarlyInput;
  }
}

/**
 * Keeps a page's first click and keys until the editor can take them (docs/web-app.md «The
 * first screen from the server»): a click in the top the server drew (`#server-top`) is kept as
 * a block and an offset in its text; keys typed while nothing else has the focus — characters,
 * Enter and Backspace — are kept (and do nothing else: a space does not scroll) until the
 * editable editor takes them (src/app/serverTop.ts). Self-contained (see the top).
 */
export function recordEarlyInput(): void {
  const input: EarlyInput = {
    click: null,
    armed: false,
    keys: [],
    stop() {
      document.removeEventListener('mousedown', onDown, true);
      document.removeEventListener('keydown', onKey, true);
    },
  };
  window.__earlyInput = input;
  function onDown(event: MouseEvent): void {
    const target = event.target as Element | null;
    // The server's top (src/ssr/pageTop.tsx names its editor and blocks data-top-*), or the app's
    // own read-only top of a big page, whose editor keeps where it was clicked (PageScreen's handover).
    const top = target && target.closest ? target.closest('#server-top [data-top-editor]') : null;
    const readOnly = top || (target && target.closest ? target.closest('[data-slate-editor]:not([contenteditable="true"])') : null);
    input.armed = readOnly !== null;
    input.keys = [];
    const block = top ? target!.closest('[data-top-block]') : null;
    if (!block) {
      if (readOnly) input.click = null;
      return;
    }
    let offset = 0;
    const caret = document.caretRangeFromPoint ? document.caretRangeFromPoint(event.clientX, event.clientY) : null;
    if (caret && block.contains(caret.startContainer)) {
      // The caret's offset in the block's text: the text of Slate's strings before it.
      const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const isText = node.parentElement !== null && node.parentElement.hasAttribute('data-slate-string');
        if (node === caret.startContainer) {
          if (isText) offset += caret.startOffset;
          break;
        }
        if (isText) offset += (node.textContent ?? '').length;
      }
    }
    input.click = { blockId: block.getAttribute('data-top-block') ?? '', offset };
  }
  function onKey(event: KeyboardEvent): void {
    if (!input.armed || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    const key = event.key === 'Enter' || event.key === 'Backspace' ? event.key : event.key.length === 1 ? event.key : null;
    if (key === null) return;
    // Only while nothing that takes keys has the focus (an editable editor, a field, a button).
    const focused = document.activeElement;
    if (focused && focused !== document.body && !(focused.closest && focused.closest('#server-top, [data-slate-editor][contenteditable="false"]'))) return;
    event.preventDefault();
    input.keys.push(key);
  }
  document.addEventListener('mousedown', onDown, true);
  document.addEventListener('keydown', onKey, true);
}

/** The script itself, for index.html. */
export function earlyScript(plan: EarlyPlan): string {
  return `${ZOD_SETTINGS}\n${[startGets, searchOfAddress, searchPath, startWorkspace, earlySearch].map((f) => f.toString()).join('\n')}\n(${earlyStart.toString()})(${JSON.stringify(plan)}, ${rowsAddressScript()});`;
}

/**
 * index.html's first script, inline in its head, so the theme is on <html> before anything is
 * painted whatever comes when (a file, even the head's first, may come after the server's drawn
 * top has been painted: the top then flashed light for a dark reader). The CSP allows it by its
 * hash (server/web/earlyStart.ts writes it into the build; server/web/securityHeaders.ts).
 */
export function earlyThemeScript(): string {
  return `(${earlyTheme.toString()})();`;
}

/**
 * index.html's second script, `async` in its head (it holds nothing up, and runs as soon as it
 * has come, before the page's top is read or just after): on a page's address the recorder of
 * the first click and keys (`recordEarlyInput`). Apart from the early script, which the page's
 * top drawn by the server moves out of the parser's way: a click on the drawing would otherwise
 * go unheard until that had come.
 */
export function earlyInputScript(): string {
  return `if (${PAGE_ADDRESS.toString()}.test(location.pathname)) (${recordEarlyInput.toString()})();`;
}

/** An address the page screen may open (a page's id): where the first click and keys are kept. The app's other addresses are not pages (`startGets`). */
const PAGE_ADDRESS = /^\/(?!(login|new-workspace|version|public|clone|oauth|search)\/?$)[A-Za-z0-9_-]+\/?$/;
