import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import '../app/i18n';
import { resetAppLinks, type AppLinks } from '../app/appConfig';
import { createStore } from '../app/store';
import { ApiRequestError } from '../app/api';
import { ErrorScreen, errorKindOf } from './ErrorScreen';
import { goHomeFresh, reloadPage } from './leavePage';

// jsdom does not navigate: the screens' ways out are watched instead.
jest.mock('./leavePage', () => ({ goHomeFresh: jest.fn(), reloadPage: jest.fn() }));

/*
 * The error screens' help and footer: links come from GET /api/config at run time; without a
 * help link, "Помощь" opens the feedback form, which posts to /api/email/hello.
 */

type Call = { method: string; url: string; body: unknown };

function serve(links: Partial<AppLinks>, feedback: { status: number } = { status: 200 }) {
  const calls: Call[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const ok = (data: unknown) => ({ ok: true, status: 200, statusText: '', json: async () => ({ data, included: [], meta: {}, errors: [] }) }) as Response;
    if (url === '/api/config') return ok({ links: { help: null, privacy: null, terms: null, docs: null, templates: null, ...links } });
    if (url === '/api/email/hello' && feedback.status === 200) return ok({ status: 'success' });
    return {
      ok: false,
      status: feedback.status,
      statusText: '',
      json: async () => ({ data: null, errors: [{ code: 'rate_limited', message: '' }] }),
    } as Response;
  }) as typeof fetch;
  return calls;
}

function renderScreen(kind: Parameters<typeof ErrorScreen>[0]['kind'] = 'notFound', more: { email?: string; error?: unknown } = {}) {
  return render(
    <Provider store={createStore()}>
      <ErrorScreen kind={kind} {...more} />
    </Provider>,
  );
}

beforeEach(() => {
  resetAppLinks();
  jest.mocked(goHomeFresh).mockClear();
  jest.mocked(reloadPage).mockClear();
});

/** The screen as a person reads it: its title, its lines, its buttons. */
const shown = () => ({
  title: screen.getByRole('heading').textContent,
  lines: [...document.querySelectorAll('.error-screen-content p, .error-screen-content pre')].map((p) => p.textContent),
  buttons: screen.getAllByRole('button').map((b) => b.textContent),
});

