import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { createStore } from '../../app/store';
import { useMentionable, useWorkspaceUsers } from './members';

/*
 * The member lists the composers and the search screen read (serverApi): a guest's mentions fall
 * back on the page's people once, and a screen never shows another workspace's people.
 */

const person = (id: string) => ({ id, email: `${id}@x.ru`, name: id, avatar_url: null, anonymous: false, telegramId: null, createdAt: '' });
const ok = (data: unknown) => ({ ok: true, status: 200, statusText: '', json: async () => ({ data, included: [], meta: {}, errors: [] }) }) as Response;
const refused = () =>
  ({
    ok: false,
    status: 403,
    statusText: '',
    json: async () => ({ data: null, included: [], meta: {}, errors: [{ code: 'forbidden', message: '' }] }),
  }) as Response;

let calls: string[];
let answer: (path: string) => Response;
/** While set, a read of workspace B waits for it (a slow answer). */
let slowB: Promise<void> | null;

beforeEach(() => {
  calls = [];
  slowB = null;
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://x').pathname;
    calls.push(path);
    if (slowB && path.includes('/workspace/b/')) await slowB;
    return answer(path);
  }) as typeof fetch;
});

function wrapper(store = createStore()) {
  return ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
}

it('a guest’s mentions are the page’s people once the workspace’s are refused; a second composer does not ask the workspace again', async () => {
  answer = (path) => (path.includes('/workspace/') ? refused() : ok([{ user: person('anna') }, { user: person('boris') }]));
  const store = createStore();
  const first = renderHook(() => useMentionable('ws', 'p1', true), { wrapper: wrapper(store) });
  await waitFor(() => expect(first.result.current.map((u) => u.id)).toEqual(['anna', 'boris']));
  const second = renderHook(() => useMentionable('ws', 'p1', true), { wrapper: wrapper(store) });
  await waitFor(() => expect(second.result.current.map((u) => u.id)).toEqual(['anna', 'boris']));
  expect(calls.filter((p) => p.includes('/workspace/'))).toHaveLength(1);
  // The first one's list stayed throughout (no flicker to nobody and back).
  expect(first.result.current.map((u) => u.id)).toEqual(['anna', 'boris']);
});

it('a workspace’s people, never another workspace’s while this one’s are read or refused', async () => {
  answer = (path) => (path.includes('/workspace/a/') ? ok([{ user: person('anna') }]) : refused());
  const { result, rerender } = renderHook(({ ws }) => useWorkspaceUsers(ws), { wrapper: wrapper(), initialProps: { ws: 'a' } });
  await waitFor(() => expect(result.current.map((u) => u.id)).toEqual(['anna']));
  let answerB = () => undefined as void;
  slowB = new Promise<void>((resolve) => (answerB = resolve));
  rerender({ ws: 'b' });
  // B is being read: nobody yet, not A's people.
  await waitFor(() => expect(calls.some((p) => p.includes('/workspace/b/'))).toBe(true));
  expect(result.current).toEqual([]);
  // B refused (a guest there): still nobody.
  await act(async () => {
    answerB();
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  expect(result.current).toEqual([]);
});

it('a member list is read again when a screen showing it mounts and the kept one is older than 20 s, not before', async () => {
  answer = () => ok([{ user: person('anna') }]);
  const store = createStore();
  const reads = () => calls.filter((p) => p.includes('/workspace/a/')).length;
  const first = renderHook(() => useWorkspaceUsers('a'), { wrapper: wrapper(store) });
  await waitFor(() => expect(first.result.current.map((u) => u.id)).toEqual(['anna']));
  expect(reads()).toBe(1);
  first.unmount();
  // Only the clock is faked (RTK Query reads it as `new Date()`); timers run as they do.
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  try {
    const now = Date.now();
    // 19 s later: the kept list serves.
    jest.setSystemTime(now + 19_000);
    const second = renderHook(() => useWorkspaceUsers('a'), { wrapper: wrapper(store) });
    expect(second.result.current.map((u) => u.id)).toEqual(['anna']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads()).toBe(1);
    second.unmount();
    // 21 s after it was read: read again (people join), the kept list shown meanwhile.
    jest.setSystemTime(now + 21_000);
    const third = renderHook(() => useWorkspaceUsers('a'), { wrapper: wrapper(store) });
    expect(third.result.current.map((u) => u.id)).toEqual(['anna']);
    await waitFor(() => expect(reads()).toBe(2));
  } finally {
    jest.useRealTimers();
  }
});
