import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { newElement, type WireElement } from '../../../schema/element';
import type { WireCellChange, WirePageVersion } from '../../../schema/history';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { dismissAllToasts, Toaster } from '../../ui/Toast';
import { dayHeading } from './rowChanges';
import { HistoryDialog } from './HistoryDialog';

/*
 * «История версий» of a database row's page (docs/history.md «A row's property changes»): its
 * property changes among its body's versions by time, each as «who · field: from → to · time»,
 * «Вернуть» for editors only (not for a field retyped since), a restore posted and the list read
 * again. The server is a fetch answering as docs/history.md says.
 */

const ROW = '11111111-1111-4111-8111-111111111111';
const status = {
  name: 'Статус',
  type: 'status' as const,
  options: [
    { id: 'todo', name: 'Не начато', group: 'todo' as const },
    { id: 'doing', name: 'В работе', group: 'inProgress' as const },
    { id: 'done', name: 'Готово', group: 'done' as const },
  ],
};
/** Minutes ago (today, but for a run in the first minutes after midnight). */
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const change = (over: Partial<WireCellChange>): WireCellChange => ({
  id: 1,
  rowId: ROW,
  fieldId: 'status',
  field: status,
  fieldType: 'status',
  from: 'doing',
  to: 'done',
  fromText: 'В работе',
  toText: 'Готово',
  author: { id: 'u-ann', name: 'Анна' },
  startedAt: ago(5),
  at: ago(5),
  restorable: true,
  restoredFrom: null,
  ...over,
});
const version: WirePageVersion = {
  id: 7,
  createdAt: ago(30),
  title: 'Макет',
  authors: [{ id: 'u-bob', name: 'Борис', email: 'bob@example.com' }],
  kind: 'edit',
  restoredFrom: null,
  changed: 2,
};

let calls: Array<{ url: string; method: string }> = [];
/** The page's versions the server lists. */
let listed: WirePageVersion[] = [];
let changes: WireCellChange[] = [];

beforeEach(() => {
  dismissAllToasts();
  calls = [];
  listed = [version];
  changes = [
    change({ id: 3, at: ago(5) }),
    change({
      id: 2,
      fieldId: 'price',
      field: { name: 'Цена', type: 'number' },
      fieldType: 'number',
      from: 1234.5,
      to: 2000,
      fromText: '1234.5',
      toText: '2000',
      at: ago(20),
    }),
    change({
      id: 1,
      fieldId: 'note',
      field: { name: 'Заметка', type: 'number' },
      fieldType: 'text',
      from: 'а',
      to: 'б',
      fromText: 'а',
      toText: 'б',
      at: ago(40),
      restorable: false,
    }),
  ];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ url, method });
    const ok = (data: unknown) => ({ ok: true, status: 200, statusText: '', json: async () => ({ data, meta: {}, included: [] }) }) as Response;
    if (url.includes('/history/') && method === 'POST') {
      changes = [
        change({ id: 4, from: 'done', to: 'doing', fromText: 'Готово', toText: 'В работе', at: new Date().toISOString(), restoredFrom: 3 }),
        ...changes,
      ];
      return ok({ rowId: ROW, fieldId: 'status', value: 'doing', version: 5, updatedAt: '', updatedBy: 'u-ann' });
    }
    if (url.includes(`/row/${ROW}/history`)) return ok(changes);
    if (url.endsWith('/versions') && method === 'POST') return ok({ recorded: null });
    if (url.includes('/versions?')) return ok(listed);
    if (url.includes('/versions/7')) return ok({ version, blocks: [], changes: [] });
    return { ok: false, status: 404, statusText: '', json: async () => ({ data: null, errors: [{ code: 'not_found', message: '' }] }) } as Response;
  }) as typeof fetch;
});

