import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { postgresForPgDump } from '../../test/helpers/postgresCluster';
import { startS3Server } from '../../test/helpers/s3Server';
import { S3Store } from '../files/s3Store';
import { api, createPostgresDatabase, createTestApp, expectOk, signIn, testDb, type TestApp } from '../../test/helpers/testApp';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { connectDatabase } from '../db/connect';
import { MIGRATIONS } from '../db/migrate';
import { SQLITE_FILE } from '../plugins/db';
import { BackupError, FILES_DIR, MANIFEST_FILE, readManifest, type Manifest } from './manifest';
import { restoreBackup } from './restoreBackup';
import { takeBackup } from './takeBackup';

/**
 * takeBackup and restoreBackup (server/backup/) on both databases: a backup of an older schema
 * restored and migrated by the app's start; a restore refused — target in use, target holding
 * data, a backup missing, interrupted or damaged — changes nothing; `force` keeps what was there
 * aside. The write-load test is backupUnderLoad.int.test.ts.
 */

let pgServer: Awaited<ReturnType<typeof postgresForPgDump>> | undefined;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  if (testDb() === 'postgres') pgServer = await postgresForPgDump();
}, 60_000);
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await pgServer?.stop();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A data location of the project's database that no server has opened yet. */
async function emptyLocation(): Promise<Config> {
  const dataDir = tempDir('restore-target-');
  let databaseUrl: string | undefined;
  if (pgServer) {
    const database = await createPostgresDatabase(pgServer.adminUrl);
    cleanups.push(() => database.drop());
    databaseUrl = database.url;
  }
  return loadConfig({}, { dataDir, databaseUrl, webDir: path.join(dataDir, 'no-web-build'), logLevel: 'silent' });
}

async function testApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const t = await createTestApp(overrides, { pgAdminUrl: pgServer?.adminUrl });
  cleanups.push(() => t.close());
  return t;
}

/** Uploads a file to a page through the API; answers its id. */
async function upload(t: TestApp, cookie: string, pageId: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('pageId', pageId);
  form.append('file', new Blob([new Uint8Array(bytes)]), 'data.bin');
  const request = new Request('http://test.invalid/', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/file/page',
    headers: { cookie, 'content-type': request.headers.get('content-type') ?? '' },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return expectOk<{ data: string }>(res).data;
}

async function createPage(t: TestApp, cookie: string, title: string): Promise<string> {
  return expectOk<{ id: string }>(await api(t, cookie, 'POST', '/api/v3/spaces/section/private', { title }), 201).id;
}

/** Everything a restore could change at a data location: the SQLite file's or the database's content, and the files directory. */
async function locationState(config: Config): Promise<string> {
  const files = fs.existsSync(config.filesDir)
    ? fs
        .readdirSync(config.filesDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
    : [];
  const hash = crypto.createHash('sha256');
  for (const file of files.sort()) hash.update(file).update(fs.readFileSync(file));
  const { db } = connectDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, SQLITE_FILE) });
  try {
    const pages = await db.selectFrom('pages').select(['id', 'title']).orderBy('id').execute();
    const blocks = await db.selectFrom('blocks').select(['id', 'version']).orderBy('id').execute();
    return JSON.stringify({ dir: fs.readdirSync(config.dataDir).sort(), files: hash.digest('hex'), pages, blocks });
  } finally {
    await db.destroy();
  }
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackupError);
  return (error as BackupError).message;
}

test('a backup of an older schema restores, and the app migrates it at its start', async () => {
  const source = await emptyLocation();
  const names = Object.keys(MIGRATIONS);
  const older = names[names.length - 3];
  const { db } = connectDatabase({ databaseUrl: source.databaseUrl, sqliteFile: path.join(source.dataDir, SQLITE_FILE) });
  const migrated = await new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } }).migrateTo(older);
  expect(migrated.error).toBeUndefined();
  await db.destroy();

  const dir = path.join(tempDir('backup-'), 'b');
  const manifest = await takeBackup(source, dir);
  expect(manifest.database).toMatchObject({ kind: testDb(), migration: older });
  expect(manifest.files).toEqual({ count: 0, bytes: 0, list: [], missing: [] });

  const target = await emptyLocation();
  await restoreBackup(target, dir);
  const app = await buildApp(target, { logger: false });
  try {
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(app.db);
    expect(applied.rows.map((row) => row.name)).toEqual(names);
  } finally {
    await app.close();
  }
});

