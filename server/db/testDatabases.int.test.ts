import pg from 'pg';
import { createTestApp, testDb } from '../../test/helpers/testApp';
import { actor, createPage } from '../../test/helpers/pages';
import { keptPrefix, withClient } from '../../test/helpers/postgresPool';

/*
 * The test PostgreSQL's databases used again (test/helpers/postgresPool.ts, issue 35): a test
 * app's database, once closed, comes back to the next one as the migrations left it — or is not
 * used again. The integration suite relies on it: a row left behind would show in another test.
 */

const onPostgres = testDb() === 'postgres' ? test : test.skip;

const query = <T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> => withClient(url, async (client) => (await client.query<T>(sql)).rows);

const nameOf = (url: string) => new URL(url).pathname.slice(1);

/** Every public table's row count and every sequence's last value: what a fresh database holds. */
async function contents(url: string): Promise<string> {
  const tables = await query<{ name: string }>(url, "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
  const counts = await query<Record<string, string>>(url, `SELECT ${tables.map((t) => `(SELECT count(*) FROM ${t.name})::text AS ${t.name}`).join(', ')}`);
  const sequences = await query(url, 'SELECT sequencename, last_value::text FROM pg_sequences ORDER BY 1');
  return JSON.stringify({ counts: counts[0], sequences });
}

const adminUrl = () => process.env.TEST_PG_ADMIN_URL!;
const names = async () => (await query<{ datname: string }>(adminUrl(), 'SELECT datname FROM pg_database')).map((row) => row.datname);
/** This worker's kept databases (the other workers' come and go meanwhile). */
const kept = async () => (await names()).filter((name) => name.startsWith(keptPrefix())).sort();

onPostgres('a closed app’s database comes back emptied to what the migrations left: no row of the test before, the sequences where they were', async () => {
  const first = await createTestApp();
  const fresh = await contents(first.config.databaseUrl!);
  const owner = await actor(first, 'pool-first@example.com');
  await createPage(first, owner, { title: 'Оставленная страница' });
  expect(await contents(first.config.databaseUrl!)).not.toBe(fresh);
  const keptBefore = await kept();
  await first.close();
  // Kept for the worker's next app (renamed), not dropped.
  expect(await names()).not.toContain(nameOf(first.config.databaseUrl!));
  const keptAfter = await kept();
  expect(keptAfter.length).toBe(keptBefore.length + 1);

  const second = await createTestApp();
  try {
    // A kept database, taken by renaming it back: holding nothing of the test before.
    expect((await kept()).length).toBe(keptAfter.length - 1);
    expect(await contents(second.config.databaseUrl!)).toBe(fresh);
    const pages = await second.app.db.selectFrom('pages').select('title').execute();
    expect(pages).toEqual([]);
    // It works as a fresh one: the same e-mail signs up again.
    const again = await actor(second, 'pool-first@example.com');
    expect(again.id).not.toBe(owner.id);
  } finally {
    await second.close();
  }
});

onPostgres('a database whose schema a test changed, or that someone still holds, is dropped, not used again', async () => {
  const altered = await createTestApp();
  const alteredName = nameOf(altered.config.databaseUrl!);
  await altered.app.db.schema.alterTable('pages').addColumn('left_by_test', 'text').execute();
  const held = await createTestApp();
  const heldName = nameOf(held.config.databaseUrl!);
  const holder = new pg.Client({ connectionString: held.config.databaseUrl });
  // Its connection is ended by the drop: that is what is checked, not an error to throw.
  holder.on('error', () => undefined);
  await holder.connect();
  const keptBefore = await kept();
  try {
    // The altered one is gone, and no free one came of it (it would carry the column on).
    await altered.close();
    expect(await names()).not.toContain(alteredName);
    expect(await kept()).toEqual(keptBefore);
    // The held one: dropped, its holder's connection ended, since it could not be renamed.
    await held.close();
    expect(await names()).not.toContain(heldName);
    expect(await kept()).toEqual(keptBefore);
    await expect(holder.query('SELECT 1')).rejects.toThrow();
  } finally {
    await holder.end().catch(() => undefined);
  }
});
