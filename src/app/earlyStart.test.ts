import { api, clearPrefetched, prefetchGet } from './api';
import { saveUserSetting } from '../features/settings/serverSettings';
import { earlyInputScript, earlyScript, earlyThemeScript, searchPath, SEARCH_PAGE, startGets, takeEarly, type EarlyPlan } from './earlyStart';
import { searchPages } from '../features/search/searchApi';
import { PAGE_HEAD_BLOCKS, startPageLoad } from '../features/pages/pageLoad';
import { rowsPath, viewRowsQuery, BOARD_WINDOW, CALENDAR_WINDOW, DATABASE_WINDOW } from '../editor/blocks/databaseRows';
import { calendarDays, calendarRowsQuery, firstRowsPaths } from '../editor/blocks/rowsAddress';
import { databaseApi } from '../features/database/api';
import { RowStore } from '../features/database/rows/rowStore';

const PLAN: EarlyPlan = {
  words: ['/assets/common-1.json', '/assets/documentEditor-2.json'],
  screen: { scripts: ['/assets/PageScreen-3.js', '/assets/DocumentEditor-4.js'], styles: ['/assets/PageScreen-5.css'] },
  database: { scripts: ['/assets/DatabaseBlock-6.js', '/assets/dnd-7.js'], styles: ['/assets/database-8.css'] },
  calendar: { scripts: ['/assets/CalendarView-9.js'], styles: [] },
  search: { scripts: ['/assets/SearchScreen-10.js'], styles: ['/assets/SearchScreen-11.css'] },
  rowsWindow: DATABASE_WINDOW,
  boardWindow: BOARD_WINDOW,
  calendarWindow: CALENDAR_WINDOW,
};

// jsdom has no Response; the script makes one of the page's top once it has read it.
class TextResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  constructor(
    private readonly body: string,
    init: ResponseInit = {},
  ) {
    this.status = init.status ?? 200;
    this.ok = this.status >= 200 && this.status < 300;
    this.statusText = init.statusText ?? '';
    this.headers = new Headers(init.headers);
  }
  text = async () => this.body;
  json = async () => JSON.parse(this.body) as unknown;
}
globalThis.Response ??= TextResponse as unknown as typeof Response;

/** Answers every request with `answer(path)` (an API envelope), recording the paths asked for. */
function serve(answer: (path: string) => unknown = () => ({ data: {}, meta: {}, errors: [] })): string[] {
  const asked: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const path = String(input);
    asked.push(path);
    const body = answer(path);
    const response = { ok: true, status: 200, statusText: '', headers: new Headers(), json: async () => body, text: async () => JSON.stringify(body) };
    return { ...response, clone: () => response } as unknown as Response;
  }) as typeof fetch;
  return asked;
}

/** Runs index.html's script, as the build writes it, at `pathname`. */
function runScript(pathname: string) {
  // Once per page in a browser: the recorder of an earlier run here listens no more.
  window.__earlyInput?.stop();
  window.__earlyInput = undefined;
  window.history.replaceState(null, '', pathname);
  document.head.innerHTML = '';
  // As index.html runs them: the inline theme, the async one (it may come first), then the early script.
  new Function(earlyThemeScript())();
  new Function(earlyInputScript())();
  new Function(earlyScript(PLAN))();
}

const preloads = () =>
  Array.from(document.head.querySelectorAll('link')).map(
    (link) => `${link.rel}${link.getAttribute('as') ? `:${link.getAttribute('as')}` : ''} ${new URL(link.href).pathname}`,
  );

afterEach(() => {
  window.__early = undefined;
  window.__earlyInput?.stop();
  window.__earlyInput = undefined;
  document.body.innerHTML = '';
});

test("zod is told to stay jitless before the app's code loads (no `new Function` under the CSP), other settings kept", () => {
  const global = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  const before = global.__zod_globalConfig;
  global.__zod_globalConfig = { locale: 'ru' };
  try {
    serve();
    runScript('/login');
    expect(global.__zod_globalConfig).toEqual({ locale: 'ru', jitless: true });
  } finally {
    global.__zod_globalConfig = before;
  }
});

