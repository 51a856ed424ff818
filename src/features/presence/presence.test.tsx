import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { presenceColor, type PresenceMember } from '../../../schema/realtime';
import '../../app/i18n';
import { createStore } from '../../app/store';
import { signedIn } from '../auth/authSlice';
import { PresenceAvatars, initialsOf } from './PresenceAvatars';
import { selectionBoxes, textColorOn } from './PresenceCarets';
import { caretMoved, memberJoined, memberLeft, presenceCleared, presenceJoined, presenceLeft, selectPresenceMembers } from './presenceSlice';
import { RealtimeProvider } from '../../app/RealtimeProvider';
import { loadWorkspaces } from '../workspaces/workspacesSlice';
import type { FakeSocket } from '../../../test/helpers/fakeSocketIo';

// The channel's side: socket.io's client replaced by a stand-in the test answers as the server.
jest.mock('socket.io-client', () => jest.requireActual('../../../test/helpers/fakeSocketIo'));
const { sockets } = jest.requireMock<{ sockets: FakeSocket[] }>('socket.io-client');

/*
 * The presence list of a page (the store's `presence` slice) and the avatars the top bar draws
 * from it; the socket side is covered by the browser test (test/e2e/presence.e2e.test.ts).
 */

const PAGE = 'page-1';
const SELF = 'client-self';
const ME = 'user-me';

function member(clientId: string, userId: string, name: string, patch: Partial<PresenceMember> = {}): PresenceMember {
  return { clientId, userId, name, avatar: null, color: presenceColor(userId), caret: null, ...patch };
}
const caret = (blockId: string, offset: number) => ({ anchor: { blockId, offset }, focus: { blockId, offset } });

function storeWithMe() {
  const store = createStore();
  store.dispatch(
    signedIn({ id: ME, email: 'me@example.com', name: 'Я', avatar_url: null, anonymous: false, telegramId: null, createdAt: '2026-11-01T00:00:00.000Z' }),
  );
  return store;
}

describe('presence slice', () => {
  it('keeps everyone but this tab, by connection, through joins, moves and leaves', () => {
    const store = createStore();
    const members = () => selectPresenceMembers(store.getState(), PAGE);
    // Events before the join answer are not kept: the answer has everyone.
    store.dispatch(memberJoined({ pageId: PAGE, member: member('c-early', 'u-x', 'X'), self: SELF }));
    expect(members()).toEqual([]);

    store.dispatch(presenceJoined({ pageId: PAGE, members: [member(SELF, ME, 'Я'), member('c-bob', 'u-bob', 'bob', { caret: caret('a', 2) })], self: SELF }));
    expect(members().map((m) => m.clientId)).toEqual(['c-bob']);
    expect(members()[0].caret).toEqual(caret('a', 2));

    store.dispatch(memberJoined({ pageId: PAGE, member: member('c-ann', 'u-ann', 'Анна'), self: SELF }));
    // The same connection joining again (a reconnect) keeps its place.
    store.dispatch(memberJoined({ pageId: PAGE, member: member('c-bob', 'u-bob', 'bob'), self: SELF }));
    store.dispatch(memberJoined({ pageId: PAGE, member: member(SELF, ME, 'Я'), self: SELF }));
    expect(members().map((m) => m.clientId)).toEqual(['c-bob', 'c-ann']);

    store.dispatch(caretMoved({ pageId: PAGE, clientId: 'c-ann', caret: caret('b', 5) }));
    expect(members()[1].caret).toEqual(caret('b', 5));
    store.dispatch(caretMoved({ pageId: PAGE, clientId: 'c-ann', caret: null }));
    expect(members()[1].caret).toBeNull();

    store.dispatch(memberLeft({ pageId: PAGE, clientId: 'c-bob' }));
    expect(members().map((m) => m.clientId)).toEqual(['c-ann']);

    store.dispatch(presenceCleared({ pageId: PAGE }));
    expect(members()).toEqual([]);
    store.dispatch(presenceLeft({ pageId: PAGE }));
    expect(store.getState().presence.pages[PAGE]).toBeUndefined();
  });
});

