import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../db/migrate';
import type { Database } from '../db/types';
import { api, createTestApp, expectOk, jsonQueryString, migratedDatabase, testDb } from '../../test/helpers/testApp';
import { actor, createPage, expectStatus } from '../../test/helpers/pages';
import { ENTRY_SPAN, indexAll } from './indexer';
import { stemsAfter } from './query';
import type { WireSearchHit } from '../../schema/search';

/*
 * Search entries whose ids carry their page (migration 2026-11-27-0002, ADR 9): the migration
 * renumbering what was indexed before, a page's numbers running out, and the postings that
 * PostgreSQL keeps in step with the entries.
 */

const BEFORE = '2026-11-27-0001-rate-limits';

/** A fresh database of the project's kind, migrated up to `BEFORE`. */
const databaseBefore = () => migratedDatabase('page-ids', BEFORE);

/** The ids of the entries holding a stem, as the query reads them on this database. */
async function entriesHolding(db: Kysely<Database>, stem: string): Promise<number[]> {
  const rows =
    testDb() === 'postgres'
      ? await sql<{ id: string }>`select entry_id as id from search_postings where stem = ${stem} order by 1`.execute(db)
      : await sql<{ id: number }>`select rowid as id from search_fts where search_fts match ${`"${stem}"`} order by 1`.execute(db);
  return rows.rows.map((r) => Number(r.id));
}

test('the migration numbers what was indexed before: a page each, its title 0, its blocks from 1 in the order they were indexed', async () => {
  const { db, close } = await databaseBefore();
  try {
    // As the indexer wrote them before: ids in the order written, pages interleaved.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table as it was before the migration
    const old = db as unknown as Kysely<any>;
    const rows = [
      ['pb', 'b2', 'block', 'второй проект', 'втор проект'],
      ['pa', 'title', 'title', 'Проект А', 'проект а'],
      ['pb', 'b1', 'block', 'план', 'план'],
      ['pa', 'a1', 'block', 'проекты и планы', 'проект и план'],
      ['pb', 'title', 'title', 'Б', 'б'],
      ['pc', 'c:f1', 'cell', 'проект', 'проект'],
    ];
    for (const [page_id, unit, kind, text, terms] of rows)
      await old.insertInto('search_entries').values({ workspace_id: 'w', page_id, unit, kind, text, terms }).execute();
    await migrateToLatest(db);

    const pages = await db.selectFrom('search_pages').select(['seq', 'page_id']).orderBy('page_id').execute();
    expect(pages.map((p) => p.page_id)).toEqual(['pa', 'pb', 'pc']);
    const seq = new Map(pages.map((p) => [p.page_id, Number(p.seq)]));
    const entries = await db.selectFrom('search_entries').select(['id', 'page_id', 'unit']).execute();
    const idOf = (page: string, unit: string) => Number(entries.find((e) => e.page_id === page && e.unit === unit)!.id);
    expect(idOf('pa', 'title')).toBe(seq.get('pa')! * ENTRY_SPAN);
    expect(idOf('pa', 'a1')).toBe(seq.get('pa')! * ENTRY_SPAN + 1);
    expect(idOf('pb', 'title')).toBe(seq.get('pb')! * ENTRY_SPAN);
    // pb's blocks keep the order they were written in (b2 first).
    expect(idOf('pb', 'b2')).toBe(seq.get('pb')! * ENTRY_SPAN + 1);
    expect(idOf('pb', 'b1')).toBe(seq.get('pb')! * ENTRY_SPAN + 2);
    expect(idOf('pc', 'c:f1')).toBe(seq.get('pc')! * ENTRY_SPAN + 1);
    // The text index follows the new ids.
    expect(await entriesHolding(db, 'проект')).toEqual([idOf('pa', 'title'), idOf('pa', 'a1'), idOf('pb', 'b2'), idOf('pc', 'c:f1')].sort((a, b) => a - b));
    expect(await entriesHolding(db, 'план')).toEqual([idOf('pa', 'a1'), idOf('pb', 'b1')].sort((a, b) => a - b));

    // Kept in step afterwards: an entry's words changed, an entry gone.
    await db.updateTable('search_entries').set({ text: 'бюджет', terms: 'бюджет план' }).where('id', '=', idOf('pa', 'a1')).execute();
    await db.deleteFrom('search_entries').where('id', '=', idOf('pc', 'c:f1')).execute();
    expect(await entriesHolding(db, 'проект')).toEqual([idOf('pa', 'title'), idOf('pb', 'b2')].sort((a, b) => a - b));
    expect(await entriesHolding(db, 'план')).toEqual([idOf('pa', 'a1'), idOf('pb', 'b1')].sort((a, b) => a - b));
    expect(await entriesHolding(db, 'бюджет')).toEqual([idOf('pa', 'a1')]);
  } finally {
    await close();
  }
});