test("a page's address: the words, the page, its top, the shell's questions and the page screen's code", () => {
  const asked = serve();
  runScript('/page-1');
  expect(asked).toEqual([
    ...PLAN.words,
    '/api/v3/spaces/element/page-1',
    `/api/v3/spaces/note/page-1/blocks?limit=${PAGE_HEAD_BLOCKS}`,
    '/api/user/current',
    '/api/v3/spaces/workspace',
    '/api/user/settings',
  ]);
  expect(preloads()).toEqual(['modulepreload /assets/PageScreen-3.js', 'modulepreload /assets/DocumentEditor-4.js', 'preload:style /assets/PageScreen-5.css']);
});

test("home and the wizard: the words and the shell's questions; sign-in and a public page: the words only", () => {
  for (const [pathname, shell] of [
    ['/', true],
    ['/new-workspace', true],
    ['/clone/abc', true],
    ['/login', false],
    ['/public/abc', false],
    ['/oauth/callback', false],
  ] as const) {
    const asked = serve();
    runScript(pathname);
    expect(asked).toEqual([...PLAN.words, ...(shell ? ['/api/user/current', '/api/v3/spaces/workspace', '/api/user/settings'] : [])]);
    expect(preloads()).toEqual([]);
    expect(startGets(pathname).page).toBeNull();
  }
});

test("the app takes the script's answers once instead of asking again; a write drops them", async () => {
  const asked = serve((path) => ({ data: { path }, meta: {}, errors: [] }));
  runScript('/page-2');
  const early = asked.length;
  // As src/main.tsx and the page screen ask for them.
  prefetchGet('/api/user/current');
  await expect(api('/api/user/current')).resolves.toMatchObject({ data: { path: '/api/user/current' } });
  await expect(api('/api/v3/spaces/element/page-2')).resolves.toMatchObject({ data: { path: '/api/v3/spaces/element/page-2' } });
  expect(asked).toHaveLength(early);
  // Taken once: asked again, it is asked for.
  await api('/api/v3/spaces/element/page-2');
  expect(asked).toHaveLength(early + 1);
  // A setting saved changes the settings' answer alone: the others stay.
  await saveUserSetting('theme', 'dark');
  expect(takeEarly('/api/user/settings')).toBeNull();
  prefetchGet('/api/user/settings');
  expect(takeEarly('/api/v3/spaces/workspace')).not.toBeNull();
  // Any other write (signing in, say) may change the answers: the rest are dropped, and asked again.
  await api('/api/v3/spaces/block', { method: 'POST', body: {} });
  await api('/api/user/settings');
  // The script's GET, the save, the prefetch and this read (the prefetch was dropped).
  expect(asked.filter((path) => path === '/api/user/settings')).toHaveLength(4);
});

test("a page whose top holds a database: the script asks for the Table view's code and the first window of each database's first view, and the app takes that answer", async () => {
  const layout = {
    uid: 'view-9',
    type: 'table' as const,
    name: 'Таблица',
    orderedFields: [],
    filter: { op: 'and' as const, rules: [{ fieldId: 'price', condition: 'gt' as const, value: 5 }] },
    sorts: [{ fieldId: 'price', direction: 'asc' as const }],
  };
  const databases = [
    { id: 'db-9', type: 'database', data: { config: { fields: {} }, view: { layouts: [layout, { ...layout, uid: 'view-10' }] } } },
    { id: 'db-10', type: 'database', data: { config: { fields: {} }, view: { layouts: [{ uid: 'view-11', type: 'table', name: 'Вид' }] } } },
  ];
  const row = { id: 'row-9', data: { title: 'Первая', values: {} }, versions: {} };
  const asked = serve((path) =>
    path.includes('/blocks')
      ? { data: [{ id: 'b-1', type: 'text', data: { tokens: [] } }, ...databases], meta: {}, errors: [] }
      : path.includes('/database/')
        ? { data: [row], meta: { count: 1, offset: 0 }, errors: [] }
        : { data: {}, meta: {}, errors: [] },
  );
  runScript('/page-9');
  await new Promise((resolve) => setTimeout(resolve, 0));
  // The same addresses the Table views read first (src/features/database/table/TableView.tsx).
  const first = rowsPath('db-9', { ...viewRowsQuery(layout), offset: 0, limit: DATABASE_WINDOW });
  const second = rowsPath('db-10', { ...viewRowsQuery({ uid: 'view-11' }), offset: 0, limit: DATABASE_WINDOW });
  expect(asked.filter((path) => path.includes('/database/'))).toEqual([first, second]);
  expect(preloads()).toEqual([
    'modulepreload /assets/PageScreen-3.js',
    'modulepreload /assets/DocumentEditor-4.js',
    'preload:style /assets/PageScreen-5.css',
    'modulepreload /assets/DatabaseBlock-6.js',
    'modulepreload /assets/dnd-7.js',
    'preload:style /assets/database-8.css',
  ]);
  // The page's load asks for those windows again: it gets the script's answers, asking nothing more.
  const before = asked.length;
  await startPageLoad('page-9').head;
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(asked).toHaveLength(before);
  expect(databaseApi.earlyRows('db-9', { ...viewRowsQuery(layout), offset: 0, limit: DATABASE_WINDOW })).toMatchObject({ count: 1, rows: [{ id: 'row-9' }] });
});

