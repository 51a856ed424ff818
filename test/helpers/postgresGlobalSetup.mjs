import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, THROWAWAY_POSTGRES_FLAGS } from './embeddedPostgres.mjs';

/** Where the teardown finds the embedded server (global setup and teardown share one process). */
const EMBEDDED_PG_KEY = '__embeddedPostgres__';

/**
 * The PostgreSQL the `postgres` test project runs against. DATABASE_URL, when set, is used as
 * the admin URL (each test app creates and drops its own database there); otherwise an
 * embedded PostgreSQL is started in a fresh temporary directory on a free port (about 1 s),
 * without waiting for the disk (THROWAWAY_POSTGRES_FLAGS: its data is thrown away after the run).
 * Workers inherit the admin URL as TEST_PG_ADMIN_URL.
 */
export default async function postgresGlobalSetup() {
  // This run's migrated template, made by the first worker that needs it (test/helpers/testApp.ts),
  // what the migrations left in it (the seed the reused databases are filled back with), and the
  // names of the databases the workers keep to use again (test/helpers/postgresPool.ts).
  const run = `${process.pid}_${Date.now()}`;
  process.env.TEST_PG_TEMPLATE = `t_template_${run}`;
  process.env.TEST_PG_SEED_FILE = path.join(os.tmpdir(), `t_template_${run}.seed.json`);
  process.env.TEST_PG_KEPT_PREFIX = `tf_${run}_`;
  if (process.env.DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  const server = await startEmbeddedPostgres({ flags: THROWAWAY_POSTGRES_FLAGS });
  globalThis[EMBEDDED_PG_KEY] = server;
  process.env.TEST_PG_ADMIN_URL = server.url;
}
