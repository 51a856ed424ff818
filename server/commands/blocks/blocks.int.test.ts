import type { BlockData } from '../../../schema/block';
import { newId } from '../../../schema/ids';
import { findBlock } from '../../repositories/blocks';
import { refusal } from '../../../test/helpers/refusal';
import { aroundTransactions, heldLock } from '../../../test/helpers/races';
import { testDb, type TestApp } from '../../../test/helpers/testApp';
import { lockBlocks } from '../../db/locks';
import { createTeamApp, grantPage, type Team } from '../../../test/helpers/team';
import { createPage } from '../pages/create';
import { trashPage } from '../pages/trash';
import { cloneBlock } from './clone';
import { createBlock } from './create';
import { moveBlock } from './move';
import { deleteBlock, restoreBlock } from './remove';
import { blockUpdater, type UpdateBlock } from './update';

/*
 * The block commands called as a handler calls them, on a real database (both kinds): what each
 * allows, what it refuses with which status and code, and that a refusal changes nothing. The
 * HTTP side (validation, realtime) is in routes/blocks.int.test.ts.
 */

let t: TestApp;
let team: Team;
let updateBlock: UpdateBlock;

beforeAll(async () => {
  ({ t, team } = await createTeamApp());
  updateBlock = blockUpdater(t.app.db, t.app.dbChanges, t.config.authCacheTtlMs);
});
afterAll(async () => t.close());

const text = (s: string) => ({ tokens: [{ text: s }] }) as BlockData;
const paragraph = async (pageId: string, s: string, more: { parentId?: string; placeAfter?: string; id?: string } = {}) =>
  (await createBlock(t.app.db, team.userId.admin, { pageId, type: 'text', data: text(s), ...more }, null)).block;
const textOf = async (id: string) => JSON.parse((await findBlock(t.app.db, id))!.data).tokens[0].text as string;

describe('createBlock', () => {
  test('by an editor, after a sibling, told as added; denied to a reader and an outsider, and 404 for no page', async () => {
    const first = await paragraph(team.pageId, 'first');
    const second = await createBlock(
      t.app.db,
      team.userId.participant,
      { pageId: team.pageId, type: 'text', data: text('second'), placeAfter: first.id },
      null,
    );
    expect(second.block.placeAfter).toBe(first.id);
    expect(second.events).toEqual([{ kind: 'blocksAdded', pageId: team.pageId, blocks: [second.block], at: expect.any(String) }]);
    expect(await refusal(createBlock(t.app.db, team.userId.reader, { pageId: team.pageId, type: 'text', data: text('no') }, null))).toEqual([403, 'forbidden']);
    expect(await refusal(createBlock(t.app.db, team.userId.outsider, { pageId: team.pageId, type: 'text', data: text('no') }, null))).toEqual([
      403,
      'forbidden',
    ]);
    expect(await refusal(createBlock(t.app.db, team.userId.admin, { pageId: newId(), type: 'text', data: text('no') }, null))).toEqual([404, 'not_found']);
  });

  test('a taken id is 409 block.already_exists; a parent on another page 422; nothing made', async () => {
    const block = await paragraph(team.pageId, 'taken');
    expect(await refusal(paragraph(team.pageId, 'again', { id: block.id }))).toEqual([409, 'block.already_exists']);
    expect(await textOf(block.id)).toBe('taken');
    const elsewhere = await paragraph(team.otherPageId, 'elsewhere');
    const id = newId();
    expect(await refusal(paragraph(team.pageId, 'child', { parentId: elsewhere.id, id }))).toEqual([422, 'validation_failed']);
    expect(await findBlock(t.app.db, id)).toBeUndefined();
  });
});

describe('blockUpdater', () => {
  test('typing goes through at the version seen; a stale version is 422 block.version_conflict and keeps the newer text', async () => {
    const block = await paragraph(team.pageId, 'one');
    const first = await updateBlock(team.userId.participant, block.id, { version: block.version, type: 'text', data: text('two') }, null);
    expect(first.block.version).toBe(block.version + 1);
    // A paragraph's change: the block alone is told (a database's would also reset its rows).
    expect(first.events).toEqual([{ kind: 'blockChanged', block: first.block, at: expect.any(String) }]);
    expect(await refusal(updateBlock(team.userId.admin, block.id, { version: block.version, type: 'text', data: text('stale') }, null))).toEqual([
      422,
      'block.version_conflict',
    ]);
    expect(await textOf(block.id)).toBe('two');
  });

  test('denied once the editor loses access, though the hot path had them cached; denied in the trash', async () => {
    const { page: own } = await createPage(t.app.db, team.userId.admin, { type: 'Note' }, { parentId: team.pageId });
    const block = await paragraph(own.id, 'cached');
    const typed = await updateBlock(team.userId.participant, block.id, { version: block.version, type: 'text', data: text('typed') }, null);
    await grantPage(t, own.id, team.userId.participant, 'read');
    expect(await refusal(updateBlock(team.userId.participant, block.id, { version: typed.block.version, type: 'text', data: text('after') }, null))).toEqual([
      403,
      'forbidden',
    ]);
    await trashPage(t.app.db, team.userId.admin, own.id);
    expect(await refusal(updateBlock(team.userId.admin, block.id, { version: typed.block.version, type: 'text', data: text('trash') }, null))).toEqual([
      409,
      'page.in_trash',
    ]);
    expect(await textOf(block.id)).toBe('typed');
  });

  test('a paragraph cannot become a database', async () => {
    const block = await paragraph(team.pageId, 'plain');
    expect(await refusal(updateBlock(team.userId.admin, block.id, { version: block.version, type: 'database', data: {} as BlockData }, null))).toEqual([
      422,
      'validation_failed',
    ]);
  });
});

