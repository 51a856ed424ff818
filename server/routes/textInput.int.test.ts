import type { LightMyRequestResponse } from 'fastify';
import type { WireBlock } from '../../schema/block';
import type { WireComment } from '../../schema/comment';
import type { WireElement } from '../../schema/element';
import type { WireWorkspace } from '../../schema/workspace';
import type { WireUser } from '../../schema/user';
import { newId } from '../../schema/ids';
import { api, body, createTestApp, errorCode, expectOk, formData, jsonQueryString, signIn, type TestApp } from '../../test/helpers/testApp';

/**
 * Text that cannot be stored faithfully (a NUL, a lone UTF-16 surrogate) is refused with 400
 * bad_request wherever it enters, on both databases, and nothing is stored; a valid astral
 * character (a surrogate pair) still goes in and comes back exactly (docs/api.md «Text»).
 */

const S = '/api/v3/spaces';
const BAD: ReadonlyArray<[string, string]> = [
  ['a NUL', 'a\u0000b'],
  ['a lone high surrogate', '\ud800x'],
  ['a lone low surrogate', 'x\udc00'],
  ['a reversed pair', '\udc00\ud800'],
];
const EMOJI = 'Заметки 😀 \ud83d\ude00';

let t: TestApp;
let ann: string;
let workspaceId: string;
let pageId: string;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t, 'text-ann@example.com');
  workspaceId = body<WireWorkspace[]>(await api(t, ann, 'GET', `${S}/workspace`)).data[0].id;
  pageId = expectOk<WireElement>(await api(t, ann, 'POST', `${S}/section/private`, { title: 'Original' }), 201).id;
});
afterAll(async () => {
  await t.close();
});

/** 400 bad_request naming where the bad text was. */
function expectRefused(res: LightMyRequestResponse, path: string): void {
  expect([res.statusCode, errorCode(res)]).toEqual([400, 'bad_request']);
  const details = (body(res).errors[0] as { details?: Array<{ path: string; message: string }> }).details;
  expect(details?.[0].path).toBe(path);
}

const title = async () => expectOk<WireElement>(await api(t, ann, 'GET', `${S}/element/${pageId}`)).title;
const blocks = async () => expectOk<WireBlock[]>(await api(t, ann, 'GET', `${S}/note/${pageId}/blocks`));
const comments = async () => expectOk<WireComment[]>(await api(t, ann, 'GET', `${S}/element/${pageId}/comments`));

