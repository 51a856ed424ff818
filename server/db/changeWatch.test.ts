import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { ChangeWatch, EpochCache, watchChanges, writesWatchedTable } from './changeWatch';

describe('writesWatchedTable', () => {
  test.each([
    ['insert into "sessions" ("id") values (?)', true],
    ['update "page_members" set "level" = ? where "page_id" = ?', true],
    ['delete from "workspace_members" where "user_id" = ?', true],
    ['with moved as (update "pages" set "parent_id" = ? returning "id") select * from moved', true],
    ['alter table "blocks" add column "x" text', true],
    ['insert into "notifications" ("id") values (?) on conflict ("id") do update set "read" = ?', false],
    ['update "blocks" set "data" = ?, "updated_at" = ? where "id" = ?', false],
    ['select "u".* from "sessions" as "s" inner join "users" as "u" on "u"."id" = "s"."user_id"', false],
    ['select "updated_at", "deleted_at" from "pages" where "id" = ?', false],
    ['UPDATE Pages SET title = ?', true],
  ])('%s → %s', (text, expected) => {
    expect(writesWatchedTable(text)).toBe(expected);
  });
});

describe('EpochCache', () => {
  test('keeps a value until the epoch moves', async () => {
    const watch = new ChangeWatch();
    const cache = new EpochCache<string, number>(watch, 60_000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    watch.bump();
    expect(await cache.get('k', load)).toBe(2);
    expect(await cache.get('k', load)).toBe(2);
  });

  test('does not keep a value read while the epoch moved', async () => {
    const watch = new ChangeWatch();
    const cache = new EpochCache<string, string>(watch, 60_000);
    expect(
      await cache.get('k', async () => {
        watch.bump();
        return 'read during a change';
      }),
    ).toBe('read during a change');
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  test('keeps only what `keep` accepts, and nothing past the TTL', async () => {
    const watch = new ChangeWatch();
    const cache = new EpochCache<string, string | undefined>(watch, 30);
    expect(
      await cache.get(
        'missing',
        async () => undefined,
        (v) => v !== undefined,
      ),
    ).toBeUndefined();
    expect(
      await cache.get(
        'missing',
        async () => 'now there',
        (v) => v !== undefined,
      ),
    ).toBe('now there');
    expect(await cache.get('missing', async () => 'other')).toBe('now there');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.get('missing', async () => 'after ttl')).toBe('after ttl');
  });

  test('peek answers from memory without loading, and nothing once the epoch moved', async () => {
    const watch = new ChangeWatch();
    const cache = new EpochCache<string, number>(watch, 60_000);
    expect(cache.peek('k')).toBeUndefined();
    await cache.get('k', async () => 7);
    expect(cache.peek('k')).toBe(7);
    watch.bump();
    expect(cache.peek('k')).toBeUndefined();
  });

  test('with a TTL of 0 it always loads', async () => {
    const cache = new EpochCache<string, number>(new ChangeWatch(), 0);
    let loads = 0;
    await cache.get('k', async () => ++loads);
    await cache.get('k', async () => ++loads);
    expect(loads).toBe(2);
  });
});

describe('watchChanges', () => {
  function open() {
    const watch = new ChangeWatch();
    const db = new Kysely<{ pages: { id: string; title: string }; blocks: { id: string } }>({
      dialect: watchChanges(new SqliteDialect({ database: new SQLite(':memory:') }), watch),
    });
    return { watch, db };
  }

  test('a write to a watched table moves the epoch; reads and other tables do not', async () => {
    const { watch, db } = open();
    await sql`create table pages (id text primary key, title text)`.execute(db);
    await sql`create table blocks (id text primary key)`.execute(db);
    const start = watch.epoch;
    await db.selectFrom('pages').selectAll().execute();
    await db.insertInto('blocks').values({ id: 'b' }).execute();
    expect(watch.epoch).toBe(start);
    await db.insertInto('pages').values({ id: 'p', title: 't' }).execute();
    expect(watch.epoch).toBeGreaterThan(start);
    await db.destroy();
  });

  test('a write inside a transaction moves it again when the transaction ends', async () => {
    const { watch, db } = open();
    await sql`create table pages (id text primary key, title text)`.execute(db);
    let insideAfterWrite = -1;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('pages').values({ id: 'p', title: 't' }).execute();
      insideAfterWrite = watch.epoch;
    });
    expect(watch.epoch).toBeGreaterThan(insideAfterWrite);
    const beforeRollback = watch.epoch;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('pages').set({ title: 'x' }).execute();
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(watch.epoch).toBeGreaterThan(beforeRollback + 2);
    // A transaction that wrote nothing watched leaves it alone.
    const quiet = watch.epoch;
    await db.transaction().execute(async (trx) => trx.selectFrom('pages').selectAll().execute());
    expect(watch.epoch).toBe(quiet);
    expect(await db.selectFrom('pages').select('title').execute()).toEqual([{ title: 't' }]);
    await db.destroy();
  });
});
