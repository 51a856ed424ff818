import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { WireWorkspaceToken } from '../../schema/accessToken';
import type { WireBlock } from '../../schema/block';
import type { WireBlockFold, WirePageFolds } from '../../schema/blockFolds';
import { actor, createPage, expectStatus, share, type Actor } from '../../test/helpers/pages';
import { api, countRows, createTestApp, errorCode, expectOk, type TestApp } from '../../test/helpers/testApp';

/*
 * Toggle folds per person (issue 39, docs/api/blocks.md «Toggle folds (per person)») on a real
 * server and the project's database: nothing stored is folded; a person's open toggles are theirs
 * alone; reading the page is enough to fold; who may not read the page is refused as the block
 * list refuses them, and nothing is stored; only toggles fold; the rows go with the page.
 */

let t: TestApp;
let ann: Actor; // the page's owner
let bob: Actor; // reads the page
let cat: Actor; // reads the page
let out: Actor; // no access
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await actor(t, 'ann.folds@example.com');
  bob = await actor(t, 'bob.folds@example.com');
  cat = await actor(t, 'cat.folds@example.com');
  out = await actor(t, 'out.folds@example.com');
});
afterAll(async () => {
  await t.close();
});

/** A page of ann's that bob and cat may read. */
async function sharedPage(title = 'Складки'): Promise<string> {
  const page = await createPage(t, ann, { title });
  await share(t, ann, page.id, [
    { email: bob.email, accessLevel: 'read' },
    { email: cat.email, accessLevel: 'read' },
  ]);
  return page.id;
}

/** A block made through the API by the page's owner (deleted again when `deleted`). */
async function insertBlock(pageId: string, type = 'toggle', deleted = false): Promise<string> {
  const made = expectOk<{ id: string; version: number }>(
    await api(t, ann.cookie, 'POST', `${S}/block`, { pageId, type, data: { tokens: [{ text: 'Подробнее' }] } }),
    201,
  );
  if (deleted) expectStatus(await api(t, ann.cookie, 'DELETE', `${S}/block/${made.id}?version=${made.version}`), 200);
  return made.id;
}

const fold = (who: Actor, blockId: string, payload: unknown) => api(t, who.cookie, 'PUT', `${S}/block/${blockId}/fold`, payload);
const openOf = async (who: Actor, pageId: string) => expectOk<WirePageFolds>(await api(t, who.cookie, 'GET', `${S}/note/${pageId}/folds`)).open.sort();
const refusal = (response: LightMyRequestResponse) => [response.statusCode, errorCode(response)];

test('nothing stored is folded; opened it is listed, folded again it is not', async () => {
  const pageId = await sharedPage();
  const toggle = await insertBlock(pageId);
  const heading = await insertBlock(pageId, 'toggleHeading2');
  expect(await openOf(ann, pageId)).toEqual([]);

  expect(expectOk<WireBlockFold>(await fold(ann, toggle, { open: true }))).toEqual({ blockId: toggle, open: true });
  expectOk(await fold(ann, heading, { open: true }));
  expect(await openOf(ann, pageId)).toEqual([toggle, heading].sort());

  expect(expectOk<WireBlockFold>(await fold(ann, toggle, { open: false }))).toEqual({ blockId: toggle, open: false });
  expect(await openOf(ann, pageId)).toEqual([heading]);
  // Sent twice, the same: one row per person and toggle.
  expectOk(await fold(ann, heading, { open: true }));
  expect(await openOf(ann, pageId)).toEqual([heading]);
  const rows = await t.app.db.selectFrom('block_folds').select(['block_id', 'open', 'page_id']).where('user_id', '=', ann.id).execute();
  expect(rows.sort((a, b) => (a.block_id < b.block_id ? -1 : 1))).toEqual(
    [
      { block_id: toggle, open: 0, page_id: pageId },
      { block_id: heading, open: 1, page_id: pageId },
    ].sort((a, b) => (a.block_id < b.block_id ? -1 : 1)),
  );
});

test("per person: a reader folds for themselves, and one reader's open toggle is not another's", async () => {
  const pageId = await sharedPage();
  const first = await insertBlock(pageId, 'toggle');
  const second = await insertBlock(pageId, 'toggleHeading1');
  const elsewhere = await insertBlock(await sharedPage('Другая'), 'toggleHeading3');

  expectOk(await fold(bob, first, { open: true }));
  expectOk(await fold(cat, second, { open: true }));
  expectOk(await fold(bob, elsewhere, { open: true }));

  expect(await openOf(bob, pageId)).toEqual([first]);
  expect(await openOf(cat, pageId)).toEqual([second]);
  expect(await openOf(ann, pageId)).toEqual([]);
  // bob folding his does not touch cat's.
  expectOk(await fold(bob, second, { open: false }));
  expect(await openOf(cat, pageId)).toEqual([second]);
});

