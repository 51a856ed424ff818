import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../db/migrate';
import type { Database } from '../db/types';
import { api, createTestApp, expectOk, migratedDatabase } from '../../test/helpers/testApp';
import { actor, createPage } from '../../test/helpers/pages';
import { ENTRY_SPAN, indexAll } from './indexer';
import { rankedPages } from './query';
import { parseQuery } from './terms';

/*
 * The page-level index (`search_page_stems`, migration 2026-12-03-0001, docs/search.md «Speed»):
 * one row per stem and page, kept by triggers on `search_entries` in step with every insert,
 * update and delete, and filled by the migration from what was indexed before; and the copy of
 * each page's row that `search_pages` keeps for ranking.
 */

const BEFORE = '2026-12-02-0002-cell-history';

/** A fresh database of the project's kind, migrated up to `upTo` (all when absent). */
const database = (upTo?: string) => migratedDatabase('page-stems', upTo);

type Row = { stem: string; seq: number; title: number; entries: number };

/** The table as it is, sorted. */
async function stored(db: Kysely<Database>): Promise<Row[]> {
  const rows = await db.selectFrom('search_page_stems').selectAll().execute();
  return rows.map((r) => ({ stem: r.stem, seq: Number(r.seq), title: Number(r.title), entries: Number(r.entries) })).sort(byKey);
}

const byKey = (a: Row, b: Row) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : a.seq - b.seq);

/** What the table should hold, worked out here from the entries. */
async function expected(db: Kysely<Database>): Promise<Row[]> {
  const rows = new Map<string, Row>();
  for (const entry of await db.selectFrom('search_entries').select(['id', 'terms']).execute()) {
    const id = Number(entry.id);
    const seq = Math.floor(id / ENTRY_SPAN);
    for (const stem of new Set(entry.terms.split(' ').filter(Boolean))) {
      const key = `${stem}\n${seq}`;
      const row = rows.get(key) ?? { stem, seq, title: 0, entries: 0 };
      row.entries += 1;
      if (id % ENTRY_SPAN === 0) row.title = 1;
      rows.set(key, row);
    }
  }
  return [...rows.values()].sort(byKey);
}

