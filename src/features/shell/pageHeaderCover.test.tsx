import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { newElement, type Cover, type WireElement } from '../../../schema/element';
import '../../app/i18n';
import { createStore, useAppSelector, type AppStore } from '../../app/store';
import { installFakeXhr, installPointerEvents } from '../../editor/blocks/testing';
import { dismissAllToasts, Toaster } from '../../ui/Toast';
import { pageLoaded } from '../pages/pagesSlice';
import { PageHeader } from './PageHeader';

/*
 * The page's cover (spec §4: «cover change debounced 500 ms»; «Cover upload works the same way; on
 * failure the local data is dropped»): a change shows at once and is saved 500 ms after the last
 * one, the last one winning; a refused save puts back the cover from before; a failed upload says
 * why in the picker and leaves the page's cover as it was.
 */

const PAGE = '11111111-1111-4111-8111-111111111111';
const OCEAN: Cover = { contentType: 'LibraryCover', imageId: 'gradient-ocean', position: 50 };

type Call = { url: string; method: string; body: unknown };
type Reply = { status: number; body: unknown };
let calls: Call[] = [];
let answer: (call: Call) => Reply = () => ({ status: 404, body: { data: null, errors: [{ code: 'not_found', message: '' }] } });

beforeEach(() => {
  dismissAllToasts();
  calls = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(input), method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const { status, body } = answer(call);
    return { ok: status < 400, status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});
// jsdom has no PointerEvent (the cover is dragged with pointer events).
beforeAll(installPointerEvents);

const patches = () => calls.filter((c) => c.method === 'PATCH');
/** The server saves a PATCH and answers the page as it is then. */
const saving = (page: () => WireElement) => (call: Call) =>
  call.method === 'PATCH' ? { status: 200, body: { data: { ...page(), ...(call.body as object) }, included: [], meta: {}, errors: [] } } : answer(call);

/** The header of the page the store holds (as the page screen draws it). */
function LiveHeader() {
  const page = useAppSelector((state) => state.pages.entities[PAGE]);
  return page ? <PageHeader page={page} editable /> : null;
}

function mount(cover: Cover | null): AppStore {
  const store = createStore();
  store.dispatch(pageLoaded(newElement({ id: PAGE, workspaceId: 'ws', title: 'План', cover }, '2026-01-01T00:00:00.000Z')));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <LiveHeader />
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

const coverOf = (store: AppStore) => store.getState().pages.entities[PAGE]?.cover ?? null;
const picker = () => screen.getByRole('dialog', { name: 'Обложка' });
const wait = (ms: number) => act(async () => void jest.advanceTimersByTime(ms));

describe('the cover is saved 500 ms after the last change', () => {
  it('two picks in a row: each shows at once, one PATCH of the last one 500 ms after it', async () => {
    jest.useFakeTimers();
    const store = mount(null);
    answer = saving(() => store.getState().pages.entities[PAGE]!);
    fireEvent.click(screen.getByRole('button', { name: 'Добавить обложку' }));
    fireEvent.click(within(picker()).getByRole('button', { name: 'Океан' }));
    expect(coverOf(store)).toEqual(OCEAN);
    expect(screen.getByTestId('page-cover').style.backgroundImage).toContain('#89f7fe');
    await wait(300);
    fireEvent.click(screen.getByRole('button', { name: 'Сменить обложку' }));
    fireEvent.click(within(picker()).getByRole('button', { name: 'Лес' }));
    expect(coverOf(store)).toMatchObject({ imageId: 'gradient-forest' });
    await wait(499);
    expect(patches()).toEqual([]);
    await wait(1);
    expect(patches()).toEqual([
      {
        url: `/api/v3/spaces/element/${PAGE}`,
        method: 'PATCH',
        body: { id: PAGE, cover: { contentType: 'LibraryCover', imageId: 'gradient-forest', position: 50 } },
      },
    ]);
    await wait(2000);
    expect(patches()).toHaveLength(1);
    expect(coverOf(store)).toMatchObject({ imageId: 'gradient-forest' });
  });

  it('dragging to reposition: the picture follows the pointer, one PATCH with where it stopped', async () => {
    jest.useFakeTimers();
    const store = mount({ contentType: 'UrlCover', url: 'https://example.com/a.png', position: 50 });
    answer = saving(() => store.getState().pages.entities[PAGE]!);
    fireEvent.click(screen.getByRole('button', { name: 'Переместить' }));
    const box = screen.getByTestId('page-cover');
    fireEvent.pointerDown(box, { clientY: 100, pointerId: 1 });
    // The box is 200 px high here (jsdom lays nothing out): 20 px down is 10 points up.
    for (const y of [110, 120, 140]) {
      fireEvent.pointerMove(box, { clientY: y, pointerId: 1 });
      await wait(100);
    }
    fireEvent.pointerUp(box, { pointerId: 1 });
    expect(coverOf(store)).toMatchObject({ position: 30 });
    expect(box.style.backgroundPosition).toBe('center 30%');
    expect(patches()).toEqual([]);
    await wait(400);
    expect(patches().map((p) => p.body)).toEqual([{ id: PAGE, cover: { contentType: 'UrlCover', url: 'https://example.com/a.png', position: 30 } }]);
  });

  it('a save the server refuses puts back the cover from before the changes, and says why', async () => {
    jest.useFakeTimers();
    const store = mount(OCEAN);
    answer = (call) =>
      call.method === 'PATCH' ? { status: 403, body: { data: null, errors: [{ code: 'forbidden', message: 'no' }] } } : { status: 404, body: {} };
    fireEvent.click(screen.getByRole('button', { name: 'Сменить обложку' }));
    fireEvent.click(within(picker()).getByRole('button', { name: 'Лес' }));
    fireEvent.click(screen.getByRole('button', { name: 'Сменить обложку' }));
    fireEvent.click(within(picker()).getByRole('button', { name: 'Ночь' }));
    expect(coverOf(store)).toMatchObject({ imageId: 'gradient-night' });
    await wait(500);
    expect(patches()).toHaveLength(1);
    expect(coverOf(store)).toEqual(OCEAN);
    expect(screen.getByText('Недостаточно прав для этого действия')).toBeTruthy();
  });
});

describe('a failed cover upload', () => {
  const image = () => new File([new Uint8Array(2048)], 'обложка.png', { type: 'image/png' });
  const ticket = { id: 'file-1', uploadUrl: '/api/file/upload/tok', fields: { token: 'tok' }, fileField: 'file', expiresAt: '2026-01-01T01:00:00Z' };

  async function chooseFile(file: File) {
    fireEvent.click(within(picker()).getByRole('tab', { name: 'Загрузить' }));
    await act(async () => void fireEvent.change(within(picker()).getByLabelText('Выбрать файл'), { target: { files: [file] } }));
  }

  it('the upload refused: the reason in the picker, the cover as it was, nothing saved; another try can succeed', async () => {
    const xhrs = installFakeXhr();
    const store = mount(OCEAN);
    answer = saving(() => store.getState().pages.entities[PAGE]!);
    answer = ((save) => (call: Call) =>
      call.url === '/api/file/upload_url' ? { status: 200, body: { data: ticket, included: [], meta: {}, errors: [] } } : save(call))(answer);
    fireEvent.click(screen.getByRole('button', { name: 'Сменить обложку' }));
    await chooseFile(image());
    expect(calls.find((c) => c.url === '/api/file/upload_url')?.body).toMatchObject({ pageId: PAGE, name: 'обложка.png', mimeType: 'image/png', size: 2048 });
    expect(xhrs).toHaveLength(1);
    await act(async () => xhrs[0].progress(1024, 2048));
    expect(within(picker()).getByRole('progressbar')).toBeTruthy();
    expect(within(picker()).getByText('Загрузка… 50%')).toBeTruthy();
    await act(async () => xhrs[0].respond(413, { data: null, errors: [{ code: 'payload_too_large', message: 'too large' }] }));
    // What the person sees: why, in the picker, which stays open to try again.
    expect(within(picker()).getByRole('alert').textContent).toBe('Файл или запрос слишком большой');
    expect(within(picker()).queryByRole('progressbar')).toBeNull();
    expect(within(picker()).getByRole('button', { name: 'Выбрать файл' })).toBeTruthy();
    // Nothing lost: the cover the page had is still there, shown and on the server (nothing sent).
    expect(coverOf(store)).toEqual(OCEAN);
    expect(screen.getByTestId('page-cover').style.backgroundImage).toContain('#89f7fe');
    await act(async () => await new Promise((resolve) => setTimeout(resolve, 600)));
    expect(patches()).toEqual([]);

    // Again, and the server takes it: the uploaded file becomes the cover, saved 500 ms later.
    await chooseFile(image());
    expect(within(picker()).queryByRole('alert')).toBeNull();
    await act(async () => xhrs[1].respond(200, { data: { id: 'file-1' } }));
    expect(coverOf(store)).toEqual({ contentType: 'FileCover', fileId: 'file-1', position: 50 });
    await act(async () => await new Promise((resolve) => setTimeout(resolve, 600)));
    expect(patches().map((p) => p.body)).toEqual([{ id: PAGE, cover: { contentType: 'FileCover', fileId: 'file-1', position: 50 } }]);
  });

  it('no connection while sending, or a workspace out of space: said in Russian, the cover kept', async () => {
    // The failed calls are reported on the console (src/app/api.ts); not this test's business.
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const xhrs = installFakeXhr();
    const store = mount(OCEAN);
    answer = (call) =>
      call.url === '/api/file/upload_url'
        ? calls.filter((c) => c.url === call.url).length === 1
          ? { status: 200, body: { data: ticket, included: [], meta: {}, errors: [] } }
          : { status: 413, body: { data: null, errors: [{ code: 'file.quota_exceeded', message: 'quota' }] } }
        : { status: 404, body: {} };
    fireEvent.click(screen.getByRole('button', { name: 'Сменить обложку' }));
    await chooseFile(image());
    await act(async () => xhrs[0].fail());
    expect(within(picker()).getByRole('alert').textContent).toBe('Нет связи с сервером. Попробуйте ещё раз');
    await chooseFile(image());
    expect(xhrs).toHaveLength(1);
    expect(within(picker()).getByRole('alert').textContent).toMatch(/^Место/);
    expect(coverOf(store)).toEqual(OCEAN);
    expect(patches()).toEqual([]);
  });

  it('a file that is no picture is refused before anything is sent', async () => {
    const store = mount(null);
    fireEvent.click(screen.getByRole('button', { name: 'Добавить обложку' }));
    await chooseFile(new File(['%PDF'], 'отчёт.pdf', { type: 'application/pdf' }));
    expect(within(picker()).getByRole('alert').textContent).toBe('Это не изображение');
    expect(calls).toEqual([]);
    expect(coverOf(store)).toBeNull();
  });
});
