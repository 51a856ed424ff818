import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { PREPARED_STATEMENT_NAMES, precompiled } from './precompiled';
import type { Database } from './types';

function open(): Kysely<Database> {
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
}

describe('precompiled', () => {
  test('compiles once per handle and runs with each call’s arguments, constants kept', async () => {
    let builds = 0;
    const rename = precompiled((db, a: { id: string; title: string }) => {
      builds += 1;
      return db.updateTable('pages').set({ title: a.title }).where('id', '=', a.id).where('type', 'in', ['Note', 'Database']).returning(['id', 'title']);
    });
    const first = open();
    const second = open();
    for (const db of [first, second]) {
      await sql`create table pages (id text primary key, title text, type text)`.execute(db);
      await sql`insert into pages values ('a', 'A', 'Note'), ('b', 'B', 'Note'), ('c', 'C', 'Space')`.execute(db);
    }
    expect(await rename(first, { id: 'a', title: 'Первая' })).toEqual([{ id: 'a', title: 'Первая' }]);
    expect(await rename(first, { id: 'b', title: 'Вторая' })).toEqual([{ id: 'b', title: 'Вторая' }]);
    // The constant list is part of the statement: a Space page is not touched.
    expect(await rename(first, { id: 'c', title: 'x' })).toEqual([]);
    expect(builds).toBe(1);
    expect(await rename(second, { id: 'a', title: 'other db' })).toEqual([{ id: 'a', title: 'other db' }]);
    expect(builds).toBe(2);
    expect(await first.selectFrom('pages').select(['id', 'title']).orderBy('id').execute()).toEqual([
      { id: 'a', title: 'Первая' },
      { id: 'b', title: 'Вторая' },
      { id: 'c', title: 'C' },
    ]);
    // Its SQL text got a name, for PostgreSQL connections to prepare it once.
    expect([...PREPARED_STATEMENT_NAMES.keys()].some((text) => text.startsWith('update "pages" set "title" = ?'))).toBe(true);
    await first.destroy();
    await second.destroy();
  });
});

describe('precompiled on SQLite: the direct path', () => {
  test('runs synchronously outside a transaction, and waits its turn (never joins) while another holds one', async () => {
    const { connectDatabase } = await import('./connect');
    const { db } = connectDatabase({ sqliteFile: ':memory:' });
    const any = db as unknown as Kysely<{ t: { id: string; v: number } }>;
    await sql`create table t (id text primary key, v integer)`.execute(db);
    await any.insertInto('t').values({ id: 'a', v: 1 }).execute();
    const bump = precompiled((handle, a: { id: string }) =>
      (handle as unknown as typeof any)
        .updateTable('t')
        .set({ v: sql`v + 1` })
        .where('id', '=', a.id)
        .returning('v'),
    );
    expect(await bump(db, { id: 'a' })).toEqual([{ v: 2 }]);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const other = any
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('t').set({ v: 100 }).where('id', '=', 'a').execute();
        await held;
        throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const during = bump(db, { id: 'a' });
    release();
    expect(await other).toBe('rolled back');
    // Had it run inside the other transaction it would have answered 101 and been rolled back.
    expect(await during).toEqual([{ v: 3 }]);
    expect(await any.selectFrom('t').select('v').execute()).toEqual([{ v: 3 }]);
    await db.destroy();
  });
});
