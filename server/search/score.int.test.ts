import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';
import { migratedDatabase, testDb } from '../../test/helpers/testApp';
import { floatSql, scoreSql } from './rank';
import { parseQuery } from './terms';

/*
 * The scorer (rank.ts `scoreSql`, docs/search.md «How results rank») on the database of the run,
 * over pages described by hand: the same order on SQLite and PostgreSQL.
 */

const NOW = Date.parse('2026-12-03T12:00:00Z');
let db: Kysely<Database>;
let close: () => Promise<void>;

beforeAll(async () => {
  // Plain SQL over literal rows: no tables needed.
  ({ db, close } = await migratedDatabase('score', null));
});
afterAll(() => close());

/** What `rankedPages` gives the scorer of a page. */
interface Described {
  id: string;
  covered?: number;
  inTitle?: number;
  wholeMask?: number;
  titleTerms?: string | null;
  entries?: number;
  oneEntry?: 0 | 1;
  phrase?: 0 | 1;
  updatedAt?: string;
}

/** The pages' ids, best first, as the database ranks them for `q`. */
async function order(q: string, pages: Described[]): Promise<string[]> {
  const postgres = testDb() === 'postgres';
  const rows = pages.map(
    (p) =>
      sql`select ${p.id} as id, ${sql.lit(p.covered ?? 1)} as covered, ${sql.lit(p.inTitle ?? 0)} as in_title, ${sql.lit(p.wholeMask ?? 0)} as whole_mask,
        ${p.titleTerms ?? null} as title_terms, ${sql.lit(p.entries ?? 1)} as entries, ${sql.lit(p.oneEntry ?? 0)} as one_entry, ${sql.lit(p.phrase ?? 0)} as phrase,
        ${p.updatedAt ?? '2026-12-03T11:00:00.000Z'} as updated_at, ${floatSql(Date.parse(p.updatedAt ?? '2026-12-03T11:00:00.000Z') / 86_400_000, postgres)} as updated_days`,
  );
  const result = await sql<{
    id: string;
  }>`select id from (${sql.join(rows, sql` union all `)}) r order by covered desc, ${scoreSql(parseQuery(q), NOW, postgres)} desc, id`.execute(db);
  return result.rows.map((r) => r.id);
}

test('the title weighs most: the query as the title, then all its terms in it, then one of them, then the text', async () => {
  const q = 'план продаж ';
  expect(
    await order(q, [
      { id: 'text', covered: 2, oneEntry: 1, entries: 3 },
      { id: 'some', covered: 2, inTitle: 1, wholeMask: 1 },
      { id: 'all', covered: 2, inTitle: 2, wholeMask: 3, titleTerms: 'продаж план на год', oneEntry: 1 },
      { id: 'exact', covered: 2, inTitle: 2, wholeMask: 3, titleTerms: 'план продаж', oneEntry: 1 },
    ]),
  ).toEqual(['exact', 'all', 'some', 'text']);
});

test('a phrase and one passage with every term rank above the terms apart; a whole word in the title above a word it begins', async () => {
  const q = 'план продаж ';
  expect(
    await order(q, [
      { id: 'apart', covered: 2 },
      { id: 'one', covered: 2, oneEntry: 1 },
      { id: 'phrase', covered: 2, oneEntry: 1, phrase: 1 },
    ]),
  ).toEqual(['phrase', 'one', 'apart']);
  // «документ» typed: «Документ по заказу» holds it whole, «Документооборот» only begins with it.
  expect(
    await order('документ', [
      { id: 'begins', inTitle: 0.5 },
      { id: 'whole', inTitle: 1, wholeMask: 1 },
    ]),
  ).toEqual(['whole', 'begins']);
});

test('more passages a little up; fresher a little up, never above a better title', async () => {
  expect(
    await order('бюджет ', [
      { id: 'one', entries: 1 },
      { id: 'many', entries: 20 },
    ]),
  ).toEqual(['many', 'one']);
  expect(await order('бюджет ', [{ id: 'old', updatedAt: '2024-12-03T12:00:00.000Z' }, { id: 'fresh' }])).toEqual(['fresh', 'old']);
  expect(
    await order('бюджет ', [
      { id: 'titled', inTitle: 1, wholeMask: 1, updatedAt: '2020-01-01T00:00:00.000Z' },
      { id: 'fresh', entries: 20 },
    ]),
  ).toEqual(['titled', 'fresh']);
});
