import { createStore } from '../../app/store';
import { loadWorkspaces, updateWorkspace, validWorkspaces } from './workspacesSlice';

/* The workspace list the server sends is checked like every incoming list (spec §5): bad entries dropped and reported, the rest kept. */

const mine = { id: 'w1', name: 'Моё', avatar: null, alias: null, role: 'admin', private: true };
const team = { id: 'w2', name: 'Команда', avatar: '/api/file/a1', alias: 'team', role: 'participant', private: false };
const bad = [null, { name: 'Без id', avatar: null, alias: null, role: 'admin', private: false }, { ...team, id: 'w3', role: 'hidden' }, 'w4'];

function serve(list: unknown) {
  const asked: string[] = [];
  globalThis.fetch = (async (url: string, init?: RequestInit) => {
    asked.push(`${init?.method ?? 'GET'} ${url}`);
    const data = String(url).endsWith('/api/user/settings')
      ? { theme: 'auto', activeWorkspace: null, wizardOffered: true }
      : String(url).endsWith('/workspace')
        ? list
        : team;
    return { ok: true, status: 200, statusText: '', json: async () => ({ data, errors: [] }) } as Response;
  }) as typeof fetch;
  return asked;
}

let warn: jest.SpyInstance;
/** The list's own reports (src/app/report.ts writes them on the console; other parts may warn of their own things meanwhile). */
const dropped = () =>
  warn.mock.calls.filter(([message]) => String(message).includes('workspaces: dropped') || String(message).includes('workspaces: the workspace list'));
beforeEach(() => (warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)));
afterEach(() => warn.mockRestore());

test('validWorkspaces keeps the entries that match the schema, in order, and reports each one dropped', () => {
  expect(validWorkspaces([bad[0], mine, bad[1], team, bad[2], bad[3]])).toEqual([mine, team]);
  expect(dropped()).toHaveLength(4);
  expect(dropped().some(([, details]) => (details as { id?: unknown }).id === 'w3')).toBe(true);
  warn.mockClear();
  expect(validWorkspaces({ data: [mine] })).toEqual([]);
  expect(dropped()).toHaveLength(1);
});

test('loading the workspaces: bad entries never reach the store; the app opens the first good one', async () => {
  serve([bad[0], bad[1], mine, bad[2], team, bad[3]]);
  const store = createStore();
  await store.dispatch(loadWorkspaces());
  const state = store.getState().workspaces;
  expect(state.status).toBe('ready');
  expect(state.list).toEqual([mine, team]);
  expect(state.activeId).toBe('w1');
  expect(dropped()).toHaveLength(4);
});

test('the list read again after a change is checked too', async () => {
  serve([mine, team]);
  const store = createStore();
  await store.dispatch(loadWorkspaces());
  serve([mine, null, team, { ...mine, id: 'w5', private: 'yes' }]);
  await store.dispatch(updateWorkspace({ id: 'w2', patch: { name: 'Команда' } }));
  expect(store.getState().workspaces.list.map((w) => w.id)).toEqual(['w1', 'w2']);
  expect(dropped()).toHaveLength(2);
});
