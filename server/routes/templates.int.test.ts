import type { WireBlock } from '../../schema/block';
import type { WireElement } from '../../schema/element';
import type { TemplateDefaults, WireTemplate } from '../../schema/template';
import type { WireWorkspace } from '../../schema/workspace';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';
import { addMembersAs, createWorkspaceAs, userIdOf } from '../../test/helpers/workspaces';
import { TEMPLATES } from '../templates';

let t: TestApp;
const cookies: Record<string, string> = {};
const NAMES = ['ann', 'pat', 'gus', 'otto'] as const;

beforeAll(async () => {
  t = await createTestApp();
  for (const name of NAMES) cookies[name] = await signIn(t, `${name}@example.com`);
});
afterAll(async () => {
  await t.close();
});

const copy = (as: string | undefined, id: string, payload: unknown) => api(t, as, 'POST', `/api/templates/${id}/copy`, payload);

/** ann (admin) with pat (participant) and gus (guest). */
async function team(): Promise<WireWorkspace> {
  const workspace = await createWorkspaceAs(t, cookies.ann, 'Команда');
  await addMembersAs(t, cookies.ann, workspace.id, [
    { userId: await userIdOf(t, 'pat@example.com'), role: 'participant' },
    { userId: await userIdOf(t, 'gus@example.com'), role: 'guest' },
  ]);
  return workspace;
}

async function pageCount(workspaceId: string): Promise<number> {
  const rows = await t.app.db.selectFrom('pages').select('id').where('workspace_id', '=', workspaceId).execute();
  return rows.length;
}