test('a page whose numbers ran out has its new entry numbered in a gap, and it is found', async () => {
  const t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  try {
    const owner = await actor(t, 'page-ids@example.com');
    const page = await createPage(t, owner, { title: 'Полная страница' });
    const block = async (text: string) =>
      expectOk<{ id: string }>(
        await api(t, owner.cookie, 'POST', '/api/v3/spaces/block', { pageId: page.id, type: 'text', data: { tokens: [{ text }] } }),
        201,
      );
    const first = await block('первый абзац');
    await indexAll(t.app.db);
    const seq = Number((await t.app.db.selectFrom('search_pages').select('seq').where('page_id', '=', page.id).executeTakeFirstOrThrow()).seq);
    const base = seq * ENTRY_SPAN;
    // The page's last number taken (as if a million entries had been written).
    await t.app.db
      .insertInto('search_entries')
      .values({ id: base + ENTRY_SPAN - 1, page_id: page.id, unit: 'zz-last', kind: 'block', text: 'x', terms: 'x' })
      .execute();
    const second = await block('второй абзац про кактусы');
    // More new entries of the page in the same round: each in a gap of its own.
    const more = [await block('третий абзац'), await block('четвёртый абзац')];
    await indexAll(t.app.db);
    const ids = [];
    for (const { id } of [second, ...more]) {
      const entry = await t.app.db.selectFrom('search_entries').select('id').where('unit', '=', id).executeTakeFirstOrThrow();
      expect(Number(entry.id)).toBeGreaterThan(base);
      expect(Number(entry.id)).toBeLessThan(base + ENTRY_SPAN - 1);
      ids.push(Number(entry.id));
    }
    const firstEntry = await t.app.db.selectFrom('search_entries').select('id').where('unit', '=', first.id).executeTakeFirstOrThrow();
    expect(new Set([Number(firstEntry.id), ...ids]).size).toBe(4);
    const res = await api(t, owner.cookie, 'GET', `/api/v3/spaces/search/text?${jsonQueryString({ q: 'кактусы ' })}`, undefined, {
      'x-workspace-id': owner.workspaceId,
    });
    const hits = expectStatus(res, 200).json() as { data: WireSearchHit[] };
    expect(hits.data.map((h) => [h.page.id, h.match.blockId])).toEqual([[page.id, second.id]]);

    // A page deleted for good gives its number back with its entries.
    await t.app.db.deleteFrom('pages').where('id', '=', page.id).execute();
    await indexAll(t.app.db);
    expect(await t.app.db.selectFrom('search_pages').select('seq').where('page_id', '=', page.id).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('search_entries').select('id').where('page_id', '=', page.id).execute()).toEqual([]);
  } finally {
    await t.close();
  }
});

test('a prefix as a range of stems: everything starting so, nothing else', () => {
  expect(stemsAfter('за')).toBe('зб');
  expect(stemsAfter('a9')).toBe('a:');
  expect('зая' < stemsAfter('за') && 'зб' >= stemsAfter('за')).toBe(true);
  expect(stemsAfter('я')).toBe('ѐ');
});
