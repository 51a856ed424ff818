import { newElement } from '../../../schema/element';
import { clonePage, loadChildren, loadSection, movePage, pagesReducer, trashPage, validPages } from './pagesSlice';
import { signOut } from '../auth/authSlice';

/*
 * The page menu's actions keep the sidebar's lists in step, in the one pages reducer: a clone
 * shows under its loaded parent, a failed clone or a trashed page leaves every list, a moved page
 * lands at its new place with its path rewritten.
 */

const root = newElement({ id: 'r', section: 'private' });
const child = newElement({ id: 'c', parentId: 'r', path: ['r'] });
const other = newElement({ id: 'o', section: 'private' });

function loaded() {
  let state = pagesReducer(undefined, { type: 'init' });
  state = pagesReducer(state, loadSection.fulfilled({ section: 'private', pages: [root, other] }, 'x', 'private'));
  state = pagesReducer(state, loadSection.fulfilled({ section: 'favorite', pages: [child] }, 'x', 'favorite'));
  return pagesReducer(state, loadChildren.fulfilled([child], 'x', 'r'));
}

test('a clone shows at once under its loaded parent, and leaves every list when refused', () => {
  const arg = { source: child, id: 'copy', toElement: 'r', workspaceId: 'w' };
  let state = pagesReducer(loaded(), clonePage.pending('x', arg));
  expect(state.children.r).toEqual(['c', 'copy']);
  expect(state.entities.copy?.path).toEqual(['r']);
  state = pagesReducer(state, clonePage.rejected(null, 'x', arg, { status: 500, message: 'no' }));
  expect(state.children.r).toEqual(['c']);
  expect(state.entities.copy).toBeUndefined();
});

test('a trashed page leaves its parent, its section and the favourites', () => {
  const state = pagesReducer(loaded(), trashPage.fulfilled({ ...child, inTrash: true }, 'x', 'c'));
  expect(state.children.r).toEqual([]);
  expect(state.sections.favorite).toEqual([]);
  expect(state.entities.c).toBeUndefined();
});

test('a moved page lands after its new sibling, with its path rewritten', () => {
  const moved = { ...child, parentId: null, section: 'private' as const, path: [] };
  const state = pagesReducer(loaded(), movePage.fulfilled(moved, 'x', { id: 'c', dst: 'private', placeAfter: 'r' }));
  expect(state.sections.private).toEqual(['r', 'c', 'o']);
  expect(state.children.r).toEqual([]);
  expect(state.entities.c?.path).toEqual([]);
});

test('signing out forgets every page, list and child list (the next person in this tab starts empty)', () => {
  const state = pagesReducer(loaded(), signOut.fulfilled(undefined, 'x'));
  expect(state).toEqual(pagesReducer(undefined, { type: 'init' }));
  expect(loaded().entities.r).toBeDefined();
});

test('incoming pages: one without a workspace, a data view naming no layout and one not matching the schema are dropped and reported; the rest kept', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const ok = newElement({ id: 'ok', workspaceId: 'w', section: 'private' });
    const view = newElement({ id: 'view', workspaceId: 'w', type: 'WidgetView', defaultLayoutId: 'v1' });
    const kept = validPages([
      ok,
      newElement({ id: 'nowhere', workspaceId: null }),
      newElement({ id: 'blind', workspaceId: 'w', type: 'WidgetView', defaultLayoutId: null }),
      newElement({ id: 'widget', workspaceId: 'w', type: 'Widget', defaultLayoutId: null }),
      view,
      { id: 'broken' },
      null,
    ]);
    expect(kept.map((p) => p.id)).toEqual(['ok', 'view']);
    expect(warn).toHaveBeenCalledTimes(5);
  } finally {
    warn.mockRestore();
  }
});
