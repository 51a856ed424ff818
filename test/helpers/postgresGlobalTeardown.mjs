import fs from 'node:fs';
import pg from 'pg';

const EMBEDDED_PG_KEY = '__embeddedPostgres__';

/**
 * Stops the embedded PostgreSQL of postgresGlobalSetup.mjs and removes its directory; on a server
 * of DATABASE_URL, drops this run's template database and the test databases kept to use again instead.
 */
export default async function postgresGlobalTeardown() {
  const server = globalThis[EMBEDDED_PG_KEY];
  const template = process.env.TEST_PG_TEMPLATE;
  // What the emptied databases are filled back with (test/helpers/postgresPool.ts).
  if (process.env.TEST_PG_SEED_FILE) fs.rmSync(process.env.TEST_PG_SEED_FILE, { force: true });
  if (!server) {
    if (!process.env.DATABASE_URL || !template) return;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      // The template, and the databases the workers kept to use again (TEST_PG_KEPT_PREFIX).
      const kept = await admin.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [process.env.TEST_PG_KEPT_PREFIX]);
      for (const name of [template, ...kept.rows.map((row) => row.datname)]) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    return;
  }
  delete globalThis[EMBEDDED_PG_KEY];
  await server.stop();
}
