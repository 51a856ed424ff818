import { startEmbeddedPostgres } from './embeddedPostgres.mjs';

/** Where the teardown finds the embedded server (global setup and teardown share one process). */
const EMBEDDED_PG_KEY = '__embeddedPostgres__';

/**
 * The PostgreSQL the `postgres` test project runs against. DATABASE_URL, when set, is used as
 * the admin URL (each test app creates and drops its own database there); otherwise an
 * embedded PostgreSQL is started in a fresh temporary directory on a free port (about 1 s).
 * Workers inherit the admin URL as TEST_PG_ADMIN_URL.
 */
export default async function postgresGlobalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  const server = await startEmbeddedPostgres();
  globalThis[EMBEDDED_PG_KEY] = server;
  process.env.TEST_PG_ADMIN_URL = server.url;
}
