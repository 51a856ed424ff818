import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DatabaseField } from '../../schema/blocks/database';
import type { Database } from '../db/types';
import type { SearchMatchKind } from '../../schema/search';
import { indexTerms, trigrams } from './terms';
import { blockSearchText, cellSearchText, commentSearchText, MAX_ENTRY_TEXT } from './texts';
import { noteEdited } from '../history/versions';
import { BackgroundLoop, type LoopLog } from '../background';
import { connectionWanted, isPostgres } from '../db/connect';
import { inChunks } from '../db/inChunks';
import { shownPageOf } from '../repositories/syncedContent';

/** Targets taken from the queue in one round (a round's indexing is one transaction: short, as writers wait for it on SQLite). */
const BATCH = 200;

interface Entry {
  pageId: string;
  unit: string;
  kind: SearchMatchKind;
  text: string;
}

/** Entries a page may hold: an entry's id is its page's number times this plus its number in the page. */
export const ENTRY_SPAN = 2 ** 20;

/** A time stored as ISO text (`updated_at`) as days since 1970, fractional: `search_pages.updated_days`. */
export function daysSince1970(column: RawBuilder<unknown>, postgres: boolean): RawBuilder<number> {
  return postgres ? sql<number>`extract(epoch from ${column}::timestamptz)::float8 / 86400` : sql<number>`(julianday(${column}) - 2440587.5)`;
}

/**
 * The pages a round of indexing writes to, locked before it writes anything (their `search_pages`
 * rows, in one fixed order), with their numbers and their next free entry numbers (read for all
 * at once: a page's new entries cost no lookup of their own).
 *
 * PostgreSQL: every write of a round — entries, trigrams, page numbers, the history queue — is to
 * rows of its locked pages, and rows are locked in one order (page id, byte order) by every
 * process: two indexers on one database wait for each other at most for a round over the same
 * pages, never in a circle (they used to lock pages as their targets came, and deadlocked).
 */
class Numbering {
  private readonly seqs = new Map<string, number>();
  private readonly next = new Map<string, number>();
  /** The pages this round holds (PostgreSQL: their rows locked till it commits). */
  private readonly held = new Set<string>();

  constructor(private readonly trx: Transaction<Database>) {}

  /** Whether this round holds the page: it may write its entries. */
  holds(pageId: string): boolean {
    return this.held.has(pageId);
  }

  /**
   * Takes the pages (a page that exists gets its number now if it has none), then reads each
   * one's last entry's id. In byte order of their ids, in SQL too (`collate "C"`: the database's own
   * collation may order ids otherwise than the chunks are cut).
   */
  async hold(pageIds: Iterable<string>): Promise<void> {
    const postgres = isPostgres(this.trx);
    const wanted = [...new Set(pageIds)].filter((id) => !this.held.has(id)).sort();
    const span = sql.lit(ENTRY_SPAN);
    for (const chunk of inChunks(wanted)) {
      await this.trx
        .insertInto('search_pages')
        .columns(['page_id', 'workspace_id', 'in_trash', 'updated_at', 'updated_days', 'database_id', 'title'])
        .expression((eb) =>
          eb
            .selectFrom('pages')
            .select(['id', 'workspace_id', 'in_trash', 'updated_at', daysSince1970(sql.ref('updated_at'), postgres).as('updated_days'), 'database_id', 'title'])
            .where('id', 'in', chunk)
            .$if(postgres, (qb) => qb.orderBy(sql`id collate "C"`)),
        )
        .onConflict((oc) => oc.column('page_id').doNothing())
        .execute();
      const rows = await this.trx
        .selectFrom('search_pages')
        .select(['page_id', 'seq'])
        .where('page_id', 'in', chunk)
        .$if(postgres, (qb) => qb.orderBy(sql`page_id collate "C"`).forUpdate())
        .execute();
      for (const row of rows) this.seqs.set(row.page_id, Number(row.seq));
      // Their last entries but titles (none: null), read from the ids' index once they are locked:
      // a statement that waited for a lock reads with the snapshot it began with (PostgreSQL), and
      // would miss the entries the round it waited for wrote.
      const tops = await this.trx
        .selectFrom('search_pages')
        .select([
          'page_id',
          sql<
            number | string | null
          >`(select max(e.id) from search_entries e where e.id > search_pages.seq * ${span} and e.id < (search_pages.seq + 1) * ${span})`.as('top'),
        ])
        .where('page_id', 'in', chunk)
        .execute();
      for (const { page_id: pageId, top } of tops) {
        const seq = this.seqs.get(pageId);
        if (seq !== undefined) this.next.set(pageId, top === null ? seq * ENTRY_SPAN + 1 : Number(top) + 1);
      }
      for (const id of chunk) this.held.add(id);
    }
  }

