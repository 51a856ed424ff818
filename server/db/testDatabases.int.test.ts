import pg from 'pg';
import { createTestApp, testDb } from '../../test/helpers/testApp';
import { actor, createPage } from '../../test/helpers/pages';

/*
 * The test PostgreSQL's databases used again (test/helpers/postgresPool.ts, issue 35): a test
 * app's database, once closed, comes back to the next one as the migrations left it — or is not
 * used again. The integration suite relies on it: a row left behind would show in another test.
 */

const onPostgres = testDb() === 'postgres' ? test : test.skip;

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const nameOf = (url: string) => new URL(url).pathname.slice(1);

/** Every public table's row count and every sequence's last value: what a fresh database holds. */
async function contents(url: string): Promise<string> {
  const tables = await query<{ name: string }>(url, "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
  const counts = await query<Record<string, string>>(url, `SELECT ${tables.map((t) => `(SELECT count(*) FROM ${t.name})::text AS ${t.name}`).join(', ')}`);
  const sequences = await query(url, 'SELECT sequencename, last_value::text FROM pg_sequences ORDER BY 1');
  return JSON.stringify({ counts: counts[0], sequences });
}

onPostgres('a closed app’s database comes back emptied to what the migrations left: no row of the test before, the sequences where they were', async () => {
  const first = await createTestApp();
  const fresh = await contents(first.config.databaseUrl!);
  const owner = await actor(first, 'pool-first@example.com');
  await createPage(first, owner, { title: 'Оставленная страница' });
  const used = first.config.databaseUrl!;
  expect(await contents(used)).not.toBe(fresh);
  await first.close();

  const second = await createTestApp();
  try {
    // The same database (this worker's, renamed back), holding nothing of the test before.
    const free = await query<{ datname: string }>(second.config.databaseUrl!, "SELECT datname FROM pg_database WHERE datname LIKE 'tf%'");
    expect(free.map((row) => row.datname)).not.toContain(nameOf(second.config.databaseUrl!));
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
  const adminUrl = process.env.TEST_PG_ADMIN_URL!;
  const names = async () => (await query<{ datname: string }>(adminUrl, 'SELECT datname FROM pg_database')).map((row) => row.datname);
  // This worker's free databases (`tf_<run>_<worker>_…`): the other workers' come and go meanwhile.
  const free = async () => (await names()).filter((name) => name.startsWith('tf_') && name.split('_')[2] === (process.env.JEST_WORKER_ID ?? '0')).sort();
  const altered = await createTestApp();
  const alteredName = nameOf(altered.config.databaseUrl!);
  await altered.app.db.schema.alterTable('pages').addColumn('left_by_test', 'text').execute();
  const held = await createTestApp();
  const heldName = nameOf(held.config.databaseUrl!);
  const holder = new pg.Client({ connectionString: held.config.databaseUrl });
  // Its connection is ended by the drop: that is what is checked, not an error to throw.
  holder.on('error', () => undefined);
  await holder.connect();
  const freeBefore = await free();
  try {
    // The altered one is gone, and no free one came of it (it would carry the column on).
    await altered.close();
    expect(await names()).not.toContain(alteredName);
    expect(await free()).toEqual(freeBefore);
    // The held one: dropped, its holder's connection ended, since it could not be renamed.
    await held.close();
    expect(await names()).not.toContain(heldName);
    expect(await free()).toEqual(freeBefore);
    await expect(holder.query('SELECT 1')).rejects.toThrow();
  } finally {
    await holder.end().catch(() => undefined);
  }
});