describe('the screens (spec §2 «Error screens»)', () => {
  it('Unauthorized: a title, back home (in the same window), help', async () => {
    serve({});
    renderScreen('unauthorized');
    await act(async () => undefined);
    expect(shown()).toEqual({ title: 'Нужно войти', lines: [], buttons: ['К моим страницам', 'Помощь'] });
    fireEvent.click(screen.getByRole('button', { name: 'К моим страницам' }));
    expect(goHomeFresh).toHaveBeenCalledTimes(1);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('Something went wrong: a title, a description, back to my pages, help — and the error’s text when there is one', async () => {
    serve({});
    renderScreen('generic', { error: new Error('Cannot read properties of null') });
    await act(async () => undefined);
    expect(shown()).toEqual({
      title: 'Что-то пошло не так',
      lines: ['Попробуйте обновить страницу', 'Cannot read properties of null'],
      buttons: ['К моим страницам', 'Помощь'],
    });
    fireEvent.click(screen.getByRole('button', { name: 'К моим страницам' }));
    expect(goHomeFresh).toHaveBeenCalledTimes(1);
  });

  it('Network error: a title, a retry that reloads the page, help', async () => {
    serve({});
    renderScreen('network');
    await act(async () => undefined);
    expect(shown()).toEqual({ title: 'Нет связи с сервером', lines: [], buttons: ['Повторить', 'Помощь'] });
    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(goHomeFresh).not.toHaveBeenCalled();
  });

  it('No access: the signed-in person’s e-mail is named; Page not found: back to my pages', async () => {
    serve({});
    const { unmount } = renderScreen('noAccess', { email: 'anna@example.com' });
    await act(async () => undefined);
    expect(shown()).toEqual({ title: 'Нет доступа к странице', lines: ['Вы вошли как anna@example.com'], buttons: ['К моим страницам', 'Помощь'] });
    unmount();
    renderScreen('notFound', { error: new Error('not shown here') });
    await act(async () => undefined);
    expect(shown()).toEqual({ title: 'Страница не найдена', lines: [], buttons: ['К моим страницам', 'Помощь'] });
  });
});

describe('errorKindOf: the screen a failure shows (spec §8 «Error display by status»)', () => {
  const failure = (status: number | undefined) => new ApiRequestError(status, undefined, 'x');

  it('the not-found family → page not found; 401 → unauthorized; anything else → something went wrong', () => {
    expect([400, 404, 410].map((s) => errorKindOf(failure(s)))).toEqual(['notFound', 'notFound', 'notFound']);
    expect(errorKindOf(failure(401))).toBe('unauthorized');
    expect([403, 409, 413, 422, 429, 500, 502, 503].map((s) => errorKindOf(failure(s)))).toEqual(Array(8).fill('generic'));
    expect(errorKindOf(new Error('a bug'))).toBe('generic');
    expect(errorKindOf('thrown text')).toBe('generic');
    expect(errorKindOf(null)).toBe('generic');
  });

  it('a request that never reached the server, or a screen’s code that did not load → network error', () => {
    expect(errorKindOf(failure(undefined))).toBe('network');
    // The plain data a thunk keeps is read the same way.
    expect(errorKindOf({ status: undefined, message: 'Failed to fetch' })).toBe('network');
    expect(errorKindOf({ status: 404, message: 'no page' })).toBe('notFound');
    for (const message of [
      'Failed to fetch dynamically imported module: https://pages.example/assets/PageScreen-1a2b.js',
      'error loading dynamically imported module: https://pages.example/assets/x.js',
      'Importing a module script failed.',
    ]) {
      expect(errorKindOf(new TypeError(message))).toBe('network');
    }
  });

  it('a 403 → no access only when a page is being loaded', () => {
    expect(errorKindOf(failure(403), { pageLoad: true })).toBe('noAccess');
    expect(errorKindOf(failure(403))).toBe('generic');
    // The other statuses read the same on a page load.
    expect([401, 404, 500, undefined].map((s) => errorKindOf(failure(s), { pageLoad: true }))).toEqual(['unauthorized', 'notFound', 'generic', 'network']);
  });
});

test('footer links are those the installation set, opening in a new tab', async () => {
  serve({ privacy: '/legal/privacy', docs: 'https://docs.example.com/' });
  renderScreen();
  const privacy = await screen.findByRole('link', { name: 'Политика конфиденциальности' });
  expect(privacy.getAttribute('href')).toBe('/legal/privacy');
  expect(privacy.getAttribute('target')).toBe('_blank');
  expect(screen.getByRole('link', { name: 'Документация' }).getAttribute('href')).toBe('https://docs.example.com/');
  expect(screen.queryByRole('link', { name: 'Условия использования' })).toBeNull();
  expect(screen.queryByRole('link', { name: 'Шаблоны и идеи' })).toBeNull();
});

test('with a help link, "Помощь" opens it in a new tab', async () => {
  serve({ help: 'https://t.me/helpbot' });
  const open = jest.spyOn(window, 'open').mockImplementation(() => null);
  renderScreen();
  await act(async () => undefined);
  fireEvent.click(screen.getByRole('button', { name: 'Помощь' }));
  expect(open).toHaveBeenCalledWith('https://t.me/helpbot', '_blank', 'noopener');
  expect(screen.queryByRole('dialog')).toBeNull();
  open.mockRestore();
});

test('without one, "Помощь" opens the feedback form: required fields are checked, then it is sent', async () => {
  const calls = serve({});
  renderScreen('generic');
  await act(async () => undefined);
  fireEvent.click(screen.getByRole('button', { name: 'Помощь' }));
  const dialog = await screen.findByRole('dialog', { name: 'Написать нам' });
  expect(dialog).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Отправить' }));
  expect(screen.getByText('Напишите имя и сообщение')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Как вас зовут'), { target: { value: 'Анна' } });
  fireEvent.change(screen.getByLabelText('Почта для ответа'), { target: { value: 'anna@example' } });
  fireEvent.change(screen.getByLabelText('Сообщение'), { target: { value: ' Не открывается страница ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Отправить' }));
  expect(screen.getByText('Проверьте адрес почты')).toBeTruthy();
  expect(calls.filter((c) => c.url === '/api/email/hello')).toEqual([]);
  fireEvent.change(screen.getByLabelText('Почта для ответа'), { target: { value: 'anna@example.com' } });
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Отправить' })));
  expect(await screen.findByText('Спасибо! Сообщение отправлено')).toBeTruthy();
  expect(calls.filter((c) => c.url === '/api/email/hello')).toEqual([
    { method: 'POST', url: '/api/email/hello', body: { username: 'Анна', email: 'anna@example.com', text: 'Не открывается страница' } },
  ]);
});

test('a refused message keeps what was typed and says why', async () => {
  serve({}, { status: 429 });
  renderScreen();
  await act(async () => undefined);
  fireEvent.click(screen.getByRole('button', { name: 'Помощь' }));
  fireEvent.change(screen.getByLabelText('Как вас зовут'), { target: { value: 'Анна' } });
  fireEvent.change(screen.getByLabelText('Почта для ответа'), { target: { value: 'anna@example.com' } });
  fireEvent.change(screen.getByLabelText('Сообщение'), { target: { value: 'Текст' } });
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Отправить' })));
  expect(await screen.findByText('Слишком много сообщений. Попробуйте через час')).toBeTruthy();
  expect((screen.getByLabelText('Сообщение') as HTMLTextAreaElement).value).toBe('Текст');
});
