import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { MAIN_FIELD_ID, type DatabaseField } from '../../../../schema/blocks/database';
import type { FormQuestion, WireForm } from '../../../../schema/databaseForm';
import { storedDate } from '../cells/dateText';
import { FormFill } from './FormFill';

/*
 * The form to fill in (FormFill: the fill page /form/{databaseId}/{viewId}, a form view for a reader): the
 * questions as inputs by type, the answers checked before they are sent (a required question
 * blank, a text that is no number), the body sent, the server's refusals under their questions
 * or over the form, and the screen after an answer.
 */

type Reply = { status: number; body: unknown };
type Call = { url: string; method: string; body: unknown };
const ok = (data: unknown, status = 200): Reply => ({ status, body: { data, included: [], meta: {}, errors: [] } });
const refused = (status: number, code: string, details?: unknown): Reply => ({ status, body: { data: null, errors: [{ code, message: code, details }] } });

function installFetch(answer: (call: Call) => Reply): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(input), method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const { status, body } = answer(call);
    return { ok: status >= 200 && status < 300, status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
  return calls;
}

const q = (fieldId: string, field: DatabaseField, required = false): FormQuestion => ({ fieldId, field, required });
const QUESTIONS: FormQuestion[] = [
  q(MAIN_FIELD_ID, { name: 'Название', type: 'text' }, true),
  q('notes', { name: 'Подробности', type: 'text' }),
  q('amount', { name: 'Сумма', type: 'number' }),
  q('kind', {
    name: 'Вид',
    type: 'select',
    options: [
      { id: 'o1', name: 'Баг' },
      { id: 'o2', name: 'Идея' },
    ],
  }),
  q('stage', { name: 'Этап', type: 'status', options: [{ id: 's1', name: 'Новая', group: 'todo' }] }),
  q('tags', {
    name: 'Метки',
    type: 'multiSelect',
    options: [
      { id: 't1', name: 'Интерфейс' },
      { id: 't2', name: 'Сервер' },
      { id: 't3', name: 'Документы' },
    ],
  }),
  q('due', { name: 'Срок', type: 'date' }),
  q('at', { name: 'Встреча', type: 'date', withTime: true }),
  q('agree', { name: 'Согласен', type: 'checkbox' }),
  q('site', { name: 'Сайт', type: 'url' }),
  q('mail', { name: 'Почта', type: 'email' }),
  q('tel', { name: 'Телефон', type: 'phone' }),
];

const FORM: WireForm = {
  viewId: 'vf',
  databaseId: 'db',
  pageId: null,
  title: 'Заявки',
  name: 'Новая заявка',
  description: 'Расскажите, что случилось',
  access: 'page',
  questions: QUESTIONS,
  canEdit: false,
  anonymous: false,
};

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

async function mount(form: Partial<WireForm> = {}, answer: (call: Call) => Reply | null = () => null, read?: Reply) {
  const calls = installFetch((call) => {
    if (call.method === 'GET') return read ?? ok({ ...FORM, ...form });
    return answer(call) ?? ok({ rowId: 'row-9' }, 201);
  });
  render(
    <MemoryRouter initialEntries={['/form/db/vf']}>
      <Routes>
        <Route path="/form/:databaseId/:viewId" element={<FormFill databaseId="db" viewId="vf" />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
  if (!read) await screen.findByRole('heading', { name: 'Заявки' });
  else await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return { calls, posts: () => calls.filter((c) => c.method === 'POST') };
}

const question = (fieldId: string) => document.querySelector<HTMLElement>(`[data-field-id="${fieldId}"]`)!;
const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });
const send = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Отправить' })));
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

