/**
 * The block update answers from memory who may edit a page (docs/adr/0004-hot-path-caches.md).
 * These tests warm that memory with a successful update, change something through the API, and
 * check the very next update is judged on the change: in this process at once, in another
 * process (a second server on the same database) within AUTH_CACHE_TTL_MS.
 */
import type { FastifyInstance } from 'fastify';
import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import { buildApp } from '../app';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';
import { addMember, grantPage } from '../../test/helpers/team';
import { createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';

let t: TestApp;
let ann: string;
let bob: string;
let bobId: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann@example.com');
  bob = await signIn(t, 'bob@example.com');
  bobId = await userIdOf(t, 'bob@example.com');
});
afterAll(async () => {
  await t.close();
});

interface Shared {
  workspaceId: string;
  pageId: string;
  block: WireBlock;
}

/** A page of Ann's in a team workspace with Bob as participant and an edit grant, and one block. */
async function sharedPage(): Promise<Shared> {
  const workspace = await createWorkspaceAs(t, ann, 'Команда');
  await addMember(t, workspace.id, bobId, 'participant');
  const page = await api(t, ann, 'POST', '/api/v3/spaces/section/private', { title: 'Doc' }, { 'x-workspace-id': workspace.id });
  expect(page.statusCode).toBe(201);
  const pageId = body<WireElement>(page).data.id;
  await grantPage(t, pageId, bobId, 'edit');
  const created = await api(t, ann, 'POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [{ text: 'hello' }] } });
  expect(created.statusCode).toBe(201);
  return { workspaceId: workspace.id, pageId, block: body<WireBlock>(created).data };
}

/** Updates the block with the next version, and returns the response. */
function makeEditor(app: () => FastifyInstance) {
  const versions = new Map<string, number>();
  return async (cookie: string, block: WireBlock, text = 'edit') => {
    const version = versions.get(block.id) ?? block.version;
    const res = await app().inject({
      method: 'POST',
      url: `/api/v3/spaces/block/${block.id}`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: { version, type: 'text', data: { tokens: [{ text }] } },
    });
    if (res.statusCode === 200) versions.set(block.id, body<WireBlock>(res).data.version);
    return res;
  };
}
const edit = makeEditor(() => t.app);

describe('a change made in this process counts for the very next update', () => {
  test('the share is removed → 403', async () => {
    const { pageId, block } = await sharedPage();
    expect((await edit(bob, block)).statusCode).toBe(200);
    expect((await api(t, ann, 'POST', `/api/v3/spaces/element/${pageId}/member/remove`, { userId: bobId })).statusCode).toBe(200);
    const refused = await edit(bob, block);
    expect(refused.statusCode).toBe(403);
    expect(errorCode(refused)).toBe('forbidden');
  });

  test('the share is lowered to read → 403; raised again → 200', async () => {
    const { pageId, block } = await sharedPage();
    expect((await edit(bob, block)).statusCode).toBe(200);
    expect((await api(t, ann, 'POST', `/api/v3/spaces/element/${pageId}/member/access`, { userId: bobId, accessLevel: 'read' })).statusCode).toBe(200);
    expect((await edit(bob, block)).statusCode).toBe(403);
    expect((await api(t, ann, 'POST', `/api/v3/spaces/element/${pageId}/member/access`, { userId: bobId, accessLevel: 'edit' })).statusCode).toBe(200);
    expect((await edit(bob, block)).statusCode).toBe(200);
  });

  test('removed from the workspace → 403', async () => {
    const { workspaceId, block } = await sharedPage();
    expect((await edit(bob, block)).statusCode).toBe(200);
    const removed = await api(t, ann, 'POST', `/api/v3/spaces/workspace/${workspaceId}/members/remove`, { userId: bobId });
    expect(removed.statusCode).toBe(200);
    expect((await edit(bob, block)).statusCode).toBe(403);
  });

  test('the page goes to the trash → 409 page.in_trash; restored → 200', async () => {
    const { pageId, block } = await sharedPage();
    expect((await edit(ann, block)).statusCode).toBe(200);
    expect((await api(t, ann, 'DELETE', `/api/v3/spaces/element/${pageId}`)).statusCode).toBe(200);
    const refused = await edit(ann, block);
    expect(refused.statusCode).toBe(409);
    expect(errorCode(refused)).toBe('page.in_trash');
    expect((await api(t, ann, 'POST', `/api/v3/spaces/trash/${pageId}/restore`)).statusCode).toBe(200);
    expect((await edit(ann, block)).statusCode).toBe(200);
  });

  test('the page is deleted forever → 404, and nothing is written', async () => {
    const { pageId, block } = await sharedPage();
    expect((await edit(ann, block)).statusCode).toBe(200);
    expect((await api(t, ann, 'DELETE', `/api/v3/spaces/element/${pageId}`)).statusCode).toBe(200);
    expect((await api(t, ann, 'POST', `/api/v3/spaces/trash/${pageId}/remove`)).statusCode).toBe(200);
    const refused = await edit(ann, block);
    expect(refused.statusCode).toBe(404);
    expect(await t.app.db.selectFrom('blocks').select('id').where('id', '=', block.id).executeTakeFirst()).toBeUndefined();
  });

  test('the block is deleted → 404; the session signs out → 401', async () => {
    const { block } = await sharedPage();
    const carol = await signIn(t, 'carol@example.com');
    const page = body<WireElement>(await api(t, carol, 'POST', '/api/v3/spaces/section/private', { title: 'Mine' })).data;
    const own = body<WireBlock>(await api(t, carol, 'POST', '/api/v3/spaces/block', { pageId: page.id, type: 'text', data: { tokens: [] } })).data;
    const second = body<WireBlock>(await api(t, carol, 'POST', '/api/v3/spaces/block', { pageId: page.id, type: 'text', data: { tokens: [] } })).data;
    expect((await edit(carol, own)).statusCode).toBe(200);
    expect((await edit(carol, second)).statusCode).toBe(200);
    expect((await api(t, carol, 'DELETE', `/api/v3/spaces/block/${own.id}`)).statusCode).toBe(200);
    expect((await edit(carol, own)).statusCode).toBe(404);
    expect((await api(t, carol, 'GET', '/api/auth/logout')).statusCode).toBeLessThan(400);
    const signedOut = await edit(carol, second);
    expect(signedOut.statusCode).toBe(401);
    // Someone else's page stays closed to her whatever was remembered.
    expect((await edit(bob, block)).statusCode).toBe(200);
  });

  test('a stale version after a warm cache still answers 422 with the server copy', async () => {
    const { block } = await sharedPage();
    const won = await edit(ann, block, 'first');
    expect(won.statusCode).toBe(200);
    const stale = await api(t, bob, 'POST', `/api/v3/spaces/block/${block.id}`, { version: block.version, type: 'text', data: { tokens: [{ text: 'late' }] } });
    expect(stale.statusCode).toBe(422);
    expect(errorCode(stale)).toBe('block.version_conflict');
    expect(body<WireBlock>(stale).data).toEqual(body<WireBlock>(won).data);
  });

  test('the answer of an update is the block as a read shows it (nested, after a deleted sibling)', async () => {
    const { pageId } = await sharedPage();
    const post = async (payload: object) =>
      body<WireBlock>(await api(t, ann, 'POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [] }, ...payload })).data;
    const parent = await post({});
    const first = await post({ parentId: parent.id });
    const gone = await post({ parentId: parent.id, placeAfter: first.id });
    const last = await post({ parentId: parent.id, placeAfter: gone.id });
    expect((await api(t, ann, 'DELETE', `/api/v3/spaces/block/${gone.id}`)).statusCode).toBe(200);
    for (const block of [parent, first, last]) {
      const res = await edit(ann, block, `text of ${block.id}`);
      expect(res.statusCode).toBe(200);
      const read = body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${block.id}`)).data;
      expect(body<WireBlock>(res).data).toEqual(read);
    }
    const lastRead = body<WireBlock>(await api(t, ann, 'GET', `/api/v3/spaces/block/${last.id}`)).data;
    expect(lastRead).toMatchObject({ parentId: parent.id, placeAfter: first.id });
  });
});

describe('a change made by another server process', () => {
  async function secondServer(ttlMs: number): Promise<FastifyInstance> {
    const other = await buildApp({ ...t.config, authCacheTtlMs: ttlMs }, { logger: false, mailer: t.mailer });
    await other.ready();
    return other;
  }

  test('counts once AUTH_CACHE_TTL_MS has passed (300 ms here), and at once with the caches off', async () => {
    for (const ttlMs of [300, 0]) {
      const other = await secondServer(ttlMs);
      try {
        const { pageId, block } = await sharedPage();
        const editThere = makeEditor(() => other);
        expect((await editThere(bob, block)).statusCode).toBe(200);
        // The share is removed through this process; the other one learns it from the database.
        const changedAt = Date.now();
        expect((await api(t, ann, 'POST', `/api/v3/spaces/element/${pageId}/member/remove`, { userId: bobId })).statusCode).toBe(200);
        const early = await editThere(bob, block);
        if (ttlMs === 0) expect(early.statusCode).toBe(403);
        else if (Date.now() - changedAt < ttlMs - 50) expect(early.statusCode).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, ttlMs + 50));
        expect((await editThere(bob, block)).statusCode).toBe(403);
      } finally {
        await other.close();
      }
    }
  });
});