test('a page without a database, or whose top failed: no rows and no Table view code; a board first: the first window of each column', async () => {
  const layout = { uid: 'b', type: 'board', name: 'Доска', orderedFields: [], groupBy: { fieldId: 'stage' } };
  const fields = {
    stage: {
      name: 'Этап',
      type: 'status',
      options: [
        { id: 'o1', name: 'Раз' },
        { id: 'o2', name: 'Два' },
      ],
    },
    done: { name: 'Готово', type: 'checkbox' },
    note: { name: 'Заметка', type: 'text' },
    owner: { name: 'Ответственный', type: 'person' },
  };
  const board = (groupBy: { fieldId: string } | null) => ({
    id: 'db-11',
    type: 'database',
    data: { config: { fields }, view: { layouts: [{ ...layout, groupBy }] } },
  });
  // The same addresses the board's columns read first (BoardView.tsx: the view's query and the column's value).
  const column = (group: string | boolean | null) => rowsPath('db-11', { ...viewRowsQuery(layout), group, offset: 0, limit: BOARD_WINDOW });
  expect(firstRowsPaths([board({ fieldId: 'stage' })], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW)).toEqual([column('o1'), column('o2'), column(null)]);
  expect(firstRowsPaths([board({ fieldId: 'done' })], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW)).toEqual([column(true), column(false)]);
  expect(firstRowsPaths([board({ fieldId: 'note' }), board(null)], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW)).toEqual([]);
  // A person field's columns are its people, known from the view's groups only: nothing is asked early.
  expect(firstRowsPaths([board({ fieldId: 'owner' })], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW)).toEqual([]);
  // With swimlanes: its cells read their own when drawn.
  expect(
    firstRowsPaths([board({ fieldId: 'stage', sub: { fieldId: 'done' } } as { fieldId: string })], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW),
  ).toEqual([]);
  // Columns hidden in the view are not drawn: not asked for. A chart reads figures, not rows.
  expect(firstRowsPaths([board({ fieldId: 'stage', hidden: ['o2', null] } as { fieldId: string })], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW)).toEqual([
    column('o1'),
  ]);
  const chart = {
    id: 'db-12',
    type: 'database',
    data: { config: { fields }, view: { layouts: [{ uid: 'c', type: 'chart', name: 'Диаграмма', orderedFields: [] }] } },
  };
  expect(firstRowsPaths([chart], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW)).toEqual([]);
  // A timeline first: the table's first window (TimelineView reads the Table view's query and windows).
  const timelineLayout = {
    uid: 't',
    type: 'timeline',
    name: 'Хронология',
    orderedFields: [],
    timeline: { startFieldId: 'due' },
    sorts: [{ fieldId: 'due', direction: 'asc' }],
  };
  const timeline = { id: 'db-14', type: 'database', data: { config: { fields }, view: { layouts: [timelineLayout] } } };
  expect(firstRowsPaths([timeline], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW)).toEqual([
    rowsPath('db-14', { ...viewRowsQuery(timelineLayout as Parameters<typeof viewRowsQuery>[0]), offset: 0, limit: DATABASE_WINDOW }),
  ]);
  // A calendar first: its first days' rows, by its date field (the month of today, or its week), the date alone.
  const today = new Date(2026, 10, 26);
  const calendarLayout = { uid: 'k', type: 'calendar', name: 'Календарь', orderedFields: [], calendar: { fieldId: 'due' } };
  const calendar = (layoutOf: object) => ({
    id: 'db-13',
    type: 'database',
    data: { config: { fields: { ...fields, due: { name: 'Срок', type: 'date' } } }, view: { layouts: [layoutOf] } },
  });
  expect(firstRowsPaths([calendar(calendarLayout)], DATABASE_WINDOW, BOARD_WINDOW, CALENDAR_WINDOW, today)).toEqual([
    rowsPath('db-13', calendarRowsQuery(calendarLayout, 'due', { from: '2026-10-25', to: '2026-12-08' }, CALENDAR_WINDOW)),
  ]);
  expect(calendarDays('week', today)).toEqual({ from: '2026-11-22', to: '2026-12-01' });
  expect(calendarDays('month', new Date(2026, 1, 10))).toEqual({ from: '2026-01-25', to: '2026-03-10' });
  // No date field (not set, or no date): nothing.
  expect(
    firstRowsPaths(
      [calendar({ ...calendarLayout, calendar: null }), calendar({ ...calendarLayout, calendar: { fieldId: 'note' } })],
      DATABASE_WINDOW,
      BOARD_WINDOW,
      CALENDAR_WINDOW,
      today,
    ),
  ).toEqual([]);
  for (const answer of [
    { data: [{ id: 'b-1', type: 'text', data: { tokens: [] } }], meta: {}, errors: [] },
    { data: null, errors: [{ code: 'page.not_found' }] },
  ]) {
    const asked = serve(() => answer);
    runScript('/page-10');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked.filter((path) => path.includes('/database/'))).toEqual([]);
    expect(preloads().filter((line) => /DatabaseBlock|database-/.test(line))).toEqual([]);
  }
});

