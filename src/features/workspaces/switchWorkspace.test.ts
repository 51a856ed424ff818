import { createStore } from '../../app/store';
import { signOut } from '../auth/authSlice';
import { newElement } from '../../../schema/element';
import { pageLoaded } from '../pages/pagesSlice';
import { invitedLandingSaid, loadWorkspaces } from './workspacesSlice';
import { switchWorkspace } from './switchWorkspace';

test('switches to a workspace of the user (the tree is read again), never to an unknown or the active one', async () => {
  globalThis.fetch = (async () =>
    ({
      ok: true,
      status: 200,
      statusText: '',
      json: async () => ({
        data: [
          { id: 'w1', name: 'Моё', avatar: null, alias: null, role: 'admin', private: true },
          { id: 'w2', name: 'Команда', avatar: null, alias: null, role: 'guest', private: false },
        ],
        errors: [],
      }),
    }) as Response) as typeof fetch;
  const store = createStore();
  await store.dispatch(loadWorkspaces());
  expect(store.getState().workspaces.activeId).toBe('w1');
  store.dispatch(pageLoaded(newElement({ id: 'p1', workspaceId: 'w1' })));

  expect(store.dispatch(switchWorkspace('w1'))).toBe(false);
  expect(store.dispatch(switchWorkspace('elsewhere'))).toBe(false);
  expect(store.getState().pages.ids).toEqual(['p1']);

  expect(store.dispatch(switchWorkspace('w2'))).toBe(true);
  expect(store.getState().workspaces.activeId).toBe('w2');
  expect(store.getState().pages.ids).toEqual([]);
});

/** fetch answering by path: the workspace list and the user's settings. */
function serverWith(activeWorkspace: unknown, { wizardOffered = false, count = 2, teamRole = 'guest' } = {}) {
  const workspaces = [
    { id: 'w1', name: 'Моё', avatar: null, alias: null, role: 'admin', private: true },
    { id: 'w2', name: 'Команда', avatar: null, alias: null, role: teamRole, private: false },
  ].slice(0, count);
  globalThis.fetch = (async (url: string) =>
    ({
      ok: true,
      status: 200,
      statusText: '',
      json: async () => ({ data: String(url).endsWith('/api/user/settings') ? { theme: 'auto', activeWorkspace, wizardOffered } : workspaces, errors: [] }),
    }) as Response) as typeof fetch;
}

test('the workspace remembered on the server is the active one after loading; an unknown or bad one falls back to the first', async () => {
  serverWith('w2');
  const restored = createStore();
  await restored.dispatch(loadWorkspaces());
  expect(restored.getState().workspaces.activeId).toBe('w2');

  for (const remembered of ['gone', null, 42]) {
    serverWith(remembered, { wizardOffered: true });
    const store = createStore();
    await store.dispatch(loadWorkspaces());
    expect(store.getState().workspaces.activeId).toBe('w1');
  }
});

test('invited, first sign-in (never offered the wizard, nothing remembered): in the workspace invited to last, said once', async () => {
  serverWith(null, { wizardOffered: false, count: 2, teamRole: 'participant' });
  const store = createStore();
  await store.dispatch(loadWorkspaces());
  expect(store.getState().workspaces).toMatchObject({ activeId: 'w2', invitedTo: 'w2', startOffer: 'done' });
  store.dispatch(invitedLandingSaid());
  expect(store.getState().workspaces.invitedTo).toBeNull();
  // A guest (someone shared a page with them) stays in their own.
  serverWith(null, { wizardOffered: false, count: 2, teamRole: 'guest' });
  const guest = createStore();
  await guest.dispatch(loadWorkspaces());
  expect(guest.getState().workspaces).toMatchObject({ activeId: 'w1', invitedTo: null });
  // Alone in the personal workspace: no landing elsewhere (the wizard is offered instead).
  serverWith(null, { wizardOffered: false, count: 1 });
  const alone = createStore();
  await alone.dispatch(loadWorkspaces());
  expect(alone.getState().workspaces).toMatchObject({ activeId: 'w1', invitedTo: null, startOffer: 'offer' });
});

test('the start-workspace wizard is offered on a first run only: never offered, and only the personal workspace', async () => {
  const offerFor = async (wizardOffered: boolean, count: number) => {
    serverWith(null, { wizardOffered, count });
    const store = createStore();
    await store.dispatch(loadWorkspaces());
    return store.getState().workspaces.startOffer;
  };
  expect(await offerFor(false, 1)).toBe('offer');
  expect(await offerFor(true, 1)).toBe('done');
  expect(await offerFor(false, 2)).toBe('done');
});

test('signing out forgets the list, so the next person to sign in here gets their own workspaces and settings', async () => {
  serverWith('w2');
  const store = createStore();
  await store.dispatch(loadWorkspaces());
  expect(store.getState().workspaces).toMatchObject({ status: 'ready', activeId: 'w2' });
  await store.dispatch(signOut());
  expect(store.getState().workspaces).toMatchObject({ status: 'idle', activeId: null, list: [] });
});
