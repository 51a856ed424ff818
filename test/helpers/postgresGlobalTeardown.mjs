const EMBEDDED_PG_KEY = '__embeddedPostgres__';

/** Stops the embedded PostgreSQL of postgresGlobalSetup.mjs and removes its directory (nothing to do with DATABASE_URL). */
export default async function postgresGlobalTeardown() {
  const server = globalThis[EMBEDDED_PG_KEY];
  if (!server) return;
  delete globalThis[EMBEDDED_PG_KEY];
  await server.stop();
}
