/** SQLite needs no shared server: every test app opens its own temporary database file. */
export default async function sqliteGlobalSetup() {}
