import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Editor } from 'slate';
import type { WireBlock } from '../../schema/block';
import { LiveClient } from '../../test/helpers/liveClient';
import { freePort, signInToProcess, startServerProcess, type ServerProcess } from '../../test/helpers/serverProcess';
import { createPostgresDatabase, testDb } from '../../test/helpers/testApp';

/**
 * Kill -9 during a burst of edits (issue 6): three headless editors type into their own
 * paragraphs of one page; the server process is killed outright mid-burst and started again on
 * the same data. Every edit the server acknowledged is still there, what it had not
 * acknowledged is sent again by the clients once it is back, and nothing arrives twice
 * (a request that was stored but whose answer died with the process is retried safely).
 */

const EMAIL = 'crash@example.com';
let database: { url: string; drop(): Promise<void> } | undefined;
let dataDir: string;
let port: number;
let server: ServerProcess;

async function start(): Promise<ServerProcess> {
  return startServerProcess({ PORT: String(port), DATA_DIR: dataDir, LOG_REQUESTS: 'false', ...(database ? { DATABASE_URL: database.url } : {}) });
}

beforeAll(async () => {
  if (testDb() === 'postgres') database = await createPostgresDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crash-test-'));
  port = await freePort();
  server = await start();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function json<T>(url: string, cookie: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { cookie, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${url} → ${res.status}`);
  return ((await res.json()) as { data: T }).data;
}

test('edits acknowledged before a kill -9 survive it; the rest are sent again, once', async () => {
  const url = server.url;
  const cookie = await signInToProcess(server, EMAIL);
  const me = await json<{ id: string }>(`${url}/api/user/current`, cookie);
  const page = await json<{ id: string }>(`${url}/api/v3/spaces/section/private`, cookie, { method: 'POST', body: { title: 'Сбой' } });
  const blockIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const block = await json<WireBlock>(`${url}/api/v3/spaces/block`, cookie, {
      method: 'POST',
      body: { pageId: page.id, type: 'text', data: { tokens: [] }, placeAfter: blockIds.at(-1) ?? null },
    });
    blockIds.push(block.id);
  }
  // Quick retries, as after a dropped connection; the sockets reconnect by themselves.
  const clients = await Promise.all([0, 1, 2].map(() => LiveClient.open(url, cookie, page.id, me.id, { debounceMs: 30, retryDelaysMs: [100, 200, 300] })));
  const typed: string[] = [];
  let next = 0x4e00;
  let typing = true;
  const burst = clients.map(async (client, i) => {
    while (typing) {
      const index = client.editor.children.findIndex((n) => (n as { uid?: string }).uid === blockIds[i]);
      const ch = String.fromCodePoint(next++);
      client.select(index, Editor.string(client.editor, [index]).length);
      Editor.insertText(client.editor, ch);
      typed.push(ch);
      await sleep(8 + Math.random() * 8);
    }
  });

  await sleep(800);
  // What the server has answered for so far, per block: the highest acknowledged version and its text.
  const acknowledgedBefore = new Map<string, number>();
  for (const client of clients)
    for (const { id, version } of client.acknowledged) acknowledgedBefore.set(id, Math.max(acknowledgedBefore.get(id) ?? 0, version));
  await server.kill();
  const typedBeforeKill = typed.length;
  await sleep(400);
  server = await start();
  await sleep(600);
  typing = false;
  await Promise.all(burst);

  // Everyone catches up and sends what is left.
  for (const client of clients) await client.settle(30_000);
  await sleep(500);
  const blocks = await json<WireBlock[]>(`${url}/api/v3/spaces/note/${page.id}/blocks`, cookie);
  const text = blocks.map((b) => ((b.data as { tokens: Array<{ text: string }> }).tokens ?? []).map((tk) => tk.text).join('')).join('');

  expect(typedBeforeKill).toBeGreaterThan(30);
  expect(typed.length).toBeGreaterThan(typedBeforeKill);
  // Nothing acknowledged was lost with the process: versions never went back.
  for (const block of blocks) expect(block.version).toBeGreaterThanOrEqual(acknowledgedBefore.get(block.id) ?? 1);
  // Every character typed is there exactly once: the unacknowledged ones were sent again, the
  // stored-but-unanswered ones were not doubled.
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  expect(typed.filter((ch) => counts.get(ch) !== 1)).toEqual([]);
  expect([...text].length).toBe(typed.length);
  // And every client shows what the server has.
  for (const client of clients) expect(client.blocks().map((b) => b.data)).toEqual(blocks.map((b) => b.data));
  for (const client of clients) client.close();
}, 90_000);
