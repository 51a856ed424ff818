import { newElement } from '../../../schema/element';
import { loadChildren, loadSection, pagesReducer, pageTitleEdited, renamePage } from '../pages/pagesSlice';

/*
 * A live sidebar reads its lists again whenever someone changes the tree — our own rename
 * included. A title still being typed (its save not answered yet) must not jump back to the
 * server's older copy meanwhile.
 */

const page = newElement({ id: 'p', section: 'all', title: 'План' });
const child = newElement({ id: 'c', parentId: 'p', path: ['p'], title: 'Шаг' });

test('a list read again keeps a title being typed until its save is answered', () => {
  let state = pagesReducer(undefined, loadSection.fulfilled({ section: 'all', pages: [page] }, 'r1', 'all'));
  state = pagesReducer(state, pageTitleEdited({ id: 'p', title: 'План з' }));
  state = pagesReducer(state, pageTitleEdited({ id: 'p', title: 'План за' }));
  // The save of «План з» is on its way; the event of an earlier save brings the list back.
  state = pagesReducer(state, renamePage.pending('s1', { id: 'p', title: 'План з' }));
  state = pagesReducer(state, loadSection.fulfilled({ section: 'all', pages: [{ ...page, title: 'План' }] }, 'r2', 'all'));
  expect(state.entities.p?.title).toBe('План за');
  // That save answered, but more was typed since: still the typed title.
  state = pagesReducer(state, renamePage.fulfilled(undefined, 's1', { id: 'p', title: 'План з' }));
  state = pagesReducer(state, loadSection.fulfilled({ section: 'all', pages: [{ ...page, title: 'План з' }] }, 'r3', 'all'));
  expect(state.entities.p?.title).toBe('План за');
  // The last save answered: the server's title counts again (someone else may rename it next).
  state = pagesReducer(state, renamePage.fulfilled(undefined, 's2', { id: 'p', title: 'План за' }));
  state = pagesReducer(state, loadSection.fulfilled({ section: 'all', pages: [{ ...page, title: 'План работ' }] }, 'r4', 'all'));
  expect(state.entities.p?.title).toBe('План работ');
});

test('a refused save lets the server title back; other pages of the list are not held', () => {
  let state = pagesReducer(undefined, loadChildren.fulfilled([child], 'r1', 'p'));
  state = pagesReducer(state, pageTitleEdited({ id: 'c', title: 'Шаг 1' }));
  state = pagesReducer(state, loadChildren.fulfilled([{ ...child, title: 'Шаг' }], 'r2', 'p'));
  expect(state.entities.c?.title).toBe('Шаг 1');
  state = pagesReducer(state, renamePage.rejected(new Error('403'), 's1', { id: 'c', title: 'Шаг 1' }));
  state = pagesReducer(
    state,
    loadChildren.fulfilled(
      [
        { ...child, title: 'Шаг' },
        { ...page, id: 'd', title: 'Новая' },
      ],
      'r3',
      'p',
    ),
  );
  expect(state.entities.c?.title).toBe('Шаг');
  expect(state.entities.d?.title).toBe('Новая');
});
