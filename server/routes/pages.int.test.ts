import crypto from 'node:crypto';
import type { WireElement } from '../../schema/element';
import type { WireWorkspace } from '../../schema/workspace';
import { api, body, createTestApp, errorCode, signIn, testDb, type TestApp } from '../../test/helpers/testApp';

let t: TestApp;
let ann: string;
let bob: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'ann@example.com');
  bob = await signIn(t, 'bob@example.com');
});
afterAll(async () => {
  await t.close();
});

async function createNote(cookie: string, payload: Record<string, unknown> = {}, section = 'private'): Promise<WireElement> {
  const res = await api(t, cookie, 'POST', `/api/v3/spaces/section/${section}`, payload);
  expect(res.statusCode).toBe(201);
  return body<WireElement>(res).data;
}

async function workspaceOf(cookie: string): Promise<WireWorkspace> {
  return body<WireWorkspace[]>(await api(t, cookie, 'GET', '/api/v3/spaces/workspace')).data[0];
}

describe('create and read', () => {
  test('a Note created in private is listed, readable and renamable by its creator', async () => {
    const res = await api(t, ann, 'POST', '/api/v3/spaces/section/private', { title: 'Plans' });
    expect(res.statusCode).toBe(201);
    const page = body<WireElement>(res).data;
    const workspace = await workspaceOf(ann);
    expect(page).toMatchObject({
      contentType: 'Element',
      type: 'Note',
      title: 'Plans',
      accessLevel: 'full',
      section: 'private',
      workspaceId: workspace.id,
      parentId: null,
      path: [],
      inTrash: false,
      isPublic: false,
      inFavorites: false,
      cover: null,
      icon: null,
    });

    const list = await api(t, ann, 'GET', '/api/v3/spaces/section/private');
    expect(list.statusCode).toBe(200);
    const listed = body<WireElement[]>(list);
    expect(listed.data.map((p) => p.id)).toContain(page.id);
    expect(listed.meta).toMatchObject({ count: listed.data.length, hasMoreNext: false });

    const got = await api(t, ann, 'GET', `/api/v3/spaces/element/${page.id}`);
    expect(got.statusCode).toBe(200);
    expect(body<WireElement>(got).data).toEqual(page);

    const patched = await api(t, ann, 'PATCH', `/api/v3/spaces/element/${page.id}`, { id: page.id, title: 'Better plans' });
    expect(patched.statusCode).toBe(200);
    expect(body<WireElement>(patched).data).toMatchObject({ id: page.id, title: 'Better plans', accessLevel: 'full' });
    const reloaded = body<WireElement>(await api(t, ann, 'GET', `/api/v3/spaces/element/${page.id}`)).data;
    expect(reloaded.title).toBe('Better plans');
    expect(reloaded.updatedAt >= page.updatedAt).toBe(true);
  });

  test('the client may choose the id; an empty body gives an untitled Note', async () => {
    const id = crypto.randomUUID();
    const page = await createNote(ann, { id, type: 'Note', contentType: 'Element' });
    expect(page.id).toBe(id);
    expect(page.title).toBe('');
    const again = await api(t, ann, 'POST', '/api/v3/spaces/section/private', { id });
    expect(again.statusCode).toBe(409);
    expect(errorCode(again)).toBe('page.already_exists');
  });

  test('pages are listed in creation order', async () => {
    const fresh = await signIn(t, 'carol@example.com');
    const created: string[] = [];
    for (let i = 0; i < 40; i++) created.push((await createNote(fresh, { title: `p${i}` })).id);
    const listed = body<WireElement[]>(await api(t, fresh, 'GET', '/api/v3/spaces/section/private')).data;
    expect(listed.map((p) => p.id)).toEqual(created);
  });

  test('favorite and shared sections list nothing yet; all lists no private page', async () => {
    const page = await createNote(ann, { title: 'mine' });
    for (const section of ['favorite', 'shared', 'all']) {
      const res = await api(t, ann, 'GET', `/api/v3/spaces/section/${section}`);
      expect(res.statusCode).toBe(200);
      expect(body<WireElement[]>(res).data.map((p) => p.id)).not.toContain(page.id);
    }
  });

  test('a missing page → 404 not_found', async () => {
    const id = crypto.randomUUID();
    for (const [method, payload] of [['GET', undefined], ['PATCH', { title: 'x' }]] as const) {
      const res = await api(t, ann, method, `/api/v3/spaces/element/${id}`, payload);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    }
  });

  test('anonymous requests → 401', async () => {
    const page = await createNote(ann);
    for (const [method, url, payload] of [
      ['GET', '/api/v3/spaces/section/private', undefined],
      ['POST', '/api/v3/spaces/section/private', {}],
      ['GET', `/api/v3/spaces/element/${page.id}`, undefined],
      ['PATCH', `/api/v3/spaces/element/${page.id}`, { title: 'x' }],
      ['GET', '/api/v3/spaces/workspace', undefined],
    ] as const) {
      const res = await api(t, undefined, method, url, payload);
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('unauthorized');
    }
  });
});

