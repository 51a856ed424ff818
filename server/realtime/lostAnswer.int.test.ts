import { Editor } from 'slate';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import { LiveClient } from '../../test/helpers/liveClient';
import { api, body } from '../../test/helpers/testApp';
import { convergenceServers, sleep } from '../../test/helpers/convergence';

/**
 * A write the server stored whose answer was lost (the connection dropped, or the process was
 * killed, while it was on the way back), and the catch-up after reconnecting hands the client its
 * own write back as a change it has not seen. The editor already holds that text and more: it is
 * its own, not someone else's to merge, and nothing is doubled.
 */

const servers = convergenceServers('lost-answer@example.com');

const textOf = (block: WireBlock) => ((block.data as { tokens?: Array<{ text: string }> }).tokens ?? []).map((tk) => tk.text).join('');

async function serverBlocks(pageId: string): Promise<WireBlock[]> {
  return body<WireBlock[]>(await api(servers.t, servers.cookie, 'GET', `/api/v3/spaces/note/${pageId}/blocks`)).data;
}

/** Someone else's write of the block, as another client of the same user would make it. */
async function writeAsAnotherClient(blockId: string, version: number, text: string): Promise<void> {
  const res = await fetch(`${servers.urls[0]}/api/v3/spaces/block/${blockId}`, {
    method: 'POST',
    headers: { cookie: servers.cookie, 'x-client-id': crypto.randomUUID(), 'content-type': 'application/json' },
    body: JSON.stringify({ version, type: 'text', data: { tokens: [{ text }] } }),
  });
  expect(res.status).toBe(200);
}

test.each([
  // The catch-up hands the client its own write back (history.own): not merged in twice.
  { stored: true, theirs: null, expected: 'начало абвгде' },
  // Someone wrote after it: merged from the write the server holds.
  { stored: true, theirs: 'начало абвX', expected: 'начало абвXгде' },
  // The write never reached the server: merged from what the server last accepted, nothing lost.
  { stored: false, theirs: 'начало X', expected: 'начало Xабвгде' },
])(
  'a write whose answer was lost (stored: $stored, written after by someone else: $theirs) is there once',
  async ({ stored, theirs, expected }) => {
    const page = body<WireElement>(await api(servers.t, servers.cookie, 'POST', '/api/v3/spaces/section/private', { title: 'Потерянный ответ' })).data;
    const block = body<WireBlock>(
      await api(servers.t, servers.cookie, 'POST', '/api/v3/spaces/block', {
        pageId: page.id,
        type: 'text',
        data: { tokens: [{ text: 'начало ' }] },
        placeAfter: null,
      }),
    ).data;
    const client = await LiveClient.open(servers.urls[0], servers.cookie, page.id, servers.userId, { debounceMs: 30, retryDelaysMs: [5_000] });
    try {
      const index = client.editor.children.findIndex((n) => (n as { uid?: string }).uid === block.id);
      client.select(index, 'начало '.length);
      Editor.insertText(client.editor, 'абв');
      if (stored) {
        // The update goes out; the connection drops while it is on the way: stored, answer lost.
        const sent = client.queue.flush();
        await sleep(0);
        client.goOffline();
        await sent;
        for (let i = 0; i < 50 && textOf((await serverBlocks(page.id))[0]) !== 'начало абв'; i++) await sleep(20);
        expect(textOf((await serverBlocks(page.id))[0])).toBe('начало абв');
      } else {
        // The connection dropped first: the write never reached the server.
        client.goOffline();
        await client.queue.flush();
      }
      if (theirs) await writeAsAnotherClient(block.id, stored ? 2 : 1, theirs);
      // More typing offline, then back: the join's catch-up carries what the server has.
      client.select(index, 'начало абв'.length);
      Editor.insertText(client.editor, 'где');
      await client.goOnline();
      await client.settle();
      await sleep(300);
      const [now] = await serverBlocks(page.id);
      expect(textOf(now)).toBe(expected);
      expect(client.blocks().map((b) => b.data)).toEqual([now.data]);
    } finally {
      client.close();
    }
  },
  30_000,
);