test('with files in S3: the backup reads them from the bucket, the restore puts them into the target bucket', async () => {
  const [from, to] = [await startS3Server('backup-from'), await startS3Server('backup-to')];
  cleanups.push(
    () => from.stop(),
    () => to.stop(),
  );
  const source = await testApp({ s3: from.config });
  const cookie = await signIn(source, 'owner@example.com');
  const bytes = crypto.randomBytes(90_000);
  await upload(source, cookie, await createPage(source, cookie, 'В корзине S3'), bytes);
  const dir = path.join(tempDir('backup-'), 'b');
  const manifest = await takeBackup(source.config, dir);
  expect(manifest.files.missing).toEqual([]);
  expect(manifest.files.list.map((f) => f.sha256)).toEqual([crypto.createHash('sha256').update(bytes).digest('hex')]);
  // Nothing on the source's own disk: the bytes came from the bucket.
  expect(fs.existsSync(source.config.filesDir) ? fs.readdirSync(source.config.filesDir) : []).toEqual([]);

  const target = { ...(await emptyLocation()), s3: to.config };
  await restoreBackup(target, dir);
  const [file] = manifest.files.list;
  const stored = await new S3Store(to.config).get(file.key);
  expect(Buffer.concat(await stored!.toArray())).toEqual(bytes);
  expect(fs.existsSync(target.filesDir) ? fs.readdirSync(target.filesDir) : []).toEqual([]);
}, 60_000);

