import { waitFor } from '@testing-library/react';
import type { WireElementMember } from '../../schema/sharing';
import { ApiRequestError, api } from './api';
import { serverApi } from './serverApi';
import { createStore } from './store';

type Reply = { status: number; body?: unknown };
let calls: { method: string; path: string }[];
let reply: (method: string, path: string) => Reply;
/** While set, a GET waits for it before it is answered (a slow read); its answer is computed when it left. */
let slowGets: Promise<void> | null = null;

const envelope = (data: unknown, meta: Record<string, unknown> = {}) => ({ data, included: [], meta, errors: [] });
const refusal = (code: string) => ({ data: null, included: [], meta: {}, errors: [{ code, message: code }] });

beforeEach(() => {
  calls = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://x');
    const method = init?.method ?? 'GET';
    calls.push({ method, path: `${url.pathname}${url.search}` });
    const { status, body } = reply(method, url.pathname);
    if (slowGets && method === 'GET') await slowGets;
    return { ok: status < 400, status, statusText: '', json: async () => body } as Response;
  }) as typeof fetch;
});

afterEach(() => {
  jest.useRealTimers();
  slowGets = null;
});

describe('api(): the spec’s retry', () => {
  it('asks again after a 500 or 502, at most 3 times, then gives the failure', async () => {
    jest.useFakeTimers();
    let answers = [502, 500, 200];
    reply = () => {
      const status = answers.shift() ?? 500;
      return { status, body: status === 200 ? envelope('ok') : refusal('internal_error') };
    };
    const first = api<string>('/api/thing');
    await jest.advanceTimersByTimeAsync(5_000);
    await expect(first).resolves.toMatchObject({ data: 'ok' });
    expect(calls).toHaveLength(3);

    calls = [];
    answers = [];
    const second = api('/api/thing').catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(5_000);
    const error = await second;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).status).toBe(500);
    expect(calls).toHaveLength(4);
  });

  it('does not ask again after any other refusal (a 503 busy, a 404)', async () => {
    for (const [status, code] of [
      [503, 'storage.busy'],
      [404, 'not_found'],
    ] as const) {
      calls = [];
      reply = () => ({ status, body: refusal(code) });
      await expect(api('/api/thing')).rejects.toMatchObject({ status, code });
      expect(calls).toHaveLength(1);
    }
  });
});

describe('serverApi', () => {
  const member = (page: string, id: string, level: 'read' | 'edit' | 'full', inherited = false): WireElementMember =>
    ({
      contentType: 'ElementMember',
      page,
      member: id,
      level,
      canEdit: level !== 'read',
      canShare: level === 'full',
      inherited,
      grantedOn: page,
      user: { id, email: `${id}@x.ru` },
    }) as WireElementMember;

  it('reads all of a workspace’s members, page after page, once for every screen that shows them', async () => {
    reply = (_method, path) => {
      expect(path).toBe('/api/v3/spaces/workspace/ws/members');
      const after = calls.length > 1;
      return {
        status: 200,
        body: envelope(
          [{ id: after ? 'u2' : 'u1', role: 'participant', user: { id: after ? 'u2' : 'u1', email: 'x@x.ru' } }],
          after ? {} : { hasMoreNext: true, nextCursor: 'u1::WorkspaceMember' },
        ),
      };
    };
    const store = createStore();
    const one = store.dispatch(serverApi.endpoints.workspaceMembers.initiate('ws'));
    const two = store.dispatch(serverApi.endpoints.workspaceMembers.initiate('ws'));
    const [a, b] = await Promise.all([one, two]);
    expect(a.data?.map((m) => m.id)).toEqual(['u1', 'u2']);
    expect(b.data).toBe(a.data);
    expect(calls.map((c) => c.path)).toEqual([
      '/api/v3/spaces/workspace/ws/members?limit=200',
      `/api/v3/spaces/workspace/ws/members?limit=200&cursor=${encodeURIComponent('"u1::WorkspaceMember"')}`,
    ]);
    one.unsubscribe();
    two.unsubscribe();
  });

  it('a refusal is plain data with its ErrorCode', async () => {
    reply = () => ({ status: 403, body: refusal('forbidden') });
    const store = createStore();
    const result = await store.dispatch(serverApi.endpoints.workspaceMembers.initiate('ws'));
    expect(result.error).toEqual(expect.objectContaining({ status: 403, code: 'forbidden' }));
  });

  it('a sharing write puts its answer in place and has the other pages’ lists read again (grants are inherited)', async () => {
    const lists: Record<string, WireElementMember[]> = { parent: [member('parent', 'me', 'full')], child: [member('child', 'me', 'full', true)] };
    reply = (method, path) => {
      const [, , , , , page, action] = path.split('/');
      if (method === 'POST' && action === 'member') {
        lists.parent = [...lists.parent, member('parent', 'anna', 'edit')];
        lists.child = [...lists.child, member('child', 'anna', 'edit', true)];
        return { status: 200, body: envelope(lists.parent, { skipped: [] }) };
      }
      return { status: 200, body: envelope(lists[page]) };
    };
    const store = createStore();
    const parent = store.dispatch(serverApi.endpoints.pageMembers.initiate('parent'));
    const child = store.dispatch(serverApi.endpoints.pageMembers.initiate('child'));
    await Promise.all([parent, child]);
    calls = [];
    const answer = await store.dispatch(
      serverApi.endpoints.changePageMembers.initiate({ pageId: 'parent', action: 'member/add', body: [{ userId: 'anna', accessLevel: 'edit' }] }),
    );
    expect(answer.data?.meta).toEqual({ skipped: [] });
    const shown = (page: string) =>
      serverApi.endpoints.pageMembers
        .select(page)(store.getState())
        .data?.map((m) => m.member);
    await waitFor(() => expect(shown('parent')).toEqual(['me', 'anna']));
    await waitFor(() => expect(shown('child')).toEqual(['me', 'anna']));
    // The write's own page is not read again: its answer is the list.
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v3/spaces/element/parent/member/add', 'GET /api/v3/spaces/element/child/members']);
    parent.unsubscribe();
    child.unsubscribe();
  });
  it('a sharing write’s answer is not overwritten by a read of the list that left before it and lands after it', async () => {
    let list = [member('p', 'me', 'full')];
    reply = (method) => {
      if (method === 'POST') list = [...list, member('p', 'anna', 'edit')];
      return { status: 200, body: envelope(list, { skipped: [] }) };
    };
    const store = createStore();
    await store.dispatch(serverApi.endpoints.pageMembers.initiate('p'));
    let answerRead = () => undefined as void;
    slowGets = new Promise<void>((resolve) => (answerRead = resolve));
    // A screen reads the list again (its answer, the old list, is held back)…
    const reading = store.dispatch(serverApi.endpoints.pageMembers.initiate('p', { forceRefetch: true }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
    // …while a share is made and answered at once.
    await store.dispatch(
      serverApi.endpoints.changePageMembers.initiate({ pageId: 'p', action: 'member/add', body: [{ userId: 'anna', accessLevel: 'edit' }] }),
    );
    answerRead();
    await reading;
    const shown = () =>
      serverApi.endpoints.pageMembers
        .select('p')(store.getState())
        .data?.map((m) => m.member);
    await waitFor(() => expect(shown()).toEqual(['me', 'anna']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shown()).toEqual(['me', 'anna']);
  });
});
