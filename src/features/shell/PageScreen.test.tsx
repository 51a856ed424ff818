import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { signedIn } from '../auth/authSlice';
import PageScreen from './PageScreen';

/*
 * A page that does not load shows the error screen its failure calls for (spec §8 «Error display
 * by status»): a 403 on loading a page → no access (naming the signed-in person), the not-found
 * family → page not found, 401 → unauthorized, anything else → something went wrong, no
 * connection → network error with a reload. A page neither readable nor published is asked for
 * as a public page first (its public view, when there is one).
 */

const PAGE = '11111111-1111-4111-8111-111111111111';

/** Every read of the page answers `status` (none: no connection); its public view answers 404, not published. */
function serve(status: number | undefined) {
  const asked: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const path = String(input);
    asked.push(path);
    if (status === undefined) throw new TypeError('Failed to fetch');
    const answer = path.includes('/element/public/') ? 404 : status;
    const body = { data: null, included: [], meta: {}, errors: [{ code: 'x', message: `refused ${answer}` }] };
    return { ok: false, status: answer, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
  return asked;
}

function open() {
  const store = createStore();
  store.dispatch(signedIn({ id: 'u1', email: 'anna@example.com', name: 'Анна', avatar_url: null, anonymous: false } as never));
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[`/${PAGE}`]}>
        <Routes>
          <Route path=":pageUid" element={<PageScreen />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test('403 on loading the page: «Нет доступа к странице», naming who is signed in (its public view asked first)', async () => {
  const asked = serve(403);
  open();
  expect(await screen.findByRole('heading', { name: 'Нет доступа к странице' })).toBeTruthy();
  expect(screen.getByText('Вы вошли как anna@example.com')).toBeTruthy();
  expect(asked).toContain(`/api/v3/spaces/element/public/${PAGE}`);
});

test.each([
  [404, 'Страница не найдена'],
  [400, 'Страница не найдена'],
  [401, 'Нужно войти'],
  [503, 'Что-то пошло не так'],
  [422, 'Что-то пошло не так'],
])('%i on loading the page: «%s»', async (status, title) => {
  serve(status);
  open();
  expect(await screen.findByRole('heading', { name: title }, { timeout: 5_000 })).toBeTruthy();
  expect(screen.queryByText(/Вы вошли как/)).toBeNull();
});

test('no connection on loading the page: «Нет связи с сервером» with «Повторить»', async () => {
  serve(undefined);
  open();
  expect(await screen.findByRole('heading', { name: 'Нет связи с сервером' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Повторить' })).toBeTruthy();
});
