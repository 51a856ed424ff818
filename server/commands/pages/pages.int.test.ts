import { newId } from '../../../schema/ids';
import { findPage, findPages, pagePath } from '../../repositories/pages';
import { findMembership } from '../../repositories/workspaces';
import { refusal } from '../../../test/helpers/refusal';
import { heldLock } from '../../../test/helpers/races';
import { countRows, testDb, type TestApp } from '../../../test/helpers/testApp';
import { lockTree } from '../../db/locks';
import { createTeamApp, grantPage, type Team } from '../../../test/helpers/team';
import { clonePage } from './clone';
import { createPage } from './create';
import { movePage } from './move';
import { reorderPage } from './reorder';
import { removePageForever, restorePage, trashPage } from './trash';
import { updatePage } from './update';
import { FILE_STATUS, insertFile } from '../../repositories/files';

/*
 * The page-tree commands called as a handler calls them, on a real database (both kinds): what
 * each allows, what it refuses with which status and code, and that a refusal changes nothing.
 * The HTTP side (validation, presenting, realtime) is in routes/pages.int.test.ts.
 */

let t: TestApp;
let team: Team;

beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

const workspace = async (who: keyof Team['userId']) => (await findMembership(t.app.db, team.workspaceId, team.userId[who]))!;
const pageIn = async (parentId: string, title: string) => (await createPage(t.app.db, team.userId.admin, { type: 'Note', title }, { parentId })).page;

describe('createPage', () => {
  test('in a section by role, under a page by its level; the caller gets their level on the new page', async () => {
    const own = await createPage(
      t.app.db,
      team.userId.participant,
      { type: 'Note', title: 'Mine' },
      { workspace: await workspace('participant'), section: 'private' },
    );
    expect(own.level).toBe('full');
    expect(own.page.section).toBe('private');
    const child = await createPage(t.app.db, team.userId.participant, { type: 'Note', title: 'Below' }, { parentId: team.pageId });
    expect(child.level).toBe('edit');
    expect(pagePath(child.page)).toEqual([team.pageId]);
  });

  test('denied: the shared section to a participant, any section to a guest, a page one may only read or not see', async () => {
    const before = await countRows(t, 'pages');
    expect(
      await refusal(createPage(t.app.db, team.userId.participant, { type: 'Note' }, { workspace: await workspace('participant'), section: 'all' })),
    ).toEqual([403, 'forbidden']);
    expect(await refusal(createPage(t.app.db, team.userId.guest, { type: 'Note' }, { workspace: await workspace('guest'), section: 'private' }))).toEqual([
      403,
      'forbidden',
    ]);
    expect(await refusal(createPage(t.app.db, team.userId.reader, { type: 'Note' }, { parentId: team.pageId }))).toEqual([403, 'forbidden']);
    expect(await refusal(createPage(t.app.db, team.userId.outsider, { type: 'Note' }, { parentId: team.pageId }))).toEqual([403, 'forbidden']);
    expect(await refusal(createPage(t.app.db, team.userId.admin, { type: 'Note' }, { parentId: newId() }))).toEqual([404, 'not_found']);
    expect(await countRows(t, 'pages')).toBe(before);
  });

  test('a taken id is 409 page.already_exists; a parent in the trash 409 page.in_trash', async () => {
    const { page } = await createPage(t.app.db, team.userId.admin, { type: 'Note', id: newId() }, { parentId: team.pageId });
    expect(await refusal(createPage(t.app.db, team.userId.admin, { type: 'Note', id: page.id }, { parentId: team.pageId }))).toEqual([
      409,
      'page.already_exists',
    ]);
    await trashPage(t.app.db, team.userId.admin, page.id);
    expect(await refusal(createPage(t.app.db, team.userId.admin, { type: 'Note' }, { parentId: page.id }))).toEqual([409, 'page.in_trash']);
  });

  test('a database page is made with its database block', async () => {
    const { page } = await createPage(t.app.db, team.userId.admin, { type: 'Database' }, { parentId: team.pageId });
    const blocks = await t.app.db.selectFrom('blocks').select('type').where('page_id', '=', page.id).execute();
    expect(blocks).toEqual([{ type: 'database' }]);
  });
});

