import type { WireBlock } from '../../schema/block';
import type { BlockSyncQueue } from '../../plugins';
import type { RealtimeAck } from '../../schema/realtime';
import type { ChannelHandlers, RealtimeConnection } from '../app/realtimeConnection';
import { attachLiveSync, SETTLE_DELAY_MS } from './liveSync';

/**
 * The settle step of live sync: after others' structural changes the places are read again
 * (a `history` request). Here the connection is a stand-in that records requests and answers
 * them as told; the real connection and server are exercised by server/realtime/convergence.
 */
function setup(answers: Array<RealtimeAck<{ history: unknown }>>, elsewhere: (block: WireBlock) => boolean = () => false) {
  let handlers: ChannelHandlers | null = null;
  const requests: Array<{ event: string; message: unknown }> = [];
  const connection = {
    clientId: 'me',
    subscribe: (_name: string, h: ChannelHandlers) => {
      handlers = h;
      return () => undefined;
    },
    request: (event: string, message: unknown) => {
      requests.push({ event, message });
      return Promise.resolve(answers.shift() ?? { ok: false, error: { code: 111, message: 'no answer' } });
    },
  } as unknown as RealtimeConnection;
  const received: string[] = [];
  const queue = {
    receive: (block: WireBlock) => received.push(block.id),
    receiveRemoved: () => undefined,
    versionOf: () => 1,
    placedElsewhere: elsewhere,
    hasPending: () => false,
    status: () => 'saved',
    flush: () => Promise.resolve(),
  } as unknown as BlockSyncQueue;
  const detach = attachLiveSync({ connection, pageId: 'p', userId: 'u', queue, since: '2026-01-01T00:00:00.000Z' });
  return { handlers: () => handlers!, requests, received, detach };
}

const block = (id: string) => ({ id, pageId: 'p', type: 'text', data: { tokens: [] }, parentId: null, placeAfter: null, version: 1 }) as unknown as WireBlock;

afterEach(() => jest.useRealTimers());

test('a settle whose history request got no answer (the connection dropped) asks again, from the same time', async () => {
  jest.useFakeTimers();
  const history = { channel: 'element:p', pageId: 'p', at: '2026-01-01T00:00:09.000Z', blocks: [block('b2')], removed: [], removedVersions: [] };
  const { handlers, requests, received, detach } = setup([
    { ok: false, error: { code: 111, message: 'no answer' } },
    { ok: true, history } as RealtimeAck<{ history: unknown }>,
  ]);
  handlers().onEvent('add', { origin: 'other', at: '2026-01-01T00:00:05.000Z', blocks: [block('b1')] });
  expect(received).toEqual(['b1']);
  await jest.advanceTimersByTimeAsync(SETTLE_DELAY_MS);
  expect(requests).toEqual([{ event: 'history', message: { channel: 'element:p#u', since: '2026-01-01T00:00:05.000Z' } }]);
  await jest.advanceTimersByTimeAsync(SETTLE_DELAY_MS);
  expect(requests.map((r) => r.message)).toEqual([
    { channel: 'element:p#u', since: '2026-01-01T00:00:05.000Z' },
    { channel: 'element:p#u', since: '2026-01-01T00:00:05.000Z' },
  ]);
  expect(received).toEqual(['b1', 'b2']);
  // Answered: nothing more is asked.
  await jest.advanceTimersByTimeAsync(SETTLE_DELAY_MS * 3);
  expect(requests).toHaveLength(2);
  detach();
});

test("someone's edit of a block that could not stand where the server has it (the block before it deleted here) settles the places", async () => {
  jest.useFakeTimers();
  const history = { channel: 'element:p', pageId: 'p', at: '2026-01-01T00:00:09.000Z', blocks: [block('b1')], removed: [], removedVersions: [] };
  const stray = new Set(['b1']);
  const { handlers, requests, received, detach } = setup([{ ok: true, history } as RealtimeAck<{ history: unknown }>], (b) => stray.has(b.id));
  // A plain edit (its place as here) asks nothing.
  handlers().onEvent('edit', { origin: 'other', at: '2026-01-01T00:00:04.000Z', block: { ...block('b2'), version: 2 } });
  await jest.advanceTimersByTimeAsync(SETTLE_DELAY_MS * 2);
  expect(requests).toEqual([]);
  handlers().onEvent('edit', { origin: 'other', at: '2026-01-01T00:00:05.000Z', block: { ...block('b1'), version: 2 } });
  await jest.advanceTimersByTimeAsync(SETTLE_DELAY_MS);
  expect(requests.map((r) => r.message)).toEqual([{ channel: 'element:p#u', since: '2026-01-01T00:00:05.000Z' }]);
  expect(received).toEqual(['b2', 'b1', 'b1']);
  // The settle's own answer does not ask again, even if a block still stands elsewhere.
  await jest.advanceTimersByTimeAsync(SETTLE_DELAY_MS * 3);
  expect(requests).toHaveLength(1);
  detach();
});
