import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseField } from '../../schema/blocks/database';
import type { Database } from '../db/types';
import { indexTerms, trigrams } from './terms';
import { blockSearchText, cellSearchText, MAX_ENTRY_TEXT } from './texts';
import { noteEdited } from '../history/versions';
import { BackgroundLoop, type LoopLog } from '../background';
import { connectionWanted, isPostgres } from '../db/connect';
import { inChunks } from '../db/inChunks';

/** Targets taken from the queue in one round (a round's indexing is one transaction: short, as writers wait for it on SQLite). */
const BATCH = 200;

interface Entry {
  pageId: string;
  unit: string;
  kind: 'title' | 'block' | 'cell';
  text: string;
}

/** Entries a page may hold: an entry's id is its page's number times this plus its number in the page. */
export const ENTRY_SPAN = 2 ** 20;

/**
 * The pages a round of indexing writes to, locked before it writes anything (their `search_pages`
 * rows, in one fixed order), with their numbers and their next free entry number (a page's many
 * new entries cost one lookup each, not three).
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
   * Takes the pages (a page that exists gets its number now if it has none). In byte order of
   * their ids, in SQL too (`collate "C"`: the database's own collation may order ids otherwise
   * than the chunks are cut).
   */
  async hold(pageIds: Iterable<string>): Promise<void> {
    const postgres = isPostgres(this.trx);
    const wanted = [...new Set(pageIds)].filter((id) => !this.held.has(id)).sort();
    for (const chunk of inChunks(wanted)) {
      await this.trx
        .insertInto('search_pages')
        .columns(['page_id'])
        .expression((eb) =>
          eb
            .selectFrom('pages')
            .select('id')
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
      for (const id of chunk) this.held.add(id);
    }
  }

  /** The page's number (held pages only; a page that did not exist when held has none). */
  private seqOf(pageId: string): number | null {
    return this.seqs.get(pageId) ?? null;
  }

  /**
   * A free id for a new entry of the page: its title's, or the one after its last entry (a gap
   * when the page's numbers ran out); null when none is left (2^20 − 1 entries: the entry is not
   * indexed, rather than the whole round failing again and again).
   */
  async idFor(pageId: string, title: boolean): Promise<number | null> {
    const seq = this.seqOf(pageId);
    if (seq === null) return null;
    const base = seq * ENTRY_SPAN;
    if (title) return base;
    let next = this.next.get(pageId);
    if (next === undefined) {
      const top = await this.trx
        .selectFrom('search_entries')
        .select((eb) => eb.fn.max('id').as('top'))
        .where('id', '>', base)
        .where('id', '<', base + ENTRY_SPAN)
        .executeTakeFirst();
      next = top?.top == null ? base + 1 : Number(top.top) + 1;
    }
    if (next >= base + ENTRY_SPAN) {
      const gap = await sql<{ id: number }>`
        select e.id + 1 as id from search_entries e
        where e.id >= ${base} and e.id < ${base + ENTRY_SPAN - 1} and not exists (select 1 from search_entries n where n.id = e.id + 1)
        order by e.id limit 1`.execute(this.trx);
      if (gap.rows.length === 0) return null;
      next = Number(gap.rows[0].id);
      // Gaps are looked for again next time.
      this.next.set(pageId, base + ENTRY_SPAN);
      return next;
    }
    this.next.set(pageId, next + 1);
    return next;
  }

  /** The page is gone: its number too. */
  async forget(pageId: string): Promise<void> {
    await this.trx.deleteFrom('search_pages').where('page_id', '=', pageId).execute();
    this.seqs.delete(pageId);
    this.next.delete(pageId);
  }
}

/** An entry written as its text says (an empty text: no entry); a new one numbered in its page. */
async function putEntry(trx: Transaction<Database>, numbering: Numbering, entry: Entry): Promise<void> {
  if (!entry.text) {
    await trx.deleteFrom('search_entries').where('unit', '=', entry.unit).where('page_id', '=', entry.pageId).execute();
    return;
  }
  const text = entry.text.slice(0, MAX_ENTRY_TEXT);
  const terms = indexTerms(entry.text);
  const kept = await trx
    .selectFrom('search_entries')
    .select(['id', 'text', 'terms'])
    .where('unit', '=', entry.unit)
    .where('page_id', '=', entry.pageId)
    .executeTakeFirst();
  if (kept) {
    // A block moved, or written with the same text: nothing to do (no churn in the text index).
    if (kept.text !== text || kept.terms !== terms) await trx.updateTable('search_entries').set({ text, terms }).where('id', '=', kept.id).execute();
    return;
  }
  const id = await numbering.idFor(entry.pageId, entry.kind === 'title');
  if (id === null) return;
  // An upsert, not a plain insert: should the entry have come meanwhile after all, it is written
  // over rather than the round failing on search_entries_unit (the page is held: it cannot).
  await trx
    .insertInto('search_entries')
    .values({ id, page_id: entry.pageId, unit: entry.unit, kind: entry.kind, text, terms })
    .onConflict((oc) => oc.columns(['unit', 'page_id']).doUpdateSet({ text, terms }))
    .execute();
}