test('an answer older than its freshness is not taken', () => {
  serve();
  runScript('/page-3');
  const now = Date.now();
  const spy = jest.spyOn(Date, 'now').mockReturnValue(now + 10_000);
  try {
    expect(takeEarly('/api/user/current')).toBeNull();
  } finally {
    spy.mockRestore();
  }
  expect(takeEarly('/api/user/settings')).not.toBeNull();
  expect(takeEarly('/api/user/settings')).toBeNull();
});

test('a page whose top holds a database: its first window is asked for as soon as the top is in, without the editor', async () => {
  const layout = { uid: 'view-1', type: 'table' as const, name: 'Таблица', orderedFields: [], sorts: [{ fieldId: 'price', direction: 'desc' as const }] };
  const database = { id: 'db-1', type: 'database', data: { config: { fields: {} }, view: { layouts: [layout] } } };
  const plain = { id: 'b-1', type: 'text', data: { tokens: [] } };
  const row = { id: 'row-1', data: { title: 'Первая', values: {} }, versions: {} };
  const asked = serve((path) =>
    path.includes('/blocks')
      ? { data: [plain, database], meta: {}, errors: [] }
      : path.includes('/database/')
        ? { data: [row], meta: { count: 1, offset: 0 }, errors: [] }
        : { data: {}, meta: {}, errors: [] },
  );
  await startPageLoad('page-4').head;
  await new Promise((resolve) => setTimeout(resolve, 0));
  const window = rowsPath('db-1', { ...viewRowsQuery(layout), offset: 0, limit: DATABASE_WINDOW });
  expect(asked.filter((path) => path.includes('/database/'))).toEqual([window]);
  // Its answer is read as it comes: the Table view's row store starts with it (taken once), asking nothing.
  const query = { ...viewRowsQuery(layout), offset: 0, limit: DATABASE_WINDOW };
  const seed = databaseApi.earlyRows('db-1', query);
  expect(seed).toMatchObject({ offset: 0, count: 1, rows: [{ id: 'row-1' }] });
  const store = new RowStore((q, signal) => databaseApi.rows('db-1', q, signal), viewRowsQuery(layout), seed);
  store.setVisible(0, 0);
  expect([store.count, store.rowAt(0)?.id]).toEqual([1, 'row-1']);
  expect(databaseApi.earlyRows('db-1', query)).toBeNull();
  expect(asked.filter((path) => path.includes('/database/'))).toEqual([window]);
  store.dispose();

  // An early window not taken yet is dropped by any write: a store's first read after it asks the server.
  const other = { ...database, id: 'db-6' };
  const sixth = serve((path) =>
    path.includes('/blocks')
      ? { data: [other], meta: {}, errors: [] }
      : path.includes('/database/')
        ? { data: [row], meta: { count: 1, offset: 0 }, errors: [] }
        : { data: {}, meta: {}, errors: [] },
  );
  await startPageLoad('page-6').head;
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(sixth.filter((path) => path.includes('/database/db-6/'))).toHaveLength(1);
  await api('/api/v3/spaces/block', { method: 'POST', body: {} });
  expect(databaseApi.earlyRows('db-6', query)).toBeNull();

  // A page without one asks for no rows.
  const others = serve((path) => (path.includes('/blocks') ? { data: [plain], meta: {}, errors: [] } : { data: {}, meta: {}, errors: [] }));
  await startPageLoad('page-5').head;
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(others.filter((path) => path.includes('/database/'))).toEqual([]);
});

