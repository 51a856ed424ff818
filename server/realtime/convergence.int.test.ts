import { Editor, Node, Transforms } from 'slate';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import { LiveClient } from '../../test/helpers/liveClient';
import { api, body } from '../../test/helpers/testApp';
import { convergenceServers, freshChar, random, sleep } from '../../test/helpers/convergence';

/**
 * Randomized convergence (issue 6): 3–5 headless copies of the web app's editor (the real
 * editor, sync queue, realtime connection and live sync) edit the same blocks at once through a
 * real server — inserts, deletes, bold on and off, splits (Enter) and merges (Backspace at a
 * block's start) with random pauses and dropped connections. At the end every client and the
 * server hold the same blocks, and every character anyone inserted that nobody deleted is there.
 * On PostgreSQL the clients are split over two server processes on one database.
 */

const servers = convergenceServers();

interface Tally {
  inserted: Set<string>;
  deleted: Set<string>;
  where: Map<string, string>;
}

/** `splits`: this client also splits blocks (Enter) and joins them (Backspace at a block's start). */
async function editRandomly(client: LiveClient, rng: ReturnType<typeof random>, steps: number, tally: Tally, splits = true) {
  const { editor } = client;
  for (let step = 0; step < steps; step++) {
    await sleep(rng.int(40));
    if (client.offline) continue;
    const indexes = client.textBlockIndexes();
    if (indexes.length === 0) {
      Transforms.insertNodes(editor, { type: 'textBlock', uid: crypto.randomUUID(), children: [{ text: '' }] } as Node, { at: [editor.children.length] });
      continue;
    }
    const index = rng.pick(indexes);
    const length = Node.string(editor.children[index]).length;
    const drawn = rng.next();
    // One who does not split or join types instead.
    const roll = !splits && drawn >= 0.72 && drawn < 0.92 ? drawn - 0.72 : drawn;
    if (roll < 0.45) {
      const text = Array.from({ length: 1 + rng.int(3) }, freshChar).join('');
      client.select(index, rng.int(length + 1));
      Editor.insertText(editor, text);
      client.log(`typed ${text} in ${(editor.children[index] as { uid: string }).uid.slice(0, 8)}`);
      for (const ch of text) {
        tally.inserted.add(ch);
        tally.where.set(ch, `${client.clientId.slice(0, 4)} in ${(editor.children[index] as { uid: string }).uid.slice(0, 8)} at ${Date.now() % 100000}`);
      }
    } else if (roll < 0.6 && length > 0) {
      const from = rng.int(length);
      const to = Math.min(length, from + 1 + rng.int(3));
      client.select(index, from, to);
      for (const ch of Editor.string(editor, editor.selection!)) tally.deleted.add(ch);
      Transforms.delete(editor);
    } else if (roll < 0.72 && length > 1) {
      const from = rng.int(length - 1);
      client.select(index, from, Math.min(length, from + 1 + rng.int(4)));
      if (rng.next() < 0.6) Editor.addMark(editor, 'bold', true);
      else Editor.removeMark(editor, 'bold');
    } else if (roll < 0.84 && splits) {
      client.select(index, rng.int(length + 1));
      editor.insertBreak();
      client.log(`split ${(editor.children[index] as { uid: string }).uid.slice(0, 8)}`);
    } else if (roll < 0.92 && splits && index > 1 && indexes.includes(index - 1)) {
      client.select(index, 0);
      client.log(`merge ${(editor.children[index] as { uid: string }).uid.slice(0, 8)} into previous`);
      editor.deleteBackward('character');
    } else if (roll < 0.97) {
      // The connection drops for a moment (API calls and socket); edits go on offline.
      client.goOffline();
      client.log('offline');
      setTimeout(() => void client.goOnline(), 100 + rng.int(500));
    }
  }
}

function serverBlocks(pageId: string): Promise<WireBlock[]> {
  return api(servers.t, servers.cookie, 'GET', `/api/v3/spaces/note/${pageId}/blocks`).then((res) => body<WireBlock[]>(res).data);
}

const shape = (blocks: readonly WireBlock[]) => blocks.map((b) => ({ id: b.id, type: b.type, parentId: b.parentId, placeAfter: b.placeAfter, data: b.data }));

