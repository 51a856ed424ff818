import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import '../../app/i18n';
import { QuickFind } from './QuickFind';

/**
 * A search refused by its request limit (429 rate_limited, docs/security.md «Request limits»)
 * shows a calm line with the wait the server gave, not the generic failure; the finder stays.
 */

let answer: { status: number; body: unknown };
let recents: { data: unknown[]; included: unknown[] } = { data: [], included: [] };
beforeEach(() => {
  recents = { data: [], included: [] };
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname === '/api/v3/spaces/recents') return { ok: true, status: 200, json: async () => ({ ...recents, meta: {} }) } as Response;
    return { ok: answer.status < 400, status: answer.status, json: async () => answer.body } as Response;
  }) as typeof fetch;
});

const renderFinder = () =>
  render(
    <MemoryRouter>
      <QuickFind onClose={() => undefined} />
    </MemoryRouter>,
  );

it('a 429 with the seconds to wait: «Слишком много запросов. Попробуйте через 7 с»', async () => {
  answer = { status: 429, body: { data: null, errors: [{ code: 'rate_limited', message: 'too many search requests', details: { retryAfter: 7 } }] } };
  renderFinder();
  fireEvent.change(screen.getByRole('combobox'), { target: { value: 'отчёт' } });
  expect((await screen.findByRole('alert')).textContent).toBe('Слишком много запросов. Попробуйте через 7 с');
  // Still the finder: the field keeps what was typed.
  expect((screen.getByRole('combobox') as HTMLInputElement).value).toBe('отчёт');
});

it('a wait of a minute or more is said in minutes; another failure keeps the finder’s own message', async () => {
  answer = { status: 429, body: { data: null, errors: [{ code: 'rate_limited', message: '', details: { retryAfter: 125 } }] } };
  const { unmount } = renderFinder();
  fireEvent.change(screen.getByRole('combobox'), { target: { value: 'план' } });
  expect((await screen.findByRole('alert')).textContent).toBe('Слишком много запросов. Попробуйте через 3 мин');
  unmount();
  answer = { status: 403, body: { data: null, errors: [{ code: 'forbidden', message: '' }] } };
  renderFinder();
  fireEvent.change(screen.getByRole('combobox'), { target: { value: 'план' } });
  expect((await screen.findByRole('alert')).textContent).toBe('Не удалось выполнить поиск. Попробуйте ещё раз');
});

it('nothing typed: the pages opened last, each once, with the path of ancestors the server gave', async () => {
  const page = (id: string, title: string, path: string[]) => ({ id, title, path, icon: null, type: 'Note' });
  recents = {
    data: [page('c', 'Протокол', ['a', 'b']), page('d', 'Заметки', []), page('c', 'Протокол', ['a', 'b'])],
    included: [page('b', 'Встречи', ['a'])],
  };
  renderFinder();
  const options = await screen.findAllByRole('option');
  expect(options.map((o) => o.textContent)).toEqual(['ПротоколВстречи', 'Заметки']);
});
