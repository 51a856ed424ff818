import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { newElement } from '../../../schema/element';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { dismissAllToasts, Toaster } from '../../ui/Toast';
import { CloneScreen } from './CloneScreen';

/*
 * A failed copy on the clone screen (/clone/:uidToClone; the screen itself: CloneScreen.test.tsx)
 * is reported as a clone error with the page, its new parent (none: the section) and the
 * workspace — not on 404 — and a copy half made from a public page is deleted again (spec §8).
 */

const WS = 'ws-1';
const SOURCE = '11111111-1111-4111-8111-111111111111';
const BLOCK = (id: string) => ({ id, contentType: 'Block', type: 'textBlock', data: { text: [] }, parentId: null, placeAfter: null, version: 1 });

type Call = { method: string; url: string };
let calls: Call[];
let reply: (call: Call) => { status: number; body?: unknown };

beforeEach(() => {
  dismissAllToasts();
  calls = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { method: init?.method ?? 'GET', url: String(input) };
    calls.push(call);
    const { status, body = { data: null, errors: status >= 400 ? [{ code: 'x', message: `refused ${status}` }] : [] } } = reply(call);
    return { ok: status < 400, status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
});
afterEach(() => jest.restoreAllMocks());

/** Opens the clone screen (its steps are several requests: on a loaded machine they take more than findBy's default second). */
function open() {
  const store = createStore();
  store.dispatch({ type: 'workspaces/load/fulfilled', payload: [{ id: WS, name: 'Команда', avatar: null, alias: null, role: 'admin', private: false }] });
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[`/clone/${SOURCE}`]}>
        <Routes>
          <Route path="/clone/:uidToClone" element={<CloneScreen />} />
          <Route path="/" element={<p>home</p>} />
          <Route path="/:id" element={<p>the copy</p>} />
        </Routes>
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
}

const cloneLines = (spy: jest.SpyInstance) => spy.mock.calls.filter(([line]) => String(line).startsWith('clone: '));

test('a public page copied block by block that fails half way is deleted again and reported as a clone error', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  let blocks = 0;
  reply = ({ method, url }) => {
    if (url.endsWith('/page/clone')) return { status: 403 };
    if (url.includes('/element/public/'))
      return { status: 200, body: { data: newElement({ id: SOURCE, workspaceId: 'elsewhere', title: 'Чужая' }), included: [BLOCK('b1'), BLOCK('b2')] } };
    if (url.endsWith('/section/private')) return { status: 201, body: { data: null } };
    if (url.endsWith('/block') && method === 'POST') return (blocks += 1) === 1 ? { status: 201, body: { data: null } } : { status: 400 };
    return { status: 200, body: { data: null } };
  };
  open();
  expect(await screen.findByText('home', undefined, { timeout: 5_000 })).toBeTruthy();
  const made = calls.find((c) => c.url.endsWith('/section/private'));
  expect(made).toBeTruthy();
  // The copy's id is the one its first block was written to; it goes to the trash and out of it.
  const copyId = calls.map((c) => /element\/([^/]+)$/.exec(c.url)?.[1]).find((id) => id !== undefined && id !== SOURCE);
  expect(calls.slice(-2)).toEqual([
    { method: 'DELETE', url: `/api/v3/spaces/element/${copyId}` },
    { method: 'POST', url: `/api/v3/spaces/trash/${copyId}/remove` },
  ]);
  expect(cloneLines(error)).toEqual([
    [
      `clone: page ${SOURCE} not copied to the section in workspace ${WS}: refused 400`,
      expect.objectContaining({ pageId: SOURCE, toElement: null, workspaceId: WS }),
    ],
  ]);
  expect(await screen.findByText(/Не удалось создать копию страницы/)).toBeTruthy();
});

test('a page that is not there (404): not reported, nothing made', async () => {
  const logged = (['error', 'warn', 'info'] as const).map((level) => jest.spyOn(console, level).mockImplementation(() => undefined));
  reply = () => ({ status: 404 });
  open();
  expect(await screen.findByText('home', undefined, { timeout: 5_000 })).toBeTruthy();
  expect(logged.flatMap((spy) => cloneLines(spy))).toEqual([]);
  expect(calls.map((c) => c.method)).toEqual(['POST', 'GET']);
});

test('a copy made opens; nothing reported', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  reply = () => ({ status: 201, body: { data: null } });
  open();
  expect(await screen.findByText('the copy', undefined, { timeout: 5_000 })).toBeTruthy();
  await waitFor(() => expect(calls).toHaveLength(1));
  expect(cloneLines(error)).toEqual([]);
});