  /**
   * A free id for a new entry of the page: its title's, or the one after its last entry (a gap
   * when the page's numbers ran out); null when none is left (2^20 − 1 entries: the entry is not
   * indexed, rather than the whole round failing again and again) or the page has no number.
   */
  async idFor(pageId: string, title: boolean): Promise<number | null> {
    const seq = this.seqs.get(pageId);
    const next = this.next.get(pageId);
    if (seq === undefined || next === undefined) return null;
    const base = seq * ENTRY_SPAN;
    if (title) return base;
    if (next >= base + ENTRY_SPAN) {
      const gap = await sql<{ id: number }>`
        select e.id + 1 as id from search_entries e
        where e.id >= ${base} and e.id < ${base + ENTRY_SPAN - 1} and not exists (select 1 from search_entries n where n.id = e.id + 1)
        order by e.id limit 1`.execute(this.trx);
      // Gaps are looked for again next time (an entry written in one now is not seen by this one).
      return gap.rows.length === 0 ? null : Number(gap.rows[0].id);
    }
    this.next.set(pageId, next + 1);
    return next;
  }

  /** Whether the page's numbers ran out: its new entries are numbered in gaps, each found once the one before it is written. */
  inGaps(pageId: string): boolean {
    const seq = this.seqs.get(pageId);
    return seq !== undefined && (this.next.get(pageId) ?? 0) >= (seq + 1) * ENTRY_SPAN;
  }

  /** What `search_pages` copies of the pages (held) is copied again from their rows and their title entries (written before). */
  async copy(pageIds: readonly string[]): Promise<void> {
    const span = sql.lit(ENTRY_SPAN);
    const days = daysSince1970(sql.ref('p.updated_at'), isPostgres(this.trx));
    for (const chunk of inChunks([...new Set(pageIds)].filter((id) => this.held.has(id)))) {
      await sql`update search_pages set (workspace_id, in_trash, updated_at, updated_days, database_id, title, title_terms) =
        (select p.workspace_id, p.in_trash, p.updated_at, ${days}, p.database_id, p.title, (select e.terms from search_entries e where e.id = search_pages.seq * ${span})
          from pages p where p.id = search_pages.page_id)
        where page_id in (${sql.join(chunk)}) and exists (select 1 from pages p where p.id = search_pages.page_id)`.execute(this.trx);
    }
  }

  /** The pages are gone: their entries and numbers too. */
  async forget(pageIds: readonly string[]): Promise<void> {
    for (const chunk of inChunks(pageIds)) {
      await this.trx.deleteFrom('search_entries').where('page_id', 'in', chunk).execute();
      await this.trx.deleteFrom('search_pages').where('page_id', 'in', chunk).execute();
    }
    for (const pageId of pageIds) {
      this.seqs.delete(pageId);
      this.next.delete(pageId);
    }
  }
}

