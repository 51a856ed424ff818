import { sql } from 'kysely';
import pg from 'pg';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import { api, body, CapturingMailer, createTestApp, signIn, testDb, type TestApp } from '../../test/helpers/testApp';
import { buildApp } from '../app';
import { MIGRATIONS } from './migrate';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

test('the app runs on the database of this project', () => {
  expect(t.app.dbKind).toBe(testDb());
});

test('a restarted server finds its data, sessions included, and migrating again is a no-op', async () => {
  const cookie = await signIn(t, 'ann@example.com');
  const page = body<WireElement>(await api(t, cookie, 'POST', '/api/v3/spaces/section/private', { title: 'Kept' })).data;
  const block = body<WireBlock>(
    await api(t, cookie, 'POST', '/api/v3/spaces/block', { pageId: page.id, type: 'text', data: { tokens: [{ text: 'kept' }] } }),
  ).data;
  await t.app.close();

  // Same config, same database: what `npm start` does after a restart.
  t.app = await buildApp(t.config, { logger: false, mailer: new CapturingMailer() });
  const migrations = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(t.app.db);
  expect(migrations.rows.map((m) => m.name)).toEqual(Object.keys(MIGRATIONS).sort());
  expect(Object.keys(MIGRATIONS)).toContain('2026-11-21-0001-initial');
  expect(body<WireElement>(await api(t, cookie, 'GET', `/api/v3/spaces/element/${page.id}`)).data.title).toBe('Kept');
  expect(body<WireBlock[]>(await api(t, cookie, 'GET', `/api/v3/spaces/note/${page.id}/blocks`)).data).toEqual([block]);
});

const onPostgres = testDb() === 'postgres' ? test : test.skip;

onPostgres('losing idle PostgreSQL connections (restart, failover) does not bring the server down', async () => {
  const cookie = await signIn(t, 'ann@example.com');
  // Open a few pooled connections and leave them idle.
  await Promise.all(Array.from({ length: 4 }, () => api(t, cookie, 'GET', '/api/v3/spaces/workspace')));

  const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    const database = new URL(t.config.databaseUrl ?? '').pathname.slice(1);
    const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    expect(killed.rowCount).toBeGreaterThan(0);
  } finally {
    await admin.end();
  }
  // Let the pool hear about the dead connections.
  await new Promise((resolve) => setTimeout(resolve, 300));

  const res = await api(t, cookie, 'GET', '/api/v3/spaces/workspace');
  expect(res.statusCode).toBe(200);
});

onPostgres('a connection lost while checked out between two statements fails that work only', async () => {
  const cookie = await signIn(t, 'ann@example.com');
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const inside = new Promise<void>((resolve) => (started = resolve));
  // A transaction holds its connection with no statement running, as a job between two writes does.
  const work = t.app.db.transaction().execute(async (trx) => {
    await sql`SELECT 1`.execute(trx);
    started();
    await held;
    await sql`SELECT 1`.execute(trx);
  });
  const outcome = work.then(
    () => 'committed',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  await inside;
  const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    const database = new URL(t.config.databaseUrl ?? '').pathname.slice(1);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  } finally {
    await admin.end();
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  expect(await outcome).not.toBe('committed');

  const res = await api(t, cookie, 'GET', '/api/v3/spaces/workspace');
  expect(res.statusCode).toBe(200);
});
