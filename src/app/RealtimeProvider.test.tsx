import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { WireUser } from '../../schema/user';
import type { FakeSocket } from '../../test/helpers/fakeSocketIo';
import { signedIn, signOut } from '../features/auth/authSlice';
import { loadWorkspaces, workspaceSwitched } from '../features/workspaces/workspacesSlice';
import { CLIENT_ID } from './api';
import { RealtimeConnection } from './realtimeConnection';
import { RealtimeProvider, useRealtime, useRealtimeExpected, useRealtimeStatus } from './RealtimeProvider';
import { createStore, type AppStore } from './store';

/*
 * The realtime connection's life (api-contract §4: «opens when a user is signed in and a workspace
 * is active, closes otherwise; anonymous users have no active workspace»), with socket.io's client
 * replaced by a stand-in the test drives as the server (test/helpers/fakeSocketIo.ts).
 */
jest.mock('socket.io-client', () => jest.requireActual('../../test/helpers/fakeSocketIo'));
const { sockets } = jest.requireMock<{ sockets: FakeSocket[] }>('socket.io-client');

const user = (id: string, anonymous = false): WireUser => ({
  id,
  email: `${id}@example.com`,
  name: id,
  avatar_url: null,
  anonymous,
  telegramId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const workspaces = [
  { id: 'w1', name: 'Моё', avatar: null, alias: null, role: 'admin' as const, private: true },
  { id: 'w2', name: 'Команда', avatar: null, alias: null, role: 'participant' as const, private: false },
];

/** What the app's parts see of the connection. */
function Probe() {
  const connection = useRealtime();
  return <div data-testid="probe">{`${connection ? 'connection' : 'none'} ${useRealtimeStatus()} ${useRealtimeExpected() ? 'expected' : 'not expected'}`}</div>;
}

function mount(): AppStore {
  const store = createStore();
  render(
    <Provider store={store}>
      <RealtimeProvider>
        <Probe />
      </RealtimeProvider>
    </Provider>,
  );
  return store;
}
const probe = () => screen.getByTestId('probe').textContent;
const signIn = (store: AppStore, who: WireUser) => act(() => void store.dispatch(signedIn(who)));
const loadList = (store: AppStore, list = workspaces) => act(() => void store.dispatch(loadWorkspaces.fulfilled(list, 'r', undefined)));

beforeEach(() => {
  sockets.length = 0;
});

describe('the realtime connection opens and closes with the session', () => {
  it('opens once someone is signed in and a workspace is active; switching workspace keeps it; signing out closes it', () => {
    const store = mount();
    expect(probe()).toBe('none offline not expected');
    signIn(store, user('u1'));
    // Signed in, no workspace yet: none.
    expect(sockets).toHaveLength(0);
    expect(probe()).toBe('none offline not expected');
    loadList(store);
    expect(sockets).toHaveLength(1);
    const [socket] = sockets;
    expect(socket.options).toMatchObject({ path: '/api/connection/websocket', transports: ['websocket'], autoConnect: false, auth: { clientId: CLIENT_ID } });
    expect(socket.connectCalls).toBe(1);
    expect(probe()).toBe('connection connecting expected');
    act(() => socket.serverConnect());
    expect(probe()).toBe('connection online expected');

    act(() => void store.dispatch(workspaceSwitched('w2')));
    expect(sockets).toHaveLength(1);
    expect(socket.closed).toBe(false);
    expect(probe()).toBe('connection online expected');

    act(() => void store.dispatch(signOut.fulfilled(undefined, 'r')));
    expect(socket.closed).toBe(true);
    expect(probe()).toBe('none offline not expected');
    expect(sockets).toHaveLength(1);
  });

  it('another person signing in in this tab gets a connection of their own', () => {
    const store = mount();
    signIn(store, user('u1'));
    loadList(store);
    act(() => void store.dispatch(signOut.fulfilled(undefined, 'r')));
    signIn(store, user('u2'));
    loadList(store);
    expect(sockets).toHaveLength(2);
    expect(sockets[0].closed).toBe(true);
    expect(sockets[1].closed).toBe(false);
    expect(sockets[1].connectCalls).toBe(1);
  });

  it('an anonymous visitor, or someone with no workspace, has none', () => {
    const store = mount();
    signIn(store, user('guest', true));
    loadList(store);
    expect(sockets).toHaveLength(0);
    expect(probe()).toBe('none offline not expected');
    const other = mount();
    signIn(other, user('u3'));
    loadList(other, []);
    expect(sockets).toHaveLength(0);
  });

  it('a lost connection is offline until socket.io has it again', () => {
    const store = mount();
    signIn(store, user('u1'));
    loadList(store);
    const [socket] = sockets;
    act(() => socket.serverConnect());
    act(() => socket.serverDisconnect());
    expect(probe()).toBe('connection offline expected');
    act(() => socket.serverConnect());
    expect(probe()).toBe('connection online expected');
    // The same connection throughout: socket.io reconnects it, the app does not make another.
    expect(sockets).toHaveLength(1);
    expect(socket.connectCalls).toBe(1);
  });
});

describe('RealtimeConnection', () => {
  const at = '2026-01-01T00:00:00.000Z';

  it('joins its channels when it connects and again after every reconnect, leaves one when its last subscriber goes', async () => {
    const connection = new RealtimeConnection({ clientId: 'c1' });
    const [socket] = sockets;
    const events: string[] = [];
    let since = '2026-01-01T00:00:01.000Z';
    const first = connection.subscribe('element:p1#u1', { since: () => since, onJoined: () => events.push('joined'), onEvent: (event) => events.push(event) });
    const second = connection.subscribe('element:p1#u1', { onEvent: (event) => events.push(`2:${event}`) });
    // Not connected yet: nothing sent.
    expect(socket.pending).toHaveLength(0);
    connection.connect();
    act(() => socket.serverConnect());
    expect(socket.pending.map((r) => r.message)).toEqual([{ channel: 'element:p1#u1', since: '2026-01-01T00:00:01.000Z' }]);
    await act(async () => void socket.answer('join', { ok: true, at }));
    expect(events).toEqual(['joined']);
    socket.serverSend('edit', { channel: 'element:p1', block: {} });
    expect(events).toEqual(['joined', 'edit', '2:edit']);

    act(() => socket.serverDisconnect());
    since = '2026-01-01T00:00:05.000Z';
    act(() => socket.serverConnect());
    expect(socket.pending.map((r) => r.message)).toEqual([{ channel: 'element:p1#u1', since: '2026-01-01T00:00:05.000Z' }]);
    await act(async () => void socket.answer('join', { ok: true, at }));

    first();
    expect(socket.pending).toHaveLength(0);
    second();
    expect(socket.pending.map((r) => [r.event, r.message])).toEqual([['leave', { channel: 'element:p1#u1' }]]);
  });

  it('close: offline at once, nothing more sent, and its listeners told', () => {
    const connection = new RealtimeConnection({ clientId: 'c1' });
    const [socket] = sockets;
    const statuses: string[] = [];
    connection.onStatus((status) => statuses.push(status));
    connection.subscribe('online:p1', { onEvent: () => undefined });
    connection.connect();
    socket.serverConnect();
    connection.sendCaret('p1', { anchor: { blockId: 'a', offset: 1 }, focus: { blockId: 'a', offset: 1 } });
    // A second caret within 50 ms waits for its turn…
    connection.sendCaret('p1', { anchor: { blockId: 'a', offset: 2 }, focus: { blockId: 'a', offset: 2 } });
    const positions = () => socket.sent.filter((m) => m.event === 'position').length;
    expect(positions()).toBe(1);
    connection.close();
    expect(socket.closed).toBe(true);
    expect(connection.status).toBe('offline');
    expect(statuses).toEqual(['online', 'offline']);
    // …and never goes once the connection is closed.
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        expect(positions()).toBe(1);
        resolve();
      }, 80),
    );
  });

  it('a refused connection (connect_error) is offline and its reason reaches the error listeners', () => {
    const connection = new RealtimeConnection();
    const [socket] = sockets;
    const errors: unknown[] = [];
    connection.onError((error) => errors.push(error));
    connection.connect();
    expect(connection.status).toBe('connecting');
    socket.serverSend('connect_error', Object.assign(new Error('unauthorized'), { data: { code: 101, message: 'unauthorized' } }));
    expect(connection.status).toBe('offline');
    expect(errors).toEqual([{ code: 101, message: 'unauthorized' }]);
  });
});
