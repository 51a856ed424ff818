/** Nothing to stop: see sqliteGlobalSetup.mjs. */
export default async function sqliteGlobalTeardown() {}