test('an outsider is refused as the block list refuses them, for both calls, and nothing is stored', async () => {
  const pageId = await sharedPage();
  const toggle = await insertBlock(pageId);
  const blocks = await api(t, out.cookie, 'GET', `${S}/note/${pageId}/blocks`);
  const block = await api(t, out.cookie, 'GET', `${S}/block/${toggle}`);
  expect([blocks.statusCode, block.statusCode]).toEqual([403, 403]);
  const before = await countRows(t, 'block_folds');

  expect(refusal(await api(t, out.cookie, 'GET', `${S}/note/${pageId}/folds`))).toEqual([403, 'forbidden']);
  expect(refusal(await fold(out, toggle, { open: true }))).toEqual([403, 'forbidden']);
  // A deleted block or one that is no toggle tells the outsider nothing more.
  expect(refusal(await fold(out, await insertBlock(pageId, 'toggle', true), { open: true }))).toEqual([403, 'forbidden']);
  expect(refusal(await fold(out, await insertBlock(pageId, 'text'), { open: true }))).toEqual([403, 'forbidden']);
  expect(await countRows(t, 'block_folds')).toBe(before);
});

test('anonymous callers are 401 as for the block list, a published page too', async () => {
  const pageId = await sharedPage();
  const toggle = await insertBlock(pageId);
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${pageId}`, { isPublic: true }));
  expect((await api(t, undefined, 'GET', `${S}/note/${pageId}/blocks`)).statusCode).toBe(401);
  expect(refusal(await api(t, undefined, 'GET', `${S}/note/${pageId}/folds`))).toEqual([401, 'unauthorized']);
  expect(refusal(await api(t, undefined, 'PUT', `${S}/block/${toggle}/fold`, { open: true }))).toEqual([401, 'unauthorized']);
});

test('only toggles fold; an unknown or deleted block is 404; a bad body is 422; nothing is stored', async () => {
  const pageId = await sharedPage();
  const toggle = await insertBlock(pageId);
  const text = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId, type: 'text', data: { tokens: [{ text: 'нет' }] } }), 201);
  const before = await countRows(t, 'block_folds');

  const notToggle = await fold(bob, text.id, { open: true });
  expect(refusal(notToggle)).toEqual([422, 'block.not_a_toggle']);
  expect(refusal(await fold(bob, crypto.randomUUID(), { open: true }))).toEqual([404, 'not_found']);
  expect(refusal(await fold(bob, await insertBlock(pageId, 'toggle', true), { open: true }))).toEqual([404, 'not_found']);
  // Deleted through the API as well.
  const deleted = await insertBlock(pageId);
  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/block/${deleted}`));
  expect(refusal(await fold(bob, deleted, { open: true }))).toEqual([404, 'not_found']);
  for (const payload of [{ open: 'yes' }, { open: true, extra: 1 }, {}, { open: null }])
    expect(refusal(await fold(bob, toggle, payload))).toEqual([422, 'validation_failed']);
  expect(await countRows(t, 'block_folds')).toBe(before);
  expect(refusal(await api(t, bob.cookie, 'GET', `${S}/note/${crypto.randomUUID()}/folds`))).toEqual([404, 'not_found']);
});

test('a read-only workspace token reads the folds and may not change them', async () => {
  const pageId = await sharedPage();
  const toggle = await insertBlock(pageId);
  expectOk(await fold(ann, toggle, { open: true }));
  const { token } = expectOk<WireWorkspaceToken>(
    await api(t, ann.cookie, 'POST', `${S}/workspace/${ann.workspaceId}/tokens`, { name: 'Чтение', readOnly: true }),
    201,
  );
  const headers = { authorization: `Bearer ${token!}` };
  expect(expectOk<WirePageFolds>(await api(t, undefined, 'GET', `${S}/note/${pageId}/folds`, undefined, headers)).open).toEqual([toggle]);
  const refused = await api(t, undefined, 'PUT', `${S}/block/${toggle}/fold`, { open: false }, headers);
  expect(refusal(refused)).toEqual([403, 'auth.token_read_only']);
  expect(await openOf(ann, pageId)).toEqual([toggle]);
});

test('a page in the trash keeps its folds and folds still; deleted for good it takes them along', async () => {
  const pageId = await sharedPage();
  const toggle = await insertBlock(pageId);
  expectOk(await fold(ann, toggle, { open: true }));
  expectOk(await fold(bob, toggle, { open: true }));
  const rowsOfPage = async () => (await t.app.db.selectFrom('block_folds').select('user_id').where('page_id', '=', pageId).execute()).length;

  expectOk(await api(t, ann.cookie, 'DELETE', `${S}/element/${pageId}`));
  expect(await rowsOfPage()).toBe(2);
  expect(await openOf(ann, pageId)).toEqual([toggle]);
  // Reading is enough, so a page in the trash folds too.
  expectOk(await fold(ann, toggle, { open: false }));
  expect(await openOf(ann, pageId)).toEqual([]);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/trash/${pageId}/remove`));
  expect(await rowsOfPage()).toBe(0);
});
