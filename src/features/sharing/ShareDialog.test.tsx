import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { newElement } from '../../../schema/element';
import type { WireUser } from '../../../schema/user';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { Toaster } from '../../ui/Toast';
import { signedIn } from '../auth/authSlice';
import { loadWorkspaces } from '../workspaces/workspacesSlice';
import { loadSection } from '../pages/pagesSlice';
import { INVITEE_DEBOUNCE_MS, parseInvitees, registerInvitees, searchMembers } from './invitees';
import { ShareButton, ShareDialog } from './ShareDialog';

const user = (id: string, email: string, name: string): WireUser => ({
  id,
  email,
  name,
  avatar_url: null,
  anonymous: false,
  telegramId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const me = user('me', 'me@example.com', 'Я Сам');
const anna = user('u-anna', 'anna@example.com', 'Анна Петрова');
const oleg = user('u-oleg', 'oleg@corp.ru', 'Олег');
const olga = user('u-olga', 'olga@example.com', 'Ольга');
const page = newElement({ id: 'p1', workspaceId: 'ws', title: 'План', accessLevel: 'full' });

const member = (u: WireUser, level: string, inherited = false) => ({
  contentType: 'ElementMember',
  page: 'p1',
  member: u.id,
  level,
  canEdit: level !== 'read',
  canShare: level === 'full',
  inherited,
  grantedOn: 'p1',
  user: u,
});

describe('parseInvitees', () => {
  it('splits on whitespace, commas and newlines and keeps addresses only', () => {
    expect(parseInvitees('a@x.ru, b@y.com\nc@z.org\t d@w.io,,  ')).toEqual({ valid: ['a@x.ru', 'b@y.com', 'c@z.org', 'd@w.io'], invalid: [] });
    expect(parseInvitees('anna@example.com нет-адреса  bob@ x@y.z')).toEqual({ valid: ['anna@example.com', 'x@y.z'], invalid: ['нет-адреса', 'bob@'] });
    // A list copied from a mail client (semicolons); what is not an address, once.
    expect(parseInvitees('anna@example.com; Ivan@Example.com;petr@mail.ru  bad, also@bad bad')).toEqual({
      valid: ['anna@example.com', 'ivan@example.com', 'petr@mail.ru'],
      invalid: ['bad', 'also@bad'],
    });
  });
  it('lower-cases and drops repeats', () => {
    expect(parseInvitees('Anna@Example.com anna@example.com').valid).toEqual(['anna@example.com']);
    expect(parseInvitees('   ').valid).toEqual([]);
  });
});

describe('searchMembers', () => {
  const people = [me, anna, oleg, olga];
  it('matches e-mail or name case-insensitively', () => {
    expect(searchMembers(people, 'ANNA', [], 'me').map((p) => p.id)).toEqual(['u-anna']);
    expect(searchMembers(people, 'олег', [], 'me').map((p) => p.id)).toEqual(['u-oleg']);
    expect(searchMembers(people, 'CORP.RU', [], 'me').map((p) => p.id)).toEqual(['u-oleg']);
    expect(searchMembers(people, 'ол', [], 'me').map((p) => p.id)).toEqual(['u-oleg', 'u-olga']);
  });
  it('leaves out existing members and me', () => {
    expect(searchMembers(people, 'example.com', ['u-anna'], 'me').map((p) => p.id)).toEqual(['u-olga']);
    expect(searchMembers(people, 'Я', [], 'me')).toEqual([]);
  });
});

type Handler = (method: string, path: string, body: unknown) => { status: number; body: unknown } | undefined;
let calls: { method: string; path: string; body: unknown }[];
let handler: Handler;

function mockFetch() {
  calls = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://x');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, body });
    const answer = handler(method, url.pathname, body) ?? { status: 200, body: { data: [], meta: {} } };
    return { ok: answer.status < 400, status: answer.status, json: async () => answer.body } as Response;
  }) as typeof fetch;
}

describe('registerInvitees', () => {
  beforeEach(mockFetch);
  it('tolerates a 400: no user id, that person is skipped', async () => {
    handler = (_method, path, body) => {
      if (path !== '/api/auth/register') return undefined;
      const email = (body as { email: string }).email;
      if (email === 'bad@x.ru') return { status: 400, body: { data: null, errors: [{ code: 'auth.invalid_email', message: 'bad' }] } };
      return { status: 200, body: { data: { user_id: `id-${email}` } } };
    };
    await expect(registerInvitees(['a@x.ru', 'bad@x.ru', 'c@x.ru'])).resolves.toEqual({
      ids: [
        { email: 'a@x.ru', userId: 'id-a@x.ru' },
        { email: 'c@x.ru', userId: 'id-c@x.ru' },
      ],
      skipped: ['bad@x.ru'],
    });
  });
  it('other failures are not swallowed', async () => {
    handler = () => ({ status: 429, body: { data: null, errors: [{ code: 'rate_limited', message: 'slow down' }] } });
    await expect(registerInvitees(['a@x.ru'])).rejects.toMatchObject({ status: 429 });
  });
});