describe('movePage', () => {
  test('under another page: the subtree follows, in the new place after placeAfter', async () => {
    const from = await pageIn(team.pageId, 'From');
    const child = await pageIn(from.id, 'Child');
    const to = await pageIn(team.pageId, 'To');
    const first = await pageIn(to.id, 'First');
    const { before, moved } = await movePage(t.app.db, team.userId.admin, from.id, { dst: to.id, placeAfter: first.id });
    expect(before.parent_id).toBe(team.pageId);
    expect(moved.parent_id).toBe(to.id);
    expect(moved.sort_key > first.sort_key).toBe(true);
    expect(pagePath((await findPage(t.app.db, child.id))!)).toEqual([team.pageId, to.id, from.id]);
  });

  test('denied without full access, into a page one may not edit, into favourites, someone else’s page into private', async () => {
    const page = await pageIn(team.pageId, 'Stays');
    const editable = await pageIn(team.pageId, 'Editable');
    // Edit on both is not enough: moving needs full access on the page.
    expect(await refusal(movePage(t.app.db, team.userId.participant, page.id, { dst: editable.id, placeAfter: null }))).toEqual([403, 'forbidden']);
    await grantPage(t, page.id, team.userId.participant, 'full');
    expect(await refusal(movePage(t.app.db, team.userId.participant, page.id, { dst: team.otherPageId, placeAfter: null }))).toEqual([403, 'forbidden']);
    expect(await refusal(movePage(t.app.db, team.userId.participant, page.id, { dst: 'favorite', placeAfter: null }))).toEqual([422, 'validation_failed']);
    expect(await refusal(movePage(t.app.db, team.userId.participant, page.id, { dst: 'private', placeAfter: null }))).toEqual([403, 'forbidden']);
    expect(await refusal(movePage(t.app.db, team.userId.participant, page.id, { dst: 'all', placeAfter: null }))).toEqual([403, 'forbidden']);
    expect((await findPage(t.app.db, page.id))!.parent_id).toBe(team.pageId);
  });

  test('into itself or below itself is 422 page.move_cycle; placeAfter elsewhere is 422', async () => {
    const top = await pageIn(team.pageId, 'Top');
    const below = await pageIn(top.id, 'Below');
    expect(await refusal(movePage(t.app.db, team.userId.admin, top.id, { dst: top.id, placeAfter: null }))).toEqual([422, 'page.move_cycle']);
    expect(await refusal(movePage(t.app.db, team.userId.admin, top.id, { dst: below.id, placeAfter: null }))).toEqual([422, 'page.move_cycle']);
    expect(await refusal(movePage(t.app.db, team.userId.admin, below.id, { dst: team.otherPageId, placeAfter: top.id }))).toEqual([422, 'validation_failed']);
    expect((await findPage(t.app.db, below.id))!.parent_id).toBe(top.id);
  });
});

describe('clonePage', () => {
  test('copies what the caller may read below the page, nothing else', async () => {
    const source = await pageIn(team.pageId, 'Source');
    await pageIn(source.id, 'Open');
    const hidden = await pageIn(source.id, 'Hidden');
    await grantPage(t, hidden.id, team.userId.participant, 'none');
    const { clone, count } = await clonePage(t.app.db, team.userId.participant, source.id, { workspaceId: team.workspaceId, toElement: team.pageId });
    expect(count).toBe(2);
    const copies = await t.app.db.selectFrom('pages').select('title').where('parent_id', '=', clone.id).execute();
    expect(copies.map((p) => p.title)).toEqual(['Open']);
  });

  test('denied: a page one may not read, a workspace one is not in, a target one may not edit; a taken id is 409', async () => {
    const before = await countRows(t, 'pages');
    expect(await refusal(clonePage(t.app.db, team.userId.guest, team.pageId, { workspaceId: team.workspaceId }))).toEqual([403, 'forbidden']);
    expect(await refusal(clonePage(t.app.db, team.userId.outsider, team.pageId, { workspaceId: team.workspaceId }))).toEqual([403, 'forbidden']);
    expect(await refusal(clonePage(t.app.db, team.userId.reader, team.pageId, { workspaceId: team.workspaceId, toElement: team.pageId }))).toEqual([
      403,
      'forbidden',
    ]);
    // A guest has no private section to copy into.
    expect(await refusal(clonePage(t.app.db, team.userId.reader, team.pageId, { workspaceId: team.workspaceId }))).toEqual([403, 'forbidden']);
    expect(await refusal(clonePage(t.app.db, team.userId.admin, team.pageId, { workspaceId: team.workspaceId, id: team.otherPageId }))).toEqual([
      409,
      'page.already_exists',
    ]);
    expect(await countRows(t, 'pages')).toBe(before);
  });
});