describe("a page's first click and keys, kept until the editor takes them", () => {
  /** The server's top of a page: a read-only editor with a title and a paragraph of two leaves. */
  function drawTop() {
    document.body.innerHTML = `<div id="server-top"><div data-top-editor="true" contenteditable="false">
      <h1 data-top-block="pageHeading_p"><span data-slate-node="text"><span data-slate-leaf="true"><span data-slate-string="true">Заголовок</span></span></span></h1>
      <p data-top-block="b1"><span data-slate-node="text"><span data-slate-leaf="true"><strong><span data-slate-string="true">Жирный</span></strong></span></span><span data-slate-node="text"><span data-slate-leaf="true"><span data-slate-string="true"> и обычный</span></span></span></p>
    </div></div><div id="root"><input id="field"></div>`;
  }
  /** A press where the caret falls at `offset` in the `leaf`-th string of block `blockId`. */
  function pressAt(blockId: string, leaf: number, offset: number) {
    const string = document.querySelectorAll(`[data-top-block="${blockId}"] [data-slate-string]`)[leaf];
    const range = document.createRange();
    range.setStart(string.firstChild as Text, offset);
    (document as Document & { caretRangeFromPoint?: unknown }).caretRangeFromPoint = () => range;
    string.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, clientX: 1, clientY: 1 }));
  }
  const type = (key: string, init: KeyboardEventInit = {}) => {
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    (document.activeElement ?? document.body).dispatchEvent(event);
    return event.defaultPrevented;
  };

  test('a click in the top is kept as a block and the offset in its text; the keys typed after it, and nothing else they would do', () => {
    serve();
    runScript('/p');
    drawTop();
    pressAt('b1', 1, 3);
    expect(window.__earlyInput?.click).toEqual({ blockId: 'b1', offset: 'Жирный'.length + 3 });
    expect([type('a'), type(' '), type('Б'), type('Enter'), type('Backspace')]).toEqual([true, true, true, true, true]);
    // Shortcuts, arrows and the like are not text: left to the browser, not kept.
    expect([type('c', { ctrlKey: true }), type('ArrowLeft'), type('Shift'), type('x', { altKey: true })]).toEqual([false, false, false, false]);
    expect(window.__earlyInput?.keys).toEqual(['a', ' ', 'Б', 'Enter', 'Backspace']);
    pressAt('pageHeading_p', 0, 4);
    // A new click: a new place, and the keys start again.
    expect(window.__earlyInput?.click).toEqual({ blockId: 'pageHeading_p', offset: 4 });
    expect(window.__earlyInput?.keys).toEqual([]);
  });

  test('keys are not taken from a field that has the focus, nor without a click in a read-only top; stop() ends it', () => {
    serve();
    runScript('/p');
    drawTop();
    expect(type('a')).toBe(false);
    pressAt('b1', 0, 0);
    const field = document.getElementById('field') as HTMLInputElement;
    field.focus();
    expect(type('a')).toBe(false);
    field.blur();
    // A click elsewhere (not in a read-only editor) disarms it.
    document.getElementById('root')?.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    expect(type('b')).toBe(false);
    pressAt('b1', 0, 2);
    expect(type('c')).toBe(true);
    window.__earlyInput?.stop();
    expect(type('d')).toBe(false);
    expect(window.__earlyInput?.keys).toEqual(['c']);
  });

  test('nothing is recorded on addresses that are not pages', () => {
    serve();
    for (const pathname of ['/', '/login', '/login/', '/public/p', '/search', '/new-workspace', '/clone/p']) {
      runScript(pathname);
      expect([pathname, window.__earlyInput]).toEqual([pathname, undefined]);
    }
    runScript('/loginpage-1');
    expect(window.__earlyInput).toBeDefined();
  });

  test('the theme is set before anything is drawn: the cached setting, else the OS', () => {
    serve();
    localStorage.setItem('uiSettings', JSON.stringify({ theme: 'dark' }));
    runScript('/login');
    expect(document.documentElement.dataset.theme).toBe('dark');
    localStorage.setItem('uiSettings', '{not json');
    window.matchMedia = ((query: string) => ({ matches: query.includes('dark') })) as unknown as typeof window.matchMedia;
    delete document.documentElement.dataset.theme;
    runScript('/login');
    expect(document.documentElement.dataset.theme).toBe('dark');
    localStorage.removeItem('uiSettings');
  });
});

