import pg from 'pg';

const EMBEDDED_PG_KEY = '__embeddedPostgres__';

/**
 * Stops the embedded PostgreSQL of postgresGlobalSetup.mjs and removes its directory; on a server
 * of DATABASE_URL, drops this run's template database instead.
 */
export default async function postgresGlobalTeardown() {
  const server = globalThis[EMBEDDED_PG_KEY];
  if (!server) {
    const template = process.env.TEST_PG_TEMPLATE;
    if (!process.env.DATABASE_URL || !template) return;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    return;
  }
  delete globalThis[EMBEDDED_PG_KEY];
  await server.stop();
}