describe('ShareDialog', () => {
  let pageMembers: ReturnType<typeof member>[];
  beforeEach(() => {
    pageMembers = [member(me, 'full'), member(anna, 'edit')];
    mockFetch();
    handler = (_method, path, body) => {
      if (path === '/api/v3/spaces/workspace/ws/members')
        return { status: 200, body: { data: [me, anna, oleg, olga].map((u) => ({ id: u.id, role: 'participant', user: u })), meta: {} } };
      if (path === '/api/v3/spaces/element/p1/members') return { status: 200, body: { data: pageMembers, meta: {} } };
      if (path === '/api/auth/register') {
        const email = (body as { email: string }).email;
        if (email === 'ghost@nowhere.ru') return { status: 400, body: { data: null, errors: [{ code: 'auth.invalid_email', message: '' }] } };
        return { status: 200, body: { data: { user_id: 'u-new' } } };
      }
      if (path === '/api/v3/spaces/element/p1/member/add') {
        const entries = body as { userId: string; accessLevel: string }[];
        pageMembers = [...pageMembers, ...entries.map((e) => ({ ...member(user(e.userId, `${e.userId}@example.com`, e.userId), e.accessLevel) }))];
        return { status: 200, body: { data: pageMembers, meta: { skipped: [] } } };
      }
      if (path === '/api/v3/spaces/element/p1/member/access') {
        if ((body as { userId: string }).userId === 'me')
          return { status: 403, body: { data: null, errors: [{ code: 'sharing.protected_member', message: '' }] } };
        return undefined;
      }
      return undefined;
    };
  });

  function renderDialog(store = createStore()) {
    store.dispatch(signedIn(me));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <ShareDialog page={page} onClose={() => undefined} />
          <Toaster />
        </MemoryRouter>
      </Provider>,
    );
  }

  const input = () => screen.getByLabelText('E-mail или имя');
  const inviteButton = () => screen.getByRole('button', { name: 'Пригласить' }) as HTMLButtonElement;

  it('parses candidates 150 ms after typing, flags the invalid ones and enables «Пригласить» only with a valid one', async () => {
    renderDialog();
    await screen.findByRole('list', { name: 'У кого есть доступ' });
    expect(inviteButton().disabled).toBe(true);
    jest.useFakeTimers();
    try {
      fireEvent.change(input(), { target: { value: 'not-an-email' } });
      await act(async () => jest.advanceTimersByTime(INVITEE_DEBOUNCE_MS + 5));
      expect(within(screen.getByLabelText('Кого пригласить')).getByText('not-an-email').className).toContain('is-invalid');
      expect(inviteButton().disabled).toBe(true);
      fireEvent.change(input(), { target: { value: 'not-an-email new@site.ru,\nx@y.ru' } });
      await act(async () => jest.advanceTimersByTime(INVITEE_DEBOUNCE_MS - 50));
      // Not yet: the debounce has not run out.
      expect(within(screen.getByLabelText('Кого пригласить')).queryByText('new@site.ru')).toBeNull();
      expect(inviteButton().disabled).toBe(true);
      await act(async () => jest.advanceTimersByTime(60));
      expect(within(screen.getByLabelText('Кого пригласить')).getByText('new@site.ru')).toBeTruthy();
      expect(within(screen.getByLabelText('Кого пригласить')).getByText('x@y.ru')).toBeTruthy();
      expect(inviteButton().disabled).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('offers workspace members by name or e-mail, without page members or me, and invites the chosen one', async () => {
    renderDialog();
    await screen.findByText('anna@example.com');
    fireEvent.change(input(), { target: { value: 'EXAMPLE' } });
    const options = await within(await screen.findByRole('listbox')).findAllByRole('option');
    // Anna is a page member already and I am me: only Olga is offered.
    expect(options.map((o) => o.textContent)).toEqual(['ООльгаolga@example.com']);
    fireEvent.click(options[0]);
    expect(inviteButton().disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Уровень доступа'), { target: { value: 'read' } });
    fireEvent.click(inviteButton());
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/member/add'))?.body).toEqual([{ userId: 'u-olga', accessLevel: 'read' }]));
    expect(calls.some((c) => c.path === '/api/auth/register')).toBe(false);
  });

  it('names the suggestion ↑/↓ highlight with aria-activedescendant; Enter chooses it (no mouse)', async () => {
    renderDialog();
    await screen.findByText('anna@example.com');
    fireEvent.change(input(), { target: { value: 'ольга' } });
    const listbox = await screen.findByRole('listbox');
    expect(input().getAttribute('aria-autocomplete')).toBe('list');
    expect(input().getAttribute('aria-controls')).toBe(listbox.id);
    expect(input().getAttribute('aria-activedescendant')).toBeNull();
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    const [olga] = within(listbox).getAllByRole('option');
    expect(input().getAttribute('aria-activedescendant')).toBe(olga.id);
    expect(olga.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(inviteButton().disabled).toBe(false);
  });

  it('invites new addresses through register and skips one the server refuses with 400', async () => {
    renderDialog();
    await screen.findByText('anna@example.com');
    fireEvent.change(input(), { target: { value: 'ghost@nowhere.ru fresh@site.ru oleg@corp.ru' } });
    await waitFor(() => expect(inviteButton().disabled).toBe(false));
    fireEvent.click(inviteButton());
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/member/add'))).toBe(true));
    // Oleg is a workspace member: named by id, no register call for him.
    expect(calls.filter((c) => c.path === '/api/auth/register').map((c) => (c.body as { email: string }).email)).toEqual(['ghost@nowhere.ru', 'fresh@site.ru']);
    expect(calls.find((c) => c.path.endsWith('/member/add'))?.body).toEqual([
      { userId: 'u-oleg', accessLevel: 'edit' },
      { userId: 'u-new', accessLevel: 'edit' },
    ]);
    expect(await screen.findByText('Не удалось пригласить: ghost@nowhere.ru.')).toBeTruthy();
  });

  it('a member who is not an admin cannot bring in outsiders: their addresses are not registered, the rest is invited', async () => {
    const store = createStore();
    store.dispatch({
      type: loadWorkspaces.fulfilled.type,
      payload: [{ id: 'ws', name: 'Команда', avatar: null, alias: null, role: 'participant', private: false }],
    });
    renderDialog(store);
    await screen.findByText('anna@example.com');
    fireEvent.change(input(), { target: { value: 'stranger@elsewhere.ru oleg@corp.ru' } });
    await waitFor(() => expect(inviteButton().disabled).toBe(false));
    fireEvent.click(inviteButton());
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/member/add'))).toBe(true));
    expect(calls.some((c) => c.path === '/api/auth/register')).toBe(false);
    expect(calls.find((c) => c.path.endsWith('/member/add'))?.body).toEqual([{ userId: 'u-oleg', accessLevel: 'edit' }]);
    expect(await screen.findByText(/Пригласить человека не из этого пространства может только администратор/)).toBeTruthy();
  });

  it('shows the protected-member refusal in Russian', async () => {
    renderDialog();
    await screen.findByText('anna@example.com');
    fireEvent.change(screen.getByLabelText('Доступ для Я Сам'), { target: { value: 'read' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Доступ владельца страницы изменить или убрать нельзя');
  });

  it('the «Поделиться» button shows only with full access', () => {
    const store = createStore();
    const { rerender } = render(
      <Provider store={store}>
        <MemoryRouter>
          <ShareButton page={{ ...page, accessLevel: 'edit' }} />
        </MemoryRouter>
      </Provider>,
    );
    expect(screen.queryByRole('button', { name: 'Поделиться' })).toBeNull();
    rerender(
      <Provider store={store}>
        <MemoryRouter>
          <ShareButton page={page} />
        </MemoryRouter>
      </Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Поделиться' }));
    expect(within(screen.getByRole('dialog')).getByText('У кого есть доступ')).toBeTruthy();
  });
});

describe('ShareDialog: the workspace’s admins as one group', () => {
  beforeEach(() => {
    mockFetch();
    handler = (_method, path) => {
      if (path === '/api/v3/spaces/workspace/ws/members')
        return {
          status: 200,
          body: {
            data: [
              { id: me.id, role: 'admin', user: me },
              { id: anna.id, role: 'admin', user: anna },
              { id: oleg.id, role: 'admin', user: oleg },
              { id: olga.id, role: 'participant', user: olga },
            ],
            meta: {},
          },
        };
      // Oleg has a grant of his own on the page: he is listed with it, not in the group.
      if (path === '/api/v3/spaces/element/p1/members') return { status: 200, body: { data: [member(oleg, 'read')], meta: {} } };
      return undefined;
    };
  });

  function renderIn(section: 'all' | 'private') {
    const store = createStore();
    store.dispatch(signedIn(me));
    store.dispatch(loadSection.fulfilled({ section, pages: [page] }, 'r1', section));
    render(
      <Provider store={store}>
        <MemoryRouter>
          <ShareDialog page={page} onClose={() => undefined} />
        </MemoryRouter>
      </Provider>,
    );
  }

  it('a page of the shared section: «Администраторы пространства», full access, those without a grant of their own', async () => {
    renderIn('all');
    const group = await screen.findByRole('group', { name: 'Администраторы пространства' });
    expect(group.textContent).toContain('Полный доступ: Я Сам, Анна Петрова');
    expect(group.textContent).not.toContain('Олег');
  });

  it('a private page: no such group (admins have no access there without a grant)', async () => {
    renderIn('private');
    await screen.findByText('oleg@corp.ru');
    expect(screen.queryByRole('group', { name: 'Администраторы пространства' })).toBeNull();
  });
});
