import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import type { WireBlock } from '../../schema/block';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import type { WireWorkspace } from '../../schema/workspace';
import { api, body, createTestApp, errorCode, signIn, type TestApp } from '../../test/helpers/testApp';
import { actor, createPage, expectStatus, getPage, ids, joinWorkspace, makeTeamWorkspace, share, snapshot, type Actor } from '../../test/helpers/pages';
import { outcome, pageTreeProblems, seeded } from '../../test/helpers/races';
import { pageAccessLevels } from '../policies/page';

let t: TestApp;
let ann: string;
let bob: string;

beforeAll(async () => {
  // Many people sign in from one test address.
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
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

  test('a new private page is not in favorite, shared or all', async () => {
    const page = await createNote(ann, { title: 'mine' });
    for (const section of ['favorite', 'shared', 'all']) {
      const res = await api(t, ann, 'GET', `/api/v3/spaces/section/${section}`);
      expect(res.statusCode).toBe(200);
      expect(body<WireElement[]>(res).data.map((p) => p.id)).not.toContain(page.id);
    }
  });

  test('a missing page → 404 not_found', async () => {
    const id = crypto.randomUUID();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { title: 'x' }],
    ] as const) {
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
    for (const payload of [{ id: 'abc' }, { colour: 'red' }, { type: 'ElementLink' }, { type: 'Widget' }, { title: 'x'.repeat(1001) }]) {
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
    // NUL is refused on both databases (PostgreSQL cannot store it; textInput.int.test.ts covers every way in).
    for (const id of ['%00', 'x%00y']) {
      const res = await api(t, ann, 'GET', `/api/v3/spaces/element/${id}`);
      expect([res.statusCode, errorCode(res)]).toEqual([400, 'bad_request']);
    }
    const nul = await api(t, ann, 'PATCH', `/api/v3/spaces/element/${pageId}`, { title: 'a\u0000b' });
    expect([nul.statusCode, errorCode(nul)]).toEqual([400, 'bad_request']);
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

// ---- The full page API ---------------------------------------------------------------------------

type Level = 'none' | 'read' | 'edit' | 'full';
const RANK: Record<Level, number> = { none: 0, read: 1, edit: 2, full: 3 };

/** A team workspace of Ann's with members of every role, and people holding each page level. */
interface World {
  owner: Actor;
  admin: Actor;
  participant: Actor;
  guest: Actor;
  outsider: Actor;
  fullUser: Actor;
  editUser: Actor;
  readUser: Actor;
}

let world: World;
let worldSeq = 0;

async function makeWorld(): Promise<World> {
  const n = ++worldSeq;
  const owner = await actor(t, `owner${n}@example.com`);
  await makeTeamWorkspace(t, owner.workspaceId);
  const [admin, participant, guest, outsider, fullUser, editUser, readUser] = await Promise.all(
    ['admin', 'participant', 'guest', 'outsider', 'full', 'edit', 'read'].map((name) => actor(t, `${name}${n}@example.com`)),
  );
  await joinWorkspace(t, owner.workspaceId, admin.id, 'admin');
  await joinWorkspace(t, owner.workspaceId, participant.id, 'participant');
  await joinWorkspace(t, owner.workspaceId, guest.id, 'guest');
  return { owner, admin, participant, guest, outsider, fullUser, editUser, readUser };
}

/** Ann's private page P with children C1, C2, shared by e-mail with a full, an edit and a read user. */
async function privateTree(w: World) {
  const P = await createPage(t, w.owner, { title: 'P' });
  const C1 = await createPage(t, w.owner, { title: 'C1', parentId: P.id });
  const C2 = await createPage(t, w.owner, { title: 'C2', parentId: P.id });
  await share(t, w.owner, P.id, [
    { email: w.fullUser.email, accessLevel: 'full' },
    { email: w.editUser.email, accessLevel: 'edit' },
    { email: w.readUser.email, accessLevel: 'read' },
  ]);
  return { P, C1, C2 };
}

type Tree = Awaited<ReturnType<typeof privateTree>>;
type Call = [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown];

interface Operation {
  name: string;
  /** The lowest level that may do it. */
  min: Exclude<Level, 'none'>;
  ok: number;
  prepare?: (tree: Tree) => Promise<void>;
  call: (tree: Tree, who: Actor | null) => Call;
}

const el = (id: string, rest = '') => `/api/v3/spaces/element/${id}${rest}`;

const OPERATIONS: Operation[] = [
  { name: 'load', min: 'read', ok: 200, call: ({ P }) => ['GET', el(P.id)] },
  { name: 'list children', min: 'read', ok: 200, call: ({ P }) => ['GET', el(P.id, '/children')] },
  { name: 'list members', min: 'read', ok: 200, call: ({ P }) => ['GET', el(P.id, '/members')] },
  { name: 'add to favourites', min: 'read', ok: 200, call: ({ P }) => ['POST', el(P.id, '/addToFavorites')] },
  { name: 'remove from favourites', min: 'read', ok: 200, call: ({ P }) => ['POST', el(P.id, '/removeFromFavorites')] },
  {
    name: 'clone',
    min: 'read',
    ok: 201,
    call: ({ P }, who) => ['POST', el(P.id, '/page/clone'), { workspaceId: who?.workspaceId ?? world.owner.workspaceId }],
  },
  { name: 'rename', min: 'edit', ok: 200, call: ({ P }) => ['PATCH', el(P.id), { title: 'renamed' }] },
  { name: 'set icon', min: 'edit', ok: 200, call: ({ P }) => ['PATCH', el(P.id), { icon: '🚀' }] },
  { name: 'set cover', min: 'edit', ok: 200, call: ({ P }) => ['PATCH', el(P.id), { cover: { contentType: 'UrlCover', url: 'https://example.com/c.png' } }] },
  { name: 'create a child', min: 'edit', ok: 201, call: ({ P }) => ['POST', el(P.id, '/children'), { title: 'new child' }] },
  { name: 'reorder', min: 'edit', ok: 200, call: ({ C2 }) => ['POST', el(C2.id, '/placeAfter'), { placeAfter: null }] },
  { name: 'trash', min: 'edit', ok: 200, call: ({ C1 }) => ['DELETE', el(C1.id)] },
  {
    name: 'restore',
    min: 'edit',
    ok: 200,
    prepare: async ({ C1 }) => void expectStatus(await api(t, world.owner.cookie, 'DELETE', el(C1.id)), 200),
    call: ({ C1 }) => ['POST', `/api/v3/spaces/trash/${C1.id}/restore`],
  },
  { name: 'publish', min: 'full', ok: 200, call: ({ P }) => ['PATCH', el(P.id), { isPublic: true }] },
  { name: 'move', min: 'full', ok: 200, call: ({ C1, C2 }) => ['POST', el(C2.id, '/move'), { dst: C1.id, placeAfter: null }] },
  {
    name: 'delete for good',
    min: 'full',
    ok: 200,
    prepare: async ({ C1 }) => void expectStatus(await api(t, world.owner.cookie, 'DELETE', el(C1.id)), 200),
    call: ({ C1 }) => ['POST', `/api/v3/spaces/trash/${C1.id}/remove`],
  },
];

describe('permissions: page access level × operation', () => {
  const ACTORS: Array<[string, (w: World) => Actor | null, Level | 'anonymous']> = [
    ['the creator (full)', (w) => w.owner, 'full'],
    ['a full member', (w) => w.fullUser, 'full'],
    ['an edit member', (w) => w.editUser, 'edit'],
    ['a read member', (w) => w.readUser, 'read'],
    ['a participant without a grant (none)', (w) => w.participant, 'none'],
    ['an admin without a grant on a private page (none)', (w) => w.admin, 'none'],
    ['a non-member (none)', (w) => w.outsider, 'none'],
    ['anonymous', () => null, 'anonymous'],
  ];
  beforeAll(async () => {
    world = await makeWorld();
  });

  const cases = OPERATIONS.flatMap((op) => ACTORS.map(([who, pick, level]) => [op.name, who, op, pick, level] as const));
  test.each(cases)('%s by %s', async (_name, _who, op, pick, level) => {
    const tree = await privateTree(world);
    await op.prepare?.(tree);
    const who = pick(world);
    const [method, url, payload] = op.call(tree, who);
    const before = await snapshot(t);
    const res = await api(t, who?.cookie, method, url, payload);
    if (level === 'anonymous') {
      expect([res.statusCode, errorCode(res)]).toEqual([401, 'unauthorized']);
    } else if (RANK[level] >= RANK[op.min]) {
      expect([res.statusCode, res.body]).toEqual([op.ok, expect.any(String)]);
      return;
    } else {
      expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
    }
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('permissions: workspace role on a page of the shared section', () => {
  const ROLE_ACTORS: Array<[string, (w: World) => Actor | null, Level | 'anonymous']> = [
    ['the creating admin', (w) => w.owner, 'full'],
    ['another admin', (w) => w.admin, 'full'],
    ['a participant', (w) => w.participant, 'edit'],
    ['a guest', (w) => w.guest, 'none'],
    ['a non-member', (w) => w.outsider, 'none'],
    ['anonymous', () => null, 'anonymous'],
  ];
  const ROLE_OPERATIONS: Array<[string, Exclude<Level, 'none'>, number, (A: WireElement, C: WireElement) => Call]> = [
    ['load', 'read', 200, (A) => ['GET', el(A.id)]],
    ['list children', 'read', 200, (A) => ['GET', el(A.id, '/children')]],
    ['rename', 'edit', 200, (A) => ['PATCH', el(A.id), { title: 'x' }]],
    ['create a child', 'edit', 201, (A) => ['POST', el(A.id, '/children'), {}]],
    ['trash a child', 'edit', 200, (_A, C) => ['DELETE', el(C.id)]],
    ['publish', 'full', 200, (A) => ['PATCH', el(A.id), { isPublic: true }]],
    ['move a child to the section root', 'full', 200, (_A, C) => ['POST', el(C.id, '/move'), { dst: 'all', placeAfter: null }]],
  ];
  beforeAll(async () => {
    world = await makeWorld();
  });

  const cases = ROLE_OPERATIONS.flatMap((op) => ROLE_ACTORS.map(([who, pick, level]) => [op[0], who, op, pick, level] as const));
  test.each(cases)('%s by %s', async (_name, _who, [, min, ok, call], pick, level) => {
    const A = await createPage(t, world.owner, { section: 'all', title: 'Team page' });
    const C = await createPage(t, world.owner, { parentId: A.id, title: 'Team child' });
    const who = pick(world);
    const [method, url, payload] = call(A, C);
    const before = await snapshot(t);
    const res = await api(t, who?.cookie, method, url, payload, { 'x-workspace-id': world.owner.workspaceId });
    if (level === 'anonymous') {
      expect([res.statusCode, errorCode(res)]).toEqual([401, 'unauthorized']);
    } else if (RANK[level] >= RANK[min]) {
      expect([res.statusCode, res.body]).toEqual([ok, expect.any(String)]);
      if (method === 'GET' && url === el(A.id)) expect(body<WireElement>(res).data.accessLevel).toBe(level);
      return;
    } else {
      expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  const SECTION_CASES: Array<[string, (w: World) => Actor | null, Record<string, number>]> = [
    ['an admin', (w) => w.admin, { favorite: 200, all: 200, shared: 200, private: 200, 'POST all': 201, 'POST private': 201 }],
    ['a participant', (w) => w.participant, { favorite: 200, all: 200, shared: 200, private: 200, 'POST all': 403, 'POST private': 201 }],
    ['a guest', (w) => w.guest, { favorite: 200, all: 403, shared: 200, private: 403, 'POST all': 403, 'POST private': 403 }],
    ['a non-member', (w) => w.outsider, { favorite: 403, all: 403, shared: 403, private: 403, 'POST all': 403, 'POST private': 403 }],
    ['anonymous', () => null, { favorite: 401, all: 401, shared: 401, private: 401, 'POST all': 401, 'POST private': 401 }],
  ];
  test.each(SECTION_CASES)('sections of the team workspace for %s', async (_who, pick, expected) => {
    const who = pick(world);
    const headers = { 'x-workspace-id': world.owner.workspaceId };
    for (const [key, status] of Object.entries(expected)) {
      const before = await snapshot(t);
      const [method, section] = key.startsWith('POST ') ? (['POST', key.slice(5)] as const) : (['GET', key] as const);
      const res = await api(t, who?.cookie, method, `/api/v3/spaces/section/${section}`, method === 'POST' ? { title: 'made' } : undefined, headers);
      expect([key, res.statusCode]).toEqual([key, status]);
      if (status >= 400) expect(await snapshot(t)).toEqual(before);
    }
  });
});

describe('access is inherited down the tree unless a page sets its own', () => {
  beforeAll(async () => {
    world = await makeWorld();
  });

  test('a grant on a parent reaches grandchildren; a grant on a child overrides it', async () => {
    const { P, C1, C2 } = await privateTree(world);
    const G = await createPage(t, world.owner, { parentId: C1.id, title: 'G' });
    expect((await getPage(t, world.readUser, G.id)).accessLevel).toBe('read');
    expect((await getPage(t, world.editUser, G.id)).accessLevel).toBe('edit');
    await share(t, world.owner, C1.id, [{ userId: world.readUser.id, accessLevel: 'edit' }]);
    expect((await getPage(t, world.readUser, G.id)).accessLevel).toBe('edit');
    expect((await getPage(t, world.readUser, C2.id)).accessLevel).toBe('read');
    expect((await getPage(t, world.readUser, P.id)).accessLevel).toBe('read');
    // A `none` grant below a shared parent hides that branch (set directly: the API grants read, edit, full).
    await t.app.db
      .insertInto('page_members')
      .values({ page_id: C2.id, user_id: world.editUser.id, level: 'none', created_at: new Date().toISOString() })
      .execute();
    expect((await api(t, world.editUser.cookie, 'GET', el(C2.id))).statusCode).toBe(403);
    expect(ids(await api(t, world.editUser.cookie, 'GET', el(P.id, '/children')))).toEqual([C1.id]);
    expect(ids(await api(t, world.owner.cookie, 'GET', el(P.id, '/children')))).toEqual([C1.id, C2.id]);
  });

  test('pages of the all section: admins full, participants edit, guests only by grant', async () => {
    const A = await createPage(t, world.owner, { section: 'all', title: 'Handbook' });
    const child = await createPage(t, world.participant, { parentId: A.id, title: 'Chapter' });
    expect(child.accessLevel).toBe('edit');
    expect((await getPage(t, world.admin, child.id)).accessLevel).toBe('full');
    expect((await api(t, world.guest.cookie, 'GET', el(child.id))).statusCode).toBe(403);
    await share(t, world.owner, A.id, [{ userId: world.guest.id, accessLevel: 'read' }]);
    expect((await getPage(t, world.guest, child.id)).accessLevel).toBe('read');
  });

  test('access levels of a listing take a fixed number of queries, not one per page', async () => {
    const P = await createPage(t, world.owner, { title: 'Many' });
    for (let i = 0; i < 30; i++) await createPage(t, world.owner, { parentId: P.id, title: `c${i}` });
    let queries = 0;
    const counting = t.app.db.withPlugin({
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const rows = await t.app.db.selectFrom('pages').selectAll().where('parent_id', '=', P.id).execute();
    const levels = await pageAccessLevels(counting, world.owner.id, rows);
    expect([...levels.values()]).toEqual(Array(30).fill('full'));
    expect(queries).toBeLessThanOrEqual(3);
  });
});

describe('creating pages below pages, and page types', () => {
  let me: Actor;
  beforeAll(async () => {
    me = await actor(t, 'creator@example.com');
  });

  test('a child gets the parent workspace, the path and the last place', async () => {
    const P = await createPage(t, me, { title: 'Parent' });
    const a = await createPage(t, me, { parentId: P.id, title: 'a' });
    const b = await createPage(t, me, { parentId: P.id, title: 'b' });
    const g = await createPage(t, me, { parentId: b.id, title: 'g' });
    expect(a).toMatchObject({ parentId: P.id, path: [P.id], section: null, workspaceId: P.workspaceId, accessLevel: 'full', type: 'Note' });
    expect(g.path).toEqual([P.id, b.id]);
    expect(ids(await api(t, me.cookie, 'GET', el(P.id, '/children')))).toEqual([a.id, b.id]);
    expect(ids(await api(t, me.cookie, 'GET', '/api/v3/spaces/section/private'))).not.toContain(a.id);
    // Children inherit: no grant of their own.
    const grants = await t.app.db.selectFrom('page_members').select('page_id').where('page_id', 'in', [a.id, g.id]).execute();
    expect(grants).toEqual([]);
  });

  test.each([
    [{ type: 'Database' }, 'Database', null],
    [{ type: 'Space' }, 'Space', null],
    [{ type: 'Iframe' }, 'Iframe', null],
    [{ type: 'Widget', defaultLayoutId: 'layout-1' }, 'Widget', 'layout-1'],
    [{ type: 'WidgetView', defaultLayoutId: 'layout-2' }, 'WidgetView', 'layout-2'],
  ])('type %j', async (payload, type, layout) => {
    const P = await createPage(t, me);
    const page = await createPage(t, me, { parentId: P.id, ...(payload as { type: string }) });
    expect(page).toMatchObject({ type, defaultLayoutId: layout });
    expect((await getPage(t, me, page.id)).type).toBe(type);
  });

  test('Widget and WidgetView without defaultLayoutId → 422; nothing created', async () => {
    const P = await createPage(t, me);
    for (const type of ['Widget', 'WidgetView']) {
      for (const url of [el(P.id, '/children'), '/api/v3/spaces/section/private']) {
        const res = await api(t, me.cookie, 'POST', url, { type });
        expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
      }
    }
    expect(ids(await api(t, me.cookie, 'GET', el(P.id, '/children')))).toEqual([]);
  });

  test('a child id that is taken → 409; a missing parent → 404; a parent in the trash → 409', async () => {
    const P = await createPage(t, me);
    const taken = await createPage(t, me, { parentId: P.id });
    const again = await api(t, me.cookie, 'POST', el(P.id, '/children'), { id: taken.id });
    expect([again.statusCode, errorCode(again)]).toEqual([409, 'page.already_exists']);
    const missing = await api(t, me.cookie, 'POST', el(crypto.randomUUID(), '/children'), {});
    expect([missing.statusCode, errorCode(missing)]).toEqual([404, 'not_found']);
    expectStatus(await api(t, me.cookie, 'DELETE', el(P.id)), 200);
    const trashed = await api(t, me.cookie, 'POST', el(P.id, '/children'), {});
    expect([trashed.statusCode, errorCode(trashed)]).toEqual([409, 'page.in_trash']);
  });
});

describe('PATCH: title, icon, cover, isPublic', () => {
  let me: Actor;
  let page: WireElement;
  beforeAll(async () => {
    me = await actor(t, 'patcher@example.com');
    page = await createPage(t, me, { title: 'Cover me' });
  });
  const patch = (payload: unknown) => api(t, me.cookie, 'PATCH', el(page.id), payload);

  test('icon set and removed', async () => {
    expect(body<WireElement>(expectStatus(await patch({ icon: '📘' }), 200)).data.icon).toBe('📘');
    expect((await getPage(t, me, page.id)).icon).toBe('📘');
    expect(body<WireElement>(expectStatus(await patch({ icon: null }), 200)).data.icon).toBeNull();
  });

  test('covers: each variant, position defaults to 50, null removes', async () => {
    const variants = [
      [
        { contentType: 'LibraryCover', imageId: 'mountains' },
        { contentType: 'LibraryCover', imageId: 'mountains', position: 50 },
      ],
      [
        { contentType: 'UrlCover', url: 'https://img.example/a.jpg', position: 10 },
        { contentType: 'UrlCover', url: 'https://img.example/a.jpg', position: 10 },
      ],
      [
        { contentType: 'UrlCover', url: 'http://img.example/b.jpg' },
        { contentType: 'UrlCover', url: 'http://img.example/b.jpg', position: 50 },
      ],
    ];
    for (const [cover, stored] of variants) {
      expect(body<WireElement>(expectStatus(await patch({ cover }), 200)).data.cover).toEqual(stored);
      expect((await getPage(t, me, page.id)).cover).toEqual(stored);
    }
    expect(body<WireElement>(expectStatus(await patch({ cover: null }), 200)).data.cover).toBeNull();
  });

  test('a file cover needs a file of this page or workspace', async () => {
    const now = new Date().toISOString();
    const file = (id: string, pageId: string | null, workspaceId: string | null) => ({
      id,
      owner_id: me.id,
      page_id: pageId,
      workspace_id: workspaceId,
      name: 'c.png',
      mime_type: 'image/png',
      size: 1,
      storage_key: `k/${id}`,
      is_public: 0,
      status: 'ready',
      upload_token_hash: null,
      upload_expires_at: null,
      created_at: now,
    });
    const other = await actor(t, 'other-files@example.com');
    const otherPage = await createPage(t, other);
    const [own, workspaceWide, foreign, otherPageOfMine] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const mine2 = await createPage(t, me);
    await t.app.db
      .insertInto('files')
      .values([
        file(own, page.id, me.workspaceId),
        file(workspaceWide, null, me.workspaceId),
        file(foreign, otherPage.id, other.workspaceId),
        file(otherPageOfMine, mine2.id, me.workspaceId),
      ])
      .execute();
    for (const fileId of [own, workspaceWide]) {
      const res = expectStatus(await patch({ cover: { contentType: 'FileCover', fileId } }), 200);
      expect(body<WireElement>(res).data.cover).toEqual({ contentType: 'FileCover', fileId, position: 50 });
    }
    for (const [fileId, status] of [
      [foreign, 403],
      [otherPageOfMine, 403],
      [crypto.randomUUID(), 404],
    ] as const) {
      const before = await snapshot(t);
      const res = await patch({ cover: { contentType: 'FileCover', fileId } });
      expect(res.statusCode).toBe(status);
      expect(await snapshot(t)).toEqual(before);
    }
  });

  test.each([
    ['two fields', { title: 'a', icon: 'b' }],
    ['no field', { id: 'x' }],
    ['a javascript: cover url', { cover: { contentType: 'UrlCover', url: 'javascript:alert(1)' } }],
    ['a data: cover url', { cover: { contentType: 'UrlCover', url: 'data:image/png;base64,AAAA' } }],
    ['a relative cover url', { cover: { contentType: 'UrlCover', url: '/img.png' } }],
    ['a position over 100', { cover: { contentType: 'LibraryCover', imageId: 'x', position: 101 } }],
    ['an unknown cover kind', { cover: { contentType: 'GifCover', url: 'https://x.example' } }],
    ['a cover field of another kind', { cover: { contentType: 'LibraryCover', url: 'https://x.example' } }],
    ['isPublic as a string', { isPublic: 'yes' }],
    ['a null title', { title: null }],
    ['an empty icon', { icon: '' }],
  ])('%s → 422, nothing changes', async (_what, payload) => {
    const before = await snapshot(t);
    const res = await patch(payload);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(await snapshot(t)).toEqual(before);
  });

  test('JSON with __proto__ or constructor keys is refused and pollutes nothing', async () => {
    for (const payload of ['{"title":"x","__proto__":{"polluted":true}}', '{"title":"x","constructor":{"prototype":{"polluted":true}}}']) {
      const res = await t.app.inject({ method: 'PATCH', url: el(page.id), headers: { cookie: me.cookie, 'content-type': 'application/json' }, payload });
      expect([400, 422]).toContain(res.statusCode);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    const cover = '{"cover":{"contentType":"UrlCover","url":"https://a.example","__proto__":{"polluted":true}}}';
    const res = await t.app.inject({ method: 'PATCH', url: el(page.id), headers: { cookie: me.cookie, 'content-type': 'application/json' }, payload: cover });
    expect([400, 422]).toContain(res.statusCode);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('publishing records who and when, gives an alias; unpublishing clears the record', async () => {
    const pub = await createPage(t, me, { title: 'Announcement' });
    const res = expectStatus(await api(t, me.cookie, 'PATCH', el(pub.id), { isPublic: true }), 200);
    expect(body<WireElement>(res).data.isPublic).toBe(true);
    const row = await t.app.db.selectFrom('pages').selectAll().where('id', '=', pub.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_public: 1, published_by: me.id });
    expect(row.published_at).toEqual(expect.any(String));
    expect(row.alias).toMatch(/^[a-z0-9]{12}$/);
    // Publishing again changes nothing.
    expectStatus(await api(t, me.cookie, 'PATCH', el(pub.id), { isPublic: true }), 200);
    expect(await t.app.db.selectFrom('pages').selectAll().where('id', '=', pub.id).executeTakeFirstOrThrow()).toMatchObject({
      published_at: row.published_at,
      alias: row.alias,
    });
    expectStatus(await api(t, me.cookie, 'PATCH', el(pub.id), { isPublic: false }), 200);
    const after = await t.app.db.selectFrom('pages').selectAll().where('id', '=', pub.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ is_public: 0, published_by: null, published_at: null, alias: row.alias });
  });

  test('a page in the trash cannot be changed (409)', async () => {
    const gone = await createPage(t, me);
    expectStatus(await api(t, me.cookie, 'DELETE', el(gone.id)), 200);
    const res = await api(t, me.cookie, 'PATCH', el(gone.id), { title: 'zombie' });
    expect([res.statusCode, errorCode(res)]).toEqual([409, 'page.in_trash']);
  });
});

describe('public pages', () => {
  let me: Actor;
  let stranger: Actor;
  beforeAll(async () => {
    me = await actor(t, 'publisher@example.com');
    stranger = await actor(t, 'stranger@example.com');
  });

  async function block(pageId: string, text: string) {
    return body<{ id: string }>(
      expectStatus(await api(t, me.cookie, 'POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [{ text }] } }), 201),
    ).data;
  }

  test('readable by anyone only while public; with its blocks and public children, no private ids', async () => {
    const secretRoot = await createPage(t, me, { title: 'Private root' });
    const page = await createPage(t, me, { parentId: secretRoot.id, title: 'Hello world' });
    const publicChild = await createPage(t, me, { parentId: page.id, title: 'Public child' });
    const privateChild = await createPage(t, me, { parentId: page.id, title: 'Private child' });
    await block(page.id, 'public text');
    await share(t, me, page.id, [{ email: 'member-of-public@example.com', accessLevel: 'read' }]);

    for (const who of [undefined, stranger.cookie]) {
      const res = await api(t, who, 'GET', el('public/' + page.id));
      expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
    }
    expectStatus(await api(t, me.cookie, 'PATCH', el(page.id), { isPublic: true }), 200);
    expectStatus(await api(t, me.cookie, 'PATCH', el(publicChild.id), { isPublic: true }), 200);

    for (const who of [undefined, stranger.cookie]) {
      const res = expectStatus(await api(t, who, 'GET', el('public/' + page.id)), 200);
      const answer = body<WireElement>(res);
      expect(answer.data).toMatchObject({
        id: page.id,
        title: 'Hello world',
        accessLevel: 'read',
        isPublic: true,
        inFavorites: false,
        path: [],
        parentId: null,
      });
      const included = answer.included as Array<{ id: string; contentType: string; path?: string[] }>;
      expect(
        included.filter((i) => i.contentType === 'Block').map((b) => (b as unknown as { data: { tokens: Array<{ text: string }> } }).data.tokens[0].text),
      ).toEqual(['public text']);
      expect(included.filter((i) => i.contentType === 'Element').map((e) => e.id)).toEqual([publicChild.id]);
      expect(res.body).not.toContain(privateChild.id);
      expect(res.body).not.toContain(secretRoot.id);
      expect(res.body).not.toContain('@example.com');
      // Nobody's user id: who made the page or its children is not for the public.
      expect([answer.data.createdBy, ...included.filter((i) => i.contentType === 'Element').map((e) => (e as unknown as WireElement).createdBy)]).toEqual([
        '',
        '',
      ]);
    }
    // A private child is not public because its parent is.
    expect((await api(t, undefined, 'GET', el('public/' + privateChild.id))).statusCode).toBe(404);
    const childAnswer = body<WireElement>(expectStatus(await api(t, undefined, 'GET', el('public/' + publicChild.id)), 200)).data;
    expect(childAnswer).toMatchObject({ path: [page.id], parentId: page.id });

    // The public record and the alias.
    const record = await api(t, undefined, 'GET', `/api/v3/spaces/page/public?id=${encodeURIComponent(JSON.stringify(page.id))}`);
    expect(body<{ element: WireElement; userId: string; createdAt: string }>(expectStatus(record, 200)).data).toMatchObject({
      element: { id: page.id, accessLevel: 'read' },
      userId: me.id,
      createdAt: expect.any(String),
    });
    const plain = await api(t, undefined, 'GET', `/api/v3/spaces/page/public?id=${page.id}`);
    expect(plain.statusCode).toBe(200);
    const alias = body<{ id: string; alias: string }>(expectStatus(await api(t, undefined, 'GET', `/api/v3/spaces/pagealias/${page.id}`), 200)).data;
    expect(alias).toEqual({ id: page.id, alias: expect.stringMatching(/^[a-z0-9]{12}$/) });
    expect(body<WireElement>(expectStatus(await api(t, undefined, 'GET', el('public/' + alias.alias)), 200)).data.id).toBe(page.id);

    // Unpublished: gone for everyone but members; in the trash: gone too.
    expectStatus(await api(t, me.cookie, 'PATCH', el(page.id), { isPublic: false }), 200);
    for (const url of [el('public/' + page.id), `/api/v3/spaces/page/public?id=${page.id}`, `/api/v3/spaces/pagealias/${page.id}`]) {
      expect((await api(t, undefined, 'GET', url)).statusCode).toBe(404);
    }
    expect((await api(t, stranger.cookie, 'GET', `/api/v3/spaces/pagealias/${page.id}`)).statusCode).toBe(403);
    expect(body<{ alias: string }>(expectStatus(await api(t, me.cookie, 'GET', `/api/v3/spaces/pagealias/${page.id}`), 200)).data.alias).toBe(alias.alias);
    expect((await api(t, undefined, 'GET', el('public/' + publicChild.id))).statusCode).toBe(200);
    expectStatus(await api(t, me.cookie, 'DELETE', el(publicChild.id)), 200);
    expect((await api(t, undefined, 'GET', el('public/' + publicChild.id))).statusCode).toBe(404);
  });

  test('a public page is still not loadable through the member call by strangers', async () => {
    const page = await createPage(t, me);
    expectStatus(await api(t, me.cookie, 'PATCH', el(page.id), { isPublic: true }), 200);
    expect((await api(t, stranger.cookie, 'GET', el(page.id))).statusCode).toBe(403);
    expect((await api(t, undefined, 'GET', el(page.id))).statusCode).toBe(401);
  });

  test('page/public without an id → 422; an unknown id → 404', async () => {
    expect((await api(t, undefined, 'GET', '/api/v3/spaces/page/public')).statusCode).toBe(422);
    expect((await api(t, undefined, 'GET', `/api/v3/spaces/page/public?id=${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await api(t, undefined, 'GET', `/api/v3/spaces/pagealias/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });
});

describe('favourites', () => {
  test('per user; inFavorites in every answer; the favorite section lists them in the order added', async () => {
    const w = await makeWorld();
    const { P, C1 } = await privateTree(w);
    const favorite = (who: Actor, id: string) => api(t, who.cookie, 'POST', el(id, '/addToFavorites'));
    expect(body<WireElement>(expectStatus(await favorite(w.readUser, C1.id), 200)).data.inFavorites).toBe(true);
    expectStatus(await favorite(w.readUser, P.id), 200);
    expectStatus(await favorite(w.readUser, P.id), 200);
    const headers = { 'x-workspace-id': w.owner.workspaceId };
    const section = await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/section/favorite', undefined, headers);
    expect(ids(section)).toEqual([C1.id, P.id]);
    expect(body<WireElement[]>(section).data.every((p) => p.inFavorites)).toBe(true);
    expect((await getPage(t, w.readUser, P.id)).inFavorites).toBe(true);
    expect((await getPage(t, w.owner, P.id)).inFavorites).toBe(false);
    expect(ids(await api(t, w.owner.cookie, 'GET', '/api/v3/spaces/section/favorite'))).toEqual([]);
    const children = body<WireElement[]>(await api(t, w.readUser.cookie, 'GET', el(P.id, '/children'))).data;
    expect(children.find((c) => c.id === C1.id)?.inFavorites).toBe(true);

    // Trashed favourites and favourites one lost access to drop out of the section.
    expectStatus(await api(t, w.owner.cookie, 'DELETE', el(C1.id)), 200);
    expect(ids(await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/section/favorite', undefined, headers))).toEqual([P.id]);
    const trashedFav = await favorite(w.readUser, C1.id);
    expect([trashedFav.statusCode, errorCode(trashedFav)]).toEqual([409, 'page.in_trash']);
    expectStatus(await api(t, w.owner.cookie, 'POST', el(P.id, '/member/remove'), { userId: w.readUser.id }), 200);
    expect(ids(await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/section/favorite', undefined, headers))).toEqual([]);

    const off = expectStatus(await api(t, w.owner.cookie, 'POST', el(P.id, '/addToFavorites')), 200);
    expect(body<WireElement>(off).data.inFavorites).toBe(true);
    const removed = expectStatus(await api(t, w.owner.cookie, 'POST', el(P.id, '/removeFromFavorites'), {}), 200);
    expect(body<WireElement>(removed).data.inFavorites).toBe(false);
    expect((await getPage(t, w.owner, P.id)).inFavorites).toBe(false);
  });

  test('a missing page → 404', async () => {
    const me = await actor(t, 'fav404@example.com');
    for (const action of ['addToFavorites', 'removeFromFavorites']) {
      const res = await api(t, me.cookie, 'POST', el(crypto.randomUUID(), `/${action}`));
      expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
    }
  });
});

describe('the shared section', () => {
  test('pages shared with me by a grant, not mine, only the topmost of a shared tree', async () => {
    const w = await makeWorld();
    const { P, C1 } = await privateTree(w);
    const other = await createPage(t, w.owner, { title: 'Other' });
    await share(t, w.owner, C1.id, [{ userId: w.editUser.id, accessLevel: 'full' }]);
    await share(t, w.owner, other.id, [{ userId: w.editUser.id, accessLevel: 'read' }]);
    const headers = { 'x-workspace-id': w.owner.workspaceId };
    const shared = await api(t, w.editUser.cookie, 'GET', '/api/v3/spaces/section/shared', undefined, headers);
    expect(ids(shared).sort()).toEqual([P.id, other.id].sort());
    // The guest sees shared and favorite, but not private or all.
    expect((await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/section/shared', undefined, headers)).statusCode).toBe(200);
    expect((await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/section/private', undefined, headers)).statusCode).toBe(403);
    // My own pages are never "shared with me"; pages shared with others are not mine to see there.
    expect(ids(await api(t, w.owner.cookie, 'GET', '/api/v3/spaces/section/shared'))).toEqual([]);
    expect(ids(await api(t, w.participant.cookie, 'GET', '/api/v3/spaces/section/shared', undefined, headers))).toEqual([]);
    // In their own workspace they see nothing of it.
    expect(ids(await api(t, w.editUser.cookie, 'GET', '/api/v3/spaces/section/shared'))).toEqual([]);
  });

  test('scope "all": what is shared with me in every workspace of mine, each page with its workspace; only while I am a member', async () => {
    const w = await makeWorld();
    const { P } = await privateTree(w);
    const other = await createPage(t, w.owner, { title: 'Other' });
    await share(t, w.owner, P.id, [{ userId: w.editUser.id, accessLevel: 'edit' }]);
    await share(t, w.owner, other.id, [{ userId: w.editUser.id, accessLevel: 'read' }]);
    const everywhere = (cookie: string, section = 'shared', scope = '"all"') =>
      api(t, cookie, 'GET', `/api/v3/spaces/section/${section}?scope=${encodeURIComponent(scope)}`);
    // From their own workspace (the default), newest grant first, marked with the owner's workspace.
    const listed = body<WireElement[]>(expectStatus(await everywhere(w.editUser.cookie), 200)).data;
    expect(listed.map((p) => [p.id, p.workspaceId, p.accessLevel])).toEqual([
      [other.id, w.owner.workspaceId, 'read'],
      [P.id, w.owner.workspaceId, 'edit'],
    ]);
    expect(ids(await everywhere(w.editUser.cookie, 'shared', '"workspace"'))).toEqual([]);
    // Not for the other sections; an unknown scope is refused.
    for (const [section, scope] of [
      ['private', '"all"'],
      ['favorite', '"all"'],
      ['shared', '"everything"'],
      ['shared', '1'],
    ]) {
      const res = await everywhere(w.editUser.cookie, section, scope);
      expect([section, scope, res.statusCode, errorCode(res)]).toEqual([section, scope, 422, 'validation_failed']);
    }
    // Nobody else's shares show up: the owner and an outsider see none of these.
    expect(ids(await everywhere(w.owner.cookie))).toEqual([]);
    expect(ids(await everywhere(w.outsider.cookie))).toEqual([]);
    // Out of the owner's workspace, the grants stay but the pages are no longer reachable.
    expectStatus(await api(t, w.owner.cookie, 'POST', `/api/v3/spaces/workspace/${w.owner.workspaceId}/members/remove`, { userId: w.editUser.id }), 200);
    expect(ids(await everywhere(w.editUser.cookie))).toEqual([]);
    expect((await api(t, undefined, 'GET', '/api/v3/spaces/section/shared?scope=%22all%22')).statusCode).toBe(401);
  });
});

describe('recents', () => {
  test('pages I opened, newest first, paged; trashed and no-longer-accessible ones drop out', async () => {
    const w = await makeWorld();
    const { P, C1, C2 } = await privateTree(w);
    const mine = await createPage(t, w.readUser, { title: 'Mine' });
    for (const page of [C2, mine, C1, P, C2]) await getPage(t, w.readUser, page.id);
    const recents = (query = '') => api(t, w.readUser.cookie, 'GET', `/api/v3/spaces/recents${query}`);
    expect(ids(await recents())).toEqual([C2.id, P.id, C1.id, mine.id]);
    const first = body<WireElement[]>(expectStatus(await recents('?limit=2'), 200));
    expect(first.data.map((p) => p.id)).toEqual([C2.id, P.id]);
    expect(first.meta).toMatchObject({ count: 4, hasMoreNext: true, nextCursor: `${P.id}::Element` });
    const second = body<WireElement[]>(expectStatus(await recents(`?limit=2&cursor=${encodeURIComponent(JSON.stringify(first.meta.nextCursor))}`), 200));
    expect(second.data.map((p) => p.id)).toEqual([C1.id, mine.id]);
    expect(second.meta).toMatchObject({ hasMoreNext: false, nextCursor: null });
    const forged = await recents(`?cursor=${crypto.randomUUID()}::Element`);
    expect([forged.statusCode, errorCode(forged)]).toEqual([400, 'bad_request']);
    expect((await recents('?limit=0')).statusCode).toBe(422);
    // One workspace only with the header.
    expect(ids(await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/recents', undefined, { 'x-workspace-id': w.readUser.workspaceId }))).toEqual([mine.id]);
    expect((await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/recents', undefined, { 'x-workspace-id': w.participant.workspaceId })).statusCode).toBe(403);

    expectStatus(await api(t, w.owner.cookie, 'DELETE', el(C1.id)), 200);
    expectStatus(await api(t, w.owner.cookie, 'POST', el(P.id, '/member/remove'), { userId: w.readUser.id }), 200);
    expect(ids(await recents())).toEqual([mine.id]);
    // A refused load is not a visit.
    const visits = await t.app.db.selectFrom('page_visits').select('page_id').where('user_id', '=', w.outsider.id).execute();
    expect((await api(t, w.outsider.cookie, 'GET', el(P.id))).statusCode).toBe(403);
    expect(await t.app.db.selectFrom('page_visits').select('page_id').where('user_id', '=', w.outsider.id).execute()).toEqual(visits);
  });

  test('included: the ancestors of the pages listed that the caller may read, for their paths; one not readable is left out', async () => {
    const w = await makeWorld();
    const top = await createPage(t, w.owner, { title: 'Верх' });
    const middle = await createPage(t, w.owner, { title: 'Середина', parentId: top.id });
    const leaf = await createPage(t, w.owner, { title: 'Лист', parentId: middle.id });
    // Shared from the middle down: the top stays the owner's alone.
    await share(t, w.owner, middle.id, [{ email: w.readUser.email, accessLevel: 'read' }]);
    await getPage(t, w.readUser, leaf.id);
    const answer = body<WireElement[]>(expectStatus(await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/recents'), 200));
    expect(answer.data.map((p) => p.id)).toEqual([leaf.id]);
    expect((answer.included as WireElement[]).map((p) => p.title)).toEqual(['Середина']);
    expect(JSON.stringify(answer)).not.toContain('Верх');
    // The owner reads both.
    await getPage(t, w.owner, leaf.id);
    const mine = body<WireElement[]>(expectStatus(await api(t, w.owner.cookie, 'GET', '/api/v3/spaces/recents'), 200));
    expect((mine.included as WireElement[]).map((p) => p.title).sort()).toEqual(['Верх', 'Середина'].sort());
  });
});

describe('trash', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  });
  const trashList = (who: Actor, query = '') => api(t, who.cookie, 'GET', `/api/v3/spaces/trash${query}`);
  const q = (text: string) => `?q=${encodeURIComponent(JSON.stringify(text))}`;

  test('delete moves the whole subtree; the trash lists the deleted page; restore brings the batch back', async () => {
    const { P, C1, C2 } = await privateTree(w);
    const G = await createPage(t, w.owner, { parentId: C1.id });
    const res = expectStatus(await api(t, w.editUser.cookie, 'DELETE', el(P.id)), 200);
    expect(body<WireElement>(res).data).toMatchObject({ id: P.id, inTrash: true });
    const rows = await t.app.db.selectFrom('pages').selectAll().where('id', 'in', [P.id, C1.id, C2.id, G.id]).execute();
    expect(rows.every((r) => r.in_trash === 1 && r.trashed_by === w.editUser.id && r.trashed_at === rows[0].trashed_at)).toBe(true);
    expect((await getPage(t, w.owner, C1.id)).inTrash).toBe(true);
    expect(ids(await api(t, w.owner.cookie, 'GET', '/api/v3/spaces/section/private'))).not.toContain(P.id);
    expect(ids(await trashList(w.owner))).toContain(P.id);
    // When it went there: its batch's time.
    const listed = body<(WireElement & { trashedAt: string })[]>(await trashList(w.owner)).data.find((p) => p.id === P.id);
    expect(listed?.trashedAt).toBe(rows[0].trashed_at);
    expect(ids(await trashList(w.owner))).not.toContain(C1.id);
    expect(ids(await trashList(w.readUser))).toContain(P.id);
    expect(ids(await trashList(w.participant))).not.toContain(P.id);
    expect(ids(await trashList(w.outsider))).not.toContain(P.id);
    // Deleting again is fine and changes nothing.
    expectStatus(await api(t, w.owner.cookie, 'DELETE', el(P.id)), 200);

    const restored = expectStatus(await api(t, w.editUser.cookie, 'POST', `/api/v3/spaces/trash/${P.id}/restore`), 200);
    expect(body<WireElement>(restored).data.inTrash).toBe(false);
    const after = await t.app.db.selectFrom('pages').selectAll().where('id', 'in', [P.id, C1.id, C2.id, G.id]).execute();
    expect(after.every((r) => r.in_trash === 0 && r.trashed_at === null && r.trashed_by === null)).toBe(true);
    expect(ids(await api(t, w.owner.cookie, 'GET', el(P.id, '/children')))).toEqual([C1.id, C2.id]);
  });

  test('a child trashed on its own stays trashed when its parent comes back, and cannot come back before it', async () => {
    const { P, C1 } = await privateTree(w);
    expectStatus(await api(t, w.owner.cookie, 'DELETE', el(C1.id)), 200);
    expectStatus(await api(t, w.owner.cookie, 'DELETE', el(P.id)), 200);
    const heads = ids(await trashList(w.owner));
    expect(heads).toEqual(expect.arrayContaining([P.id, C1.id]));
    expect(heads.indexOf(P.id)).toBeLessThan(heads.indexOf(C1.id));
    const early = await api(t, w.owner.cookie, 'POST', `/api/v3/spaces/trash/${C1.id}/restore`);
    expect([early.statusCode, errorCode(early)]).toEqual([409, 'page.parent_in_trash']);
    expectStatus(await api(t, w.owner.cookie, 'POST', `/api/v3/spaces/trash/${P.id}/restore`), 200);
    expect((await getPage(t, w.owner, C1.id)).inTrash).toBe(true);
    expectStatus(await api(t, w.owner.cookie, 'POST', `/api/v3/spaces/trash/${C1.id}/restore`), 200);
    expect((await getPage(t, w.owner, C1.id)).inTrash).toBe(false);
    const notTrashed = await api(t, w.owner.cookie, 'POST', `/api/v3/spaces/trash/${C1.id}/restore`);
    expect([notTrashed.statusCode, errorCode(notTrashed)]).toEqual([409, 'page.not_in_trash']);
  });

  test('q matches titles case-insensitively, Cyrillic too', async () => {
    const me = await actor(t, 'trash-search@example.com');
    const titles = ['План на ЛЕТО', 'Отчёт', 'Summer PLANS', 'ёлка'];
    const pages = [];
    for (const title of titles) pages.push(await createPage(t, me, { title }));
    for (const page of pages) expectStatus(await api(t, me.cookie, 'DELETE', el(page.id)), 200);
    const found = async (text: string) =>
      body<WireElement[]>(expectStatus(await trashList(me, q(text)), 200))
        .data.map((p) => p.title)
        .sort();
    expect(await found('лето')).toEqual(['План на ЛЕТО']);
    expect(await found('ПЛАН')).toEqual(['План на ЛЕТО']);
    expect(await found('plan')).toEqual(['Summer PLANS']);
    expect(await found('ОТЧЁТ')).toEqual(['Отчёт']);
    expect(await found('Ёл')).toEqual(['ёлка']);
    expect(await found('')).toHaveLength(4);
    expect(await found('%')).toEqual([]);
    // A plain (not JSON-encoded) q works too.
    expect(ids(await trashList(me, `?q=${encodeURIComponent('лето')}`))).toEqual([pages[0].id]);
    const paged = body<WireElement[]>(expectStatus(await trashList(me, '?limit=3'), 200));
    expect(paged.meta).toMatchObject({ count: 4, hasMoreNext: true });
  });

  test('delete forever removes the subtree, its blocks, comments, favourites, members, visits and files', async () => {
    const { P, C1 } = await privateTree(w);
    const blockRes = await api(t, w.owner.cookie, 'POST', '/api/v3/spaces/block', { pageId: C1.id, type: 'text', data: { tokens: [{ text: 'x' }] } });
    expectStatus(blockRes, 201);
    expectStatus(await api(t, w.readUser.cookie, 'POST', el(C1.id, '/addToFavorites')), 200);
    await getPage(t, w.readUser, C1.id);
    const now = new Date().toISOString();
    const commentId = crypto.randomUUID();
    await t.app.db
      .insertInto('comments')
      .values({
        id: commentId,
        page_id: C1.id,
        replied_comment_id: null,
        author_id: w.owner.id,
        content: '[]',
        attaches: '[]',
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
    await t.app.db.insertInto('comment_reactions').values({ comment_id: commentId, user_id: w.owner.id, code: '👍', created_at: now }).execute();
    const fileId = crypto.randomUUID();
    const storageKey = `pages/${fileId}`;
    fs.mkdirSync(path.join(t.config.filesDir, 'pages'), { recursive: true });
    fs.writeFileSync(path.join(t.config.filesDir, storageKey), 'bytes');
    const keep = path.join(t.config.filesDir, 'keep.txt');
    fs.writeFileSync(keep, 'not mine');
    await t.app.db
      .insertInto('files')
      .values({
        id: fileId,
        owner_id: w.owner.id,
        page_id: C1.id,
        workspace_id: w.owner.workspaceId,
        name: 'a.txt',
        mime_type: 'text/plain',
        size: 5,
        storage_key: storageKey,
        is_public: 0,
        status: 'ready',
        upload_token_hash: null,
        upload_expires_at: null,
        created_at: now,
      })
      .execute();
    const escaping = crypto.randomUUID();
    await t.app.db
      .insertInto('files')
      .values({
        id: escaping,
        owner_id: w.owner.id,
        page_id: C1.id,
        workspace_id: w.owner.workspaceId,
        name: 'b.txt',
        mime_type: 'text/plain',
        size: 5,
        storage_key: '../keep.txt',
        is_public: 0,
        status: 'ready',
        upload_token_hash: null,
        upload_expires_at: null,
        created_at: now,
      })
      .execute();

    const live = await api(t, w.owner.cookie, 'POST', `/api/v3/spaces/trash/${P.id}/remove`);
    expect([live.statusCode, errorCode(live)]).toEqual([409, 'page.not_in_trash']);
    expectStatus(await api(t, w.owner.cookie, 'DELETE', el(P.id)), 200);
    const res = expectStatus(await api(t, w.fullUser.cookie, 'POST', `/api/v3/spaces/trash/${P.id}/remove`), 200);
    expect(body(res).data).toEqual({ id: P.id, status: 'success' });

    const db = t.app.db;
    const tree = [P.id, C1.id];
    expect(await db.selectFrom('pages').select('id').where('id', 'in', tree).execute()).toEqual([]);
    for (const table of ['blocks', 'comments', 'favorites', 'page_members', 'page_visits', 'files'] as const) {
      expect([table, await db.selectFrom(table).select('page_id').where('page_id', 'in', tree).execute()]).toEqual([table, []]);
    }
    expect(await db.selectFrom('comment_reactions').select('code').where('comment_id', '=', commentId).execute()).toEqual([]);
    expect(fs.existsSync(path.join(t.config.filesDir, storageKey))).toBe(false);
    expect(fs.existsSync(keep)).toBe(true);
    expect((await api(t, w.owner.cookie, 'GET', el(P.id))).statusCode).toBe(404);
    expect(ids(await trashList(w.owner))).not.toContain(P.id);
  });
});

describe('clone', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  });
  const clone = (who: Actor, id: string, payload: unknown) => api(t, who.cookie, 'POST', el(id, '/page/clone'), payload);

  async function addBlock(who: Actor, pageId: string, text: string, extra: Record<string, unknown> = {}) {
    return body<WireBlock>(
      expectStatus(await api(t, who.cookie, 'POST', '/api/v3/spaces/block', { pageId, type: 'text', data: { tokens: [{ text }] }, ...extra }), 201),
    ).data;
  }
  async function blocksOf(who: Actor, pageId: string) {
    return body<WireBlock[]>(expectStatus(await api(t, who.cookie, 'GET', `/api/v3/spaces/note/${pageId}/blocks`), 200)).data;
  }

  test('a deep copy with new ids: subtree, blocks in order with parents remapped', async () => {
    const { P, C1, C2 } = await privateTree(w);
    await api(t, w.owner.cookie, 'PATCH', el(P.id), { icon: '🧭' });
    const G = await createPage(t, w.owner, { parentId: C1.id, title: 'G' });
    const b1 = await addBlock(w.owner, P.id, 'one');
    const b2 = await addBlock(w.owner, P.id, 'two', { placeAfter: b1.id });
    await addBlock(w.owner, P.id, 'nested', { parentId: b2.id });
    await addBlock(w.owner, G.id, 'deep');
    const id = crypto.randomUUID();
    const res = expectStatus(await clone(w.readUser, P.id, { id, workspaceId: w.readUser.workspaceId }), 201);
    const copy = body<WireElement>(res).data;
    expect(copy).toMatchObject({
      id,
      title: 'P',
      icon: '🧭',
      workspaceId: w.readUser.workspaceId,
      section: 'private',
      parentId: null,
      path: [],
      accessLevel: 'full',
      isPublic: false,
    });
    expect(ids(await api(t, w.readUser.cookie, 'GET', '/api/v3/spaces/section/private'))).toContain(id);
    const kids = body<WireElement[]>(await api(t, w.readUser.cookie, 'GET', el(id, '/children'))).data;
    expect(kids.map((k) => k.title)).toEqual(['C1', 'C2']);
    expect(kids.map((k) => k.id)).not.toContain(C1.id);
    expect(kids.every((k) => k.path.join() === id && k.workspaceId === w.readUser.workspaceId)).toBe(true);
    const grandkids = body<WireElement[]>(await api(t, w.readUser.cookie, 'GET', el(kids[0].id, '/children'))).data;
    expect(grandkids.map((g) => [g.title, g.path])).toEqual([['G', [id, kids[0].id]]]);
    expect(ids(await api(t, w.readUser.cookie, 'GET', el(kids[1].id, '/children')))).toEqual([]);
    void C2;

    const original = await blocksOf(w.owner, P.id);
    const copied = await blocksOf(w.readUser, id);
    expect(copied.map((b) => b.data)).toEqual(original.map((b) => b.data));
    expect(copied.map((b) => b.id).some((bid) => original.some((o) => o.id === bid))).toBe(false);
    const nested = copied.find((b) => JSON.stringify(b.data).includes('nested'));
    expect(nested?.parentId).toBe(copied.find((b) => JSON.stringify(b.data).includes('two'))?.id);
    expect((await blocksOf(w.readUser, grandkids[0].id)).map((b) => b.data)).toEqual([{ tokens: [{ text: 'deep' }] }]);
    // The original is untouched; a copy id that is taken → 409.
    expect(await blocksOf(w.owner, P.id)).toEqual(original);
    const again = await clone(w.readUser, P.id, { id, workspaceId: w.readUser.workspaceId });
    expect([again.statusCode, errorCode(again)]).toEqual([409, 'page.already_exists']);
  });

  test('database rows come along (pages with their cells, not the trashed ones); deleted blocks and comment links do not', async () => {
    const page = await createPage(t, w.owner, { title: 'Data' });
    const fields = { MAIN_FIELD: { name: 'Название', type: 'text' }, done: { name: 'Готово', type: 'checkbox' } };
    const view = { layouts: [{ uid: 'table-1', type: 'table', orderedFields: [{ fieldId: 'MAIN_FIELD', isWrap: false }] }] };
    const database = body<WireBlock>(
      expectStatus(
        await api(t, w.owner.cookie, 'POST', '/api/v3/spaces/block', { pageId: page.id, type: 'database', data: { config: { fields }, view } }),
        201,
      ),
    ).data;
    const made = body<WireRow[]>(
      expectStatus(
        await api(t, w.owner.cookie, 'POST', `/api/v3/spaces/database/${database.id}/rows`, {
          rows: [{ title: 'first', values: { done: true } }, { title: 'second' }, { title: 'binned' }],
        }),
        201,
      ),
    ).data;
    expectStatus(await api(t, w.owner.cookie, 'POST', `/api/v3/spaces/database/${database.id}/rows/delete`, { ids: [made[2].id] }), 200);
    const commented = await addBlock(w.owner, page.id, 'remark', { placeAfter: database.id });
    await t.app.db
      .updateTable('blocks')
      .set({ data: JSON.stringify({ tokens: [{ text: 'remark', comments: [crypto.randomUUID()] }] }) })
      .where('id', '=', commented.id)
      .execute();
    const gone = await addBlock(w.owner, page.id, 'deleted', { placeAfter: commented.id });
    expectStatus(await api(t, w.owner.cookie, 'DELETE', `/api/v3/spaces/block/${gone.id}`), 200);

    const copy = body<WireElement>(expectStatus(await clone(w.owner, page.id, { workspaceId: w.owner.workspaceId }), 201)).data;
    const copied = await blocksOf(w.owner, copy.id);
    expect(copied.map((b) => b.type)).toEqual(['database', 'text']);
    expect(copied[1].data).toEqual({ tokens: [{ text: 'remark' }] });
    // Its views are the same but for their uids: a linked view of the original stays on the original (docs/api/databases.md).
    const copiedView = (copied[0].data as { view: typeof view }).view;
    expect(copiedView.layouts[0].uid).not.toBe('table-1');
    expect(copied[0].data).toEqual({ config: { fields }, view: { layouts: [{ ...view.layouts[0], uid: copiedView.layouts[0].uid }] } });
    const rows = body<WireRow[]>(expectStatus(await api(t, w.owner.cookie, 'GET', `/api/v3/spaces/database/${copied[0].id}/rows`), 200)).data;
    expect(rows.map((r) => [r.data.title, r.data.values, r.pageId, r.databaseId])).toEqual([
      ['first', { done: true }, copy.id, copied[0].id],
      ['second', {}, copy.id, copied[0].id],
    ]);
    expect(rows.map((r) => r.id)).not.toContain(made[0].id);
    // The copy's rows are no children of the copied page.
    expect(body<WireElement[]>(expectStatus(await api(t, w.owner.cookie, 'GET', `/api/v3/spaces/element/${copy.id}/children`), 200)).data).toEqual([]);
  });

  test('into a page the caller can edit; descendants the caller cannot read are left out', async () => {
    const { P, C1, C2 } = await privateTree(w);
    await t.app.db.insertInto('page_members').values({ page_id: C2.id, user_id: w.editUser.id, level: 'none', created_at: new Date().toISOString() }).execute();
    const target = await createPage(t, w.editUser, { title: 'Target' });
    const res = expectStatus(await clone(w.editUser, P.id, { workspaceId: w.editUser.workspaceId, toElement: target.id }), 201);
    const copy = body<WireElement>(res).data;
    expect(copy).toMatchObject({ parentId: target.id, path: [target.id], section: null });
    const kids = body<WireElement[]>(await api(t, w.editUser.cookie, 'GET', el(copy.id, '/children'))).data;
    expect(kids.map((k) => k.title)).toEqual(['C1']);
    void C1;
  });

  test.each([
    ['a workspace the caller is not in', 'notMember', 403],
    ['a workspace where the caller is a guest, to the section root', 'guestRoot', 403],
    ['a target page the caller cannot edit', 'readTarget', 403],
    ['a target page in another workspace than workspaceId', 'mismatch', 422],
    ['a missing target page', 'missingTarget', 404],
    ['a missing source page', 'missingSource', 404],
  ])('into %s → %i, nothing copied', async (_what, kind, status) => {
    const { P } = await privateTree(w);
    const readable = await createPage(t, w.owner, { title: 'read only target' });
    await share(t, w.owner, readable.id, [{ userId: w.editUser.id, accessLevel: 'read' }]);
    const payloads: Record<string, [string, unknown]> = {
      notMember: [P.id, { workspaceId: w.admin.workspaceId }],
      guestRoot: [P.id, { workspaceId: w.owner.workspaceId }],
      readTarget: [P.id, { workspaceId: w.owner.workspaceId, toElement: readable.id }],
      mismatch: [P.id, { workspaceId: w.editUser.workspaceId, toElement: P.id }],
      missingTarget: [P.id, { workspaceId: w.editUser.workspaceId, toElement: crypto.randomUUID() }],
      missingSource: [crypto.randomUUID(), { workspaceId: w.editUser.workspaceId }],
    };
    const [source, payload] = payloads[kind];
    const before = await snapshot(t);
    const res = await clone(w.editUser, source, payload);
    expect(res.statusCode).toBe(status);
    expect(await snapshot(t)).toEqual(before);
  });

  test('bad bodies → 422', async () => {
    const { P } = await privateTree(w);
    for (const payload of [{}, { workspaceId: w.owner.workspaceId, id: 'not-a-uuid' }, { workspaceId: w.owner.workspaceId, extra: 1 }]) {
      const res = await clone(w.owner, P.id, payload);
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
  });
});

describe('move and placeAfter', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  });
  const move = (who: Actor, id: string, payload: unknown) => api(t, who.cookie, 'POST', el(id, '/move'), payload);
  const children = async (who: Actor, id: string) => ids(await api(t, who.cookie, 'GET', el(id, '/children')));

  test('under another page, after a sibling; the whole subtree gets the new path', async () => {
    const { P, C1, C2 } = await privateTree(w);
    const target = await createPage(t, w.owner, { title: 'Target' });
    const t1 = await createPage(t, w.owner, { parentId: target.id });
    const t2 = await createPage(t, w.owner, { parentId: target.id });
    const G = await createPage(t, w.owner, { parentId: C1.id });
    const GG = await createPage(t, w.owner, { parentId: G.id });
    const res = expectStatus(await move(w.owner, C1.id, { dst: target.id, placeAfter: t1.id }), 200);
    expect(body<WireElement>(res).data).toMatchObject({ id: C1.id, parentId: target.id, path: [target.id], section: null });
    expect(await children(w.owner, target.id)).toEqual([t1.id, C1.id, t2.id]);
    expect(await children(w.owner, P.id)).toEqual([C2.id]);
    expect((await getPage(t, w.owner, G.id)).path).toEqual([target.id, C1.id]);
    expect((await getPage(t, w.owner, GG.id)).path).toEqual([target.id, C1.id, G.id]);
    // Access follows the new place: the read member of P no longer sees C1.
    expect((await api(t, w.readUser.cookie, 'GET', el(GG.id))).statusCode).toBe(403);
    // First among the siblings with placeAfter null or left out.
    expectStatus(await move(w.owner, C2.id, { dst: target.id, placeAfter: null }), 200);
    expect(await children(w.owner, target.id)).toEqual([C2.id, t1.id, C1.id, t2.id]);
    expectStatus(await move(w.owner, C2.id, { dst: P.id }), 200);
    expect(await children(w.owner, P.id)).toEqual([C2.id]);
  });

  test('to a section root and back', async () => {
    const { P, C1 } = await privateTree(w);
    const roots = async () => ids(await api(t, w.owner.cookie, 'GET', '/api/v3/spaces/section/private'));
    expectStatus(await move(w.owner, C1.id, { dst: 'private', placeAfter: P.id }), 200);
    const listed = await roots();
    expect(listed.indexOf(C1.id)).toBe(listed.indexOf(P.id) + 1);
    expect(await getPage(t, w.owner, C1.id)).toMatchObject({ parentId: null, path: [], section: 'private' });
    expect((await getPage(t, w.owner, C1.id)).accessLevel).toBe('full');
    // The members of P lost it with the move.
    expect((await api(t, w.readUser.cookie, 'GET', el(C1.id))).statusCode).toBe(403);
    expectStatus(await move(w.owner, C1.id, { dst: 'all', placeAfter: null }), 200);
    expect(ids(await api(t, w.participant.cookie, 'GET', '/api/v3/spaces/section/all', undefined, { 'x-workspace-id': w.owner.workspaceId }))).toContain(C1.id);
    expect((await getPage(t, w.participant, C1.id)).accessLevel).toBe('edit');
  });

  test.each([
    ['into itself', 'self', 422, 'page.move_cycle'],
    ['into its own child', 'child', 422, 'page.move_cycle'],
    ['into its own grandchild', 'grandchild', 422, 'page.move_cycle'],
    ['after a page that is not at the destination', 'badAfter', 422, 'validation_failed'],
    ['after itself', 'afterSelf', 422, 'validation_failed'],
    ['into favorite', 'favorite', 422, 'validation_failed'],
    ['into a page of another workspace', 'otherWorkspace', 422, 'validation_failed'],
    ['into a page the mover cannot edit', 'readOnlyDst', 403, 'forbidden'],
    ['into a page the mover cannot see', 'hiddenDst', 403, 'forbidden'],
    ['into a missing page', 'missingDst', 404, 'not_found'],
    ['into a page in the trash', 'trashedDst', 409, 'page.in_trash'],
    ["someone else's page to my private section", 'othersToPrivate', 403, 'forbidden'],
    ['to all as a non-admin', 'allAsGuest', 403, 'forbidden'],
  ])('%s → %i %s, nothing changes', async (_what, kind, status, code) => {
    const { P, C1, C2 } = await privateTree(w);
    const G = await createPage(t, w.owner, { parentId: C1.id });
    const foreign = await createPage(t, w.outsider);
    const readOnly = await createPage(t, w.owner);
    await share(t, w.owner, readOnly.id, [{ userId: w.fullUser.id, accessLevel: 'read' }]);
    const hidden = await createPage(t, w.owner);
    const trashed = await createPage(t, w.owner);
    expectStatus(await api(t, w.owner.cookie, 'DELETE', el(trashed.id)), 200);
    const cases: Record<string, [Actor, string, unknown]> = {
      self: [w.owner, P.id, { dst: P.id, placeAfter: null }],
      child: [w.owner, P.id, { dst: C1.id, placeAfter: null }],
      grandchild: [w.owner, P.id, { dst: G.id, placeAfter: null }],
      badAfter: [w.owner, C2.id, { dst: C1.id, placeAfter: P.id }],
      afterSelf: [w.owner, C2.id, { dst: P.id, placeAfter: C2.id }],
      favorite: [w.owner, C2.id, { dst: 'favorite', placeAfter: null }],
      otherWorkspace: [w.fullUser, C2.id, { dst: (await createPage(t, w.fullUser)).id, placeAfter: null }],
      readOnlyDst: [w.fullUser, C2.id, { dst: readOnly.id, placeAfter: null }],
      hiddenDst: [w.fullUser, C2.id, { dst: hidden.id, placeAfter: null }],
      missingDst: [w.owner, C2.id, { dst: crypto.randomUUID(), placeAfter: null }],
      trashedDst: [w.owner, C2.id, { dst: trashed.id, placeAfter: null }],
      othersToPrivate: [w.fullUser, C2.id, { dst: 'private', placeAfter: null }],
      allAsGuest: [w.fullUser, C2.id, { dst: 'all', placeAfter: null }],
    };
    void foreign;
    const [who, id, payload] = cases[kind];
    const before = await snapshot(t);
    const res = await move(who, id, payload);
    expect([res.statusCode, errorCode(res)]).toEqual([status, code]);
    expect(await snapshot(t)).toEqual(before);
  });

  test('placeAfter reorders among the current siblings, roots included', async () => {
    const { P, C1, C2 } = await privateTree(w);
    const C3 = await createPage(t, w.owner, { parentId: P.id });
    const place = (who: Actor, id: string, placeAfter: string | null) => api(t, who.cookie, 'POST', el(id, '/placeAfter'), { placeAfter });
    expectStatus(await place(w.editUser, C3.id, null), 200);
    expect(await children(w.owner, P.id)).toEqual([C3.id, C1.id, C2.id]);
    expectStatus(await place(w.editUser, C3.id, C1.id), 200);
    expect(await children(w.owner, P.id)).toEqual([C1.id, C3.id, C2.id]);
    expectStatus(await place(w.owner, C1.id, C2.id), 200);
    expect(await children(w.owner, P.id)).toEqual([C3.id, C2.id, C1.id]);
    // Many moves between the same two neighbours keep the order exact.
    for (let i = 0; i < 20; i++) expectStatus(await place(w.owner, i % 2 ? C1.id : C2.id, C3.id), 200);
    expect(await children(w.owner, P.id)).toEqual([C3.id, C1.id, C2.id]);

    const R1 = await createPage(t, w.owner);
    const R2 = await createPage(t, w.owner);
    expectStatus(await place(w.owner, R2.id, null), 200);
    const roots = ids(await api(t, w.owner.cookie, 'GET', '/api/v3/spaces/section/private'));
    expect(roots[0]).toBe(R2.id);
    expect(roots).toContain(R1.id);

    for (const [who, id, after, status] of [
      [w.owner, C1.id, P.id, 422],
      [w.owner, C1.id, C1.id, 422],
      [w.owner, R1.id, C1.id, 422],
      [w.owner, C1.id, crypto.randomUUID(), 422],
      [w.readUser, C1.id, null, 403],
      // Someone else's private root is no sibling of mine.
      [w.outsider, (await createPage(t, w.outsider)).id, R1.id, 422],
    ] as const) {
      const before = await snapshot(t);
      expect((await place(who, id, after)).statusCode).toBe(status);
      expect(await snapshot(t)).toEqual(before);
    }
  });
});

test('the OpenAPI document lists the page and sharing calls', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
  expect(res.statusCode).toBe(200);
  const paths = res.json<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>().paths;
  for (const [path, method] of [
    ['/api/v3/spaces/element/{id}', 'patch'],
    ['/api/v3/spaces/element/public/{id}', 'get'],
    ['/api/v3/spaces/element/{id}/children', 'post'],
    ['/api/v3/spaces/recents', 'get'],
    ['/api/v3/spaces/trash', 'get'],
    ['/api/v3/spaces/page/public', 'get'],
    ['/api/v3/spaces/pagealias/{id}', 'get'],
    ['/api/v3/spaces/trash/{id}/restore', 'post'],
    ['/api/v3/spaces/trash/{id}/remove', 'post'],
    ['/api/v3/spaces/element/{id}/page/clone', 'post'],
    ['/api/v3/spaces/element/{id}/move', 'post'],
    ['/api/v3/spaces/element/{id}/placeAfter', 'post'],
    ['/api/v3/spaces/element/{id}/member/add', 'post'],
    ['/api/v3/spaces/element/{id}/members', 'get'],
  ]) {
    expect(paths).toHaveProperty([path, method]);
  }
  expect(paths['/api/v3/spaces/element/{id}/move'].post.requestBody).toBeDefined();
  expect(paths['/api/v3/spaces/element/{id}/member/add'].post.requestBody).toBeDefined();
});

// ---- Concurrency: tree changes are judged one at a time (docs/adr/0003-concurrency.md) ---------

describe('concurrent tree changes keep the tree sound', () => {
  let r: Actor;
  let racers = 0;
  beforeEach(async () => {
    // A workspace of its own for each test, so the tree checks see only its pages.
    r = await actor(t, `racer${++racers}@example.com`);
  });
  const move = (id: string, dst: string) => api(t, r.cookie, 'POST', el(id, '/move'), { dst });
  const trash = (id: string) => api(t, r.cookie, 'DELETE', el(id));
  const child = (id: string) => api(t, r.cookie, 'POST', el(id, '/children'), {});
  const pageRow = (id: string) => t.app.db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  test('two opposite moves at once (p1 under p2, p2 under p1): one moves, the other is 422 page.move_cycle', async () => {
    for (let i = 0; i < 30; i++) {
      const p1 = await createPage(t, r);
      const p2 = await createPage(t, r);
      const answers = await Promise.all([move(p1.id, p2.id), move(p2.id, p1.id)]);
      expect(answers.map(outcome).sort()).toEqual(['200', '422 page.move_cycle']);
      const [a, b] = [await pageRow(p1.id), await pageRow(p2.id)];
      // Exactly the winner sits under the other.
      expect([a.parent_id === p2.id, b.parent_id === p1.id].filter(Boolean)).toHaveLength(1);
    }
    expect(await pageTreeProblems(t, r.workspaceId)).toEqual([]);
  });

  test('a child created while its parent moves gets the path of the new place', async () => {
    const A = await createPage(t, r, { title: 'A' });
    const B = await createPage(t, r, { title: 'B' });
    const under = await createPage(t, r, { title: 'under B', parentId: B.id });
    for (let i = 0; i < 20; i++) {
      const P = await createPage(t, r, { parentId: A.id });
      const [moved, created] = await Promise.all([move(P.id, under.id), child(P.id)]);
      expect([outcome(moved), outcome(created)]).toEqual(['200', '201']);
      expect((await pageRow(body<WireElement>(created).data.id)).path).toBe(JSON.stringify([B.id, under.id, P.id]));
    }
    expect(await pageTreeProblems(t, r.workspaceId)).toEqual([]);
  });

  test('a child created while its parent goes to the trash is refused (409) or goes to the trash with it', async () => {
    for (let i = 0; i < 30; i++) {
      const P = await createPage(t, r);
      const [trashed, created] = await Promise.all([trash(P.id), child(P.id)]);
      expect(outcome(trashed)).toBe('200');
      expect(['201', '409 page.in_trash']).toContain(outcome(created));
      if (created.statusCode === 201) expect((await pageRow(body<WireElement>(created).data.id)).in_trash).toBe(1);
    }
    expect(await pageTreeProblems(t, r.workspaceId)).toEqual([]);
  });

  test('a page moved or cloned under a page going to the trash is refused (409) or goes to the trash with it', async () => {
    for (let i = 0; i < 15; i++) {
      const P = await createPage(t, r);
      const Q = await createPage(t, r);
      const S = await createPage(t, r);
      const [trashed, moved, cloned] = await Promise.all([
        trash(P.id),
        move(Q.id, P.id),
        api(t, r.cookie, 'POST', el(S.id, '/page/clone'), { workspaceId: r.workspaceId, toElement: P.id }),
      ]);
      expect(outcome(trashed)).toBe('200');
      expect(['200', '409 page.in_trash']).toContain(outcome(moved));
      expect(['201', '409 page.in_trash']).toContain(outcome(cloned));
      expect((await pageRow(Q.id)).in_trash).toBe(moved.statusCode === 200 ? 1 : 0);
    }
    expect(await pageTreeProblems(t, r.workspaceId)).toEqual([]);
  });

  test('many mixed tree changes at once (moves, children, trash, restore, clones, reorders): the tree stays sound', async () => {
    const random = seeded(20261122);
    const pool: string[] = [];
    for (let i = 0; i < 8; i++) pool.push((await createPage(t, r, { title: `n${i}` })).id);
    const pick = () => pool[random(pool.length)];
    const allowed: Record<string, string[]> = {
      move: ['200', '422 page.move_cycle', '409 page.in_trash'],
      child: ['201', '409 page.in_trash'],
      trash: ['200'],
      restore: ['200', '409 page.not_in_trash', '409 page.parent_in_trash'],
      clone: ['201', '409 page.in_trash'],
      reorder: ['200', '409 page.in_trash'],
    };
    for (let round = 0; round < 12; round++) {
      const calls: Array<[string, Promise<LightMyRequestResponse>]> = [];
      for (let k = 0; k < 6; k++) {
        const kind = ['move', 'move', 'move', 'child', 'trash', 'restore', 'clone', 'reorder'][random(8)];
        const id = pick();
        if (kind === 'move') calls.push([kind, move(id, random(5) === 0 ? 'private' : pick())]);
        if (kind === 'child') calls.push([kind, child(id)]);
        if (kind === 'trash') calls.push([kind, trash(id)]);
        if (kind === 'restore') calls.push([kind, api(t, r.cookie, 'POST', `/api/v3/spaces/trash/${id}/restore`)]);
        if (kind === 'clone') calls.push([kind, api(t, r.cookie, 'POST', el(id, '/page/clone'), { workspaceId: r.workspaceId, toElement: pick() })]);
        if (kind === 'reorder') calls.push([kind, api(t, r.cookie, 'POST', el(id, '/placeAfter'), { placeAfter: null })]);
      }
      const answers = await Promise.all(calls.map(([, call]) => call));
      calls.forEach(([kind], i) => {
        const got = outcome(answers[i]);
        // A move of a page onto itself is a cycle too; anything else unexpected is a failure.
        if (!allowed[kind].includes(got)) throw new Error(`round ${round}: ${kind} answered ${got}: ${answers[i].body}`);
      });
      expect(await pageTreeProblems(t, r.workspaceId)).toEqual([]);
    }
  });

  test('simultaneous publishes hand out one alias that never changes', async () => {
    for (let i = 0; i < 10; i++) {
      const P = await createPage(t, r);
      const calls = [];
      for (let k = 0; k < 6; k++) {
        calls.push(api(t, r.cookie, 'PATCH', el(P.id), { isPublic: true }));
        calls.push(api(t, r.cookie, 'GET', `/api/v3/spaces/pagealias/${P.id}`));
      }
      const answers = await Promise.all(calls);
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      const final = (await pageRow(P.id)).alias;
      expect(final).toMatch(/^[a-z0-9]{12}$/);
      // Every alias anyone was shown is the one that stays.
      for (const seen of answers.filter((_, k) => k % 2 === 1).map((a) => body<{ alias: string | null }>(a).data.alias)) {
        expect([null, final]).toContain(seen);
      }
    }
  });
});

describe('a page in the trash: content is frozen, reading and personal settings keep working', () => {
  test('blocks, comments and files of a trashed page answer 409 page.in_trash; reads answer 200; nothing changes', async () => {
    const me = await actor(t, 'frozen@example.com');
    const P = await createPage(t, me);
    const block = body<WireBlock>(
      expectStatus(await api(t, me.cookie, 'POST', '/api/v3/spaces/block', { pageId: P.id, type: 'text', data: { tokens: [{ text: 'a' }] } }), 201),
    ).data;
    const comment = body<{ id: string }>(expectStatus(await api(t, me.cookie, 'POST', el(P.id, '/comments'), { content: [{ text: 'c' }] }), 201)).data;
    expectStatus(await api(t, me.cookie, 'POST', `/api/v3/spaces/comment/${comment.id}/reaction`, { code: 'like' }), 200);
    expectStatus(await api(t, me.cookie, 'DELETE', el(P.id)), 200);
    const state = async () => ({
      ...((await snapshot(t)) as object),
      comments: await t.app.db.selectFrom('comments').selectAll().orderBy('id').execute(),
      reactions: await t.app.db.selectFrom('comment_reactions').selectAll().orderBy('comment_id').orderBy('code').execute(),
    });
    const before = await state();
    const writes: Call[] = [
      ['PATCH', el(P.id), { title: 'x' }],
      ['POST', el(P.id, '/children'), {}],
      ['POST', '/api/v3/spaces/block', { pageId: P.id, type: 'text', data: { tokens: [{ text: 'b' }] } }],
      ['POST', `/api/v3/spaces/block/${block.id}`, { version: 1, type: 'text', data: { tokens: [{ text: 'b' }] } }],
      ['POST', `/api/v3/spaces/block/${block.id}/move`, { parentId: null, placeAfter: null }],
      ['POST', `/api/v3/spaces/block/${block.id}/clone`, {}],
      ['POST', `/api/v3/spaces/block/${block.id}/restore`],
      ['DELETE', `/api/v3/spaces/block/${block.id}`],
      ['POST', el(P.id, '/comments'), { content: [{ text: 'more' }] }],
      ['POST', el(P.id, `/comments/${comment.id}`), { content: [{ text: 'edited' }] }],
      ['DELETE', el(P.id, `/comments/${comment.id}`)],
      ['POST', `/api/v3/spaces/comment/${comment.id}/reaction`, { code: 'like' }],
      ['DELETE', `/api/v3/spaces/comment/${comment.id}/reaction?code=${encodeURIComponent('"like"')}`],
      ['POST', '/api/file/upload_url', { pageId: P.id, name: 'a.txt', mimeType: 'text/plain', size: 3 }],
    ];
    for (const [method, url, payload] of writes) {
      const res = await api(t, me.cookie, method, url, payload);
      expect([method, url, outcome(res)]).toEqual([method, url, '409 page.in_trash']);
    }
    expect(await state()).toEqual(before);

    const reads: Call[] = [
      ['GET', el(P.id)],
      ['GET', `/api/v3/spaces/note/${P.id}/blocks`],
      ['GET', `/api/v3/spaces/block/${block.id}`],
      ['GET', el(P.id, '/comments')],
      ['GET', `/api/v3/spaces/notifications/${P.id}/settings`],
    ];
    for (const [method, url] of reads) expect([url, (await api(t, me.cookie, method, url)).statusCode]).toEqual([url, 200]);
    // Notification settings are the caller's own, not the page's content: they stay changeable.
    const settings = await api(t, me.cookie, 'POST', `/api/v3/spaces/notifications/${P.id}/settings`, { settings: { comments: false } });
    expect(settings.statusCode).toBe(200);

    // Restored, the page takes writes again.
    expectStatus(await api(t, me.cookie, 'POST', `/api/v3/spaces/trash/${P.id}/restore`), 200);
    expectStatus(await api(t, me.cookie, 'POST', `/api/v3/spaces/block/${block.id}`, { version: 1, type: 'text', data: { tokens: [{ text: 'b' }] } }), 200);
    expectStatus(await api(t, me.cookie, 'POST', el(P.id, '/comments'), { content: [{ text: 'back' }] }), 201);
  });
});