/** Rows of pairs (`a`, `b`) read by the two lists (`a in (…) and b in (…)`, in chunks): a superset the caller picks the pairs it wants from. */
async function readPairs<R>(as: readonly string[], bs: readonly string[], read: (as: string[], bs: string[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (const aChunk of inChunks([...new Set(as)])) for (const bChunk of inChunks([...new Set(bs)])) rows.push(...(await read(aChunk, bChunk)));
  return rows;
}

/** A search entry's row as written. */
type SearchEntryRow = { id: number; page_id: string; unit: string; kind: Entry['kind']; text: string; terms: string };

const entryKey = (pageId: string, unit: string) => `${pageId}\n${unit}`;

/** A comment as the indexer reads it; `shown`: the page its entry goes on (`shownPageOf`). */
type CommentText = { page_id: string; shown: string; content: string; deleted_at: string | null };

/**
 * The page a block's or comment's entries go on, by its page's row: a synced block's content is
 * found as the page it was made on (docs/api/blocks.md «Synced blocks»), any other on its own.
 */
const shownOn = (row: { page_id: string; in_trash: number; parent_id: string | null }) =>
  shownPageOf({ id: row.page_id, in_trash: row.in_trash, parent_id: row.parent_id });

/** Rows of a multi-row insert (6 values each: well under the databases' limits on bound parameters). */
const INSERT_ROWS = 100;

/**
 * Entries written as their texts say (an empty text: no entry), a new one numbered in its page;
 * all of a round's (or SQLite chunk's) in a few statements: the entries there are now read at
 * once, then one delete, the changed ones updated, the new ones inserted many rows a statement.
 * Only those of held pages (the caller's).
 */
async function writeEntries(trx: Transaction<Database>, numbering: Numbering, entries: Iterable<Entry>): Promise<void> {
  const wanted = new Map<string, Entry>();
  for (const entry of entries) wanted.set(entryKey(entry.pageId, entry.unit), entry);
  if (wanted.size === 0) return;
  const all = [...wanted.values()];
  const kept = new Map<string, { id: number; text: string; terms: string }>();
  const rows = await readPairs(
    all.map((e) => e.pageId),
    all.map((e) => e.unit),
    (pageIds, units) =>
      trx.selectFrom('search_entries').select(['id', 'page_id', 'unit', 'text', 'terms']).where('page_id', 'in', pageIds).where('unit', 'in', units).execute(),
  );
  for (const row of rows) {
    const key = entryKey(row.page_id, row.unit);
    if (wanted.has(key)) kept.set(key, { id: Number(row.id), text: row.text, terms: row.terms });
  }
  const gone: number[] = [];
  const changed: Array<{ id: number; text: string; terms: string }> = [];
  const added: SearchEntryRow[] = [];
  for (const [key, entry] of wanted) {
    const was = kept.get(key);
    if (!entry.text) {
      if (was) gone.push(was.id);
      continue;
    }
    const text = entry.text.slice(0, MAX_ENTRY_TEXT);
    const terms = indexTerms(entry.text);
    if (was) {
      // A block moved, or written with the same text: nothing to do (no churn in the text index).
      if (was.text !== text || was.terms !== terms) changed.push({ id: was.id, text, terms });
      continue;
    }
    const id = await numbering.idFor(entry.pageId, entry.kind === 'title');
    if (id === null) continue;
    const row = { id, page_id: entry.pageId, unit: entry.unit, kind: entry.kind, text, terms };
    // In a gap: written at once, so that the next gap is looked for past it.
    if (numbering.inGaps(entry.pageId)) await insertEntries(trx, [row]);
    else added.push(row);
  }
  for (const chunk of inChunks(gone)) await trx.deleteFrom('search_entries').where('id', 'in', chunk).execute();
  for (const { id, text, terms } of changed) await trx.updateTable('search_entries').set({ text, terms }).where('id', '=', id).execute();
  for (const chunk of inChunks(added, INSERT_ROWS)) await insertEntries(trx, chunk);
}

/**
 * New entries, many rows a statement. An upsert, not a plain insert: should an entry have come
 * meanwhile after all, it is written over rather than the round failing on search_entries_unit
 * (its page is held: it cannot).
 */
async function insertEntries(trx: Transaction<Database>, rows: SearchEntryRow[]): Promise<void> {
  await trx
    .insertInto('search_entries')
    .values(rows)
    .onConflict((oc) => oc.columns(['unit', 'page_id']).doUpdateSet((eb) => ({ text: eb.ref('excluded.text'), terms: eb.ref('excluded.terms') })))
    .execute();
}

/** Takes up to `limit` targets off the queue, oldest first (on PostgreSQL, of those no other round is taking). */
async function takeQueued(trx: Transaction<Database>, limit: number): Promise<string[]> {
  const postgres = isPostgres(trx);
  const rows = await trx
    .deleteFrom('search_queue')
    .where('target', 'in', (eb) =>
      eb
        .selectFrom('search_queue')
        .select('target')
        .orderBy('queued_at')
        .limit(limit)
        // PostgreSQL: targets another process is taking are passed over, not waited for (and then
        // found gone): two indexers take disjoint batches at once.
        .$if(postgres, (qb) => qb.forUpdate().skipLocked()),
    )
    .returning('target')
    .execute();
  return rows.map((row) => row.target);
}

/** A cell's value or a block's data as stored (JSON); unreadable: null (no text). */
function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/**
 * A round's indexing in one transaction: the targets taken, indexed as they come (in one go, or
 * in chunks on SQLite), then `finish` notes the pages whose blocks or title changed for page
 * history. Each lot of targets is read in a few statements (its pages, blocks, cells and their
 * databases' fields each in one) and written in a few (`writeEntries`), not a few per target: a
 * round of 200 used to send ≈ 4 statements a target, ≈ 1.3 s on PostgreSQL (docs/search.md).
 */
class Indexing {
  private readonly configs = new Map<string, Record<string, DatabaseField>>();
  /** The pages edited: page history records them after a pause (server/history). */
  private readonly edited = new Set<string>();
  private readonly numbering: Numbering;

  constructor(private readonly trx: Transaction<Database>) {
    this.numbering = new Numbering(trx);
  }

  /** The fields of the databases (read once a round). */
  private async readFields(databaseIds: Iterable<string>): Promise<void> {
    const wanted = [...new Set(databaseIds)].filter((id) => !this.configs.has(id));
    for (const chunk of inChunks(wanted)) {
      const blocks = await this.trx.selectFrom('blocks').select(['id', 'data']).where('id', 'in', chunk).execute();
      const data = new Map(blocks.map((block) => [block.id, block.data]));
      for (const id of chunk) {
        const config = parsed(data.get(id) ?? '{}') as { config?: { fields?: Record<string, DatabaseField> } } | null;
        this.configs.set(id, config?.config?.fields ?? {});
      }
    }
  }

  /**
   * Pages as the queue names them: their title entries and trigrams; all gone with a page (its
   * entries' workspace is read from `pages` when searching). Those still there that are pages of
   * their own (not database rows) count as edited.
   */
  private async pageEntries(pageIds: readonly string[]): Promise<Entry[]> {
    const pages: Array<{ id: string; workspace_id: string; title: string; database_id: string | null }> = [];
    for (const chunk of inChunks(pageIds)) {
      pages.push(...(await this.trx.selectFrom('pages').select(['id', 'workspace_id', 'title', 'database_id']).where('id', 'in', chunk).execute()));
      await this.trx.deleteFrom('search_trigrams').where('page_id', 'in', chunk).execute();
    }
    const there = new Set(pages.map((page) => page.id));
    await this.numbering.forget(pageIds.filter((id) => !there.has(id)));
    const grams = pages.flatMap((page) => trigrams(page.title).map((trigram) => ({ workspace_id: page.workspace_id, trigram, page_id: page.id })));
    for (const chunk of inChunks(grams)) await this.trx.insertInto('search_trigrams').values(chunk).execute();
    for (const page of pages) if (page.database_id === null) this.edited.add(page.id);
    return pages.map((page) => ({ pageId: page.id, unit: 'title', kind: 'title', text: page.title.trim() }));
  }

  /**
   * Blocks as the queue names them: their entries, none when gone, deleted or without text; gone
   * from the pages they had entries on before (`entriesOn`: a move, or deleted). A block's page
   * counts as edited if it is there and this round holds it — a block moved to a page the round
   * does not hold was moved after the round took it, and that move queued it again: the next
   * round indexes it. A synced block's content has its entries on its holder (`shownOn`).
   */
  private async blockEntries(blockIds: readonly string[], entriesOn: ReadonlyMap<string, string[]>): Promise<Entry[]> {
    const blocks = new Map<string, { page_id: string; shown: string; type: string; data: string; deleted_at: string | null }>();
    for (const chunk of inChunks(blockIds)) {
      const rows = await this.trx
        .selectFrom('blocks')
        .innerJoin('pages', 'pages.id', 'blocks.page_id')
        .select(['blocks.id', 'blocks.page_id', 'blocks.type', 'blocks.data', 'blocks.deleted_at', 'pages.in_trash', 'pages.parent_id'])
        .where('blocks.id', 'in', chunk)
        .execute();
      for (const row of rows) blocks.set(row.id, { ...row, shown: shownOn(row) });
    }
    const entries: Entry[] = [];
    for (const blockId of blockIds) {
      const block = blocks.get(blockId);
      if (block && !this.numbering.holds(block.shown)) continue;
      // Only on the pages held (where the round saw entries of it): never a row of a page another round holds.
      const elsewhere = (entriesOn.get(blockId) ?? []).filter((pageId) => pageId !== block?.shown || block.deleted_at !== null);
      if (elsewhere.length > 0) await this.trx.deleteFrom('search_entries').where('unit', '=', blockId).where('page_id', 'in', elsewhere).execute();
      if (!block) continue;
      this.edited.add(block.page_id);
      if (block.deleted_at === null) entries.push({ pageId: block.shown, unit: blockId, kind: 'block', text: blockSearchText(block.type, parsed(block.data)) });
    }
    return entries;
  }

  /** Database rows' cells as the queue names them (`rowId:fieldId`): their entries when their fields are text; none when gone. */
  private async cellEntries(cells: ReadonlyArray<{ rowId: string; fieldId: string }>): Promise<Entry[]> {
    const found = new Map<string, { database_id: string; value: string }>();
    const rows = await readPairs(
      cells.map((c) => c.rowId),
      cells.map((c) => c.fieldId),
      (rowIds, fieldIds) =>
        this.trx
          .selectFrom('database_cells')
          .innerJoin('pages', 'pages.id', 'database_cells.row_id')
          .select(['database_cells.row_id', 'database_cells.field_id', 'database_cells.database_id', 'database_cells.value'])
          .where('database_cells.row_id', 'in', rowIds)
          .where('database_cells.field_id', 'in', fieldIds)
          .execute(),
    );
    for (const row of rows) found.set(entryKey(row.row_id, row.field_id), row);
    await this.readFields([...found.values()].map((cell) => cell.database_id));
    return cells.map(({ rowId, fieldId }) => {
      const cell = found.get(entryKey(rowId, fieldId));
      const text = cell ? cellSearchText(this.configs.get(cell.database_id)?.[fieldId], parsed(cell.value)) : '';
      return { pageId: rowId, unit: `c:${fieldId}`, kind: 'cell', text };
    });
  }

  /** Comments as the queue names them: their entries on their pages, none when deleted or gone. */
  private async commentEntries(
    commentIds: readonly string[],
    entriesOn: ReadonlyMap<string, string[]>,
    comments: ReadonlyMap<string, CommentText>,
  ): Promise<Entry[]> {
    const entries: Entry[] = [];
    for (const commentId of commentIds) {
      const unit = `m:${commentId}`;
      const comment = comments.get(commentId);
      if (comment && !this.numbering.holds(comment.shown)) continue;
      const text = comment && comment.deleted_at === null ? commentSearchText(parsed(comment.content)) : '';
      for (const pageId of entriesOn.get(unit) ?? []) if (pageId !== comment?.shown) entries.push({ pageId, unit, kind: 'comment', text: '' });
      if (comment) entries.push({ pageId: comment.shown, unit, kind: 'comment', text });
    }
    return entries;
  }

  async index(targets: readonly string[]): Promise<void> {
    // First the pages the targets write to, held (locked) in one order; then the writes.
    const pages = new Set<string>();
    const pageIds: string[] = [];
    const blockIds: string[] = [];
    const cells: Array<{ rowId: string; fieldId: string }> = [];
    const commentIds: string[] = [];
    /** Pages whose copy in `search_pages` is to be made again (their trash, last change or database changed). */
    const copied: string[] = [];
    for (const target of targets) {
      const id = target.slice(2);
      if (target.startsWith('p:')) {
        pages.add(id);
        pageIds.push(id);
      } else if (target.startsWith('b:')) blockIds.push(id);
      else if (target.startsWith('c:')) {
        const at = id.indexOf(':');
        pages.add(id.slice(0, at));
        cells.push({ rowId: id.slice(0, at), fieldId: id.slice(at + 1) });
      } else if (target.startsWith('m:')) commentIds.push(id);
      else if (target.startsWith('r:')) {
        pages.add(id);
        copied.push(id);
      }
    }
    /** Per block, the pages it has entries on now (it moved, or is gone: they go). */
    const entriesOn = new Map<string, string[]>();
    for (const chunk of inChunks(blockIds)) {
      const blocks = await this.trx
        .selectFrom('blocks')
        .innerJoin('pages', 'pages.id', 'blocks.page_id')
        .select(['blocks.page_id', 'pages.in_trash', 'pages.parent_id'])
        .where('blocks.id', 'in', chunk)
        .execute();
      // The block's page (its history) and the page its entries go on.
      for (const block of blocks) pages.add(block.page_id).add(shownOn(block));
      const entries = await this.trx.selectFrom('search_entries').select(['unit', 'page_id']).where('unit', 'in', chunk).execute();
      for (const entry of entries) {
        pages.add(entry.page_id);
        entriesOn.set(entry.unit, [...(entriesOn.get(entry.unit) ?? []), entry.page_id]);
      }
    }
    // Comments: their pages, and the pages they have entries on (one gone for good has no row).
    const comments = new Map<string, CommentText>();
    for (const chunk of inChunks(commentIds)) {
      const rows = await this.trx
        .selectFrom('comments')
        .innerJoin('pages', 'pages.id', 'comments.page_id')
        .select(['comments.id', 'comments.page_id', 'comments.content', 'comments.deleted_at', 'pages.in_trash', 'pages.parent_id'])
        .where('comments.id', 'in', chunk)
        .execute();
      for (const row of rows) {
        comments.set(row.id, { ...row, shown: shownOn(row) });
        pages.add(row.page_id).add(shownOn(row));
      }
      const units = chunk.map((id) => `m:${id}`);
      const entries = await this.trx.selectFrom('search_entries').select(['unit', 'page_id']).where('unit', 'in', units).execute();
      for (const entry of entries) {
        pages.add(entry.page_id);
        entriesOn.set(entry.unit, [...(entriesOn.get(entry.unit) ?? []), entry.page_id]);
      }
    }
    await this.numbering.hold(pages);

    const entries = [
      ...(await this.pageEntries(pageIds)),
      ...(await this.blockEntries(blockIds, entriesOn)),
      ...(await this.cellEntries(cells)),
      ...(await this.commentEntries(commentIds, entriesOn, comments)),
    ];
    await writeEntries(this.trx, this.numbering, entries);
    // After the entries: a title's stems are copied from its entry.
    await this.numbering.copy([...pageIds, ...copied]);
  }

  finish(): Promise<void> {
    // In the pages' one order too (the history queue's rows of held pages).
    return noteEdited(this.trx, [...this.edited].sort());
  }
}

/** What a round did. */
export interface Round {
  /** Targets taken off the queue (and indexed). */
  taken: number;
  /** Whether it took all there was (the queue had fewer than it would take). */
  drained: boolean;
  /** SQLite: whether it ended early because a request waited for the connection. */
  gaveWay: boolean;
  /** How long it held the database (from its transaction's start: not the wait for the connection before it). */
  workMs: number;
}

/**
 * SQLite: a round of a backlog takes targets in chunks of this many (a request that comes waits
 * at most for one: a few ms).
 */
const SQLITE_CHUNK = 8;

/**
 * SQLite: the most a round of a backlog holds the database for. The app has one connection and
 * better-sqlite3 runs statements synchronously, so every request waits for the round under way:
 * rounds of 200 targets held it ≈ 90 ms each, and a table of 50,000 rows answered ≈ 10× slower
 * for the minutes its import's backlog took (issue 20).
 */
export const SQLITE_ROUND_MS = 10;

/**
 * Takes up to `limit` targets off the queue, oldest first, and indexes them.
 *
 * PostgreSQL: the queue's rows are taken in a transaction of their own, committed at once: a
 * write queuing one of them meanwhile waits only for that (the trigger's upsert locks the row),
 * never for the indexing; a write after it queues the target again, indexed next round. The
 * indexing is one transaction; if it fails, the targets are queued again.
 *
 * SQLite: one writer at a time anyway, so taking and indexing are one transaction: a round that
 * fails — the file locked by another process past DB_BUSY_TIMEOUT_MS among other causes — is
 * rolled back whole and leaves the queue as it was (queuing again could be refused as well). With
 * `wanted` (the server's indexer: `connectionWanted`), targets are taken in chunks of
 * `SQLITE_CHUNK`, the event loop gets a turn after each (requests that came are read and ask for
 * the connection), and the round ends after `SQLITE_ROUND_MS`, or as soon as a chunk is done and
 * someone waits for the connection.
 */
export async function indexRound(db: Kysely<Database>, limit = BATCH, wanted?: () => boolean): Promise<Round> {
  if (!isPostgres(db)) {
    let started = 0;
    const round = await db.transaction().execute(async (trx) => {
      started = performance.now();
      const indexing = new Indexing(trx);
      let taken = 0;
      for (;;) {
        const ask = wanted ? Math.min(SQLITE_CHUNK, limit - taken) : limit;
        const targets = await takeQueued(trx, ask);
        await indexing.index(targets);
        taken += targets.length;
        const drained = targets.length < ask;
        // SQLite's statements run synchronously: without a turn of the event loop between chunks,
        // a request that came meanwhile would not even be read before the round ended.
        if (wanted && !drained) await new Promise((resolve) => setImmediate(resolve));
        const gaveWay = !drained && (wanted?.() ?? false);
        if (drained || gaveWay || taken >= limit || performance.now() - started >= SQLITE_ROUND_MS) {
          await indexing.finish();
          return { taken, drained, gaveWay };
        }
      }
    });
    return { ...round, workMs: performance.now() - started };
  }
  const started = performance.now();
  let done!: () => void;
  const indexed = new Promise<void>((resolve) => (done = resolve));
  const rounds = roundsUnderWay.get(db) ?? new Set<Promise<void>>();
  roundsUnderWay.set(db, rounds.add(indexed));
  try {
    return await takeAndIndex(db, limit, started);
  } finally {
    rounds.delete(indexed);
    done();
  }
}

/**
 * PostgreSQL rounds of this process between taking their targets and committing their index, by
 * database: `indexAll` waits for them, or it could find the queue empty while a round of the
 * server's own indexer still indexes what it took (and answer before it is searchable).
 */
const roundsUnderWay = new WeakMap<Kysely<Database>, Set<Promise<void>>>();

async function takeAndIndex(db: Kysely<Database>, limit: number, started: number): Promise<Round> {
  const taken = await db.transaction().execute((trx) => takeQueued(trx, limit));
  if (taken.length === 0) return { taken: 0, drained: true, gaveWay: false, workMs: performance.now() - started };
  try {
    await db.transaction().execute(async (trx) => {
      const indexing = new Indexing(trx);
      await indexing.index(taken);
      await indexing.finish();
    });
  } catch (error) {
    // Not indexed: back on the queue (a write since may have queued some again: kept as it is).
    const now = new Date().toISOString();
    await db
      .insertInto('search_queue')
      .values(taken.map((target) => ({ target, queued_at: now })))
      .onConflict((oc) => oc.column('target').doNothing())
      .execute()
      .catch(() => undefined);
    throw error;
  }
  return { taken: taken.length, drained: taken.length < limit, gaveWay: false, workMs: performance.now() - started };
}

/** Takes up to `limit` targets off the queue and indexes them (`indexRound`); answers how many were taken. */
export async function indexQueued(db: Kysely<Database>, limit = BATCH): Promise<number> {
  return (await indexRound(db, limit)).taken;
}

/**
 * Indexes until the queue is empty and no other round of this process is still indexing what it
 * took (the rebuild; tests that wait for nothing else). On SQLite a round is one transaction, so
 * the queue is empty only once what was taken is indexed.
 */
export async function indexAll(db: Kysely<Database>): Promise<number> {
  let total = 0;
  for (;;) {
    const taken = await indexQueued(db);
    total += taken;
    if (taken > 0) continue;
    const others = [...(roundsUnderWay.get(db) ?? [])];
    if (others.length === 0) return total;
    await Promise.all(others);
  }
}

/** Queues everything there is again (the rebuild: `npm run search:rebuild`). */
export async function queueEverything(db: Kysely<Database>): Promise<void> {
  const now = new Date().toISOString();
  // SQLite needs a WHERE in an INSERT … SELECT … ON CONFLICT (else ON reads as a join's).
  const upsert = (select: ReturnType<typeof sql>) =>
    sql`insert into search_queue (target, queued_at) ${select} on conflict (target) do update set queued_at = excluded.queued_at`.execute(db);
  await upsert(sql`select ${'p:'} || id, ${now} from pages where true`);
  await upsert(sql`select ${'b:'} || id, ${now} from blocks where deleted_at is null`);
  await upsert(sql`select ${'c:'} || row_id || ${':'} || field_id, ${now} from database_cells where txt is not null`);
  await upsert(sql`select ${'m:'} || id, ${now} from comments where deleted_at is null`);
}

/** A backlog this big (or a second long) is logged when caught up. */
const LOGGED_BACKLOG = 1_000;

/** PostgreSQL: between two full rounds of a backlog (the indexing runs in the database server, off the event loop). */
const BUSY_PAUSE_MS = 20;

/**
 * The pause after a round of a backlog while people use the server (`inUse`), or (SQLite) one
 * that gave way to a request, in rounds' lengths: the backlog then gets at most a fifth of the
 * time — of the database's, and of the machine's cores, which the requests and the browser beside
 * them need too.
 */
const GAVE_WAY_PAUSE = 4;

/**
 * The pause before the next round of a backlog: four times the round's length while people use
 * the server (`inUse`: a request in flight or within the last second, server/requestActivity.ts)
 * or (SQLite) when someone asked for the connection during the round; else none on SQLite (the
 * backlog takes the idle time) and 20 ms on PostgreSQL (its work runs in the database server).
 * PostgreSQL was left unpaced while a round of 200 took ≈ 1.3 s (pacing it stalled the backlog);
 * batched, a round takes ≈ 0.1 s (docs/search.md «A backlog»).
 */
export function pauseAfter(round: Round, sqlite: boolean, inUse = false): number {
  const paced = Math.max(1, Math.round(GAVE_WAY_PAUSE * round.workMs));
  if (!sqlite) return inUse ? Math.max(BUSY_PAUSE_MS, paced) : BUSY_PAUSE_MS;
  return round.gaveWay || inUse ? paced : 0;
}

/**
 * PostgreSQL: the targets a round of the server's indexer takes while people use the server:
 * short bursts of work, as SQLite's rounds are, in the database and on the server's event loop,
 * beside the requests. Rounds of 50 left the table's scroll frame p95 at 1.24× its figure with
 * the indexer held off in two runs of three; rounds of 20, 1.08× and 1.19× (docs/search.md «A backlog»).
 */
const POSTGRES_IN_USE_BATCH = 20;

/** The targets a round of the server's indexer asks for: 200; on PostgreSQL while people use the server, 20 (SQLite's rounds are cut by time: `indexRound`). */
export function roundSize(sqlite: boolean, inUse: boolean): number {
  return !sqlite && inUse ? POSTGRES_IN_USE_BATCH : BATCH;
}

/** A queue time as the triggers write it (PostgreSQL `2026-11-26 12:42:28.123456+00`, SQLite `2026-11-26T12:42:28.123`, both UTC), in ms. */
export function queuedAtMs(text: string): number {
  const iso = text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(iso) ? iso : `${iso}Z`);
}

/**
 * The indexer of a server process: takes the queue every `intervalMs`, so a write is searchable
 * within about that. A backlog (an import, a rebuild) is taken round after round (`pauseAfter`):
 * on SQLite short rounds that give way to requests (`indexRound`); on both, while people use the
 * server (`inUse`), a fifth of the time. A backlog's end is logged with
 * its count and time. Several processes on one PostgreSQL share the queue (each target is taken by
 * one).
 */
export function searchIndexer(db: Kysely<Database>, log: LoopLog, intervalMs = 250, inUse: () => boolean = () => false): BackgroundLoop {
  const sqlite = !isPostgres(db);
  const wanted = connectionWanted(db);
  /** The backlog being caught up with: since when, and how many targets so far. */
  let backlog: { since: number; targets: number } | null = null;
  /** Targets taken since the loop last rested `intervalMs`: short SQLite rounds go on until they make a batch. */
  let sinceRest = 0;
  const rest = (taken: number) => {
    sinceRest = 0;
    if (backlog) {
      const targets = backlog.targets + taken;
      const seconds = (performance.now() - backlog.since) / 1000;
      // A real backlog only: a burst of writes caught up at once is the loop's daily work.
      if (targets >= LOGGED_BACKLOG || seconds >= 1) log.info({ targets, seconds: Number(seconds.toFixed(1)) }, 'search index caught up');
      backlog = null;
    }
    return intervalMs;
  };
  return new BackgroundLoop(
    async () => {
      // A read first: an empty queue takes no write lock (SQLite has one writer).
      const waiting = await db.selectFrom('search_queue').select('target').limit(1).executeTakeFirst();
      if (!waiting) return rest(0);
      const started = performance.now();
      const using = inUse();
      const round = await indexRound(db, roundSize(sqlite, using), sqlite ? wanted : undefined);
      if (round.drained) return rest(round.taken);
      sinceRest += round.taken;
      // Short rounds go on, as one round of a batch would have, before the queue is judged.
      if (sinceRest < BATCH) {
        if (backlog) backlog.targets += round.taken;
        return pauseAfter(round, sqlite, using);
      }
      // A batch taken and more waiting: the next round soon (not at once: requests get their
      // turn) only when the queue is behind — its oldest target waited a round already (a rebuild,
      // an import). Blocks written again and again (people typing) keep being queued afresh: they
      // wait for the next round, so each is indexed once a round however often it is written.
      const oldest = await db.selectFrom('search_queue').select('queued_at').orderBy('queued_at').limit(1).executeTakeFirst();
      if (!oldest || Date.now() - queuedAtMs(oldest.queued_at) < intervalMs) return rest(round.taken);
      backlog ??= { since: started, targets: 0 };
      backlog.targets += round.taken;
      sinceRest = 0;
      return pauseAfter(round, sqlite, using);
    },
    log,
    'search indexing failed; trying again',
    intervalMs * 4,
  );
}
