import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { connectDatabase } from '../../server/db/connect';
import type { Database } from '../../server/db/types';
import { MIGRATIONS, migrateToLatest } from '../../server/db/migrate';
import { Migrator, type Kysely } from 'kysely';
import type { MailMessage, Mailer } from '../../server/mail';
import type { ApiResponse } from '../../schema/envelope';
import { captureSeed, databaseUrl, dropDatabase, takePostgresDatabase, withClient } from './postgresPool';

export type TestDb = 'sqlite' | 'postgres';

declare global {
  /** Set per Jest project in jest.config.js (`globals`): the database the integration suite runs on. */
  var __TEST_DB__: TestDb | undefined;
}

/** The database of the running Jest project. */
export function testDb(): TestDb {
  const db = globalThis.__TEST_DB__;
  if (db !== 'sqlite' && db !== 'postgres') throw new Error('__TEST_DB__ is not set: run through a jest project (sqlite or postgres)');
  return db;
}

/** A mailer that keeps every sign-in code it was asked to send, per e-mail. */
export class CapturingMailer implements Mailer {
  readonly sent = new Map<string, string[]>();

  async sendLoginCode(email: string, code: string): Promise<void> {
    this.sent.set(email, [...(this.sent.get(email) ?? []), code]);
  }

  /** Every other e-mail sent, in order. */
  readonly messages: MailMessage[] = [];

  async send(message: MailMessage): Promise<void> {
    this.messages.push(message);
  }

  /** The newest code sent to an e-mail; throws when none was sent. */
  lastCode(email: string): string {
    const codes = this.sent.get(email.trim().toLowerCase()) ?? [];
    const code = codes[codes.length - 1];
    if (code === undefined) throw new Error(`no sign-in code was sent to ${email}`);
    return code;
  }

  close(): void {}
}

export interface TestApp {
  /** May be replaced by a test that restarts the server on the same database; close() closes the current one. */
  app: FastifyInstance;
  mailer: CapturingMailer;
  config: Config;
  /** Closes the app and removes its database. */
  close(): Promise<void>;
}

