import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { WireUser } from '../../../schema/user';
import '../../app/i18n';
import { resetAppLinks } from '../../app/appConfig';
import { createStore } from '../../app/store';
import { signedIn } from '../auth/authSlice';
import { messengerBannerSet, useUiSettingsServerSync } from '../settings/uiSettings';
import { MessengerBanner } from './MessengerBanner';

/*
 * The messenger banner (spec: a UI setting, «messenger banner shown»): on home while the setting
 * is on, the server has a bot and the account is not linked; «Привязать» opens the profile with
 * the code and the bot's deep link carrying it; ✕ turns the setting off, saved to the server.
 */

const TOKEN = 'Jx3_tokenOfFortyThreeUrlSafeCharacters-0123';
const me: WireUser = {
  id: 'u1',
  email: 'anna@example.com',
  name: 'Анна',
  avatar_url: null,
  anonymous: false,
  telegramId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

let posted: unknown[];
function serve({ bot = true, link = `https://t.me/pages_bot?start=${TOKEN}` }: { bot?: boolean; link?: string | null } = {}) {
  posted = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const ok = (data: unknown) => ({ ok: true, status: 200, statusText: '', json: async () => ({ data, included: [], meta: {}, errors: [] }) }) as Response;
    if (path === '/api/config') return ok({ links: {}, defaultHost: null, ai: { model: false, timeoutMs: 60_000 }, messenger: { bot } });
    if (path === '/api/user/telegram/code') return ok({ token: TOKEN, expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(), link });
    if (path === '/api/user/settings' && init?.method === 'POST') {
      posted.push(JSON.parse(String(init.body)));
      return ok({ status: 'success' });
    }
    throw new Error(`unexpected ${path}`);
  }) as typeof fetch;
}

function Saving() {
  useUiSettingsServerSync(true);
  return null;
}

function renderBanner(user: WireUser = me) {
  const store = createStore();
  store.dispatch(signedIn(user));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <Saving />
        <MessengerBanner />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

beforeAll(() => {
  // jsdom does not lay out: the profile scrolls its messenger part into view.
  Element.prototype.scrollIntoView = () => undefined;
});

beforeEach(() => {
  localStorage.clear();
  resetAppLinks();
});

test('«Привязать» opens the profile with the code and the bot\u2019s deep link carrying it', async () => {
  serve();
  renderBanner();
  const banner = await screen.findByRole('region', { name: 'Telegram-бот' });
  fireEvent.click(within(banner).getByRole('button', { name: 'Привязать' }));
  const dialog = await screen.findByRole('dialog', { name: 'Профиль и настройки' });
  const open = await within(dialog).findByRole('link', { name: 'Открыть бота в Telegram' });
  expect(open.getAttribute('href')).toBe(`https://t.me/pages_bot?start=${TOKEN}`);
  expect(open.getAttribute('target')).toBe('_blank');
  expect(open.getAttribute('rel')).toContain('noopener');
  expect(within(dialog).getByTestId('messenger-code').textContent).toBe(`/start ${TOKEN}`);
  expect(within(dialog).getByText('Или отправьте боту эту команду:')).toBeTruthy();
});

test('✕ hides it and saves the setting off', async () => {
  serve();
  const store = renderBanner();
  const banner = await screen.findByRole('region', { name: 'Telegram-бот' });
  fireEvent.click(within(banner).getByRole('button', { name: 'Скрыть и больше не показывать' }));
  expect(screen.queryByRole('region', { name: 'Telegram-бот' })).toBeNull();
  expect(store.getState().uiSettings.messengerBanner).toBe(false);
  await waitFor(() => expect(posted).toEqual([{ key: 'messengerBanner', value: false }]));
});

test('not shown without a bot, with the setting off, or to someone already linked', async () => {
  serve({ bot: false });
  renderBanner();
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.queryByRole('region', { name: 'Telegram-бот' })).toBeNull();
  document.body.innerHTML = '';

  resetAppLinks();
  serve();
  renderBanner({ ...me, telegramId: '4242' });
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.queryByRole('region', { name: 'Telegram-бот' })).toBeNull();
  document.body.innerHTML = '';

  const store = renderBanner();
  await screen.findByRole('region', { name: 'Telegram-бот' });
  act(() => {
    store.dispatch(messengerBannerSet(false));
  });
  expect(screen.queryByRole('region', { name: 'Telegram-бот' })).toBeNull();
});

test('without a deep link (the bot\u2019s name unknown, or not the platform\u2019s address) the code alone is shown', async () => {
  serve({ link: 'https://evil.example/?start=x' });
  renderBanner();
  fireEvent.click(within(await screen.findByRole('region', { name: 'Telegram-бот' })).getByRole('button', { name: 'Привязать' }));
  const dialog = await screen.findByRole('dialog', { name: 'Профиль и настройки' });
  await within(dialog).findByTestId('messenger-code');
  expect(within(dialog).queryByRole('link', { name: 'Открыть бота в Telegram' })).toBeNull();
  expect(within(dialog).getByText('Отправьте боту эту команду:')).toBeTruthy();
});