function open(level: WireElement['accessLevel']) {
  const page = {
    ...newElement({ id: ROW, workspaceId: 'ws', title: 'Макет', section: 'private' }, '2026-01-01T00:00:00.000Z'),
    databaseId: 'db-1',
    accessLevel: level,
  };
  render(
    <Provider store={createStore()}>
      <MemoryRouter>
        <HistoryDialog page={page} onClose={() => undefined} />
        <Toaster />
      </MemoryRouter>
    </Provider>,
  );
}

const lines = () =>
  [...document.querySelectorAll('.history-list li:not(.history-day)')].map((li) => (li.querySelector('.history-change-line') ?? li).textContent);

test("an editor sees the row's property changes among the versions by time, and brings an older value back", async () => {
  open('full');
  await waitFor(() => expect(lines()).toHaveLength(4));
  const time = (at: string) => new Intl.DateTimeFormat('ru', { hour: '2-digit', minute: '2-digit' }).format(new Date(at));
  // The time of the change as it was made (not «5 minutes ago» again: a minute may have turned since).
  expect(lines()[0]).toBe(`Анна · Статус: В работе → Готово · ${time(changes[0].at)}`);
  // Numbers as the grid shows them (thousands and decimals the Russian way).
  expect(lines()[1]).toMatch(/^Анна · Цена: 1\s234,5 → 2\s000 · /);
  expect(lines()[2]).toContain('Борис');
  expect(lines()[3]).toMatch(/^Анна · Заметка: а → б/);
  // Under a heading of their day («Сегодня», unless the last hour crossed midnight).
  const days = [...document.querySelectorAll('.history-day')].map((li) => li.textContent);
  const expected = [...new Set([changes[0].at, ago(40)].map((at) => dayHeading(new Date(at)).relative))].map((r) => (r === 'today' ? 'Сегодня' : 'Вчера'));
  expect(days).toEqual(expected);
  const items = document.querySelectorAll('.history-list li:not(.history-day)');
  // «Вернуть» on each change whose field is as it was; not on the retyped one, which is greyed.
  expect(within(items[0] as HTMLElement).getByRole('button', { name: 'Вернуть' })).toBeTruthy();
  expect(items[3].classList.contains('is-stale')).toBe(true);
  expect(within(items[3] as HTMLElement).queryByRole('button', { name: 'Вернуть' })).toBeNull();
  fireEvent.click(within(items[0] as HTMLElement).getByRole('button', { name: 'Вернуть' }));
  await screen.findByText('Значение «Статус» возвращено. Изменение осталось в истории');
  expect(calls.some((c) => c.method === 'POST' && c.url.endsWith(`/row/${ROW}/history/3/restore`))).toBe(true);
  // The list is read again: the restore is at the top.
  await waitFor(() => expect(lines()[0]).toMatch(/^Анна · Статус: Готово → В работе · /));
});

test('a reader sees the changes without «Вернуть»', async () => {
  open('read');
  await waitFor(() => expect(lines()).toHaveLength(4));
  expect(screen.queryByRole('button', { name: 'Вернуть' })).toBeNull();
});

test('a page that is no row reads no property changes', async () => {
  const page = newElement({ id: ROW, workspaceId: 'ws', title: 'Просто страница', section: 'private' }, '2026-01-01T00:00:00.000Z');
  render(
    <Provider store={createStore()}>
      <MemoryRouter>
        <HistoryDialog page={page} onClose={() => undefined} />
      </MemoryRouter>
    </Provider>,
  );
  await waitFor(() => expect(lines()).toHaveLength(1));
  expect(calls.some((c) => c.url.includes('/row/'))).toBe(false);
});

test('a version that changed the title only says so (not «Изменено 0 блоков»)', async () => {
  listed = [{ ...version, changed: 0 }];
  changes = [];
  open('full');
  await waitFor(() => expect(lines()).toHaveLength(1));
  expect(lines()[0]).toContain('Изменено только название');
  expect(lines()[0]).not.toContain('0 блоков');
});
