import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * A page-level search index (issue 36, docs/search.md «Speed»): `search_page_stems`, one row per
 * stem and page holding it — whether the page's title holds it and in how many of the page's
 * entries it is. A common word is in tens of thousands of entries but a few thousand pages; a
 * query reads its pages here instead of its entries, and reads entries only for the pages holding
 * every term (one passage with all of them, a phrase) and for the passages shown.
 *
 * Kept by triggers on `search_entries` on both databases (an entry's id carries its page: its
 * `seq` is the id shifted right by 20; the title's entry is the page's number 0): an entry added
 * counts each distinct stem of it once, one removed uncounts them (a row at 0 goes), an update is
 * both. SQLite splits `terms` with json_each (stems hold letters and digits only: a JSON array of
 * them needs no escaping).
 *
 * And `search_pages` keeps what ranking and the common filters read of a page (its workspace,
 * trash, last change, database, title, and the title's stems as its entry has them): a query joins thousands of pages, and reading each one's
 * row of `pages` (by its text id) was most of a common word's time. The indexer copies them: a
 * page's title or workspace changed queues `p:` as before, its trash, last change or database
 * `r:` (a copy only: not written by a trigger, which on PostgreSQL would lock `search_pages` rows
 * in another order than the indexer does). Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [column, type] of [
    ['workspace_id', "text not null default ''"],
    ['in_trash', 'integer not null default 0'],
    ['updated_at', "text not null default ''"],
    ['database_id', 'text'],
    ['title', "text not null default ''"],
    ['title_terms', 'text'],
  ])
    await sql.raw(`alter table search_pages add column ${column} ${type}`).execute(db);
  await sql`update search_pages set (workspace_id, in_trash, updated_at, database_id, title, title_terms) =
    (select p.workspace_id, p.in_trash, p.updated_at, p.database_id, p.title, (select e.terms from search_entries e where e.id = search_pages.seq * 1048576) from pages p where p.id = search_pages.page_id)
    where exists (select 1 from pages p where p.id = search_pages.page_id)`.execute(db);
  if (postgres) {
    await sql`create function search_queue_page_copy() returns trigger language plpgsql as $$
      begin
        perform search_queue_add('r:' || new.id);
        return null;
      end $$`.execute(db);
    await sql`create trigger search_page_copies after update of in_trash, updated_at, database_id on pages for each row execute function search_queue_page_copy()`.execute(
      db,
    );
  } else {
    await sql`create trigger search_page_copies_au after update of in_trash, updated_at, database_id on pages begin
      insert into search_queue (target, queued_at) values ('r:' || new.id, strftime('%Y-%m-%dT%H:%M:%f', 'now')) on conflict (target) do nothing; end`.execute(
      db,
    );
  }
  if (postgres) {
    await sql`create table search_page_stems (stem text collate "C" not null, seq bigint not null, title smallint not null, entries integer not null, primary key (stem, seq) include (title, entries))`.execute(
      db,
    );
    await sql`create function search_page_stems_put() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          update search_page_stems s set entries = s.entries - 1, title = case when old.id % 1048576 = 0 then 0 else s.title end
          from (select distinct w from regexp_split_to_table(old.terms, ' ') w where w <> '') gone
          where s.stem = gone.w and s.seq = old.id / 1048576;
          delete from search_page_stems s using (select distinct w from regexp_split_to_table(old.terms, ' ') w where w <> '') gone
          where s.stem = gone.w and s.seq = old.id / 1048576 and s.entries <= 0;
        end if;
        if tg_op <> 'DELETE' then
          insert into search_page_stems (stem, seq, title, entries)
          select distinct w, new.id / 1048576, case when new.id % 1048576 = 0 then 1 else 0 end, 1
          from regexp_split_to_table(new.terms, ' ') w where w <> ''
          on conflict (stem, seq) do update set entries = search_page_stems.entries + 1, title = greatest(search_page_stems.title, excluded.title);
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger search_entries_page_stems after insert or delete or update of terms on search_entries for each row execute function search_page_stems_put()`.execute(
      db,
    );
    await sql`insert into search_page_stems (stem, seq, title, entries)
      select w, id / 1048576, max(case when id % 1048576 = 0 then 1 else 0 end), count(*)
      from (select distinct e.id, w from search_entries e, regexp_split_to_table(e.terms, ' ') w where w <> '') x
      group by w, id / 1048576`.execute(db);
    return;
  }
  await sql`create table search_page_stems (stem text not null, seq integer not null, title integer not null, entries integer not null, primary key (stem, seq)) without rowid`.execute(
    db,
  );
  const stems = (row: 'new' | 'old') => `(select distinct value from json_each('["' || replace(${row}.terms, ' ', '","') || '"]') where value <> '')`;
  const uncount = `update search_page_stems set entries = entries - 1, title = case when old.id % 1048576 = 0 then 0 else title end
      where seq = old.id / 1048576 and stem in ${stems('old')};
    delete from search_page_stems where seq = old.id / 1048576 and entries <= 0 and stem in ${stems('old')};`;
  const count = `insert into search_page_stems (stem, seq, title, entries)
      select value, new.id / 1048576, new.id % 1048576 = 0, 1 from ${stems('new')} where true
      on conflict (stem, seq) do update set entries = entries + 1, title = max(title, excluded.title);`;
  await sql.raw(`create trigger search_entries_page_stems_ai after insert on search_entries begin ${count} end`).execute(db);
  await sql.raw(`create trigger search_entries_page_stems_ad after delete on search_entries begin ${uncount} end`).execute(db);
  await sql.raw(`create trigger search_entries_page_stems_au after update of terms on search_entries begin ${uncount} ${count} end`).execute(db);
  await sql`insert into search_page_stems (stem, seq, title, entries)
    select value, id / 1048576, max(id % 1048576 = 0), count(*)
    from (select distinct e.id, j.value from search_entries e, json_each('["' || replace(e.terms, ' ', '","') || '"]') j where j.value <> '')
    where true group by value, id / 1048576`.execute(db);
}
