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
