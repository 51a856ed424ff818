import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import '../../app/i18n';
import { serverApi } from '../../app/serverApi';
import { createStore } from '../../app/store';
import { ErrorScreen } from '../../ui/ErrorScreen';
import { safeNext } from './authSlice';
import { LoginPage } from './LoginPage';

function Where() {
  const location = useLocation();
  return <p>Перешли на {location.pathname + location.search}</p>;
}

type Answer = { status: number; data: unknown };

function renderLogin(answers: Record<string, Answer> = {}, entry = '/login', store = createStore()) {
  const requests: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    requests.push(key);
    // No server here (the browser tests use a real one): answer as the API does to a visitor.
    const answer = answers[key] ?? { status: 401, data: null };
    const body = { data: answer.data, included: [], meta: {}, errors: answer.status >= 400 ? [{ code: 'unauthorized', message: '' }] : [] };
    return { ok: answer.status < 400, status: answer.status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return requests;
}

describe('LoginPage', () => {
  it('forgets what was read for the last person (serverApi) once it shows', async () => {
    const store = createStore();
    store.dispatch(serverApi.util.upsertQueryData('pageMembers', 'p1', []));
    await waitFor(() => expect(serverApi.endpoints.pageMembers.select('p1')(store.getState()).data).toEqual([]));
    renderLogin({}, '/login', store);
    await waitFor(() => expect(serverApi.endpoints.pageMembers.select('p1')(store.getState()).data).toBeUndefined());
  });

  it('asks for the e-mail in Russian', async () => {
    renderLogin();
    expect(await screen.findByRole('heading', { name: 'Вход в Страницы' })).toBeTruthy();
    expect(screen.getByLabelText('Электронная почта')).toBeTruthy();
    expect(document.title).toBe('Вход — Страницы');
  });

  it('refuses a malformed e-mail without calling the server', async () => {
    const requests = renderLogin();
    fireEvent.change(screen.getByLabelText('Электронная почта'), { target: { value: 'anna@example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Получить код' }));
    expect(await screen.findByText('Проверьте адрес почты')).toBeTruthy();
    expect(requests.filter((r) => r.includes('send_code'))).toEqual([]);
  });
});

describe('LoginPage: suggestions, provider, next', () => {
  it('offers the typed local part at mail.ru and yandex.ru, filtered by the typed domain; a click fills the address', async () => {
    renderLogin();
    const input = screen.getByLabelText('Электронная почта') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'anna' } });
    expect(screen.getByRole('button', { name: 'anna@mail.ru' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'anna@yandex.ru' })).toBeTruthy();
    fireEvent.change(input, { target: { value: 'anna@ya' } });
    expect(screen.queryByRole('button', { name: 'anna@mail.ru' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'anna@yandex.ru' }));
    expect(input.value).toBe('anna@yandex.ru');
    expect(screen.queryByRole('button', { name: 'anna@yandex.ru' })).toBeNull();
  });

  it('shows the provider button only when the server has a provider, with its name', async () => {
    renderLogin({ 'GET /api/auth/oauth': { status: 200, data: { enabled: true, service: 'kc', name: 'Keycloak' } } });
    expect(await screen.findByRole('button', { name: 'Войти через Keycloak' })).toBeTruthy();
  });

  it('no provider button when the server has none', async () => {
    const requests = renderLogin({ 'GET /api/auth/oauth': { status: 200, data: { enabled: false, service: null, name: null } } });
    await screen.findByRole('heading', { name: 'Вход в Страницы' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(requests).toContain('GET /api/auth/oauth');
    expect(screen.queryByRole('button', { name: /Войти через/ })).toBeNull();
  });

  it('a signed-in visitor goes to ?next= (a path of this app only), not elsewhere', async () => {
    const user = { id: 'u1', email: 'a@b.ru', name: 'А', avatar_url: null, anonymous: false };
    renderLogin({ 'GET /api/user/current': { status: 200, data: user } }, '/login?next=%2Fabc%3FcommentId%3D1');
    expect(await screen.findByText('Перешли на /abc?commentId=1')).toBeTruthy();
  });
});

