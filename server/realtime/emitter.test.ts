import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Server } from 'socket.io';
import type { WireBlock } from '../../schema/block';
import type { Database } from '../db/types';
import { realtimeEmitter } from './emitter';

/*
 * A page's channel hears its events in the order they were sent. Over PostgreSQL the adapter
 * publishes each event with a query of its own and emits it only after, so two events sent back
 * to back could arrive the other way round (a block's version 3 before its 2: seen on CI). Here a
 * real socket.io server's adapter is made to take longer over the first event than the second,
 * as a busy pool of connections does.
 */

const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
const block = (version: number): WireBlock => ({ id: 'b1', pageId: 'p1', version }) as WireBlock;

test('events to one page channel reach the adapter in the order sent, even when the adapter is slower over the first', async () => {
  // Not listening: what reaches the adapter is what is checked.
  const io = new Server();
  const adapter = io.of('/').adapter;
  const delivered: Array<{ event: unknown; version?: number }> = [];
  const broadcast = adapter.broadcast.bind(adapter);
  let calls = 0;
  adapter.broadcast = ((packet: { data: [string, { block?: WireBlock }] }, options: Parameters<typeof broadcast>[1]) => {
    const slow = calls++ === 0;
    return new Promise<void>((resolve) =>
      setTimeout(
        () => {
          delivered.push({ event: packet.data[0], version: packet.data[1].block?.version });
          broadcast(packet as Parameters<typeof broadcast>[0], options);
          resolve();
        },
        slow ? 40 : 1,
      ),
    );
  }) as typeof adapter.broadcast;
  const { realtime } = realtimeEmitter(io, {} as Kysely<Database>, log, async () => undefined);
  realtime.blockEdited(block(2), 'c1', '2026-12-02T00:00:00.000Z');
  realtime.blockEdited(block(3), 'c1', '2026-12-02T00:00:00.001Z');
  realtime.blocksRemoved('p1', [{ id: 'b1', version: 4 }], 'c1', '2026-12-02T00:00:00.002Z');
  // Another page's channel does not wait for this one's.
  realtime.pageEdited({ id: 'p2', title: 'Другая', icon: null, cover: null }, null, '2026-12-02T00:00:00.003Z');
  await realtime.versionRecorded('p1', { id: 'v1' } as never);
  expect(delivered.filter((d) => d.event !== 'edit' || d.version !== undefined)).toEqual([
    { event: 'edit', version: 2 },
    { event: 'edit', version: 3 },
    { event: 'remove', version: undefined },
    { event: 'versionRecorded', version: undefined },
  ]);
  // p2's title, sent after, went first: its channel did not wait behind p1's slow event.
  expect(delivered[0]).toEqual({ event: 'edit', version: undefined });
});
