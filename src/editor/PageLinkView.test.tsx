import { act, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { newElement } from '../../schema/element';
import { createStore } from '../app/store';
import { loadSection, pageChangedElsewhere, pageLoaded } from '../features/pages/pagesSlice';
import { PageLinkView } from './PageLinkView';
import { forgetPageLinkTargets, pageLinkTitleFrom } from './pageLinkTargets';
import { installFetch } from './blocks/testing';

const WORKSPACE = '33333333-4444-4555-8666-777777777777';
const KNOWN = '11111111-2222-4333-8444-555555555555';
const OPEN = '22222222-3333-4444-8555-666666666661';
const CLOSED = '22222222-3333-4444-8555-666666666662';
const GONE = '22222222-3333-4444-8555-666666666663';
const at = '2026-01-01T00:00:00.000Z';

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
}

const labels = (container: HTMLElement) => [...container.querySelectorAll('a.page-link')].map((a) => a.getAttribute('data-label'));

beforeEach(() => forgetPageLinkTargets());

describe('PageLinkView', () => {
  it('a page the sidebar lists shows its title from the store, and a rename shows at once, with no request', async () => {
    const calls = installFetch(() => ({ status: 500, body: {} }));
    const store = createStore();
    store.dispatch(
      loadSection.fulfilled(
        { section: 'private', pages: [newElement({ id: KNOWN, workspaceId: WORKSPACE, title: 'План', section: 'private' }, at)] },
        'r1',
        'private',
      ),
    );
    const { container } = render(
      <Provider store={store}>
        <MemoryRouter>
          <PageLinkView pageId={KNOWN}>↗</PageLinkView>
        </MemoryRouter>
      </Provider>,
    );
    expect(labels(container)).toEqual(['План']);
    expect(container.querySelector('a')?.className).toContain('page-link-page-icon');
    act(() => {
      store.dispatch(pageChangedElsewhere({ id: KNOWN, title: 'План на год', icon: '🎯', cover: null }));
    });
    expect(labels(container)).toEqual(['🎯 План на год']);
    expect(pageLinkTitleFrom(store.getState(), KNOWN)).toBe('План на год');
    await settle();
    expect(calls).toEqual([]);
  });

  it('other pages are looked up in one request: the title when readable, «Нет доступа» and «Страница удалена» without it', async () => {
    const calls = installFetch(() => ({
      status: 200,
      body: {
        data: [
          { id: OPEN, status: 'ok', element: newElement({ id: OPEN, workspaceId: WORKSPACE, title: 'Открытая', section: 'private' }, at) },
          { id: CLOSED, status: 'noAccess' },
          { id: GONE, status: 'deleted' },
        ],
      },
    }));
    const store = createStore();
    const { container } = render(
      <Provider store={store}>
        <MemoryRouter>
          <PageLinkView pageId={OPEN}>↗</PageLinkView>
          <PageLinkView pageId={CLOSED}>↗</PageLinkView>
          <PageLinkView pageId={GONE}>↗</PageLinkView>
        </MemoryRouter>
      </Provider>,
    );
    expect(labels(container)).toEqual(['Страница…', 'Страница…', 'Страница…']);
    await settle();
    expect(calls).toHaveLength(1);
    expect(decodeURIComponent(calls[0].url)).toBe(`/api/v3/spaces/pageLinks?ids=${JSON.stringify([OPEN, CLOSED, GONE])}`);
    expect(labels(container)).toEqual(['Открытая', 'Нет доступа', 'Страница удалена']);
    expect(container.querySelectorAll('a')[1].className).toContain('page-link-lock-icon');
    expect(pageLinkTitleFrom(store.getState(), OPEN)).toBe('Открытая');
    expect(pageLinkTitleFrom(store.getState(), CLOSED)).toBeNull();
    // The tab getting the focus back a few seconds later asks nothing again (api-contract: no
    // refetch on window focus; the titles are asked again after PAGE_LINK_REFRESH_MS).
    const later = Date.now() + 5_000;
    const now = jest.spyOn(Date, 'now').mockReturnValue(later);
    try {
      act(() => {
        window.dispatchEvent(new Event('focus'));
      });
      await settle();
      expect(calls).toHaveLength(1);
    } finally {
      now.mockRestore();
    }
  });

  it('a page in the store that no list shows (trashed elsewhere, the tree read again) is looked up instead', async () => {
    const calls = installFetch(() => ({ status: 200, body: { data: [{ id: KNOWN, status: 'deleted' }] } }));
    const store = createStore();
    store.dispatch(pageLoaded(newElement({ id: KNOWN, workspaceId: WORKSPACE, title: 'Старое', section: 'private' }, at)));
    const { container } = render(
      <Provider store={store}>
        <MemoryRouter>
          <PageLinkView pageId={KNOWN}>↗</PageLinkView>
        </MemoryRouter>
      </Provider>,
    );
    await settle();
    expect(calls).toHaveLength(1);
    expect(labels(container)).toEqual(['Страница удалена']);
    expect(container.innerHTML).not.toContain('Старое');
  });

  it('when the lookup fails (signed out, a public page) no title is shown', async () => {
    installFetch(() => ({ status: 401, body: { data: null, errors: [{ code: 'unauthorized', message: '' }] } }));
    const { container } = render(
      <Provider store={createStore()}>
        <MemoryRouter>
          <PageLinkView pageId={OPEN}>↗</PageLinkView>
        </MemoryRouter>
      </Provider>,
    );
    await settle();
    expect(labels(container)).toEqual(['Нет доступа']);
  });
});