/** Waits until nothing is unsent anywhere and every client shows what the server has. */
async function converge(clients: LiveClient[], pageId: string, timeoutMs = 30_000): Promise<WireBlock[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    for (const client of clients) if (client.offline) await client.goOnline();
    await Promise.all(clients.map((c) => c.settle()));
    await sleep(600);
    const server = await serverBlocks(pageId);
    const expected = JSON.stringify(shape(server));
    const quiet = clients.every((c) => !c.queue.hasPending());
    if (quiet && clients.every((c) => JSON.stringify(shape(c.blocks())) === expected)) return server;
    if (Date.now() > until) {
      const differing = clients.filter((c) => JSON.stringify(shape(c.blocks())) !== expected);
      // What each client did and heard: the others' last lines first, then each differing
      // client's, and last every line of its trace naming a block it and the server disagree on
      // (a CI log keeps the start and the end of a long failure: the end is what tells).
      const lines = process.env.CONVERGENCE_DEBUG ? Infinity : 120;
      const places = (blocks: readonly WireBlock[]) => JSON.stringify(blocks.map((b) => [b.id.slice(0, 8), b.version, b.placeAfter?.slice(0, 8)]));
      const serverShape = new Map(shape(server).map((b) => [b.id, JSON.stringify(b)]));
      const report = [...clients.filter((c) => !differing.includes(c)), ...differing].map((client) => {
        const own = shape(client.blocks());
        const disputed = [
          ...own.filter((b) => serverShape.get(b.id) !== JSON.stringify(b)).map((b) => b.id),
          ...[...serverShape.keys()].filter((id) => !own.some((b) => b.id === id)),
        ].map((id) => id.slice(0, 8));
        const tail = client.trace.slice(differing.includes(client) ? -lines : -Math.min(lines, 40));
        const about = disputed.length === 0 ? [] : client.trace.filter((line) => disputed.some((id) => line.includes(id)));
        return (
          `client ${client.clientId.slice(0, 4)}${differing.includes(client) ? ' (differs)' : ''}: ${places(client.blocks())}\n${tail.join('\n')}` +
          (about.length > 0 ? `\nevery line of ${client.clientId.slice(0, 4)} on ${disputed.join(', ')}:\n${about.join('\n')}` : '')
        );
      });
      throw new Error(
        `no convergence after ${timeoutMs} ms: server ${JSON.stringify(server.map((b) => b.data))}\nclients differing: ${JSON.stringify(differing.map((c) => ({ client: c.clientId, text: c.text() })))}\n` +
          `server places: ${places(server)}\n${report.join('\n')}`,
      );
    }
  }
}

const textOf = (blocks: readonly WireBlock[]) =>
  blocks.map((b) => ((b.data as { tokens?: Array<{ text: string }> }).tokens ?? []).map((tk) => tk.text).join('')).join('\n');

/** `CONVERGENCE_SEEDS=1-200` runs those seeds instead (3–5 clients by seed), to hunt a rare failure; `CONVERGENCE_REPEAT` the usual ones again and again. */
function seeds(): Array<{ seed: number; clients: number; steps: number }> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.CONVERGENCE_SEEDS ?? '');
  if (!range) {
    const defaults = [
      { seed: 1, clients: 3, steps: 60 },
      { seed: 7, clients: 4, steps: 60 },
      { seed: 42, clients: 5, steps: 50 },
    ];
    // `CONVERGENCE_REPEAT=20` runs these 20 times (a failure of CI's seeds, hunted under load).
    return Array.from({ length: Number(process.env.CONVERGENCE_REPEAT ?? 1) }, () => defaults).flat();
  }
  const out = [];
  for (let seed = Number(range[1]); seed <= Number(range[2]); seed++) out.push({ seed, clients: 3 + (seed % 3), steps: 60 });
  return out;
}

describe.each(seeds())('$clients clients, seed $seed', ({ seed, clients: count, steps }) => {
  test(
    'everyone splitting and joining blocks: all end with the same blocks as the server, and no inserted character is lost',
    () => converges(seed, count, steps, 'everyone'),
    90_000,
  );
  // Splits and joins are sent as a block's new text and a block made or deleted: two people
  // splitting or joining the same block at once both move its text (docs/realtime.md, known
  // limits). With one person changing the structure, every character is there exactly once.
  test('one of them splitting and joining: every inserted character is there once', () => converges(seed + 1000, count, steps, 'one'), 90_000);
});

