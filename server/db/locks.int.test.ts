import { sql } from 'kysely';
import { newId } from '../../schema/ids';
import { heldLock } from '../../test/helpers/races';
import { createTestApp, testDb, type TestApp } from '../../test/helpers/testApp';
import { LOCK_KINDS, lockBlocks, lockFor, lockTree } from './locks';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function insertWorkspace(db: TestApp['app']['db'], name: string) {
  return db.insertInto('workspaces').values({ id: newId(), name, avatar: null, alias: null, is_private: 0, created_at: new Date().toISOString() }).execute();
}

const countWorkspaces = async (db: TestApp['app']['db'], name: string) =>
  Number(
    (
      await db
        .selectFrom('workspaces')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).n,
  );

test('a lock outside a transaction is a programming error, not a silent no-op', async () => {
  await expect(lockFor(t.app.db, 'tree', 'anything')).rejects.toThrow(/inside a transaction/);
});

test('a second transaction taking the same lock runs after the first committed, and sees its writes', async () => {
  const key = newId();
  const first = await heldLock(t.app.db, async (trx) => {
    await lockTree(trx, key);
    await insertWorkspace(trx, `first-${key}`);
  });
  const second = t.app.db.transaction().execute(async (trx) => {
    await lockTree(trx, key);
    // Only ever reached once the first transaction is over: its row is committed and visible.
    return countWorkspaces(trx, `first-${key}`);
  });
  await first.release(async () => undefined);
  expect(await second).toBe(1);
});

// SQLite has no lock to look at: its one connection serializes transactions (the test above).
const onPostgres = testDb() === 'postgres' ? test : test.skip;

onPostgres('PostgreSQL: the lock is an advisory transaction lock per kind and key, let go at commit', async () => {
  const key = newId();
  const tryLock = (kind: number, k: string) => sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${kind}::int4, hashtext(${k})) as ok`;
  const first = await heldLock(t.app.db, (trx) => lockBlocks(trx, key));
  // Another connection cannot take the same kind and key, but may take another kind or key.
  const probe = await t.app.db.transaction().execute(async (trx) => ({
    same: (await tryLock(LOCK_KINDS.blocks, key).execute(trx)).rows[0].ok,
    otherKind: (await tryLock(LOCK_KINDS.tree, key).execute(trx)).rows[0].ok,
    otherKey: (await tryLock(LOCK_KINDS.blocks, newId()).execute(trx)).rows[0].ok,
  }));
  expect(probe).toEqual({ same: false, otherKind: true, otherKey: true });
  await first.release(async () => undefined);
  const after = await t.app.db.transaction().execute(async (trx) => (await tryLock(LOCK_KINDS.blocks, key).execute(trx)).rows[0].ok);
  expect(after).toBe(true);
});