describe('safeNext', () => {
  it('keeps app paths, refuses other sites and the login screen', () => {
    expect(safeNext('/abc?x=1')).toBe('/abc?x=1');
    expect(safeNext('//evil.example')).toBe('/');
    expect(safeNext('/\\evil.example')).toBe('/');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext('/login?next=/x')).toBe('/');
    expect(safeNext(null)).toBe('/');
  });
});

describe('ErrorScreen', () => {
  it('names the signed-in user on the no-access screen', () => {
    render(<ErrorScreen kind="noAccess" email="anna@example.com" />);
    expect(screen.getByRole('heading', { name: 'Нет доступа к странице' })).toBeTruthy();
    expect(screen.getByText('Вы вошли как anna@example.com')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'К моим страницам' })).toBeTruthy();
  });

  it('offers a retry on the network error screen', () => {
    render(<ErrorScreen kind="network" />);
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeTruthy();
  });
});

describe('LoginPage: the code', () => {
  const user = { id: 'u1', email: 'anna@mail.ru', name: 'Анна' };
  async function toCode(answers: Record<string, Answer>) {
    const requests = renderLogin({ 'POST /api/auth/send_code': { status: 200, data: null }, ...answers });
    fireEvent.change(screen.getByLabelText('Электронная почта'), { target: { value: 'anna@mail.ru' } });
    fireEvent.click(screen.getByRole('button', { name: 'Получить код' }));
    const field = (await screen.findByLabelText('Код из письма')) as HTMLInputElement;
    return { requests, field };
  }

  it('has the focus; the sixth digit typed signs in, once', async () => {
    const { requests, field } = await toCode({ 'POST /api/auth/login': { status: 200, data: user } });
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: '12345' } });
    expect(requests.filter((r) => r === 'POST /api/auth/login')).toEqual([]);
    fireEvent.change(field, { target: { value: '123456' } });
    expect(await screen.findByText('Перешли на /')).toBeTruthy();
    expect(requests.filter((r) => r === 'POST /api/auth/login')).toHaveLength(1);
  });

  it('a pasted «Код: 123 456» is the code', async () => {
    const { requests, field } = await toCode({ 'POST /api/auth/login': { status: 200, data: user } });
    fireEvent.change(field, { target: { value: 'Код: 123 456' } });
    expect(await screen.findByText('Перешли на /')).toBeTruthy();
    expect(requests.filter((r) => r === 'POST /api/auth/login')).toHaveLength(1);
  });

  it('a wrong code stays in the field, focused and selected, to be typed over', async () => {
    const { field } = await toCode({ 'POST /api/auth/login': { status: 422, data: null } });
    fireEvent.change(field, { target: { value: '999999' } });
    await waitFor(() => expect(document.querySelector('.login-error')).not.toBeNull());
    // Selected once the failure is shown (the next frame).
    await waitFor(() => expect([field.selectionStart, field.selectionEnd]).toEqual([0, 6]));
    expect(document.activeElement).toBe(field);
    expect(field.value).toBe('999999');
  });

  it('a wrong code is announced: the field invalid and described by the message, in a live region there before it', async () => {
    const { field } = await toCode({ 'POST /api/auth/login': { status: 422, data: null } });
    expect(field.getAttribute('aria-invalid')).toBeNull();
    const region = screen.getByRole('alert');
    expect(region.textContent).toBe('');
    fireEvent.change(field, { target: { value: '999999' } });
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const described = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(described).toBe(region);
    expect(screen.getByRole('alert')).toBe(region);
    expect(region.textContent).not.toBe('');
    expect(region.textContent).toBe(document.querySelector('.login-error')?.textContent);
  });
});