describe('reorderPage', () => {
  test('after a sibling, or first; not after a page elsewhere, not by a reader', async () => {
    const parent = await pageIn(team.pageId, 'Parent');
    const a = await pageIn(parent.id, 'A');
    const b = await pageIn(parent.id, 'B');
    const { placed } = await reorderPage(t.app.db, team.userId.participant, b.id, null);
    expect(placed.sort_key < a.sort_key).toBe(true);
    expect(await refusal(reorderPage(t.app.db, team.userId.participant, a.id, team.otherPageId))).toEqual([422, 'validation_failed']);
    expect(await refusal(reorderPage(t.app.db, team.userId.reader, a.id, null))).toEqual([403, 'forbidden']);
    expect((await findPage(t.app.db, a.id))!.sort_key).toBe(a.sort_key);
  });
});

describe('trash, restore, delete for good', () => {
  test('the subtree goes and comes back together; a page below a trashed one waits for it', async () => {
    const top = await pageIn(team.pageId, 'Top');
    const below = await pageIn(top.id, 'Below');
    const { trashed } = await trashPage(t.app.db, team.userId.participant, top.id);
    expect(trashed.in_trash).toBe(1);
    expect((await findPage(t.app.db, below.id))!.in_trash).toBe(1);
    expect(await refusal(restorePage(t.app.db, team.userId.participant, below.id))).toEqual([409, 'page.parent_in_trash']);
    const { restored } = await restorePage(t.app.db, team.userId.participant, top.id);
    expect(restored.in_trash).toBe(0);
    expect((await findPage(t.app.db, below.id))!.in_trash).toBe(0);
    expect(await refusal(restorePage(t.app.db, team.userId.participant, top.id))).toEqual([409, 'page.not_in_trash']);
  });

  test('denied to a reader (trash, restore) and to one without full access (for good); only a trashed page goes for good', async () => {
    const top = await pageIn(team.pageId, 'Kept');
    const below = await pageIn(top.id, 'Kept below');
    expect(await refusal(trashPage(t.app.db, team.userId.reader, top.id))).toEqual([403, 'forbidden']);
    expect(await refusal(removePageForever(t.app.db, team.userId.admin, top.id))).toEqual([409, 'page.not_in_trash']);
    await trashPage(t.app.db, team.userId.admin, top.id);
    expect(await refusal(restorePage(t.app.db, team.userId.reader, top.id))).toEqual([403, 'forbidden']);
    expect(await refusal(removePageForever(t.app.db, team.userId.participant, top.id))).toEqual([403, 'forbidden']);
    expect(await findPages(t.app.db, [top.id, below.id])).toHaveLength(2);
    const { removed, pageIds } = await removePageForever(t.app.db, team.userId.admin, top.id);
    expect(removed.id).toBe(top.id);
    expect(pageIds.sort()).toEqual([top.id, below.id].sort());
    expect(await findPages(t.app.db, [top.id, below.id])).toHaveLength(0);
  });
});

// SQLite runs one transaction at a time: nobody changes a page while a command waits for a lock.
const onPostgres = testDb() === 'postgres' ? test : test.skip;

onPostgres(
  'a page moved while it goes to the trash: the move waits for the tree lock and reads the page again there (409 page.in_trash, not moved)',
  async () => {
    const page = await pageIn(team.pageId, 'Уходит в корзину');
    const target = await pageIn(team.pageId, 'Куда');
    const lock = await heldLock(t.app.db, (trx) => lockTree(trx, team.workspaceId));
    const moved = refusal(movePage(t.app.db, team.userId.admin, page.id, { dst: target.id, placeAfter: null }));
    await lock.waitedOn();
    await lock.release((trx) => trx.updateTable('pages').set({ in_trash: 1 }).where('id', '=', page.id).execute());
    expect(await moved).toEqual([409, 'page.in_trash']);
    expect((await findPage(t.app.db, page.id))!.parent_id).toBe(team.pageId);
  },
);