describe('access', () => {
  test("another user cannot read, rename or list someone's private page", async () => {
    const page = await createNote(ann, { title: 'Secret' });
    const got = await api(t, bob, 'GET', `/api/v3/spaces/element/${page.id}`);
    expect(got.statusCode).toBe(403);
    expect(errorCode(got)).toBe('forbidden');
    expect(body(got).data).toBeNull();

    const patched = await api(t, bob, 'PATCH', `/api/v3/spaces/element/${page.id}`, { title: 'Mine now' });
    expect(patched.statusCode).toBe(403);
    expect(errorCode(patched)).toBe('forbidden');
    expect(body<WireElement>(await api(t, ann, 'GET', `/api/v3/spaces/element/${page.id}`)).data.title).toBe('Secret');

    for (const section of ['private', 'all', 'favorite', 'shared']) {
      const list = body<WireElement[]>(await api(t, bob, 'GET', `/api/v3/spaces/section/${section}`)).data;
      expect(list.map((p) => p.id)).not.toContain(page.id);
    }
  });

  test("X-Workspace-Id of someone else's workspace → 403", async () => {
    const annWorkspace = await workspaceOf(ann);
    const headers = { 'x-workspace-id': annWorkspace.id };
    const list = await api(t, bob, 'GET', '/api/v3/spaces/section/private', undefined, headers);
    expect(list.statusCode).toBe(403);
    expect(errorCode(list)).toBe('forbidden');
    const create = await api(t, bob, 'POST', '/api/v3/spaces/section/private', { title: 'intruder' }, headers);
    expect(create.statusCode).toBe(403);
    expect(errorCode(create)).toBe('forbidden');
    const count = await t.app.db.selectFrom('pages').select('id').where('title', '=', 'intruder').execute();
    expect(count).toHaveLength(0);

    const unknown = await api(t, bob, 'GET', '/api/v3/spaces/section/private', undefined, { 'x-workspace-id': crypto.randomUUID() });
    expect(unknown.statusCode).toBe(403);
  });

  test('X-Workspace-Id of an own workspace is honoured', async () => {
    const workspace = await workspaceOf(ann);
    const headers = { 'x-workspace-id': workspace.id };
    const res = await api(t, ann, 'POST', '/api/v3/spaces/section/private', { title: 'with header' }, headers);
    expect(res.statusCode).toBe(201);
    expect(body<WireElement>(res).data.workspaceId).toBe(workspace.id);
    const list = body<WireElement[]>(await api(t, ann, 'GET', '/api/v3/spaces/section/private', undefined, headers)).data;
    expect(list.map((p) => p.title)).toContain('with header');
  });

  test('creating in all (private workspace), favorite or shared → 403; an unknown section → 404', async () => {
    for (const section of ['all', 'favorite', 'shared']) {
      const res = await api(t, ann, 'POST', `/api/v3/spaces/section/${section}`, { title: `in ${section}` });
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('forbidden');
    }
    for (const method of ['GET', 'POST'] as const) {
      const res = await api(t, ann, method, '/api/v3/spaces/section/archive', method === 'POST' ? {} : undefined);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    }
    const stray = await t.app.db.selectFrom('pages').select('id').where('title', 'like', 'in %').execute();
    expect(stray).toHaveLength(0);
  });
});