async function converges(seed: number, count: number, steps: number, splitting: 'everyone' | 'one'): Promise<void> {
  const page = body<WireElement>(await api(servers.t, servers.cookie, 'POST', '/api/v3/spaces/section/private', { title: 'Вместе' })).data;
  // Three blocks to start from, the same on every client.
  let placeAfter: string | null = null;
  for (const text of ['один', 'два', 'три']) {
    const res = await api(servers.t, servers.cookie, 'POST', '/api/v3/spaces/block', {
      pageId: page.id,
      type: 'text',
      data: { tokens: [{ text }] },
      placeAfter,
    });
    placeAfter = body<WireBlock>(res).data.id;
  }
  const clients: LiveClient[] = [];
  for (let i = 0; i < count; i++) clients.push(await LiveClient.open(servers.urls[i % servers.urls.length], servers.cookie, page.id, servers.userId));
  const tally: Tally = { inserted: new Set(), deleted: new Set(), where: new Map() };
  const rng = random(seed);
  try {
    await Promise.all(
      clients.map((client, i) => editRandomly(client, random(seed * 100 + i + rng.int(10)), steps, tally, splitting === 'everyone' || i === 0)),
    );
    const server = await converge(clients, page.id);
    const final = textOf(server);
    const lost = [...tally.inserted].filter((ch) => !tally.deleted.has(ch) && !final.includes(ch));
    // What each client did and heard around a loss (its last 60 lines unless CONVERGENCE_DEBUG: a rare CI failure can be read from its log).
    // What each client did and heard around a loss: its last lines, then (in the failure itself,
    // which a CI log keeps whole at its end) every line of every trace holding a lost character
    // or naming the block it was typed in — the heard and sent lines carry the blocks' text.
    if (lost.length > 0 && !process.env.CONVERGENCE_DEBUG) {
      console.log(clients.map((c) => `${c.clientId.slice(0, 4)}:\n${c.trace.slice(-40).join('\n')}`).join('\n'));
      const blocks = lost.map((ch) => tally.where.get(ch)?.split(' ')[2]).filter((id): id is string => !!id);
      throw new Error(
        `lost ${lost.map((ch) => `${ch} (${tally.where.get(ch)})`).join(', ')}\n` +
          clients
            .map((c) => `${c.clientId.slice(0, 4)}:\n${c.trace.filter((line) => [...lost, ...blocks].some((key) => line.includes(key))).join('\n')}`)
            .join('\n'),
      );
    }
    if (lost.length > 0 && process.env.CONVERGENCE_DEBUG) {
      const rows = await servers.t.app.db
        .selectFrom('blocks')
        .select(['id', 'data', 'deleted_at', 'version', 'origin'])
        .where('page_id', '=', page.id)
        .execute();
      for (const ch of lost)
        console.log(
          ch,
          tally.where.get(ch),
          rows.filter((r) => r.data.includes(ch)).map((r) => ({ id: r.id, deleted: r.deleted_at, v: r.version, origin: r.origin })),
        );
      for (const client of clients) console.log(client.clientId.slice(0, 4), '\n' + client.trace.join('\n'));
    }
    expect(lost).toEqual([]);
    // Nor is any there twice (a write whose answer was lost, heard again on rejoining, is not merged in again).
    const counts = new Map<string, number>();
    for (const ch of final) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    // Except text that went out in a write whose answer was lost, into a block deleted (or joined
    // into another) meanwhile: whether it was stored cannot be told, so it is kept rather than
    // risked (docs/realtime.md, known limits; lostAnswer.int.test.ts covers the rest of that case).
    const unsure = clients.flatMap((c) => c.lostAnswers).join('');
    const doubled = [...tally.inserted].filter((ch) => (counts.get(ch) ?? 0) > 1 && !unsure.includes(ch));
    if (doubled.length > 0 && process.env.CONVERGENCE_DEBUG) {
      console.log('doubled', doubled.map((ch) => `${ch} ${tally.where.get(ch)}`).join('\n'), '\nfinal', final);
      for (const client of clients) console.log(client.clientId.slice(0, 4), '\n' + client.trace.join('\n'));
    }
    if (splitting === 'one') expect(doubled).toEqual([]);
    expect(tally.inserted.size).toBeGreaterThan(20);
    for (const client of clients) expect(shape(client.blocks())).toEqual(shape(server));
  } finally {
    for (const client of clients) client.close();
  }
}