describe('deleteBlock, restoreBlock', () => {
  test('a delete based on an old version is refused while someone typed since; restore brings the subtree back once its parent is live', async () => {
    const parent = await paragraph(team.pageId, 'parent');
    const child = await paragraph(team.pageId, 'child', { parentId: parent.id });
    await updateBlock(team.userId.admin, parent.id, { version: parent.version, type: 'text', data: text('typed since') }, null);
    expect(await refusal(deleteBlock(t.app.db, team.userId.participant, parent.id, parent.version, null))).toEqual([422, 'block.version_conflict']);
    expect((await findBlock(t.app.db, parent.id))!.deleted_at).toBeNull();
    expect(await refusal(deleteBlock(t.app.db, team.userId.reader, parent.id, undefined, null))).toEqual([403, 'forbidden']);

    const { events } = await deleteBlock(t.app.db, team.userId.participant, parent.id, undefined, null);
    expect(events).toHaveLength(1);
    const [removed] = events;
    expect(removed.kind === 'blocksRemoved' && removed.removed.map((r) => r.id).sort()).toEqual([parent.id, child.id].sort());
    expect(await refusal(restoreBlock(t.app.db, team.userId.admin, child.id))).toEqual([422, 'validation_failed']);
    expect(await refusal(restoreBlock(t.app.db, team.userId.reader, parent.id))).toEqual([403, 'forbidden']);
    const restored = await restoreBlock(t.app.db, team.userId.admin, parent.id);
    expect(restored.blocks.map((b) => b.id).sort()).toEqual([parent.id, child.id].sort());
    expect(restored.events).toEqual([{ kind: 'blocksAdded', pageId: team.pageId, blocks: restored.blocks, at: expect.any(String) }]);
  });
});

describe('moveBlock, cloneBlock', () => {
  test('not under itself or its descendant, not after itself; a clone copies the subtree after it', async () => {
    const top = await paragraph(team.pageId, 'top');
    const below = await paragraph(team.pageId, 'below', { parentId: top.id });
    expect(await refusal(moveBlock(t.app.db, team.userId.admin, top.id, { parentId: below.id }))).toEqual([422, 'validation_failed']);
    expect(await refusal(moveBlock(t.app.db, team.userId.admin, top.id, { placeAfter: top.id }))).toEqual([422, 'validation_failed']);
    expect(await refusal(moveBlock(t.app.db, team.userId.reader, below.id, {}))).toEqual([403, 'forbidden']);
    expect((await findBlock(t.app.db, below.id))!.parent_id).toBe(top.id);
    const moved = await moveBlock(t.app.db, team.userId.participant, below.id, {});
    expect(moved.block.parentId).toBeNull();
    expect(moved.events).toEqual([{ kind: 'blockChanged', block: moved.block, at: expect.any(String) }]);

    const copyId = newId();
    await paragraph(team.pageId, 'inner', { parentId: top.id });
    const { blocks, events } = await cloneBlock(t.app.db, team.userId.participant, top.id, copyId);
    expect(blocks[0].id).toBe(copyId);
    expect(blocks).toHaveLength(2);
    expect(events).toEqual([{ kind: 'blocksAdded', pageId: team.pageId, blocks, at: expect.any(String) }]);
    expect(await refusal(cloneBlock(t.app.db, team.userId.admin, top.id, copyId))).toEqual([409, 'block.already_exists']);
    expect(await refusal(cloneBlock(t.app.db, team.userId.reader, top.id))).toEqual([403, 'forbidden']);
  });
});

describe('moveBlock answers the move it made', () => {
  test('its new parent deleted right after the commit (the block with it): still the block as moved, not a 404', async () => {
    const parent = await paragraph(team.pageId, 'parent');
    const block = await paragraph(team.pageId, 'moving');
    // Someone's delete of the parent goes in as soon as the move's transaction is committed.
    const db = t.app.db;
    const deletingAfterCommit = aroundTransactions(db, { after: () => deleteBlock(db, team.userId.admin, parent.id, undefined, null) });
    const moved = await moveBlock(deletingAfterCommit, team.userId.admin, block.id, { parentId: parent.id });
    expect([moved.block.id, moved.block.parentId]).toEqual([block.id, parent.id]);
    // Deleted with its parent since.
    expect((await findBlock(db, block.id))!.deleted_at).not.toBeNull();
  });
});

// SQLite runs one transaction at a time: nobody changes a page while a command waits for a lock.
const onPostgres = testDb() === 'postgres' ? test : test.skip;

onPostgres(
  'a block made while its page goes to the trash: the command waits for the page’s block lock and reads the page again there (409 page.in_trash, nothing made)',
  async () => {
    const { page } = await createPage(t.app.db, team.userId.admin, { type: 'Note' }, { parentId: team.pageId });
    const lock = await heldLock(t.app.db, (trx) => lockBlocks(trx, page.id));
    const id = newId();
    const made = refusal(paragraph(page.id, 'late', { id }));
    await lock.waitedOn();
    await lock.release((trx) => trx.updateTable('pages').set({ in_trash: 1 }).where('id', '=', page.id).execute());
    expect(await made).toEqual([409, 'page.in_trash']);
    expect(await findBlock(t.app.db, id)).toBeUndefined();
  },
);