test('the form shows its title, view name, description and a question per field, required ones marked', async () => {
  const { calls } = await mount();
  expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/v3/spaces/database/db/form/vf' });
  expect(screen.getByText('Новая заявка')).toBeTruthy();
  expect(screen.getByText('Расскажите, что случилось')).toBeTruthy();
  const title = screen.getByRole('textbox', { name: 'Название обязательный' });
  expect(title.tagName).toBe('TEXTAREA');
  expect(title.getAttribute('aria-required')).toBe('true');
  expect(screen.getByRole('textbox', { name: 'Подробности' }).tagName).toBe('TEXTAREA');
  expect(screen.getByRole('combobox', { name: 'Вид' })).toBeTruthy();
  expect(within(screen.getByRole('group', { name: 'Метки' })).getAllByRole('checkbox')).toHaveLength(3);
  expect(screen.getByRole('checkbox', { name: 'Согласен' })).toBeTruthy();
  expect(screen.getByRole('textbox', { name: 'Почта' }).getAttribute('type')).toBe('email');
  expect(screen.getByRole('textbox', { name: 'Сайт' }).getAttribute('type')).toBe('url');
  expect(screen.getByRole('textbox', { name: 'Телефон' }).getAttribute('type')).toBe('tel');
  expect(screen.queryByText('Ответ будет записан анонимно')).toBeNull();
});

test('a required question left blank is said under it and nothing is sent; answered, the word goes', async () => {
  const agree = QUESTIONS.map((x) => (x.fieldId === 'agree' ? { ...x, required: true } : x));
  const { posts } = await mount({ questions: agree });
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), '   ');
  await send();
  expect(posts()).toHaveLength(0);
  expect(within(question(MAIN_FIELD_ID)).getByRole('alert').textContent).toBe('Ответьте на этот вопрос');
  // An unchecked required box is no answer either.
  expect(within(question('agree')).getByRole('alert').textContent).toBe('Ответьте на этот вопрос');
  expect(within(question('notes')).queryByRole('alert')).toBeNull();
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Не работает вход');
  expect(within(question(MAIN_FIELD_ID)).queryByRole('alert')).toBeNull();
});

test('a text that is no number is said under it and nothing is sent', async () => {
  const { posts } = await mount();
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Заявка');
  type(screen.getByRole('textbox', { name: 'Сумма' }), 'много');
  await send();
  expect(posts()).toHaveLength(0);
  expect(within(question('amount')).getByRole('alert').textContent).toBe('Введите число');
});

test('each type is sent as its cell takes it; blank answers are left out', async () => {
  const { posts } = await mount();
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), '  Не работает\nвход ');
  type(screen.getByRole('textbox', { name: 'Подробности' }), 'Строка 1\nСтрока 2');
  type(screen.getByRole('textbox', { name: 'Сумма' }), '1 500,5');
  fireEvent.change(screen.getByRole('combobox', { name: 'Вид' }), { target: { value: 'o2' } });
  fireEvent.change(screen.getByRole('combobox', { name: 'Этап' }), { target: { value: 's1' } });
  fireEvent.click(screen.getByRole('checkbox', { name: 'Документы' }));
  fireEvent.click(screen.getByRole('checkbox', { name: 'Интерфейс' }));
  type(screen.getByRole('textbox', { name: 'Срок' }), '01.12.2026');
  type(screen.getByRole('textbox', { name: 'Встреча' }), '02.12.2026 14:30');
  fireEvent.click(screen.getByRole('checkbox', { name: 'Согласен' }));
  type(screen.getByRole('textbox', { name: 'Сайт' }), ' https://example.ru ');
  type(screen.getByRole('textbox', { name: 'Почта' }), 'ivan@example.ru');
  await send();
  expect(posts()).toHaveLength(1);
  expect(posts()[0].url).toBe('/api/v3/spaces/database/db/form/vf');
  expect(posts()[0].body).toEqual({
    values: {
      [MAIN_FIELD_ID]: 'Не работает вход',
      notes: 'Строка 1\nСтрока 2',
      amount: 1500.5,
      kind: 'o2',
      stage: 's1',
      // In the options' order.
      tags: ['t1', 't3'],
      due: '2026-12-01',
      at: storedDate('2026-12-02', '14:30'),
      agree: true,
      site: 'https://example.ru',
      mail: 'ivan@example.ru',
    },
  });
});