describe('GET /api/templates', () => {
  test('lists the templates without content, with the default per set', async () => {
    const res = await api(t, cookies.ann, 'GET', '/api/templates');
    expect(res.statusCode).toBe(200);
    const answer = body<WireTemplate[]>(res);
    expect(answer.data.map((x) => x.id)).toEqual(TEMPLATES.map((x) => x.id));
    const wiki = answer.data.find((x) => x.id === 'wiki');
    expect(wiki).toEqual({
      id: 'wiki',
      contentType: 'Template',
      title: 'База знаний (вики)',
      description: expect.any(String),
      icon: '📚',
      sets: expect.any(Array),
      pageCount: 4,
    });
    expect(JSON.stringify(answer.data)).not.toContain('blocks');
    const defaults = answer.meta.defaults as TemplateDefaults;
    expect(defaults).toMatchObject({ personal: 'journal', study: 'study-notes', it: 'product-roadmap', sell: 'sales-funnel', marketing: 'marketing-plan' });
    expect(answer.meta.count).toBe(TEMPLATES.length);
  });

  test('needs a session', async () => {
    const res = await api(t, undefined, 'GET', '/api/templates');
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/templates/{id}/copy', () => {
  test('copies a template tree with real blocks into the all section', async () => {
    const workspace = await team();
    const res = await copy(cookies.ann, 'wiki', { workspaceId: workspace.id, section: 'all' });
    expect(res.statusCode).toBe(201);
    const root = body<WireElement>(res).data;
    expect(root).toMatchObject({ title: 'База знаний', icon: '📚', section: 'all', workspaceId: workspace.id, accessLevel: 'full', parentId: null });
    expect(body(res).meta.copiedPages).toBe(4);

    // The root is in the section, its children under it, for the admin and (all section) the participant.
    const section = body<WireElement[]>(await api(t, cookies.pat, 'GET', '/api/v3/spaces/section/all', undefined, { 'x-workspace-id': workspace.id })).data;
    expect(section.map((p) => p.id)).toEqual([root.id]);
    expect(section[0].accessLevel).toBe('edit');
    const children = body<WireElement[]>(await api(t, cookies.ann, 'GET', `/api/v3/spaces/element/${root.id}/children`)).data;
    expect(children.map((c) => [c.title, c.icon])).toEqual([
      ['О компании', '🏢'],
      ['Правила работы', '📏'],
      ['Новичкам', '🌱'],
    ]);

    // The blocks are real blocks of the new pages: listed, edited and deleted through the block API.
    const blocksRes = await api(t, cookies.ann, 'GET', `/api/v3/spaces/note/${root.id}/blocks`);
    expect(blocksRes.statusCode).toBe(200);
    const blocks = body<WireBlock[]>(blocksRes).data;
    expect(blocks[0]).toMatchObject({ type: 'callout', pageId: root.id, version: 1, parentId: null, placeAfter: null });
    const documents = blocks.filter((b) => b.type === 'document');
    expect(documents.map((b) => (b.data as { pageId: string }).pageId)).toEqual(children.map((c) => c.id));
    for (let i = 1; i < blocks.length; i++) expect(blocks[i].placeAfter).toBe(blocks[i - 1].id);

    const childBlocks = body<WireBlock[]>(await api(t, cookies.ann, 'GET', `/api/v3/spaces/note/${children[2].id}/blocks`)).data;
    expect(childBlocks.filter((b) => b.type === 'checkbox').map((b) => b.data)).toContainEqual({
      tokens: [{ text: 'Познакомиться с командой' }],
      checked: false,
    });
    const edited = await api(t, cookies.pat, 'POST', `/api/v3/spaces/block/${childBlocks[0].id}`, {
      version: 1,
      type: 'text',
      data: { tokens: [{ text: 'Привет' }] },
    });
    expect(edited.statusCode).toBe(200);
    expect(body<WireBlock>(edited).data.version).toBe(2);
    expect((await api(t, cookies.ann, 'DELETE', `/api/v3/spaces/block/${blocks[1].id}`)).statusCode).toBe(200);
  });

  test('copies into the private section (also of a private workspace) for its owner only', async () => {
    const workspace = body<WireWorkspace>(await api(t, cookies.otto, 'POST', '/api/v3/spaces/workspace', { name: 'Личное', private: true })).data;
    const res = await copy(cookies.otto, 'journal', { workspaceId: workspace.id, section: 'private' });
    expect(res.statusCode).toBe(201);
    const root = body<WireElement>(res).data;
    expect(root).toMatchObject({ title: 'Личный дневник', section: 'private' });
    const mine = body<WireElement[]>(await api(t, cookies.otto, 'GET', '/api/v3/spaces/section/private', undefined, { 'x-workspace-id': workspace.id })).data;
    expect(mine.map((p) => p.id)).toEqual([root.id]);
    const blocks = body<WireBlock[]>(await api(t, cookies.otto, 'GET', `/api/v3/spaces/note/${root.id}/blocks`)).data;
    expect(blocks.length).toBe(TEMPLATES.find((x) => x.id === 'journal')?.root.blocks.length);
    // A table template keeps its table data.
    const plan = body<WireElement>(await copy(cookies.otto, 'project-plan', { workspaceId: workspace.id, section: 'private' })).data;
    const planBlocks = body<WireBlock[]>(await api(t, cookies.otto, 'GET', `/api/v3/spaces/note/${plan.id}/blocks`)).data;
    expect(planBlocks.find((b) => b.type === 'table')?.data).toMatchObject({ headerRow: true, tableLayout: { columns: 3, rows: 4 } });
    // The all section of a private workspace takes no pages.
    const all = await copy(cookies.otto, 'journal', { workspaceId: workspace.id, section: 'all' });
    expect(all.statusCode).toBe(403);
  });

  test('is refused without the rights to create pages there (403), changing nothing', async () => {
    const workspace = await team();
    const before = await pageCount(workspace.id);
    // A participant creates in private, not in all; a guest nowhere; a non-member nothing.
    expect((await copy(cookies.pat, 'wiki', { workspaceId: workspace.id, section: 'all' })).statusCode).toBe(403);
    const guest = await copy(cookies.gus, 'wiki', { workspaceId: workspace.id, section: 'private' });
    expect(guest.statusCode).toBe(403);
    expect(errorCode(guest)).toBe('forbidden');
    expect((await copy(cookies.otto, 'wiki', { workspaceId: workspace.id, section: 'private' })).statusCode).toBe(403);
    expect((await copy(cookies.ann, 'wiki', { workspaceId: 'no-such-workspace', section: 'private' })).statusCode).toBe(403);
    expect(await pageCount(workspace.id)).toBe(before);
    // The participant may copy into their own private section.
    expect((await copy(cookies.pat, 'todo-list', { workspaceId: workspace.id, section: 'private' })).statusCode).toBe(201);
    expect(await pageCount(workspace.id)).toBe(before + 1);
  });

  test('an unknown template is 404; a bad body 422; no session 401', async () => {
    const workspace = await team();
    const unknown = await copy(cookies.ann, 'no-such-template', { workspaceId: workspace.id, section: 'all' });
    expect(unknown.statusCode).toBe(404);
    expect(errorCode(unknown)).toBe('not_found');
    expect((await copy(cookies.ann, 'wiki', { workspaceId: workspace.id, section: 'favorite' })).statusCode).toBe(422);
    expect((await copy(cookies.ann, 'wiki', { workspaceId: workspace.id, section: 'all', extra: 1 })).statusCode).toBe(422);
    expect((await copy(undefined, 'wiki', { workspaceId: workspace.id, section: 'all' })).statusCode).toBe(401);
    expect(await pageCount(workspace.id)).toBe(0);
  });
});
