import { fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { ErrorScreen } from '../../ui/ErrorScreen';
import { LoginPage } from './LoginPage';

function renderLogin() {
  const requests: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    requests.push(String(input));
    // No server here (the browser tests use a real one): answer as the API does to a visitor.
    const body = { data: null, included: [], meta: {}, errors: [{ code: 'unauthorized', message: '' }] };
    return { ok: false, status: 401, statusText: 'Unauthorized', json: async () => body } as Response;
  }) as typeof fetch;
  render(
    <Provider store={createStore()}>
      <MemoryRouter initialEntries={['/login']}>
        <LoginPage />
      </MemoryRouter>
    </Provider>,
  );
  return requests;
}

describe('LoginPage', () => {
  it('asks for the e-mail in Russian', async () => {
    renderLogin();
    expect(await screen.findByRole('heading', { name: 'Вход в Страницы' })).toBeTruthy();
    expect(screen.getByLabelText('Электронная почта')).toBeTruthy();
    expect(document.title).toBe('Вход в Страницы');
  });

  it('refuses a malformed e-mail without calling the server', async () => {
    const requests = renderLogin();
    fireEvent.change(screen.getByLabelText('Электронная почта'), { target: { value: 'anna@example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Получить код' }));
    expect(await screen.findByText('Проверьте адрес почты')).toBeTruthy();
    expect(requests.filter((r) => r.includes('send_code'))).toEqual([]);
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
