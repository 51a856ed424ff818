import type { WireElement } from '../../schema/element';
import { api, body, createTestApp, type TestApp } from '../../test/helpers/testApp';
import { actor, createPage, expectStatus, joinWorkspace, makeTeamWorkspace, share, type Actor } from '../../test/helpers/pages';

let t: TestApp;
let owner: Actor;
let member: Actor;
let guest: Actor;

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  owner = await actor(t, 'search-owner@example.com');
  member = await actor(t, 'search-member@example.com');
  guest = await actor(t, 'search-guest@example.com');
  await makeTeamWorkspace(t, owner.workspaceId);
  await joinWorkspace(t, owner.workspaceId, member.id, 'participant');
  await joinWorkspace(t, owner.workspaceId, guest.id, 'guest');
});
afterAll(async () => {
  await t.close();
});

const ws = (who: Actor, workspaceId = owner.workspaceId) => ({ 'x-workspace-id': workspaceId, who });

async function search(q: string, { who, 'x-workspace-id': workspaceId }: ReturnType<typeof ws>, limit?: number): Promise<WireElement[]> {
  const query = `q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`;
  const res = await api(t, who.cookie, 'GET', `/api/v3/spaces/search?${query}`, undefined, { 'x-workspace-id': workspaceId });
  return body<WireElement[]>(expectStatus(res, 200)).data;
}

describe('GET search (page titles for the page picker)', () => {
  let plan: WireElement;
  let planB: WireElement;
  let secret: WireElement;
  let trashed: WireElement;
  let sharedChild: WireElement;

  beforeAll(async () => {
    plan = await createPage(t, owner, { title: 'План', section: 'all', workspaceId: owner.workspaceId });
    planB = await createPage(t, owner, { title: 'Годовой план', section: 'all', workspaceId: owner.workspaceId });
    // Private to the owner: nobody else may read it.
    secret = await createPage(t, owner, { title: 'План увольнений', section: 'private', workspaceId: owner.workspaceId });
    trashed = await createPage(t, owner, { title: 'План в корзине', section: 'all', workspaceId: owner.workspaceId });
    expectStatus(await api(t, owner.cookie, 'DELETE', `/api/v3/spaces/element/${trashed.id}`, undefined, { 'x-workspace-id': owner.workspaceId }), 200);
    sharedChild = await createPage(t, owner, { title: 'Планёрка', parentId: secret.id });
    await share(t, owner, sharedChild.id, [{ userId: guest.id, accessLevel: 'read' }]);
  });

  test('finds titles case-insensitively (Cyrillic too), those starting with the text first; the trash is left out', async () => {
    const found = await search('пла', ws(owner));
    expect(found.map((p) => p.title)).toEqual(['План', 'План увольнений', 'Планёрка', 'Годовой план']);
    expect(found.map((p) => p.id)).not.toContain(trashed.id);
    expect(found[0]).toMatchObject({ id: plan.id, contentType: 'Element', accessLevel: 'full' });
  });

  test('pages the caller cannot read never show (denial): a participant does not see the private page', async () => {
    const found = await search('план', ws(member));
    expect(found.map((p) => p.id)).toEqual([plan.id, planB.id]);
    expect(JSON.stringify(found)).not.toContain('увольнений');
  });

  test('a guest sees only what is shared with them', async () => {
    const found = await search('план', ws(guest));
    expect(found.map((p) => p.id)).toEqual([sharedChild.id]);
  });

  test('the limit counts readable pages only', async () => {
    expect((await search('план', ws(member), 1)).map((p) => p.id)).toEqual([plan.id]);
    const limited = await search('', ws(owner), 2);
    expect(limited).toHaveLength(2);
  });

  test('a workspace the caller is not a member of is refused (403), and anonymous calls 401', async () => {
    const stranger = await actor(t, 'search-stranger@example.com');
    const res = await api(t, stranger.cookie, 'GET', '/api/v3/spaces/search?q=план', undefined, { 'x-workspace-id': owner.workspaceId });
    expect(res.statusCode).toBe(403);
    // In their own workspace the stranger finds nothing of the owner's.
    expect(await search('план', ws(stranger, stranger.workspaceId))).toEqual([]);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v3/spaces/search?q=план' });
    expect(anonymous.statusCode).toBe(401);
  });

  test('a too long query or limit is 422', async () => {
    const res = await api(t, owner.cookie, 'GET', '/api/v3/spaces/search?q=a&limit=500', undefined, { 'x-workspace-id': owner.workspaceId });
    expect(res.statusCode).toBe(422);
  });
});

describe('GET pageLinks (what page links point at)', () => {
  const links = async (who: Actor, idList: string[]) => {
    const res = await api(t, who.cookie, 'GET', `/api/v3/spaces/pageLinks?ids=${encodeURIComponent(JSON.stringify(idList))}`);
    return body<Array<{ id: string; status: string; element?: WireElement }>>(expectStatus(res, 200)).data;
  };

  test('ok with the current title; noAccess without the title (denial); deleted for the trash and for a page that is gone', async () => {
    const open = await createPage(t, owner, { title: 'Открытая', section: 'all', workspaceId: owner.workspaceId });
    const closed = await createPage(t, owner, { title: 'Закрытая тайна', section: 'private', workspaceId: owner.workspaceId });
    const binned = await createPage(t, owner, { title: 'Удалённая', section: 'all', workspaceId: owner.workspaceId });
    expectStatus(await api(t, owner.cookie, 'DELETE', `/api/v3/spaces/element/${binned.id}`, undefined, { 'x-workspace-id': owner.workspaceId }), 200);
    const missing = '00000000-0000-4000-8000-000000000000';
    expectStatus(await api(t, owner.cookie, 'PATCH', `/api/v3/spaces/element/${open.id}`, { title: 'Открытая 2' }), 200);

    const seen = await links(member, [open.id, closed.id, binned.id, missing]);
    expect(seen.map((l) => [l.id, l.status])).toEqual([
      [open.id, 'ok'],
      [closed.id, 'noAccess'],
      [binned.id, 'deleted'],
      [missing, 'deleted'],
    ]);
    expect(seen[0].element).toMatchObject({ title: 'Открытая 2', accessLevel: 'edit' });
    expect(JSON.stringify(seen)).not.toContain('тайна');
    // The owner reads the closed page.
    expect((await links(owner, [closed.id]))[0]).toMatchObject({ status: 'ok', element: { title: 'Закрытая тайна' } });
    // No visit is noted: the page does not enter the member's recents.
    const recents = body<WireElement[]>(await api(t, member.cookie, 'GET', '/api/v3/spaces/recents')).data;
    expect(recents.map((p) => p.id)).not.toContain(open.id);
  });

  test('a stranger to the workspace gets noAccess; bad ids are 422; anonymous 401', async () => {
    const page = await createPage(t, owner, { title: 'Чужая', section: 'all', workspaceId: owner.workspaceId });
    const stranger = await actor(t, 'links-stranger@example.com');
    expect(await links(stranger, [page.id])).toEqual([{ id: page.id, status: 'noAccess' }]);
    expect((await api(t, stranger.cookie, 'GET', '/api/v3/spaces/pageLinks?ids=["x"]')).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: `/api/v3/spaces/pageLinks?ids=["${page.id}"]` })).statusCode).toBe(401);
  });
});