describe.each(BAD)('%s', (_name, bad) => {
  test('in a title (PATCH element, a new page) is refused and nothing changes', async () => {
    const before = await title();
    expectRefused(await api(t, ann, 'PATCH', `${S}/element/${pageId}`, { title: bad }), 'body.title');
    expect(await title()).toBe(before);
    const pages = async () => (await t.app.db.selectFrom('pages').select('id').where('workspace_id', '=', workspaceId).execute()).length;
    const count = await pages();
    expectRefused(await api(t, ann, 'POST', `${S}/section/private`, { title: bad }), 'body.title');
    expect(await pages()).toBe(count);
  });

  test('in block text (create, update) is refused and the blocks stay as they were', async () => {
    const before = await blocks();
    expectRefused(
      await api(t, ann, 'POST', `${S}/block`, { pageId, type: 'text', data: { tokens: [{ text: 'ok' }, { text: bad }] } }),
      'body.data.tokens.1.text',
    );
    expect(await blocks()).toEqual(before);
    const block = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId, type: 'text', data: { tokens: [{ text: 'kept' }] } }), 201);
    expectRefused(
      await api(t, ann, 'POST', `${S}/block/${block.id}`, { version: block.version, data: { tokens: [{ text: bad }] } }),
      'body.data.tokens.0.text',
    );
    expect(expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/block/${block.id}`))).toEqual(block);
  });

  test('in a comment (new, edited) is refused and the comments stay as they were', async () => {
    const before = await comments();
    expectRefused(await api(t, ann, 'POST', `${S}/element/${pageId}/comments`, { content: [{ text: bad }] }), 'body.content.0.text');
    expect(await comments()).toEqual(before);
    const comment = expectOk<WireComment>(await api(t, ann, 'POST', `${S}/element/${pageId}/comments`, { content: [{ text: 'kept' }] }), 201);
    expectRefused(await api(t, ann, 'POST', `${S}/element/${pageId}/comments/${comment.id}`, { content: [{ text: bad }] }), 'body.content.0.text');
    expect((await comments()).find((c) => c.id === comment.id)?.content).toEqual(comment.content);
  });

  test('in a workspace name or a user name is refused and the names stay', async () => {
    const workspaceName = async () => body<WireWorkspace[]>(await api(t, ann, 'GET', `${S}/workspace`)).data.find((w) => w.id === workspaceId)?.name;
    const me = async () => expectOk<WireUser>(await api(t, ann, 'GET', '/api/user/current'));
    const [name, user] = [await workspaceName(), await me()];
    expectRefused(await api(t, ann, 'POST', `${S}/workspace/${workspaceId}`, { name: bad }), 'body.name');
    expect(await workspaceName()).toBe(name);
    const workspaces = body<WireWorkspace[]>(await api(t, ann, 'GET', `${S}/workspace`)).data.length;
    expectRefused(await api(t, ann, 'POST', `${S}/workspace`, { name: bad }), 'body.name');
    expect(body<WireWorkspace[]>(await api(t, ann, 'GET', `${S}/workspace`)).data).toHaveLength(workspaces);
    expectRefused(await api(t, ann, 'POST', '/api/user', { id: user.id, name: bad }), 'body.name');
    expect((await me()).name).toBe(user.name);
  });

  test('in a query (search q, trash q, JSON-encoded) is refused', async () => {
    const headers = { 'x-workspace-id': workspaceId };
    expectRefused(await api(t, ann, 'GET', `${S}/search/text?${jsonQueryString({ q: bad })}`, undefined, headers), 'querystring.q');
    expectRefused(await api(t, ann, 'GET', `${S}/search?${jsonQueryString({ q: bad })}`, undefined, headers), 'querystring.q');
    expectRefused(await api(t, ann, 'GET', `${S}/trash?${jsonQueryString({ q: bad })}`, undefined, headers), 'querystring.q');
  });

  test('in a key of a body object is refused', async () => {
    const before = await blocks();
    expectRefused(await api(t, ann, 'POST', `${S}/block`, { pageId, type: 'text', data: { tokens: [{ text: 'ok', [bad]: true }] } }), 'body.data.tokens.0');
    expect(await blocks()).toEqual(before);
  });
});

describe('NUL where only bytes can carry it', () => {
  test('percent-encoded in a path or a plain query value: 400 on both databases', async () => {
    for (const id of ['%00', 'x%00y']) expectRefused(await api(t, ann, 'GET', `${S}/element/${id}`), 'params.id');
    expectRefused(await api(t, ann, 'GET', `${S}/trash?q=a%00b`), 'querystring.q');
    expectRefused(await api(t, ann, 'GET', `${S}/trash?a%00b=1`), 'querystring');
  });

  test('in a form-urlencoded or a multipart sign-in field', async () => {
    const urlencoded = await t.app.inject({
      method: 'POST',
      url: '/api/auth/oauth/code',
      payload: 'state=a%00b&code=c',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectRefused(urlencoded, 'body.state');
    const form = await formData({ state: 'a\u0000b', code: 'c' });
    expectRefused(await t.app.inject({ method: 'POST', url: '/api/auth/oauth/code', ...form }), 'body.state');
  });

  test('in a page upload field or file name: refused, no file kept', async () => {
    const upload = async (fields: Record<string, string>, fileName: string) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'application/octet-stream' }), fileName);
      const request = new Request('http://test.invalid/', { method: 'POST', body: form });
      return t.app.inject({
        method: 'POST',
        url: '/api/file/page',
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { 'content-type': request.headers.get('content-type') ?? '', cookie: ann },
      });
    };
    const files = async () => (await t.app.db.selectFrom('files').select('id').execute()).length;
    const count = await files();
    expectRefused(await upload({ pageId, id: `${newId()}\u0000` }, 'a.bin'), 'body.id');
    expectRefused(await upload({ pageId, id: newId() }, 'a\u0000b.bin'), 'body.file.filename');
    expect(await files()).toBe(count);
    const good = await upload({ pageId, id: newId() }, `${EMOJI}.bin`);
    expect(good.statusCode).toBe(200);
    const file = expectOk<{ name: string }>(await api(t, ann, 'GET', `/api/file/get/${body<{ data: string }>(good).data.data}`));
    expect(file.name).toBe(`${EMOJI}.bin`);
  });

  test('in an import field: refused before anything is imported', async () => {
    const form = new FormData();
    form.append('section', 'private\u0000');
    form.append('file', new Blob([Buffer.from('# Imported\n\ntext\n')], { type: 'text/markdown' }), 'note.md');
    const request = new Request('http://test.invalid/', { method: 'POST', body: form });
    const pages = async () => (await t.app.db.selectFrom('pages').select('id').where('workspace_id', '=', workspaceId).execute()).length;
    const count = await pages();
    const res = await t.app.inject({
      method: 'POST',
      url: `${S}/import`,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type') ?? '', cookie: ann, 'x-workspace-id': workspaceId },
    });
    expectRefused(res, 'body.section');
    expect(await pages()).toBe(count);
  });
});

describe('valid text', () => {
  test('an astral character (a surrogate pair) is taken and read back exactly', async () => {
    expect(expectOk<WireElement>(await api(t, ann, 'PATCH', `${S}/element/${pageId}`, { title: EMOJI })).title).toBe(EMOJI);
    expect(await title()).toBe(EMOJI);
    const block = expectOk<WireBlock>(await api(t, ann, 'POST', `${S}/block`, { pageId, type: 'text', data: { tokens: [{ text: EMOJI }] } }), 201);
    expect(expectOk<WireBlock>(await api(t, ann, 'GET', `${S}/block/${block.id}`)).data).toEqual({ tokens: [{ text: EMOJI }] });
    const comment = expectOk<WireComment>(await api(t, ann, 'POST', `${S}/element/${pageId}/comments`, { content: [{ text: EMOJI }] }), 201);
    expect((await comments()).find((c) => c.id === comment.id)?.content).toEqual([{ text: EMOJI }]);
    const trash = await api(t, ann, 'GET', `${S}/trash?${jsonQueryString({ q: EMOJI })}`, undefined, { 'x-workspace-id': workspaceId });
    expect(trash.statusCode).toBe(200);
  });

  test('a deeply nested body is answered, not a crash', async () => {
    const deep = `{"title":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${S}/element/${pageId}`,
      payload: deep,
      headers: { cookie: ann, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBeLessThan(500);
  });
});
