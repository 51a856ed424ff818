import type { BlockData } from '../../../schema/block';
import { refusal } from '../../../test/helpers/refusal';
import { aroundTransactions } from '../../../test/helpers/races';
import { createTeamApp, type Team } from '../../../test/helpers/team';
import type { TestApp } from '../../../test/helpers/testApp';
import { recordVersion } from '../../history/versions';
import { findBlock } from '../../repositories/blocks';
import { findPage } from '../../repositories/pages';
import { createBlock } from '../blocks/create';
import { deleteBlock } from '../blocks/remove';
import { createPage } from '../pages/create';
import { trashPage } from '../pages/trash';
import { updatePage } from '../pages/update';
import { restoreVersion } from './restore';
import { recordPageNow } from './record';

/*
 * A page history restore called as its handler calls it, on a real database (both kinds): what it
 * brings back, who may, and that a refusal changes nothing. The HTTP side (the answer, realtime,
 * the announcements' order) is in routes/history.int.test.ts.
 */

let t: TestApp;
let team: Team;

beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

const text = (s: string) => ({ tokens: [{ text: s }] }) as BlockData;
const textOf = async (id: string) => {
  const row = (await findBlock(t.app.db, id))!;
  return row.deleted_at === null ? (JSON.parse(row.data) as { tokens: Array<{ text: string }> }).tokens[0].text : null;
};

/** A page below the team page with two paragraphs, recorded as a version. */
async function pageWithVersion() {
  const { page } = await createPage(t.app.db, team.userId.admin, { type: 'Note', title: 'План' }, { parentId: team.pageId });
  const write = async (s: string, placeAfter?: string) =>
    (await createBlock(t.app.db, team.userId.admin, { pageId: page.id, type: 'text', data: text(s), placeAfter }, null)).block;
  const first = await write('Первый');
  const second = await write('Второй', first.id);
  const versionId = (await t.app.db.transaction().execute((trx) => recordVersion(trx, page.id)))!;
  return { page, first, second, versionId, write };
}

describe('restoreVersion', () => {
  test('brings back the blocks and the title as the version had them, records the page before and the restore, tells while locked', async () => {
    const { page, first, second, versionId, write } = await pageWithVersion();
    await deleteBlock(t.app.db, team.userId.admin, second.id, undefined, null);
    const third = await write('Третий', first.id);
    await updatePage(t.app.db, team.userId.admin, page.id, { title: 'План на неделю' });
    let locked = 0;
    const result = await restoreVersion(t.app.db, team.userId.participant, page.id, versionId, () => (locked += 1));
    expect(locked).toBe(1);
    expect([result.edited, result.added, result.removed.map((r) => r.id), result.retitled]).toEqual([[], [second.id], [third.id], 'План']);
    expect([await textOf(first.id), await textOf(second.id), await textOf(third.id)]).toEqual(['Первый', 'Второй', null]);
    expect((await findPage(t.app.db, page.id))!.title).toBe('План');
    const versions = await t.app.db.selectFrom('page_versions').select(['id', 'kind', 'restored_from']).where('page_id', '=', page.id).orderBy('id').execute();
    expect(versions.map((v) => [v.kind, v.restored_from === null ? null : Number(v.restored_from)])).toEqual([
      ['edit', null],
      ['edit', null],
      ['restore', versionId],
    ]);
    expect([result.before, result.restored]).toEqual([Number(versions[1].id), Number(versions[2].id)]);
  });

  test('denied: a reader and an outsider (403), another page’s or no version (404), a page in the trash (409); nothing changes', async () => {
    const { page, first, versionId } = await pageWithVersion();
    const other = await pageWithVersion();
    await updatePage(t.app.db, team.userId.admin, page.id, { title: 'Сейчас' });
    const count = async () => (await t.app.db.selectFrom('page_versions').select('id').where('page_id', '=', page.id).execute()).length;
    const before = await count();
    expect(await refusal(restoreVersion(t.app.db, team.userId.reader, page.id, versionId))).toEqual([403, 'forbidden']);
    expect(await refusal(restoreVersion(t.app.db, team.userId.outsider, page.id, versionId))).toEqual([403, 'forbidden']);
    expect(await refusal(restoreVersion(t.app.db, team.userId.admin, page.id, other.versionId))).toEqual([404, 'not_found']);
    expect(await refusal(restoreVersion(t.app.db, team.userId.admin, page.id, 999_999))).toEqual([404, 'not_found']);
    await trashPage(t.app.db, team.userId.admin, page.id);
    expect(await refusal(restoreVersion(t.app.db, team.userId.admin, page.id, versionId))).toEqual([409, 'page.in_trash']);
    expect([await count(), (await findPage(t.app.db, page.id))!.title, await textOf(first.id)]).toEqual([before, 'Сейчас', 'Первый']);
  });
});

test('a version forgotten after the check, before the lock (the historian’s retention), is 404 under the lock, and nothing changes', async () => {
  const { page, first, second, versionId } = await pageWithVersion();
  await updatePage(t.app.db, team.userId.admin, page.id, { title: 'Позже' });
  // The version goes just as the restore's transaction begins.
  const db = t.app.db;
  const forgettingFirst = aroundTransactions(db, {
    before: async () => {
      await db.deleteFrom('page_version_blocks').where('version_id', '=', versionId).execute();
      await db.deleteFrom('page_versions').where('id', '=', versionId).execute();
    },
  });
  expect(await refusal(restoreVersion(forgettingFirst, team.userId.admin, page.id, versionId))).toEqual([404, 'not_found']);
  expect([await textOf(first.id), await textOf(second.id), (await findPage(t.app.db, page.id))!.title]).toEqual(['Первый', 'Второй', 'Позже']);
});

describe('recordPageNow', () => {
  test('a reader records the page as it is now, once (nothing changed since: null); denied to an outsider (403) and for no page (404)', async () => {
    const { page, first } = await pageWithVersion();
    await updatePage(t.app.db, team.userId.admin, page.id, { title: 'Переименовано' });
    let locked = 0;
    const id = await recordPageNow(t.app.db, team.userId.reader, page.id, () => (locked += 1));
    expect([typeof id, locked]).toEqual(['number', 1]);
    expect(await recordPageNow(t.app.db, team.userId.reader, page.id)).toBeNull();
    expect(await refusal(recordPageNow(t.app.db, team.userId.outsider, page.id))).toEqual([403, 'forbidden']);
    expect(await refusal(recordPageNow(t.app.db, team.userId.admin, first.id))).toEqual([404, 'not_found']);
  });
});
