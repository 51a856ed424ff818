import type { LightMyRequestResponse } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../server/db/types';
import { errorCode, type TestApp } from './testApp';

/**
 * Helpers for race tests: requests fired together (Promise.all through app.inject), then the
 * invariants checked on what is stored. The checks hold whatever order the requests ran in, so
 * the tests do not depend on timing; on SQLite the requests are serialized anyway and the
 * tests pass the same way.
 */

/** `status code` or `status code/error code` of a response, for comparing outcomes. */
export function outcome(response: LightMyRequestResponse): string {
  const code = response.statusCode >= 400 ? errorCode(response) : undefined;
  return code ? `${response.statusCode} ${code}` : String(response.statusCode);
}

/**
 * A small deterministic pseudo-random generator (same picks on every run). A pick is read from the
 * state's high bits: its low bits repeat with a short period (a bench's seeding, ten picks a row,
 * tagged every row «x» with `% 4`).
 */
export function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 4294967296) * below);
  };
}

/**
 * Everything wrong with the page tree of a workspace (empty when it is sound):
 *  - every parent exists, in the same workspace, and following parents never loops;
 *  - each page's path is exactly its chain of parents, root first;
 *  - roots have a section (private or all), pages below have none;
 *  - no page outside the trash sits under a page in the trash;
 *  - sort keys are unique among the pages of one place.
 */
export async function pageTreeProblems(t: TestApp, workspaceId: string): Promise<string[]> {
  const pages = await t.app.db.selectFrom('pages').selectAll().where('workspace_id', '=', workspaceId).execute();
  const byId = new Map(pages.map((p) => [p.id, p]));
  const problems: string[] = [];
  const places = new Map<string, Set<string>>();
  for (const page of pages) {
    const chain: string[] = [];
    const seen = new Set([page.id]);
    let parentId = page.parent_id;
    while (parentId !== null) {
      if (seen.has(parentId)) {
        problems.push(`${page.id}: its parents loop through ${parentId}`);
        break;
      }
      seen.add(parentId);
      const parent = byId.get(parentId);
      if (!parent) {
        problems.push(`${page.id}: parent ${parentId} is not a page of the workspace`);
        break;
      }
      chain.unshift(parentId);
      parentId = parent.parent_id;
    }
    if (JSON.stringify(chain) !== page.path) problems.push(`${page.id}: path ${page.path} but parents ${JSON.stringify(chain)}`);
    if (page.parent_id === null ? page.section !== 'private' && page.section !== 'all' : page.section !== null) {
      problems.push(`${page.id}: section ${page.section} with parent ${page.parent_id}`);
    }
    const parent = page.parent_id === null ? undefined : byId.get(page.parent_id);
    if (page.in_trash === 0 && parent?.in_trash === 1) problems.push(`${page.id}: not in the trash under ${parent.id}, which is`);
    const place = page.parent_id ?? `section:${page.section}`;
    const keys = places.get(place) ?? new Set<string>();
    if (keys.has(page.sort_key)) problems.push(`${page.id}: sort key ${page.sort_key} taken twice at ${place}`);
    keys.add(page.sort_key);
    places.set(place, keys);
  }
  return problems;
}

/**
 * Everything wrong with the blocks of a page (empty when sound): every parent is a block of the
 * page, following parents never loops, no live block sits under a deleted one (it would vanish
 * from the page), and sort keys are unique among the children of one parent.
 */
export async function blockTreeProblems(t: TestApp, pageId: string): Promise<string[]> {
  const blocks = await t.app.db.selectFrom('blocks').selectAll().where('page_id', '=', pageId).execute();
  const byId = new Map(blocks.map((b) => [b.id, b]));
  const problems: string[] = [];
  const siblings = new Map<string, Set<string>>();
  for (const block of blocks) {
    const seen = new Set([block.id]);
    let parentId = block.parent_id;
    while (parentId !== null) {
      if (seen.has(parentId)) {
        problems.push(`${block.id}: its parents loop through ${parentId}`);
        break;
      }
      seen.add(parentId);
      const parent = byId.get(parentId);
      if (!parent) {
        problems.push(`${block.id}: parent ${parentId} is not a block of the page`);
        break;
      }
      parentId = parent.parent_id;
    }
    const parent = block.parent_id === null ? undefined : byId.get(block.parent_id);
    if (block.deleted_at === null && parent && parent.deleted_at !== null) problems.push(`${block.id}: live under deleted ${parent.id}`);
    const place = block.parent_id ?? '(top)';
    const keys = siblings.get(place) ?? new Set<string>();
    if (keys.has(block.sort_key)) problems.push(`${block.id}: sort key ${block.sort_key} taken twice under ${place}`);
    keys.add(block.sort_key);
    siblings.set(place, keys);
  }
  return problems;
}

/**
 * A transaction of its own holds a lock (`take`) until `release`, which runs `last` in it before
 * it commits — the change another writer makes while a command waits for that lock. `waitedOn`
 * (PostgreSQL) resolves once a connection to this database waits for an advisory lock (the command
 * is queued behind it), so a test knows the command read what it read before the lock and is now
 * waiting.
 */
export async function heldLock(
  db: TestApp['app']['db'],
  take: (trx: Transaction<Database>) => Promise<void>,
): Promise<{ waitedOn(): Promise<void>; release(last: (trx: Transaction<Database>) => Promise<unknown>): Promise<void> }> {
  let open!: (last: (trx: Transaction<Database>) => Promise<unknown>) => void;
  const gate = new Promise<(trx: Transaction<Database>) => Promise<unknown>>((resolve) => (open = resolve));
  let holds!: () => void;
  const held = new Promise<void>((resolve) => (holds = resolve));
  const done = db.transaction().execute(async (trx) => {
    await take(trx);
    holds();
    await (
      await gate
    )(trx);
  });
  await held;
  return {
    async waitedOn() {
      for (let tries = 0; ; tries++) {
        // This test's database only: other test files' databases share the PostgreSQL server.
        const { rows } = await sql<{ n: string }>`select count(*) as n from pg_locks
          where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`.execute(db);
        if (Number(rows[0].n) > 0) return;
        if (tries > 500) {
          open(async () => undefined);
          await done;
          throw new Error('nobody waited for the lock');
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async release(last) {
      open(last);
      await done;
    },
  };
}

/**
 * `db`, but each transaction started through it runs `before` first (the caller's checks outside
 * it are done by then) and `after` once it is committed: what someone else does just then, in
 * the gap a race would find.
 */
export function aroundTransactions(db: Kysely<Database>, hooks: { before?: () => Promise<unknown>; after?: () => Promise<unknown> }): Kysely<Database> {
  return new Proxy(db, {
    get(target, key) {
      if (key === 'transaction')
        return () => ({
          async execute<T>(work: Parameters<ReturnType<typeof db.transaction>['execute']>[0]): Promise<T> {
            await hooks.before?.();
            const result = (await db.transaction().execute(work)) as T;
            await hooks.after?.();
            return result;
          },
        });
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
