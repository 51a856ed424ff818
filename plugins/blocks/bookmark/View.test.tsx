import { act, fireEvent, screen } from '@testing-library/react';
import type { BookmarkElement } from '../../../schema/slate';
import { flushEditor, installFetch, renderEditor, wireBlock } from '../../../src/editor/blocks/testing';

const bookmarkOf = (editor: { children: unknown[] }) => editor.children[1] as BookmarkElement;
const card = {
  title: 'Как мы ускорили редактор',
  description: 'Двадцать тысяч блоков без задержек',
  image: 'https://example.com/cover.png',
  icon: 'https://example.com/icon.svg',
  siteName: 'Блог Страниц',
};
const answer = (url: string) => ({ status: 200, body: { data: { ...card, url, finalUrl: url, fetchedAt: '2026-12-06T00:00:00.000Z' } } });
const settle = async () => {
  for (let i = 0; i < 5; i++) await flushEditor();
  await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
};

describe('BookmarkView', () => {
  it('takes a link, asks the server for its card once and shows it: title, description, icon, site, picture', async () => {
    const calls = installFetch((call) => answer((call.body as { url: string }).url));
    const { editor, container } = renderEditor([wireBlock('bm-1', 'bookmark', { url: null, preview: null })]);
    fireEvent.change(screen.getByLabelText('Ссылка для закладки'), { target: { value: ' https://example.com/post ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Создать закладку' }));
    await settle();
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([['POST', '/api/v3/spaces/link/preview', { url: 'https://example.com/post' }]]);
    expect(bookmarkOf(editor)).toMatchObject({ url: 'https://example.com/post', preview: card });
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('https://example.com/post');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(link.textContent).toContain('Как мы ускорили редактор');
    expect(link.textContent).toContain('Двадцать тысяч блоков без задержек');
    expect(link.textContent).toContain('Блог Страниц');
    const pictures = [...container.querySelectorAll('.bookmark-card img')].map((img) => [img.getAttribute('src'), img.getAttribute('referrerpolicy')]);
    expect(pictures).toEqual([
      ['https://example.com/icon.svg', 'no-referrer'],
      ['https://example.com/cover.png', 'no-referrer'],
    ]);
    // Drawn again: not asked again.
    await settle();
    expect(calls).toHaveLength(1);
  });

  it('refuses a link that is not http(s)', async () => {
    const calls = installFetch(() => ({ status: 500, body: {} }));
    const { editor } = renderEditor([wireBlock('bm-2', 'bookmark', { url: null, preview: null })]);
    fireEvent.change(screen.getByLabelText('Ссылка для закладки'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Создать закладку' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('Нужна ссылка, начинающаяся с http:// или https://');
    expect(bookmarkOf(editor).url ?? null).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('a card that cannot be read shows the address plainly and says why; «Обновить превью» asks again, afresh', async () => {
    let status = 502;
    const calls = installFetch((call) =>
      status === 502 ? { status, body: { data: null, errors: [{ code: 'link.unreachable', message: 'no' }] } } : answer((call.body as { url: string }).url),
    );
    const { editor, container } = renderEditor([wireBlock('bm-3', 'bookmark', { url: 'https://down.example/', preview: null })]);
    await settle();
    // Not retried by the client: the server kept the failure.
    expect(calls).toHaveLength(1);
    expect(container.querySelector('.bookmark-card')!.className).toContain('is-plain');
    expect(screen.getByRole('link').textContent).toBe('https://down.example/');
    expect(screen.getByRole('status').textContent).toBe('Сайт не ответил — показана просто ссылка');
    expect(bookmarkOf(editor).preview ?? null).toBeNull();

    status = 200;
    fireEvent.click(screen.getByRole('button', { name: 'Обновить превью' }));
    await settle();
    expect(calls[1].body).toEqual({ url: 'https://down.example/', fresh: true });
    expect(bookmarkOf(editor).preview).toEqual(card);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('an address the server will not open says so', async () => {
    installFetch(() => ({ status: 422, body: { data: null, errors: [{ code: 'link.address_refused', message: 'no' }] } }));
    renderEditor([wireBlock('bm-4', 'bookmark', { url: 'http://10.0.0.5/', preview: null })]);
    await settle();
    expect(screen.getByRole('status').textContent).toBe('Сервер не открывает такие адреса — показана просто ссылка');
  });

  it('«Изменить ссылку» empties it; a reader gets the card alone and asks for nothing', async () => {
    const calls = installFetch(() => ({ status: 500, body: {} }));
    const { editor } = renderEditor([wireBlock('bm-5', 'bookmark', { url: 'https://example.com/a', preview: card })]);
    fireEvent.click(screen.getByRole('button', { name: 'Изменить ссылку' }));
    await settle();
    // Slate leaves a field set to null off the element.
    expect([bookmarkOf(editor).url ?? null, bookmarkOf(editor).preview ?? null]).toEqual([null, null]);
    expect(screen.getByLabelText('Ссылка для закладки')).toBeTruthy();

    renderEditor([wireBlock('bm-6', 'bookmark', { url: 'https://example.com/b', preview: null })], { readOnly: true });
    await settle();
    expect(screen.queryByRole('button', { name: 'Обновить превью' })).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