test("the server's 422 details go under their questions; one of no question asked here is said over the button", async () => {
  const { posts } = await mount({}, () =>
    refused(422, 'validation_failed', [
      { path: 'values.amount', message: 'a number field holds a number' },
      { path: 'values.MAIN_FIELD', message: 'an answer is required' },
    ]),
  );
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Заявка');
  type(screen.getByRole('textbox', { name: 'Сумма' }), '5');
  await send();
  expect(posts()).toHaveLength(1);
  expect(within(question('amount')).getByRole('alert').textContent).toBe('Значение не подходит');
  expect(within(question(MAIN_FIELD_ID)).getByRole('alert').textContent).toBe('Ответьте на этот вопрос');
  expect(screen.getByRole('textbox', { name: 'Сумма' }).getAttribute('aria-invalid')).toBe('true');
  expect(screen.queryByText(/Форма изменилась/)).toBeNull();
  expect(screen.getByRole('button', { name: 'Отправить' })).toBeTruthy();
});

test('a 422 about a field the form no longer asks says the form changed', async () => {
  await mount({}, () => refused(422, 'validation_failed', [{ path: 'values.gone', message: 'the form does not ask for this field' }]));
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Заявка');
  await send();
  expect(screen.getByText(/Форма изменилась, пока вы её заполняли/)).toBeTruthy();
});

test('sent: «Ответ отправлен», the row to open, and «Отправить ещё один ответ» clears the form', async () => {
  const { posts } = await mount();
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Первая');
  fireEvent.click(screen.getByRole('checkbox', { name: 'Согласен' }));
  await send();
  expect(screen.getByText('Ответ отправлен')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Открыть строку' }).getAttribute('href')).toBe('/row-9');
  fireEvent.click(screen.getByRole('button', { name: 'Отправить ещё один ответ' }));
  expect((screen.getByRole('textbox', { name: 'Название обязательный' }) as HTMLTextAreaElement).value).toBe('');
  expect((screen.getByRole('checkbox', { name: 'Согласен' }) as HTMLInputElement).checked).toBe(false);
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Вторая');
  await send();
  expect(posts().map((p) => (p.body as { values: Record<string, unknown> }).values[MAIN_FIELD_ID])).toEqual(['Первая', 'Вторая']);
});

test('an anonymous answer says so, and gets no row to open', async () => {
  await mount({ anonymous: true, access: 'public' }, () => ok({ rowId: null }, 201));
  expect(screen.getByText('Ответ будет записан анонимно')).toBeTruthy();
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Заявка');
  await send();
  expect(screen.getByText('Ответ отправлен')).toBeTruthy();
  expect(screen.queryByRole('link', { name: 'Открыть строку' })).toBeNull();
});

test('too many answers (429): how long to wait, in minutes', async () => {
  await mount({}, () => refused(429, 'rate_limited', { retryAfter: 90 }));
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Заявка');
  await send();
  expect(screen.getByRole('alert').textContent).toBe('Слишком много ответов. Попробуйте через 2 мин.');
});

test('not signed in (401): a link to sign in that comes back here', async () => {
  await mount({}, undefined, refused(401, 'unauthorized'));
  expect(screen.getByText('Войдите, чтобы заполнить эту форму')).toBeTruthy();
  fireEvent.click(screen.getByRole('link', { name: 'Войти' }));
  expect(screen.getByTestId('where').textContent).toBe(`/login?next=${encodeURIComponent('/form/db/vf')}`);
});

test('no access (403), no such form (404)', async () => {
  await mount({}, undefined, refused(403, 'forbidden'));
  expect(screen.getByText('Нет доступа к этой форме')).toBeTruthy();
  cleanup();
  await mount({}, undefined, refused(404, 'not_found'));
  expect(screen.getByText('Форма не найдена')).toBeTruthy();
});

test('a form gone while being filled in (404 on sending) says so', async () => {
  await mount({}, () => refused(404, 'not_found'));
  type(screen.getByRole('textbox', { name: 'Название обязательный' }), 'Заявка');
  await send();
  await settle();
  expect(screen.getByText('Форма не найдена')).toBeTruthy();
});