describe('bad input never answers 500', () => {
  let pageId: string;
  beforeAll(async () => {
    pageId = (await createNote(ann, { title: 'Stable' })).id;
  });

  test.each([
    ['an unknown field', { title: 'x', color: 'red' }],
    ['a title over 1000 characters', { title: 'x'.repeat(1001) }],
    ['no title', {}],
    ['a title that is not a string', { title: 42 }],
    ['an array', [{ title: 'x' }]],
    ['another id than the path', { id: '00000000-0000-4000-8000-000000000000', title: 'x' }],
  ])('PATCH with %s → 422 validation_failed', async (_what, payload) => {
    const res = await api(t, ann, 'PATCH', `/api/v3/spaces/element/${pageId}`, payload);
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    expect(body<WireElement>(await api(t, ann, 'GET', `/api/v3/spaces/element/${pageId}`)).data.title).toBe('Stable');
  });

  test('a title of exactly 1000 characters is fine', async () => {
    const res = await api(t, ann, 'PATCH', `/api/v3/spaces/element/${pageId}`, { title: 'y'.repeat(1000) });
    expect(res.statusCode).toBe(200);
    await api(t, ann, 'PATCH', `/api/v3/spaces/element/${pageId}`, { title: 'Stable' });
  });

  test('PATCH with a body that is not JSON → 400 bad_request', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v3/spaces/element/${pageId}`,
      headers: { cookie: ann, 'content-type': 'application/json' },
      payload: '{"title": "x"',
    });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('bad_request');
  });

  test('PATCH with an empty JSON body → 400 bad_request', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v3/spaces/element/${pageId}`,
      headers: { cookie: ann, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('bad_request');
  });

  test('PATCH with a form body → 415 unsupported_media_type', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v3/spaces/element/${pageId}`,
      headers: { cookie: ann, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'title=x',
    });
    expect(res.statusCode).toBe(415);
    expect(errorCode(res)).toBe('unsupported_media_type');
  });

  test('creating with an id that is not a uuid, an unknown field or a wrong type → 422', async () => {
    for (const payload of [{ id: 'abc' }, { colour: 'red' }, { type: 'Database' }, { title: 'x'.repeat(1001) }]) {
      const res = await api(t, ann, 'POST', '/api/v3/spaces/section/private', payload);
      expect(res.statusCode).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
    }
  });

  test('odd characters in ids and titles do not break the database', async () => {
    for (const id of ['%27%3B%20DROP%20TABLE%20pages%3B--', '%C3%A9', '%F0%9F%98%80', 'x'.repeat(64)]) {
      const res = await api(t, ann, 'GET', `/api/v3/spaces/element/${id}`);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    }
    const long = await api(t, ann, 'GET', `/api/v3/spaces/element/${'x'.repeat(500)}`);
    expect([long.statusCode, errorCode(long)]).toEqual([414, 'bad_request']);
    const malformed = await api(t, ann, 'GET', '/api/v3/spaces/element/%E0%A4%A');
    expect([malformed.statusCode, errorCode(malformed)]).toEqual([400, 'bad_request']);
    // PostgreSQL cannot store NUL in text: it answers 400 where SQLite simply finds nothing or stores it.
    const onPostgres = testDb() === 'postgres';
    for (const id of ['%00', 'x%00y']) {
      const res = await api(t, ann, 'GET', `/api/v3/spaces/element/${id}`);
      expect([res.statusCode, errorCode(res)]).toEqual(onPostgres ? [400, 'bad_request'] : [404, 'not_found']);
    }
    const nul = await api(t, ann, 'PATCH', `/api/v3/spaces/element/${pageId}`, { title: 'a\u0000b' });
    expect(nul.statusCode).toBe(onPostgres ? 400 : 200);
    const emoji = await api(t, ann, 'PATCH', `/api/v3/spaces/element/${pageId}`, { title: 'Заметки 😀 \' " \\' });
    expect(emoji.statusCode).toBe(200);
    expect(body<WireElement>(await api(t, ann, 'GET', `/api/v3/spaces/element/${pageId}`)).data.title).toBe('Заметки 😀 \' " \\');
  });

  test('two parallel creates with one id → one 201, one 409', async () => {
    const id = crypto.randomUUID();
    const responses = await Promise.all([1, 2].map(() => api(t, ann, 'POST', '/api/v3/spaces/section/private', { id })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});
