import type { BlockData } from '../../schema/block';
import type { BlockUpgrade } from '../../schema/blocks';
import { createBlock } from '../commands/blocks/create';
import { deleteBlock } from '../commands/blocks/remove';
import { findBlock } from '../repositories/blocks';
import type { TestApp } from '../../test/helpers/testApp';
import { createTeamApp, type Team } from '../../test/helpers/team';
import { upgradeStoredBlocks } from './upgradeStoredBlocks';

/*
 * The helper a migration calls when a block type's data changes shape (docs/api/blocks.md «Data
 * versions»), on a real database (both kinds): one named step over the type's blocks, deleted ones
 * too, and over the history's states of that type — nothing else touched.
 */

let t: TestApp;
let team: Team;
beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

const code = (text: string) => ({ tokens: [{ text }], language: 'python' }) as BlockData;
const make = async (type: 'code' | 'text', data: BlockData) =>
  (await createBlock(t.app.db, team.userId.admin, { pageId: team.pageId, type, data }, null)).block;
const dataOf = async (id: string) => JSON.parse((await findBlock(t.app.db, id))!.data) as Record<string, unknown>;

/** A later shape of code blocks: a caption beside the code (a step as a real change would ship). */
const captioned: BlockUpgrade = { name: 'code: a caption, empty', up: (data) => ({ ...data, caption: '' }) };

test('one step runs over the blocks of its type (deleted ones too) and the history states of that type, and nothing else', async () => {
  const live = await make('code', code('print(1)'));
  const deleted = await make('code', code('print(2)'));
  await deleteBlock(t.app.db, team.userId.admin, deleted.id, undefined, null);
  const text = await make('text', { tokens: [{ text: 'не код' }] } as BlockData);
  // The history: the text block was code once; the live code block was recorded as it is.
  const { id: versionId } = await t.app.db
    .insertInto('page_versions')
    .values({ page_id: team.pageId, created_at: new Date().toISOString(), title: '', authors: '[]', kind: 'edit', restored_from: null, changed: 3 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const state = (type: string, data: unknown) => JSON.stringify({ type, data, parentId: null, sortKey: 'a0' });
  await t.app.db
    .insertInto('page_version_blocks')
    .values([
      { page_id: team.pageId, block_id: text.id, version_id: versionId, block_version: 1, place: '|a0', state: state('code', code('was code')) },
      { page_id: team.pageId, block_id: live.id, version_id: versionId, block_version: 1, place: '|a1', state: state('text', { tokens: [] }) },
      { page_id: team.pageId, block_id: deleted.id, version_id: versionId, block_version: 1, place: null, state: null },
    ])
    .execute();

  const changed = await upgradeStoredBlocks(t.app.db, { wireType: 'code', upgrades: [captioned] }, 1);

  expect(changed).toBe(3);
  expect(await dataOf(live.id)).toEqual({ ...code('print(1)'), caption: '' });
  expect(await dataOf(deleted.id)).toEqual({ ...code('print(2)'), caption: '' });
  expect(await dataOf(text.id)).toEqual({ tokens: [{ text: 'не код' }] });
  const states = await t.app.db.selectFrom('page_version_blocks').select(['block_id', 'state']).where('version_id', '=', versionId).execute();
  const stateOf = (id: string) => JSON.parse(states.find((s) => s.block_id === id)!.state ?? 'null') as { data?: unknown } | null;
  expect(stateOf(text.id)?.data).toEqual({ ...code('was code'), caption: '' });
  expect(stateOf(live.id)?.data).toEqual({ tokens: [] });
  expect(stateOf(deleted.id)).toBeNull();
});

test('a step the type does not have is a programming error, and changes nothing', async () => {
  const block = await make('code', code('x = 1'));
  await expect(upgradeStoredBlocks(t.app.db, { wireType: 'code', upgrades: [captioned] }, 2)).rejects.toThrow(/no upgrade step 2/);
  expect(await dataOf(block.id)).toEqual(code('x = 1'));
});

test('all or nothing: a step that fails on one block leaves every block as it was', async () => {
  const first = await make('code', code('a = 1'));
  const second = await make('code', code('b = 2'));
  const failing: BlockUpgrade = {
    name: 'code: fails on b',
    up: (data) => {
      if (JSON.stringify(data).includes('b = 2')) throw new Error('cannot');
      return { ...data, caption: '' };
    },
  };
  await expect(upgradeStoredBlocks(t.app.db, { wireType: 'code', upgrades: [failing] }, 1)).rejects.toThrow('cannot');
  expect([await dataOf(first.id), await dataOf(second.id)]).toEqual([code('a = 1'), code('b = 2')]);
});