/** A page as the queue names it: its title entry and trigrams; all gone with the page (its entries' workspace is read from `pages` when searching). Whether it is a page of its own (not a database row) still there. */
async function indexPage(trx: Transaction<Database>, numbering: Numbering, pageId: string): Promise<boolean> {
  const page = await trx.selectFrom('pages').select(['id', 'workspace_id', 'title', 'database_id']).where('id', '=', pageId).executeTakeFirst();
  await trx.deleteFrom('search_trigrams').where('page_id', '=', pageId).execute();
  if (!page) {
    await trx.deleteFrom('search_entries').where('page_id', '=', pageId).execute();
    await numbering.forget(pageId);
    return false;
  }
  await putEntry(trx, numbering, { pageId, unit: 'title', kind: 'title', text: page.title.trim() });
  const grams = trigrams(page.title);
  if (grams.length > 0)
    await trx
      .insertInto('search_trigrams')
      .values(grams.map((trigram) => ({ workspace_id: page.workspace_id, trigram, page_id: pageId })))
      .execute();
  return page.database_id === null;
}

/**
 * A block as the queue names it: its entry, or none when it is gone, deleted or has no text; gone
 * from the pages it had entries on before (`before`: a move, or it was deleted). Its page, if it is
 * there and this round holds it — a block moved to a page the round does not hold was moved after
 * the round took it, and that move queued it again: the next round indexes it.
 */
async function indexBlock(trx: Transaction<Database>, numbering: Numbering, blockId: string, before: readonly string[]): Promise<string | null> {
  const block = await trx
    .selectFrom('blocks')
    .innerJoin('pages', 'pages.id', 'blocks.page_id')
    .select(['blocks.page_id', 'blocks.type', 'blocks.data', 'blocks.deleted_at'])
    .where('blocks.id', '=', blockId)
    .executeTakeFirst();
  if (block && !numbering.holds(block.page_id)) return null;
  // Only on the pages held (where the round saw entries of it): never a row of a page another round holds.
  const elsewhere = before.filter((pageId) => pageId !== block?.page_id || block.deleted_at !== null);
  if (elsewhere.length > 0) await trx.deleteFrom('search_entries').where('unit', '=', blockId).where('page_id', 'in', elsewhere).execute();
  if (!block || block.deleted_at !== null) return block?.page_id ?? null;
  let data: unknown = null;
  try {
    data = JSON.parse(block.data);
  } catch {
    // Unreadable data has no text.
  }
  await putEntry(trx, numbering, { pageId: block.page_id, unit: blockId, kind: 'block', text: blockSearchText(block.type, data) });
  return block.page_id;
}

