import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { WireBlock } from '../../schema/block';
import { postgresForPgDump } from '../../test/helpers/postgresCluster';
import { signInToProcess, startServerProcess, type ServerProcess } from '../../test/helpers/serverProcess';
import { createPostgresDatabase, testDb } from '../../test/helpers/testApp';
import { SQLITE_FILE } from '../plugins/db';

/**
 * `npm run backup` while the real server takes writes, then `npm run restore` into a new data
 * location and the server started on it (docs/deploy.md «Backups»). A write counts as
 * acknowledged when its 2xx answer arrived; every write acknowledged before the backup command
 * was started must be in the restored data (a write acknowledged later may or may not be: the
 * snapshot is taken a moment after the start). The restored database is sound (SQLite:
 * integrity_check, foreign_key_check), the server starts on it and serves those pages, and every
 * file uploaded before the backup comes back byte for byte.
 */

const EMAIL = 'backup@example.com';
let pgServer: Awaited<ReturnType<typeof postgresForPgDump>> | undefined;
const databases: Array<{ url: string; drop(): Promise<void> }> = [];
const dirs: string[] = [];
const servers: ServerProcess[] = [];

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function newDatabaseUrl(): Promise<string | undefined> {
  if (!pgServer) return undefined;
  const database = await createPostgresDatabase(pgServer.adminUrl);
  databases.push(database);
  return database.url;
}

beforeAll(async () => {
  if (testDb() === 'postgres') pgServer = await postgresForPgDump();
}, 60_000);
// Two server processes, their databases and a PostgreSQL cluster of its own to stop: more than the
// default 20 s a hook has on a loaded machine (a full run once took longer), as the start has 60 s.
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const database of databases) await database.drop();
  await pgServer?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Runs `npm run backup` or `npm run restore` as npm does (tsx), with the data location in its environment. */
function runCommand(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `server/backup/${script}.ts`, ...args], {
      cwd: process.cwd(),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code) => resolve({ code, output }));
  });
}

interface Ack {
  kind: 'page' | 'block' | 'file';
  id: string;
  pageId: string;
  /** A page's title, a block's text, a file's bytes. */
  content: string | Buffer;
}

async function call<T>(url: string, cookie: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
  try {
    return ((await res.json()) as { data: T }).data;
  } catch (error) {
    throw new Error(`${method} ${url} → ${res.status}: the answer could not be read (${JSON.stringify([...res.headers])})`, { cause: error });
  }
}

async function upload(url: string, cookie: string, pageId: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('pageId', pageId);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'data.bin');
  const res = await fetch(`${url}/api/file/page`, { method: 'POST', headers: { cookie }, body: form });
  if (!res.ok) throw new Error(`upload → ${res.status} ${await res.text()}`);
  try {
    return ((await res.json()) as { data: { data: string } }).data.data;
  } catch (error) {
    throw new Error(`upload → ${res.status}: the answer could not be read (${JSON.stringify([...res.headers])})`, { cause: error });
  }
}