/** A fresh database on the test PostgreSQL (TEST_PG_ADMIN_URL, or another server's admin URL), and how to drop it; empty, or a copy of `template`. */
export async function createPostgresDatabase(
  adminUrl = process.env.TEST_PG_ADMIN_URL,
  { template }: { template?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!adminUrl) throw new Error('TEST_PG_ADMIN_URL is not set: the postgres global setup did not run');
  const name = `t_${crypto.randomBytes(8).toString('hex')}`;
  await withClient(adminUrl, async (admin) => {
    if (template) {
      // The copy keeps the template's encoding and collation.
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } else {
      // A linguistic collation, as most installed servers have (e.g. en_US.UTF-8 in the official
      // Docker image), so that code relying on byte-order text comparison fails here too.
      // Servers built without ICU get their default collation.
      await admin
        .query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`)
        .catch(() => admin.query(`CREATE DATABASE ${name}`));
    }
  });
  return { url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

/**
 * A fresh database of the run's kind (SQLite in a temporary folder, or a new PostgreSQL database)
 * with the migrations up to and including `upTo` (all when absent; none with `upTo: null`), and
 * how to remove it: for tests of a migration and of SQL outside the app.
 */
export async function migratedDatabase(name: string, upTo?: string | null): Promise<{ db: Kysely<Database>; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const pgDatabase = testDb() === 'postgres' ? await createPostgresDatabase() : undefined;
  const { db } = connectDatabase({ databaseUrl: pgDatabase?.url, sqliteFile: path.join(dir, 'db.sqlite') });
  if (upTo !== null) {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    const { error } = upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo);
    if (error) throw error;
  }
  return {
    db,
    async close() {
      await db.destroy();
      await pgDatabase?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * This run's migrated database on the test PostgreSQL (TEST_PG_TEMPLATE, named by the global
 * setup), made by whichever Jest worker asks first, under an advisory lock: test databases are
 * copies of it (`CREATE DATABASE … TEMPLATE`, a file copy) instead of each running every
 * migration (issue 35). Nobody stays connected to it, which a copy requires.
 */
async function migratedTemplate(): Promise<string | undefined> {
  const template = process.env.TEST_PG_TEMPLATE;
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  if (!template || !adminUrl) return undefined;
  templateReady ??= (async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock(3535)');
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (!rowCount) {
        const made = await createPostgresDatabase(adminUrl);
        await migrate(made.url);
        await captureSeed(made.url);
        await admin.query(`ALTER DATABASE ${new URL(made.url).pathname.slice(1)} RENAME TO ${template}`);
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock(3535)').catch(() => {});
      await admin.end();
    }
  })().catch((error: unknown) => {
    templateReady = null;
    throw error;
  });
  await templateReady;
  return template;
}
let templateReady: Promise<void> | null = null;

/** A fresh PostgreSQL database, migrated already (a copy of this run's template), so that several server processes on it start at once. */
export async function createMigratedPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await migratedTemplate();
  if (template) return createPostgresDatabase(undefined, { template });
  const database = await createPostgresDatabase();
  await migrate(database.url);
  return database;
}

/** A migrated database for one test app, used again after it (test/helpers/postgresPool.ts). */
async function reusedPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await migratedTemplate();
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  // TEST_PG_REUSE=0: a new database for every app, as before (to rule the reuse out).
  if (!template || !adminUrl || process.env.TEST_PG_REUSE === '0') return createMigratedPostgresDatabase();
  return takePostgresDatabase(adminUrl, createMigratedPostgresDatabase);
}

/** Runs every migration on the PostgreSQL database at `url`. */
async function migrate(url: string): Promise<void> {
  const handle = connectDatabase({ databaseUrl: url, sqliteFile: ':memory:' });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.db.destroy();
  }
}

/**
 * A fresh server on a fresh database of the project's kind (SQLite file in a temp dir, or a new
 * PostgreSQL database — on the test PostgreSQL, or on the server of `pgAdminUrl`), with a log
 * shown only for a response of 500 or more, and a mailer that captures sign-in codes.
 */
export async function createTestApp(overrides: Partial<Config> = {}, options: { pgAdminUrl?: string } = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-test-'));
  const database = testDb() !== 'postgres' ? undefined : options.pgAdminUrl ? await createPostgresDatabase(options.pgAdminUrl) : await reusedPostgresDatabase();
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl: database?.url,
      // No web build: tests that need one pass their own webDir.
      webDir: path.join(dataDir, 'no-web-build'),
      // Tests play clients at several addresses through X-Forwarded-For, as behind a proxy.
      trustProxy: true,
      // The per-user limits of expensive calls are off: tests poll search and import many times.
      // The tests of those limits set them (server/plugins/userLimits.int.test.ts).
      userLimits: { searchPer10s: 0, importsPer10Min: 0, importsAtOnce: 0, importsAtOnceTotal: 0, exportsPer10Min: 0, rowBatchesPerMinute: 0 },
      ...overrides,
    },
  );
  const mailer = new CapturingMailer();
  let app: FastifyInstance;
  try {
    // The log is kept, not shown: a test that gets a 500 prints what the server logged for that
    // request (a rare 500 on a loaded CI machine is otherwise a bare status).
    const logged: string[] = [];
    const stream = { write: (line: string) => void (logged.push(line) > 200 && logged.shift()) };
    app = await buildApp(config, { logger: { level: 'warn', stream }, mailer });
    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode < 500) return;
      const lines = logged.filter((line) => line.includes(`"reqId":"${request.id}"`));
      console.error(`${reply.statusCode} for ${request.method} ${request.url}; the server logged:\n${lines.join('') || '(nothing)'}`);
    });
    await app.ready();
  } catch (error) {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const testApp: TestApp = {
    app,
    mailer,
    config,
    async close() {
      await testApp.app.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/** The body as the multipart/form-data a browser's FormData would send: the fields, then the file (in `file`) if given. */
export async function formData(
  fields: Record<string, string>,
  file?: { name: string; type: string; content: Uint8Array },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);
  const request = new Request('http://test.invalid/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** The body as application/x-www-form-urlencoded. */
export function urlEncoded(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  return {
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

/** The parsed JSON envelope of a response. */
export function body<T = unknown>(response: LightMyRequestResponse): ApiResponse<T> {
  return response.json<ApiResponse<T>>();
}

/** The `data` of a response that must have `status` (else the test fails showing the body). */
export function expectOk<T>(response: LightMyRequestResponse, status = 200): T {
  expect([response.statusCode, response.statusCode === status ? '' : response.body]).toEqual([status, '']);
  return body<T>(response).data;
}

/** Query parameters JSON-encoded, as the API reads them (spec §7); undefined ones left out. */
export function jsonQueryString(params: Record<string, unknown>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');
}

/** The stable error code of a response (the first error of the envelope). */
export function errorCode(response: LightMyRequestResponse): string | undefined {
  return body(response).errors[0]?.code;
}

export async function sendCode(t: TestApp, email: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const form = urlEncoded({ email });
  return t.app.inject({ method: 'POST', url: '/api/auth/send_code', payload: form.payload, headers: { ...form.headers, ...headers } });
}

export async function login(t: TestApp, email: string, pin: string): Promise<LightMyRequestResponse> {
  const form = urlEncoded({ email, pin });
  return t.app.inject({ method: 'POST', url: '/api/auth/login', payload: form.payload, headers: form.headers });
}

/** The `sid=…` cookie header value set by a response. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const sid = response.cookies.find((c) => c.name === 'sid');
  if (!sid) throw new Error(`no session cookie in the response (status ${response.statusCode}): ${response.body}`);
  return `sid=${sid.value}`;
}

/**
 * Signs in through the real flow (send_code, read the mailed code, login) and returns the
 * session cookie to send as the `cookie` header of later requests.
 */
export async function signIn(t: TestApp, email: string): Promise<string> {
  const sent = await sendCode(t, email);
  if (sent.statusCode !== 200) throw new Error(`send_code answered ${sent.statusCode}: ${sent.body}`);
  const response = await login(t, email, t.mailer.lastCode(email));
  if (response.statusCode !== 200) throw new Error(`login answered ${response.statusCode}: ${response.body}`);
  return sessionCookie(response);
}

/** A JSON API call as a signed-in user (or anonymous when cookie is undefined). */
export function api(
  t: TestApp,
  cookie: string | undefined,
  method: NonNullable<InjectOptions['method']>,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
}

/** How many rows a table holds (a refused call must leave it as it was). */
export async function countRows(t: TestApp, table: keyof Database): Promise<number> {
  const { n } = await t.app.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
