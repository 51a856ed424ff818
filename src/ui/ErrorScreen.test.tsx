import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import '../app/i18n';
import { resetAppLinks, type AppLinks } from '../app/appConfig';
import { createStore } from '../app/store';
import { ErrorScreen } from './ErrorScreen';

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

function renderScreen(kind: Parameters<typeof ErrorScreen>[0]['kind'] = 'notFound') {
  return render(
    <Provider store={createStore()}>
      <ErrorScreen kind={kind} />
    </Provider>,
  );
}

beforeEach(() => resetAppLinks());

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
