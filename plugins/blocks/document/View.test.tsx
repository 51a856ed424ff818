import { act, fireEvent, render, screen } from '@testing-library/react';
import { newElement, type WireElement } from '../../../schema/element';
import type { DocumentElement } from '../../../schema/slate';
import { api } from '../../../src/app/api';
import { createStore } from '../../../src/app/store';
import { pageLoaded } from '../../../src/features/pages/pagesSlice';
import { PageTypeIcon } from '../../../src/ui/pageTypeIcons';
import { insertDocumentBlock } from '../../../src/editor/blocks/insertDocumentBlock';
import { flushEditor, installFetch, renderEditor, TEST_PAGE_ID, wireBlock } from '../../../src/editor/blocks/testing';

const CHILD = 'c0c0c0c0-0000-4000-8000-00000000000c';

function page(id: string, title: string, icon: string | null = null): WireElement {
  return newElement({ id, title, icon, path: [TEST_PAGE_ID], parentId: TEST_PAGE_ID, section: 'private' }, '2026-11-01T00:00:00.000Z');
}

describe('DocumentView', () => {
  it('shows the child page from the store and opens it on click', async () => {
    const store = createStore();
    store.dispatch(pageLoaded(page(CHILD, 'План запуска', '🚀')));
    const calls = installFetch(() => ({ status: 500, body: null }));
    renderEditor([wireBlock('d-1', 'document', { pageId: CHILD })], { store });
    const link = screen.getByRole('link', { name: /План запуска/ });
    expect(link.textContent).toBe('🚀План запуска');
    expect(link.getAttribute('href')).toBe(`/${CHILD}`);
    expect(calls).toHaveLength(0);
    fireEvent.click(link);
    await flushEditor();
    expect(screen.getByTestId('path').textContent).toBe(`/${CHILD}`);
  });

  it('loads the title with the parent page children when the store lacks it; an empty title is "Без названия"', async () => {
    const calls = installFetch((call) =>
      call.url === `/api/v3/spaces/element/${TEST_PAGE_ID}/children`
        ? { status: 200, body: { data: [page(CHILD, '  ')], meta: {} } }
        : { status: 404, body: { data: null } },
    );
    const { store } = renderEditor([wireBlock('d-2', 'document', { pageId: CHILD })]);
    expect(screen.getByText('Загрузка…')).toBeTruthy();
    expect(await screen.findByText('Без названия')).toBeTruthy();
    // No icon of its own: the page icon (an SVG, not an emoji a system may lack).
    expect(document.querySelector('.document-icon svg')).not.toBeNull();
    expect(calls.map((c) => c.url)).toEqual([`/api/v3/spaces/element/${TEST_PAGE_ID}/children`]);
    expect(store.getState().pages.entities[CHILD]?.title).toBe('  ');
  });

  it("a page without an icon of its own shows its type's (a database's table, as in the sidebar)", () => {
    const store = createStore();
    const NOTE = 'c0c0c0c0-0000-4000-8000-00000000000d';
    store.dispatch(pageLoaded({ ...page(CHILD, 'Задачи'), type: 'Database' }));
    store.dispatch(pageLoaded(page(NOTE, 'Заметки')));
    installFetch(() => ({ status: 500, body: null }));
    renderEditor([wireBlock('d-4', 'document', { pageId: CHILD }), wireBlock('d-5', 'document', { pageId: NOTE })], { store });
    const icon = (name: string) => screen.getByRole('link', { name }).querySelector('.document-icon svg')?.innerHTML;
    const { container } = render(<PageTypeIcon type="Database" size={18} />);
    expect(icon('Задачи')).toBe(container.querySelector('svg')?.innerHTML);
    expect(icon('Заметки')).not.toBe(icon('Задачи'));
  });

  it('says so when the page is not among the readable children', async () => {
    installFetch(() => ({ status: 200, body: { data: [], meta: {} } }));
    renderEditor([wireBlock('d-3', 'document', { pageId: CHILD })]);
    expect(await screen.findByText('Страница недоступна')).toBeTruthy();
  });
});

describe('insertDocumentBlock', () => {
  it('creates the child page first, then inserts the block after the caret block', async () => {
    const calls = installFetch((call) => ({ status: 201, body: { data: page((call.body as { id: string }).id, '') } }));
    const { editor, store } = renderEditor([
      wireBlock('t-1', 'text', { tokens: [{ text: 'абзац' }] }),
      wireBlock('t-2', 'text', { tokens: [{ text: 'ещё' }] }),
    ]);
    act(() => editor.select({ path: [1, 0], offset: 2 }));
    await flushEditor();
    const { page: created, uid } = await act(() => insertDocumentBlock(editor, api, TEST_PAGE_ID, { onPageCreated: (p) => store.dispatch(pageLoaded(p)) }));
    await flushEditor();
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`/api/v3/spaces/element/${TEST_PAGE_ID}/children`);
    expect(calls[0].method).toBe('POST');
    expect(calls[0].body).toEqual({ id: created.id, type: 'Note', contentType: 'Element' });
    const inserted = editor.children[2] as DocumentElement;
    expect(inserted).toEqual({ type: 'documentBlock', uid, version: 1, pageId: created.id, children: [{ text: '' }] });
    expect((editor.children[3] as { uid: string }).uid).toBe('t-2');
    // The page is in the store already: its title shows without another request.
    expect(screen.getByRole('link', { name: /Без названия/ }).getAttribute('href')).toBe(`/${created.id}`);
    expect(store.getState().pages.entities[created.id]?.parentId).toBe(TEST_PAGE_ID);
  });

  it('takes the place of an empty text block (a slash command)', async () => {
    installFetch((call) => ({ status: 201, body: { data: page((call.body as { id: string }).id, '') } }));
    const { editor } = renderEditor([wireBlock('t-3', 'text', { tokens: [] }), wireBlock('t-4', 'text', { tokens: [{ text: 'x' }] })]);
    act(() => editor.select({ path: [1, 0], offset: 0 }));
    await flushEditor();
    const { page: created } = await act(() => insertDocumentBlock(editor, api, TEST_PAGE_ID));
    await flushEditor();
    expect(editor.children).toHaveLength(3);
    expect((editor.children[1] as DocumentElement).pageId).toBe(created.id);
    expect((editor.children[2] as { uid: string }).uid).toBe('t-4');
  });

  it('inserts nothing when the page cannot be created', async () => {
    installFetch(() => ({ status: 403, body: { data: null, errors: [{ code: 'forbidden', message: 'no' }] } }));
    const { editor } = renderEditor([wireBlock('t-5', 'text', { tokens: [] })]);
    await expect(insertDocumentBlock(editor, api, TEST_PAGE_ID)).rejects.toMatchObject({ status: 403 });
    expect(editor.children).toHaveLength(2);
  });
});