test('a backup taken under write load restores every write acknowledged before it started, and the files byte for byte', async () => {
  const dataDir = tempDir('backup-source-');
  const sourceEnv: Record<string, string> = { DATA_DIR: dataDir, LOG_REQUESTS: 'false' };
  const sourceUrl = await newDatabaseUrl();
  if (sourceUrl) sourceEnv.DATABASE_URL = sourceUrl;
  const server = await startServerProcess(sourceEnv);
  servers.push(server);
  const cookie = await signInToProcess(server, EMAIL);
  const acks: Ack[] = [];
  const filesPage = await call<{ id: string; title: string }>(`${server.url}/api/v3/spaces/section/private`, cookie, 'POST', { title: 'Файлы' });
  acks.push({ kind: 'page', id: filesPage.id, pageId: filesPage.id, content: 'Файлы' });
  // Files before the load: the backup copies them while the writes go on.
  for (let i = 0; i < 24; i++) {
    const bytes = crypto.randomBytes(20_000 + i * 9_000);
    acks.push({ kind: 'file', id: await upload(server.url, cookie, filesPage.id, bytes), pageId: filesPage.id, content: bytes });
  }

  // SQLite: a long read (an export, a search rebuild, another backup…) holds the WAL's checkpoints
  // back, so the newest writes are in the WAL only, as they may be at any moment: a backup that
  // copied the database file would miss them.
  let reader: SQLite.Database | undefined;
  if (!sourceUrl) {
    reader = new SQLite(path.join(dataDir, SQLITE_FILE), { readonly: true });
    reader.exec('begin');
    reader.prepare('select count(*) from pages').get();
  }

  // Four clients write until told to stop; the first error stops them all and fails the test.
  let writing = true;
  let loadError: unknown;
  const client = (write: () => Promise<void>) => async () => {
    try {
      while (writing) await write();
    } catch (error) {
      loadError ??= error;
      writing = false;
    }
  };
  const pageWriter = (w: number) => {
    let i = 0;
    return client(async () => {
      const title = `Страница ${w}-${i}`;
      const page = await call<{ id: string }>(`${server.url}/api/v3/spaces/section/private`, cookie, 'POST', { title });
      acks.push({ kind: 'page', id: page.id, pageId: page.id, content: title });
      let after: string | null = null;
      for (let j = 0; j < 3 && writing; j++) {
        const text = `блок ${w}-${i}-${j}`;
        const block: WireBlock = await call<WireBlock>(`${server.url}/api/v3/spaces/block`, cookie, 'POST', {
          pageId: page.id,
          type: 'text',
          data: { tokens: [{ text }] },
          placeAfter: after,
        });
        acks.push({ kind: 'block', id: block.id, pageId: page.id, content: text });
        after = block.id;
      }
      i += 1;
    });
  };
  const uploader = client(async () => {
    const bytes = crypto.randomBytes(5_000 + crypto.randomInt(60_000));
    acks.push({ kind: 'file', id: await upload(server.url, cookie, filesPage.id, bytes), pageId: filesPage.id, content: bytes });
  });
  const load = Promise.all([pageWriter(0)(), pageWriter(1)(), pageWriter(2)(), uploader()]);

  const backupDir = path.join(tempDir('backup-out-'), 'backup');
  let backup: Awaited<ReturnType<typeof runCommand>> | undefined;
  // Acknowledgements are counted by their place in `acks`, not their time: one that came in the
  // millisecond the backup started is not taken for one after it.
  let acksBefore!: number;
  let acksBy!: number;
  try {
    // The backup starts once the load has written a good deal.
    const count = (kind: Ack['kind']) => acks.filter((ack) => ack.kind === kind).length;
    while (writing && (count('block') < 60 || count('file') < 28)) await new Promise((resolve) => setTimeout(resolve, 50));
    acksBefore = acks.length;
    backup = await runCommand('backup', [backupDir], sourceEnv);
    acksBy = acks.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    writing = false;
    await load;
    reader?.exec('commit');
    reader?.close();
  }
  if (loadError) throw loadError;
  await server.stop();

  expect([backup?.code, backup?.output]).toEqual([0, expect.stringMatching(/^backup written to /)]);
  const before = acks.slice(0, acksBefore);
  const during = acks.slice(acksBefore, acksBy);
  // The load was real on both sides of the start: many writes before it, and writes went on while it ran.
  expect(before.filter((ack) => ack.kind === 'block').length).toBeGreaterThanOrEqual(60);
  expect(before.filter((ack) => ack.kind === 'file').length).toBeGreaterThanOrEqual(28);
  expect(during.length).toBeGreaterThan(10);

  // Restored into a new data location…
  const restoredDir = tempDir('backup-restored-');
  const restoredEnv: Record<string, string> = { DATA_DIR: restoredDir, LOG_REQUESTS: 'false' };
  const restoredUrl = await newDatabaseUrl();
  if (restoredUrl) restoredEnv.DATABASE_URL = restoredUrl;
  const restore = await runCommand('restore', [backupDir], restoredEnv);
  expect([restore.code, restore.output]).toEqual([0, expect.stringMatching(/^restored the backup of /)]);
  if (!restoredUrl) {
    const db = new SQLite(path.join(restoredDir, SQLITE_FILE), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  }

  // …the server starts on it, and the session signed in before the backup still works.
  const restored = await startServerProcess(restoredEnv);
  servers.push(restored);
  const missing: string[] = [];
  for (const pageId of new Set(before.map((ack) => ack.pageId))) {
    const page = await call<{ title: string }>(`${restored.url}/api/v3/spaces/element/${pageId}`, cookie, 'GET').catch(() => undefined);
    const blocks = page ? await call<WireBlock[]>(`${restored.url}/api/v3/spaces/note/${pageId}/blocks`, cookie, 'GET') : [];
    const texts = new Map(blocks.map((block) => [block.id, (block.data as { tokens: Array<{ text: string }> }).tokens.map((token) => token.text).join('')]));
    for (const ack of before.filter((a) => a.pageId === pageId)) {
      if (ack.kind === 'page' && page?.title !== ack.content) missing.push(`page ${ack.content}`);
      if (ack.kind === 'block' && texts.get(ack.id) !== ack.content) missing.push(`block ${ack.content}`);
    }
  }
  for (const ack of before.filter((a) => a.kind === 'file')) {
    const res = await fetch(`${restored.url}/api/file/${ack.id}`, { headers: { cookie } });
    const read = () =>
      res.arrayBuffer().catch((error: unknown) => {
        throw new Error(`GET /api/file/${ack.id} → ${res.status}: the answer could not be read (${JSON.stringify([...res.headers])})`, { cause: error });
      });
    const bytes = res.ok ? Buffer.from(await read()) : undefined;
    if (!bytes?.equals(ack.content as Buffer)) missing.push(`file ${ack.id} (${res.status})`);
  }
  expect(missing).toEqual([]);
}, 180_000);