describe('a restore that is refused changes nothing', () => {
  let source: TestApp;
  let cookie: string;
  let dir: string;
  let manifest: Manifest;
  let target: Config;
  let targetBefore: string;
  const bytes = crypto.randomBytes(70_000);

  beforeAll(async () => {
    source = await testApp();
    cookie = await signIn(source, 'owner@example.com');
    const pageId = await createPage(source, cookie, 'Из копии');
    await upload(source, cookie, pageId, bytes);
    dir = path.join(tempDir('backup-'), 'b');
    manifest = await takeBackup(source.config, dir);

    // A target with data of its own, stopped.
    const other = await testApp();
    const otherCookie = await signIn(other, 'other@example.com');
    await upload(other, otherCookie, await createPage(other, otherCookie, 'Своя'), crypto.randomBytes(1000));
    await other.app.close();
    target = other.config;
    targetBefore = await locationState(target);
  }, 60_000);

  test('the backup holds the database and the file, with checksums', async () => {
    expect(manifest.files.count).toBe(1);
    const [file] = manifest.files.list;
    expect(fs.readFileSync(path.join(dir, FILES_DIR, ...file.key.split('/')))).toEqual(bytes);
    expect(file.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
    expect(await readManifest(dir)).toEqual(manifest);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(await refusal(takeBackup(source.config, dir))).toMatch(/exists already/);
  });

  test('into a location in use by a server', async () => {
    const before = await locationState(source.config);
    expect(await refusal(restoreBackup(source.config, dir, { force: true }))).toMatch(/is in use.*stop the server first/);
    expect(await locationState(source.config)).toBe(before);
  });

  test('into a location holding data, without force', async () => {
    expect(await refusal(restoreBackup(target, dir))).toMatch(/already holds data.*--force/);
    expect(await locationState(target)).toBe(targetBefore);
  });

  /** A copy of the backup, spoiled by `spoil`. */
  async function spoiled(spoil: (copy: string) => void): Promise<string> {
    const copy = path.join(tempDir('spoiled-'), 'b');
    fs.cpSync(dir, copy, { recursive: true });
    spoil(copy);
    return copy;
  }
  const editManifest = (copy: string, edit: (manifest: Record<string, unknown>) => void) => {
    const json = JSON.parse(fs.readFileSync(path.join(copy, MANIFEST_FILE), 'utf8')) as Record<string, unknown>;
    edit(json);
    fs.writeFileSync(path.join(copy, MANIFEST_FILE), JSON.stringify(json));
  };
  const flipByte = (file: string, at: number) => {
    const content = fs.readFileSync(file);
    content[at] ^= 0xff;
    fs.writeFileSync(file, content);
  };

  test.each<[string, (copy: string) => void, RegExp]>([
    ['a directory that does not exist', (copy) => fs.rmSync(copy, { recursive: true }), /no backup at .*does not exist/],
    ['an interrupted backup (no manifest)', (copy) => fs.rmSync(path.join(copy, MANIFEST_FILE)), /not a complete backup: it has no manifest\.json/],
    ['a manifest that is not JSON', (copy) => fs.writeFileSync(path.join(copy, MANIFEST_FILE), '{"format": "blocknote-wor'), /manifest\.json is damaged/],
    ['a manifest of another format', (copy) => editManifest(copy, (m) => (m.formatVersion = 2)), /not one this version can read: formatVersion/],
    [
      'a changed file',
      (copy) => flipByte(path.join(copy, FILES_DIR, ...manifest.files.list[0].key.split('/')), 1000),
      /damaged: files\/.* does not match its checksum/,
    ],
    ['a missing file', (copy) => fs.rmSync(path.join(copy, FILES_DIR, ...manifest.files.list[0].key.split('/'))), /incomplete: files\/.* is missing/],
    ['a truncated database', (copy) => fs.truncateSync(path.join(copy, manifest.database.file), 4096), /damaged: database\.(sqlite|pgdump) does not match/],
    [
      'a database from a newer version',
      (copy) => editManifest(copy, (m) => ((m.database as { migration: string }).migration = '2099-01-01-0001-future')),
      /newer version of the app/,
    ],
    [
      'a backup of the other database',
      (copy) => editManifest(copy, (m) => ((m.database as { kind: string }).kind = testDb() === 'sqlite' ? 'postgres' : 'sqlite')),
      /this backup is of a (PostgreSQL|SQLite) database/,
    ],
  ])('%s, even with force', async (_, spoil, message) => {
    expect(await refusal(restoreBackup(target, await spoiled(spoil), { force: true }))).toMatch(message);
    expect(await locationState(target)).toBe(targetBefore);
  });

  test('a manifest that leads a file outside the file store is refused', async () => {
    const copy = await spoiled((c) => editManifest(c, (m) => ((m.files as { list: Array<{ key: string }> }).list[0].key = '../../escape')));
    expect(await refusal(restoreBackup(target, copy, { force: true }))).toMatch(/files\.list\.0\.key: a relative storage key/);
  });

  test('with force, the backup replaces the data, and what was there is kept aside', async () => {
    const { keptAside } = await restoreBackup(target, dir, { force: true });
    expect(keptAside).toHaveLength(2);
    for (const kept of keptAside) if (!kept.startsWith('schema ')) expect(fs.existsSync(kept)).toBe(true);
    const app = await buildApp(target, { logger: false });
    try {
      const titles = await app.db.selectFrom('pages').select('title').execute();
      expect(titles.map((row) => row.title)).toContain('Из копии');
      expect(titles.map((row) => row.title)).not.toContain('Своя');
      const [file] = manifest.files.list;
      expect(fs.readFileSync(path.join(target.filesDir, ...file.key.split('/')))).toEqual(bytes);
    } finally {
      await app.close();
    }
  });
});

/** Runs `npm run backup` / `npm run restore` as npm does. */
function runCommand(
  script: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `server/backup/${script}.ts`, ...args], {
      cwd: process.cwd(),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('the commands fail with one clear line and exit code 1', async () => {
  const target = await emptyLocation();
  const env = { DATA_DIR: target.dataDir, ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}) };
  const missing = path.join(target.dataDir, 'no-such-backup');
  const [restore, backup] = await Promise.all([
    runCommand('restore', [missing], env),
    // SQLite: no database where DATA_DIR says; PostgreSQL: no pg_dump where PG_BIN_DIR says.
    runCommand('backup', [path.join(target.dataDir, 'out')], { ...env, PG_BIN_DIR: path.join(target.dataDir, 'no-bin') }),
  ]);
  expect(restore).toEqual({ code: 1, stdout: '', stderr: `restore failed: no backup at ${missing}: the directory does not exist\n` });
  expect(backup.code).toBe(1);
  expect(backup.stderr).toMatch(
    testDb() === 'sqlite'
      ? /^backup failed: no database at .*workspace\.sqlite \(is DATA_DIR right\?\)\n$/
      : /^backup failed: pg_dump of PostgreSQL \d+ or newer is needed and was not found .* PG_BIN_DIR=.*\n$/,
  );
  expect(fs.existsSync(path.join(target.dataDir, 'out'))).toBe(false);
}, 60_000);