test("the search screen's address: its code, and its first results asked for in the workspace the person was last in, taken by the screen's own request", async () => {
  const workspaces = new Map<string, string | undefined>();
  const asked = serve((path) =>
    path === '/api/user/settings'
      ? { data: { activeWorkspace: 'w-last', wizardOffered: true }, meta: {}, errors: [] }
      : path === '/api/v3/spaces/workspace'
        ? { data: [{ id: 'w-own', private: true }, { id: 'w-last' }], meta: {}, errors: [] }
        : { data: [{ path }], meta: {}, errors: [] },
  );
  const fetched = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    workspaces.set(String(input), (init?.headers as Record<string, string> | undefined)?.['X-Workspace-Id']);
    return fetched(input, init);
  }) as typeof fetch;
  runScript(`/search?q=${encodeURIComponent('отчёт квартал')}&kind=pages&after=2026-12-01`);
  expect(preloads()).toEqual(['modulepreload /assets/SearchScreen-10.js', 'preload:style /assets/SearchScreen-11.css']);
  const path = searchPath({ q: 'отчёт квартал', kind: 'pages', after: '2026-12-01', inTrash: false }, 0, SEARCH_PAGE);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(asked).toEqual([...PLAN.words, '/api/user/current', '/api/v3/spaces/workspace', '/api/user/settings', path]);
  expect(workspaces.get(path)).toBe('w-last');
  const early = asked.length;
  // As the screen asks: in another workspace, it is asked for; in that one, the answer is taken.
  await expect(searchPages('отчёт квартал', { kind: 'pages', after: '2026-12-01', workspaceId: 'w-other' }, 0, SEARCH_PAGE)).resolves.toMatchObject({
    hits: [{ path }],
  });
  expect(asked).toHaveLength(early + 1);
  await expect(searchPages('отчёт квартал', { kind: 'pages', after: '2026-12-01', workspaceId: 'w-last' }, 0, SEARCH_PAGE)).resolves.toMatchObject({
    hits: [{ path }],
  });
  expect(asked).toHaveLength(early + 1);
  globalThis.fetch = fetched;
});

test("the search screen's address: nothing remembered, the first workspace (as the app opens it); a workspace left, not the remembered one", async () => {
  for (const [remembered, expected] of [
    [null, 'w-own'],
    ['w-gone', 'w-own'],
  ] as const) {
    const asked = serve((path) =>
      path === '/api/user/settings'
        ? { data: { activeWorkspace: remembered, wizardOffered: true }, meta: {}, errors: [] }
        : path === '/api/v3/spaces/workspace'
          ? { data: [{ id: 'w-own', private: true }, { id: 'w-team' }], meta: {}, errors: [] }
          : { data: [], meta: {}, errors: [] },
    );
    runScript('/search?q=plan');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(window.__early?.[asked.at(-1)!]?.workspace).toBe(expected);
  }
});

test("the search screen's address: another workspace named asks at once in it; no query, nothing asked", () => {
  let asked = serve();
  runScript('/search?q=plan&ws=w-named');
  expect(asked.at(-1)).toBe(searchPath({ q: 'plan', inTrash: false }, 0, SEARCH_PAGE));
  expect(window.__early?.[asked.at(-1)!]?.workspace).toBe('w-named');
  // A write drops it whatever the workspace it was asked in.
  clearPrefetched(asked.at(-1)!);
  expect(window.__early?.[asked.at(-1)!]).toBeUndefined();
  asked = serve();
  runScript('/search?q=%20');
  expect(asked).toEqual([...PLAN.words, '/api/user/current', '/api/v3/spaces/workspace', '/api/user/settings']);
});
