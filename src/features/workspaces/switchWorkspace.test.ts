import { createStore } from '../../app/store';
import { newElement } from '../../../schema/element';
import { pageLoaded } from '../pages/pagesSlice';
import { loadWorkspaces } from './workspacesSlice';
import { switchWorkspace } from './switchWorkspace';

test('switches to a workspace of the user (the tree is read again), never to an unknown or the active one', async () => {
  globalThis.fetch = (async () =>
    ({
      ok: true,
      status: 200,
      statusText: '',
      json: async () => ({ data: [{ id: 'w1', name: 'Моё', avatar: null, alias: null, role: 'admin', private: true }, { id: 'w2', name: 'Команда', avatar: null, alias: null, role: 'guest', private: false }], errors: [] }),
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