describe('updatePage', () => {
  const fileOf = async (pageId: string | null, workspaceId: string) => {
    const id = newId();
    await insertFile(t.app.db, {
      id,
      owner_id: team.userId.admin,
      page_id: pageId,
      workspace_id: workspaceId,
      name: 'cover.png',
      mime_type: 'image/png',
      size: 10,
      storage_key: `k-${id}`,
      is_public: 0,
      status: FILE_STATUS.ready,
      upload_token_hash: null,
      upload_expires_at: null,
      created_at: new Date().toISOString(),
    });
    return id;
  };

  test('a title, an icon, a cover of its own or its workspace’s files; publishing and back', async () => {
    const page = await pageIn(team.pageId, 'Было');
    const titled = await updatePage(t.app.db, team.userId.participant, page.id, { title: 'Стало' });
    expect([titled.updated.title, titled.level]).toEqual(['Стало', 'edit']);
    // The tree lists it anew, and its readers see the new title.
    expect(titled.events).toEqual([
      { kind: 'treeChanged', page: titled.updated },
      { kind: 'pageChanged', page: titled.updated, at: titled.updated.updated_at },
    ]);
    expect((await updatePage(t.app.db, team.userId.participant, page.id, { icon: '🧭' })).updated.icon).toBe('🧭');
    for (const fileId of [await fileOf(page.id, team.workspaceId), await fileOf(null, team.workspaceId)]) {
      const cover = { contentType: 'FileCover' as const, fileId, position: 50 };
      expect(JSON.parse((await updatePage(t.app.db, team.userId.participant, page.id, { cover })).updated.cover!)).toEqual(cover);
    }
    const published = await updatePage(t.app.db, team.userId.admin, page.id, { isPublic: true });
    expect([published.updated.is_public, published.updated.published_by]).toEqual([1, team.userId.admin]);
    // Published: the tree's mark changes, nothing the page's readers see.
    expect(published.events).toEqual([{ kind: 'treeChanged', page: published.updated }]);
    const unpublished = await updatePage(t.app.db, team.userId.admin, page.id, { isPublic: false });
    expect([unpublished.updated.is_public, unpublished.updated.published_by]).toEqual([0, null]);
  });

  test('denied: a reader, publishing without full access, a cover of another page’s or workspace’s file (403), a file that is not (404), another id (422), the trash (409); nothing changes', async () => {
    const page = await pageIn(team.pageId, 'Как есть');
    const elsewhere = await pageIn(team.pageId, 'Другая');
    const cover = (fileId: string) => ({ cover: { contentType: 'FileCover' as const, fileId, position: 50 } });
    expect(await refusal(updatePage(t.app.db, team.userId.reader, page.id, { title: 'нет' }))).toEqual([403, 'forbidden']);
    expect(await refusal(updatePage(t.app.db, team.userId.outsider, page.id, { title: 'нет' }))).toEqual([403, 'forbidden']);
    expect(await refusal(updatePage(t.app.db, team.userId.participant, page.id, { isPublic: true }))).toEqual([403, 'forbidden']);
    expect(await refusal(updatePage(t.app.db, team.userId.participant, page.id, cover(await fileOf(elsewhere.id, team.workspaceId))))).toEqual([
      403,
      'forbidden',
    ]);
    expect(await refusal(updatePage(t.app.db, team.userId.participant, page.id, cover(await fileOf(null, newId()))))).toEqual([403, 'forbidden']);
    expect(await refusal(updatePage(t.app.db, team.userId.participant, page.id, cover(newId())))).toEqual([404, 'not_found']);
    expect(await refusal(updatePage(t.app.db, team.userId.participant, page.id, { id: elsewhere.id, title: 'нет' }))).toEqual([422, 'validation_failed']);
    await trashPage(t.app.db, team.userId.admin, page.id);
    expect(await refusal(updatePage(t.app.db, team.userId.admin, page.id, { title: 'нет' }))).toEqual([409, 'page.in_trash']);
    const kept = (await findPage(t.app.db, page.id))!;
    expect([kept.title, kept.cover, kept.is_public]).toEqual(['Как есть', null, 0]);
  });
});