describe('PresenceAvatars', () => {
  function renderAvatars() {
    const store = storeWithMe();
    const view = render(
      <Provider store={store}>
        <PresenceAvatars pageId={PAGE} />
      </Provider>,
    );
    const join = (members: PresenceMember[]) => act(() => void store.dispatch(presenceJoined({ pageId: PAGE, members, self: SELF })));
    return { store, view, join };
  }
  const avatars = () => screen.queryAllByRole('img');

  it('shows nothing when nobody else is on the page', () => {
    const { view, join } = renderAvatars();
    join([member(SELF, ME, 'Я')]);
    expect(view.container.querySelector('.presence-avatars')).toBeNull();
  });

  it('one avatar per person with their colour and initials; another tab of mine is «Вы»', () => {
    const { join } = renderAvatars();
    join([member(SELF, ME, 'Я'), member('c-ann-1', 'u-ann', 'Анна Петрова'), member('c-ann-2', 'u-ann', 'Анна Петрова'), member('c-me-2', ME, 'Я')]);
    const shown = avatars();
    expect(shown.map((a) => a.getAttribute('aria-label'))).toEqual(['Анна Петрова', 'Вы (в другой вкладке)']);
    expect(shown[0].textContent).toBe('АП');
    expect(shown[0].style.getPropertyValue('--presence-color')).toBe(presenceColor('u-ann'));
    expect(shown[0].getAttribute('data-tooltip')).toBe('Анна Петрова');
    expect(screen.getByRole('group', { name: 'Сейчас на странице' })).toBeTruthy();
  });

  it('four at most, then «+N» naming the rest; they go as they leave', () => {
    const { store, join } = renderAvatars();
    const names = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay'];
    join(names.map((n) => member(`c-${n}`, `u-${n}`, n)));
    const shown = avatars();
    expect(shown.map((a) => a.textContent)).toEqual(['A', 'B', 'C', 'D', '+2']);
    expect(shown[4].getAttribute('aria-label')).toBe('Ещё: eve, fay');

    act(() => {
      store.dispatch(memberLeft({ pageId: PAGE, clientId: 'c-eve' }));
      store.dispatch(memberLeft({ pageId: PAGE, clientId: 'c-fay' }));
      store.dispatch(memberLeft({ pageId: PAGE, clientId: 'c-ann' }));
    });
    expect(avatars().map((a) => a.getAttribute('aria-label'))).toEqual(['bob', 'cat', 'dan']);
  });

  it('a picture when the person has one', () => {
    const { view, join } = renderAvatars();
    join([member('c-bob', 'u-bob', 'bob', { avatar: '/files/bob.png' })]);
    expect(view.container.querySelector('.presence-avatar img')?.getAttribute('src')).toBe('/files/bob.png');
  });
});

describe('members from the channel (spec §5: incoming lists drop bad items)', () => {
  it('the join answer’s members and a later join: what is no member is dropped and reported, the rest shown', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const store = storeWithMe();
      store.dispatch(loadWorkspaces.fulfilled([{ id: 'w1', name: 'Моё', avatar: null, alias: null, role: 'admin', private: true }], 'r', undefined));
      render(
        <Provider store={store}>
          <RealtimeProvider>
            <PresenceAvatars pageId={PAGE} />
          </RealtimeProvider>
        </Provider>,
      );
      const socket = sockets.at(-1)!;
      act(() => socket.serverConnect());
      await act(
        async () =>
          void socket.answer(
            'join',
            {
              ok: true,
              at: '2026-01-01T00:00:00.000Z',
              members: [
                member('c-ann', 'u-ann', 'Анна'),
                null,
                { clientId: 'c-nobody', name: 'Без пользователя' },
                'c-text',
                member('c-bob', 'u-bob', 'bob', { caret: { anchor: { blockId: 'a' } } as never }),
              ],
            },
            `online:${PAGE}`,
          ),
      );
      expect(selectPresenceMembers(store.getState(), PAGE).map((m) => [m.clientId, m.caret])).toEqual([
        ['c-ann', null],
        ['c-bob', null],
      ]);
      expect(screen.getAllByRole('img').map((a) => a.getAttribute('aria-label'))).toEqual(['Анна', 'bob']);
      act(() => socket.serverSend('join', { channel: `online:${PAGE}`, member: { clientId: 'c-half' } }));
      act(() => socket.serverSend('join', { channel: `online:${PAGE}`, member: member('c-cat', 'u-cat', 'Кот') }));
      expect(selectPresenceMembers(store.getState(), PAGE).map((m) => m.clientId)).toEqual(['c-ann', 'c-bob', 'c-cat']);
      const reports = warn.mock.calls.filter(([message]) => String(message).includes('presence: dropped a malformed member'));
      expect(reports).toHaveLength(4);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('presence helpers', () => {
  it('initials: one or two letters', () => {
    expect(initialsOf('Анна Петрова')).toBe('АП');
    expect(initialsOf('bob')).toBe('B');
    expect(initialsOf('ivan.petrov')).toBe('IP');
    expect(initialsOf('  ')).toBe('?');
  });

  it('label text: dark on light colours, white on dark ones', () => {
    expect(textColorOn('#ffb224')).toBe('#1f1f1f');
    expect(textColorOn('#6e56cf')).toBe('#fff');
    expect(textColorOn('#0090ff')).toBe('#fff');
  });

  it('selection boxes: relative to the frame, without empty ones and without those inside another', () => {
    const origin = { left: 100, top: 50 };
    const line1 = { left: 150, top: 60, width: 200, height: 24 };
    const block = { left: 140, top: 90, width: 600, height: 48 };
    const lineInBlock = { left: 150, top: 90, width: 300, height: 24 };
    const empty = { left: 400, top: 60, width: 0, height: 24 };
    expect(selectionBoxes([line1, block, lineInBlock, empty, { ...line1 }], origin)).toEqual([
      { left: 50, top: 10, width: 200, height: 24 },
      { left: 40, top: 40, width: 600, height: 48 },
    ]);
  });
});