/** A tiny deterministic random source. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

test('the migration counts what was indexed before: per stem and page, its title, its entries (a stem twice in one entry once)', async () => {
  const { db, close } = await database(BEFORE);
  try {
    const span = ENTRY_SPAN;
    await db
      .insertInto('search_pages')
      .values([
        { seq: 1, page_id: 'pa' },
        { seq: 2, page_id: 'pb' },
      ] as never)
      .execute();
    await db
      .insertInto('search_entries')
      .values([
        { id: span, page_id: 'pa', unit: 'title', kind: 'title', text: 'План проекта', terms: 'план проект' },
        { id: span + 1, page_id: 'pa', unit: 'a1', kind: 'block', text: 'план и план', terms: 'план и план' },
        { id: span + 2, page_id: 'pa', unit: 'a2', kind: 'block', text: 'проект', terms: 'проект' },
        { id: 2 * span + 1, page_id: 'pb', unit: 'b1', kind: 'block', text: 'план', terms: 'план' },
        { id: 2 * span + 2, page_id: 'pb', unit: 'b2', kind: 'block', text: '', terms: '' },
      ])
      .execute();
    await migrateToLatest(db);
    expect(await stored(db)).toEqual([
      { stem: 'и', seq: 1, title: 0, entries: 1 },
      { stem: 'план', seq: 1, title: 1, entries: 2 },
      { stem: 'план', seq: 2, title: 0, entries: 1 },
      { stem: 'проект', seq: 1, title: 1, entries: 2 },
    ]);
  } finally {
    await close();
  }
});

test('kept in step with every write of the entries: added, changed (the title too), deleted, a page gone', async () => {
  const { db, close } = await database();
  try {
    const next = random(7);
    const words = ['план', 'проект', 'бюджет', 'и', 'отчет', 'клиент', 'задач', 'срок'];
    const terms = () => Array.from({ length: 1 + Math.floor(next() * 5) }, () => words[Math.floor(next() * words.length)]).join(' ');
    const pages = ['p1', 'p2', 'p3', 'p4'];
    await db
      .insertInto('search_pages')
      .values(pages.map((page_id, i) => ({ seq: i + 1, page_id })) as never)
      .execute();
    const live = new Map<number, string>();
    for (let step = 0; step < 400; step += 1) {
      const pageAt = Math.floor(next() * pages.length);
      const id = (pageAt + 1) * ENTRY_SPAN + Math.floor(next() * 12);
      const roll = next();
      if (!live.has(id)) {
        await db
          .insertInto('search_entries')
          .values({ id, page_id: pages[pageAt], unit: `u${id}`, kind: id % ENTRY_SPAN === 0 ? 'title' : 'block', text: 't', terms: terms() })
          .execute();
        live.set(id, pages[pageAt]);
      } else if (roll < 0.5) {
        await db.updateTable('search_entries').set({ terms: terms() }).where('id', '=', id).execute();
      } else if (roll < 0.9) {
        await db.deleteFrom('search_entries').where('id', '=', id).execute();
        live.delete(id);
      } else {
        // A page gone: all its entries at once.
        await db.deleteFrom('search_entries').where('page_id', '=', pages[pageAt]).execute();
        for (const [entry, page] of live) if (page === pages[pageAt]) live.delete(entry);
      }
      if (step % 50 === 49) expect(await stored(db)).toEqual(await expected(db));
    }
    // A multi-row upsert over an entry there already (the indexer's insertEntries) counts as an update.
    const [some] = [...live.keys()];
    await db
      .insertInto('search_entries')
      .values({ id: some, page_id: live.get(some)!, unit: `u${some}`, kind: 'block', text: 't', terms: 'новый текст' })
      .onConflict((oc) => oc.columns(['unit', 'page_id']).doUpdateSet((eb) => ({ terms: eb.ref('excluded.terms') })))
      .execute();
    expect(await stored(db)).toEqual(await expected(db));
    expect((await stored(db)).some((r) => r.stem === 'новый')).toBe(true);
    // Nothing left at zero.
    expect(Number((await sql<{ n: number }>`select count(*) as n from search_page_stems where entries <= 0`.execute(db)).rows[0].n)).toBe(0);
  } finally {
    await close();
  }
});

test("search_pages copies what ranking reads of a page, and copies it again when the page's title, trash, last change or database change", async () => {
  const t = await createTestApp({ sendCodeLimitPerIp: 10_000, searchIndexIntervalMs: 1_000_000_000 });
  try {
    const owner = await actor(t, 'page-copy@example.com');
    const page = await createPage(t, owner, { title: 'Копия' });
    await indexAll(t.app.db);
    const copy = () =>
      t.app.db
        .selectFrom('search_pages')
        .select(['workspace_id', 'in_trash', 'updated_at', 'database_id', 'title'])
        .where('page_id', '=', page.id)
        .executeTakeFirstOrThrow();
    const row = () =>
      t.app.db
        .selectFrom('pages')
        .select(['workspace_id', 'in_trash', 'updated_at', 'database_id', 'title'])
        .where('id', '=', page.id)
        .executeTakeFirstOrThrow();
    expect(await copy()).toEqual(await row());
    expectOk(await api(t, owner.cookie, 'PATCH', `/api/v3/spaces/element/${page.id}`, { title: 'Копия вторая' }));
    await indexAll(t.app.db);
    expect(await copy()).toEqual({ ...(await row()), title: 'Копия вторая' });
    const terms = await t.app.db.selectFrom('search_pages').select('title_terms').where('page_id', '=', page.id).executeTakeFirstOrThrow();
    expect(terms.title_terms).toBe('коп втор');
    // Straight into the table (as another process would): queued by the trigger, copied by the next round.
    await t.app.db
      .updateTable('pages')
      .set({ in_trash: 1, updated_at: '2030-01-01T00:00:00.000Z', database_id: 'some-database' })
      .where('id', '=', page.id)
      .execute();
    expect((await copy()).in_trash).toBe(0);
    await indexAll(t.app.db);
    expect(await copy()).toEqual({
      workspace_id: owner.workspaceId,
      in_trash: 1,
      updated_at: '2030-01-01T00:00:00.000Z',
      database_id: 'some-database',
      title: 'Копия вторая',
    });
    // The last change as days since 1970, what ranking's freshness reads.
    const { updated_days: days } = await t.app.db.selectFrom('search_pages').select('updated_days').where('page_id', '=', page.id).executeTakeFirstOrThrow();
    expect(Number(days)).toBeCloseTo(Date.parse('2030-01-01T00:00:00.000Z') / 86_400_000, 4);
  } finally {
    await t.close();
  }
});

test('trashed pages take no place in a window of live results (the copy says so; a page restored a moment ago is read from its row)', async () => {
  const t = await createTestApp({ sendCodeLimitPerIp: 10_000, searchIndexIntervalMs: 1_000_000_000 });
  try {
    const owner = await actor(t, 'page-trash@example.com');
    const pages = [];
    for (const title of ['Зебра первая', 'Зебра вторая', 'Зебра третья']) pages.push(await createPage(t, owner, { title }));
    for (const page of pages.slice(0, 2)) expectOk(await api(t, owner.cookie, 'DELETE', `/api/v3/spaces/element/${page.id}`));
    await indexAll(t.app.db);
    const window = () =>
      rankedPages(t.app.db, parseQuery('зебра'), { workspaceId: owner.workspaceId, inTrash: false }, { order: 'relevance', limit: 1, now: Date.now() });
    expect((await window()).pages.map((p) => p.title)).toEqual(['Зебра третья']);
    expect((await window()).more).toBe(false);
    // Restored, not yet copied again: found from its own row.
    await t.app.db.updateTable('pages').set({ in_trash: 0 }).where('id', '=', pages[0].id).execute();
    const read = await rankedPages(
      t.app.db,
      parseQuery('зебра'),
      { workspaceId: owner.workspaceId, inTrash: false },
      { order: 'relevance', limit: 5, now: Date.now() },
    );
    expect(read.pages.map((p) => p.title).sort()).toEqual(['Зебра первая', 'Зебра третья']);
  } finally {
    await t.close();
  }
});

test('the migration gives each page copied before its last change as days since 1970', async () => {
  const { db, close } = await database('2026-12-03-0003-user-email-typed');
  try {
    await db
      .insertInto('search_pages')
      .values([
        { seq: 1, page_id: 'pa', updated_at: '2026-12-04T12:00:00.000Z' },
        { seq: 2, page_id: 'pb', updated_at: '' },
      ] as never)
      .execute();
    await migrateToLatest(db);
    const rows = await db.selectFrom('search_pages').select(['page_id', 'updated_days']).orderBy('seq').execute();
    expect(Number(rows[0].updated_days)).toBeCloseTo(Date.parse('2026-12-04T12:00:00.000Z') / 86_400_000, 4);
    expect(Number(rows[1].updated_days)).toBe(0);
  } finally {
    await close();
  }
});

test('a window holds every page tied with its last place, and says more were found only when one ranks below it', async () => {
  const t = await createTestApp({ sendCodeLimitPerIp: 10_000, searchIndexIntervalMs: 1_000_000_000 });
  try {
    const owner = await actor(t, 'page-ties@example.com');
    const tied = [];
    for (let i = 0; i < 3; i += 1) tied.push(await createPage(t, owner, { title: `Жираф ${i + 1}` }));
    const at = '2026-12-01T10:00:00.000Z';
    await t.app.db
      .updateTable('pages')
      .set({ updated_at: at })
      .where(
        'id',
        'in',
        tied.map((p) => p.id),
      )
      .execute();
    await indexAll(t.app.db);
    const window = (limit: number) =>
      rankedPages(t.app.db, parseQuery('жираф'), { workspaceId: owner.workspaceId, inTrash: false }, { order: 'relevance', limit, now: Date.now() });
    // Three alike (the title's number is no term): all of them for a window of one or three, none beyond.
    expect((await window(1)).pages.map((p) => p.title)).toEqual(['Жираф 1', 'Жираф 2', 'Жираф 3']);
    expect(await window(3)).toMatchObject({ more: false });
    // One more, older: below them — past a window of one (and of three) there is more.
    const older = await createPage(t, owner, { title: 'Жираф старый' });
    await t.app.db.updateTable('pages').set({ updated_at: '2020-01-01T00:00:00.000Z' }).where('id', '=', older.id).execute();
    await indexAll(t.app.db);
    const one = await window(1);
    expect(one.pages.map((p) => p.title)).toEqual(['Жираф 1', 'Жираф 2', 'Жираф 3']);
    expect(one.more).toBe(true);
    expect(await window(3)).toMatchObject({ more: true });
    expect((await window(4)).pages.map((p) => p.title)).toEqual(['Жираф 1', 'Жираф 2', 'Жираф 3', 'Жираф старый']);
    expect(await window(4)).toMatchObject({ more: false });
  } finally {
    await t.close();
  }
});