/** A database row's cell as the queue names it (`rowId:fieldId`): its entry when its field is text. */
async function indexCell(
  trx: Transaction<Database>,
  numbering: Numbering,
  target: string,
  fieldsOf: (databaseId: string) => Promise<Record<string, DatabaseField>>,
): Promise<void> {
  const at = target.indexOf(':');
  const rowId = target.slice(0, at);
  const fieldId = target.slice(at + 1);
  const unit = `c:${fieldId}`;
  const cell = await trx
    .selectFrom('database_cells')
    .innerJoin('pages', 'pages.id', 'database_cells.row_id')
    .select(['database_cells.database_id', 'database_cells.value'])
    .where('database_cells.row_id', '=', rowId)
    .where('database_cells.field_id', '=', fieldId)
    .executeTakeFirst();
  if (!cell) {
    await trx.deleteFrom('search_entries').where('unit', '=', unit).where('page_id', '=', rowId).execute();
    return;
  }
  let value: unknown = null;
  try {
    value = JSON.parse(cell.value);
  } catch {
    // Unreadable: no text.
  }
  const fields = await fieldsOf(cell.database_id);
  await putEntry(trx, numbering, { pageId: rowId, unit, kind: 'cell', text: cellSearchText(fields[fieldId], value) });
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

/**
 * A round's indexing in one transaction: the targets taken, indexed as they come (in one go, or
 * in chunks on SQLite), then `finish` notes the pages whose blocks or title changed for page
 * history. Pages' numbers and databases' fields are read once a round.
 */
class Indexing {
  private readonly configs = new Map<string, Record<string, DatabaseField>>();
  /** The pages edited: page history records them after a pause (server/history). */
  private readonly edited = new Set<string>();
  private readonly numbering: Numbering;

  constructor(private readonly trx: Transaction<Database>) {
    this.numbering = new Numbering(trx);
  }

  private readonly fieldsOf = async (databaseId: string) => {
    let fields = this.configs.get(databaseId);
    if (!fields) {
      const block = await this.trx.selectFrom('blocks').select('data').where('id', '=', databaseId).executeTakeFirst();
      try {
        fields = ((JSON.parse(block?.data ?? '{}') as { config?: { fields?: Record<string, DatabaseField> } }).config?.fields ?? {}) as Record<
          string,
          DatabaseField
        >;
      } catch {
        fields = {};
      }
      this.configs.set(databaseId, fields);
    }
    return fields;
  };

  async index(targets: readonly string[]): Promise<void> {
    // First the pages the targets write to, held (locked) in one order; then the writes.
    const pages = new Set<string>();
    const blockIds: string[] = [];
    for (const target of targets) {
      const id = target.slice(2);
      if (target.startsWith('p:')) pages.add(id);
      else if (target.startsWith('b:')) blockIds.push(id);
      else if (target.startsWith('c:')) pages.add(id.slice(0, id.indexOf(':')));
    }
    /** Per block, the pages it has entries on now (it moved, or is gone: they go). */
    const entriesOn = new Map<string, string[]>();
    for (const chunk of inChunks(blockIds)) {
      const blocks = await this.trx.selectFrom('blocks').select('page_id').where('id', 'in', chunk).execute();
      for (const block of blocks) pages.add(block.page_id);
      const entries = await this.trx.selectFrom('search_entries').select(['unit', 'page_id']).where('unit', 'in', chunk).execute();
      for (const entry of entries) {
        pages.add(entry.page_id);
        entriesOn.set(entry.unit, [...(entriesOn.get(entry.unit) ?? []), entry.page_id]);
      }
    }
    await this.numbering.hold(pages);

    for (const target of targets) {
      const id = target.slice(2);
      if (target.startsWith('p:')) {
        if (await indexPage(this.trx, this.numbering, id)) this.edited.add(id);
      } else if (target.startsWith('b:')) {
        const pageId = await indexBlock(this.trx, this.numbering, id, entriesOn.get(id) ?? []);
        if (pageId) this.edited.add(pageId);
      } else if (target.startsWith('c:')) await indexCell(this.trx, this.numbering, id, this.fieldsOf);
    }
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

/** Indexes until the queue is empty (the rebuild; tests that wait for nothing else). */
export async function indexAll(db: Kysely<Database>): Promise<number> {
  let total = 0;
  for (;;) {
    const taken = await indexQueued(db);
    total += taken;
    if (taken === 0) return total;
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
}

/** A backlog this big (or a second long) is logged when caught up. */
const LOGGED_BACKLOG = 1_000;

/** PostgreSQL: between two full rounds of a backlog (the indexing runs in the database server, off the event loop). */
const BUSY_PAUSE_MS = 20;

/**
 * SQLite: the pause after a round of a backlog that gave way to a request, or that ran while
 * people use the server (`inUse`), in rounds' lengths: the backlog then gets at most a fifth of
 * the time — of the database's, and of the process's core, which the requests and the browser
 * beside it need too.
 */
const GAVE_WAY_PAUSE = 4;

/**
 * The pause before the next round of a backlog. PostgreSQL: 20 ms (pacing it by `inUse` as on
 * SQLite was measured to stall its backlog: docs/search.md). SQLite: four times the round's length
 * when someone asked for the connection during the round or people use the server (`inUse`: a
 * request in flight or within the last second, server/requestActivity.ts), else none (the backlog
 * takes the idle time).
 */
export function pauseAfter(round: Round, sqlite: boolean, inUse = false): number {
  if (!sqlite) return BUSY_PAUSE_MS;
  return round.gaveWay || inUse ? Math.max(1, Math.round(GAVE_WAY_PAUSE * round.workMs)) : 0;
}

/** A queue time as the triggers write it (PostgreSQL `2026-11-26 12:42:28.123456+00`, SQLite `2026-11-26T12:42:28.123`, both UTC), in ms. */
export function queuedAtMs(text: string): number {
  const iso = text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(iso) ? iso : `${iso}Z`);
}

/**
 * The indexer of a server process: takes the queue every `intervalMs`, so a write is searchable
 * within about that. A backlog (an import, a rebuild) is taken round after round (`pauseAfter`):
 * on SQLite short rounds that give way to requests (`indexRound`) and, while people use the
 * server (`inUse`), take a fifth of the time. A backlog's end is logged with
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
      const round = await indexRound(db, BATCH, sqlite ? wanted : undefined);
      if (round.drained) return rest(round.taken);
      sinceRest += round.taken;
      // Short SQLite rounds go on, as one round of a batch would have, before the queue is judged.
      if (sinceRest < BATCH) {
        if (backlog) backlog.targets += round.taken;
        return pauseAfter(round, sqlite, inUse());
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
      return pauseAfter(round, sqlite, inUse());
    },
    log,
    'search indexing failed; trying again',
    intervalMs * 4,
  );
}
