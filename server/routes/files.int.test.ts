import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { UploadUrlAnswer, WireFile } from '../../schema/file';
import { newId } from '../../schema/ids';
import { hashSecret } from '../auth/tokens';
import { ACTORS, createTeam, insertPage, type Actor, type Team } from '../../test/helpers/team';
import { api, body, createTestApp, errorCode, type TestApp } from '../../test/helpers/testApp';

const LIMIT = 3 * 1024 * 1024;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let team: Team;

beforeAll(async () => {
  t = await createTestApp({ uploadLimitBytes: LIMIT });
  team = await createTeam(t);
});
afterAll(async () => {
  await t.close();
});

interface FilePart {
  name: string;
  type: string;
  content: Buffer;
}

/** A multipart/form-data body as a browser's FormData sends it. */
async function multipart(fields: Record<string, string>, file?: FilePart, fileFirst = false) {
  const form = new FormData();
  const addFile = () => file && form.append('file', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);
  if (fileFirst) addFile();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (!fileFirst) addFile();
  const request = new Request('http://test.invalid/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

function askUploadUrl(cookie: string | undefined, payload: Record<string, unknown>) {
  return api(t, cookie, 'POST', '/api/file/upload_url', payload);
}

async function postForm(url: string, form: { payload: Buffer; headers: Record<string, string> }, cookie?: string) {
  return t.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...form.headers, ...(cookie ? { cookie } : {}) } });
}

/** upload_url then the upload itself; answers the file id and the upload's response. */
async function uploadFile(
  cookie: string | undefined,
  file: FilePart,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; res: LightMyRequestResponse }> {
  const asked = await askUploadUrl(cookie, { name: file.name, mimeType: file.type, size: file.content.length, ...extra });
  expect(asked.statusCode).toBe(201);
  const answer = body<UploadUrlAnswer>(asked).data;
  const res = await postForm(answer.uploadUrl, await multipart(answer.fields, file));
  return { id: answer.id, res };
}

async function pageFile(content = 'hello, file', name = 'notes.txt', type = 'text/plain', pageId = team.pageId): Promise<string> {
  const { id, res } = await uploadFile(team.cookie.admin, { name, type, content: Buffer.from(content) }, { pageId });
  expect(res.statusCode).toBe(204);
  return id;
}

function storedFiles(): string[] {
  if (!fs.existsSync(t.config.filesDir)) return [];
  return (fs.readdirSync(t.config.filesDir, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(t.config.filesDir, p)).isFile());
}

const countFiles = async () =>
  Number(
    (
      await t.app.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('upload through a handed-out URL', () => {
  test('a page file: upload_url → multipart POST answers exactly 204 → the bytes come back', async () => {
    const asked = await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'notes.txt', mimeType: 'text/plain', size: 11 });
    expect(asked.statusCode).toBe(201);
    const answer = body<UploadUrlAnswer>(asked).data;
    expect(answer).toMatchObject({ fields: {}, fileField: 'file' });
    expect(answer.uploadUrl).toMatch(new RegExp(`^/api/file/upload/${answer.id}\\?token=[A-Za-z0-9_-]{43}$`));
    // Only the token's hash is stored.
    const token = new URL(answer.uploadUrl, 'http://x').searchParams.get('token') as string;
    const row = await t.app.db.selectFrom('files').selectAll().where('id', '=', answer.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', upload_token_hash: hashSecret(token), page_id: team.pageId, workspace_id: team.workspaceId });

    const res = await postForm(
      answer.uploadUrl,
      await multipart(answer.fields, { name: 'notes.txt', type: 'text/plain', content: Buffer.from('hello, file') }),
    );
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    const got = await api(t, team.cookie.participant, 'GET', `/api/file/${answer.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe('hello, file');
    expect(got.headers['content-type']).toBe('text/plain');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toContain('sandbox');
    expect(got.headers['content-disposition']).toBe('inline; filename=notes.txt');
    expect(got.headers['content-length']).toBe('11');

    const details = await api(t, team.cookie.participant, 'GET', `/api/file/get/${answer.id}`);
    expect(details.statusCode).toBe(200);
    expect(body<WireFile>(details).data).toEqual({
      id: answer.id,
      contentType: 'File',
      name: 'notes.txt',
      mimeType: 'text/plain',
      size: 11,
      pageId: team.pageId,
      isPublic: false,
      url: `/api/file/protected/${team.pageId}/${answer.id}`,
      createdAt: expect.any(String),
    });
    const viaLink = await api(t, team.cookie.participant, 'GET', body<WireFile>(details).data.url);
    expect(viaLink.statusCode).toBe(200);
    expect(viaLink.body).toBe('hello, file');
    expect(storedFiles()).toContain(path.join(answer.id.slice(0, 2), answer.id));
  });

  test('a file larger than the 1 MiB JSON body limit streams through', async () => {
    const content = Buffer.alloc(1536 * 1024, 7);
    const { id, res } = await uploadFile(team.cookie.admin, { name: 'big.bin', type: 'application/octet-stream', content }, { pageId: team.pageId });
    expect(res.statusCode).toBe(204);
    const got = await api(t, team.cookie.admin, 'GET', `/api/file/${id}`);
    expect(got.rawPayload.equals(content)).toBe(true);
  });

  test('the URL works once: a second upload is 403 and the first file stays', async () => {
    const asked = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'a.txt', mimeType: 'text/plain', size: 5 })).data;
    expect((await postForm(asked.uploadUrl, await multipart({}, { name: 'a.txt', type: 'text/plain', content: Buffer.from('first') }))).statusCode).toBe(204);
    const again = await postForm(asked.uploadUrl, await multipart({}, { name: 'a.txt', type: 'text/plain', content: Buffer.from('other') }));
    expect(again.statusCode).toBe(403);
    expect(errorCode(again)).toBe('file.upload_token_invalid');
    expect((await api(t, team.cookie.admin, 'GET', `/api/file/${asked.id}`)).body).toBe('first');
  });

  test('parallel uploads with one URL: exactly one is stored', async () => {
    const asked = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'a.txt', mimeType: 'text/plain', size: 5 })).data;
    const forms = await Promise.all(
      ['one!!', 'two!!', 'three'].map((text) => multipart({}, { name: 'a.txt', type: 'text/plain', content: Buffer.from(text) })),
    );
    const results = await Promise.all(forms.map((form) => postForm(asked.uploadUrl, form)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 403, 403]);
  });

  test('a wrong token is 403 and does not use the URL up; an expired one is 403', async () => {
    const asked = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'a.txt', mimeType: 'text/plain', size: 2 })).data;
    const form = await multipart({}, { name: 'a.txt', type: 'text/plain', content: Buffer.from('ok') });
    const wrong = await postForm(`/api/file/upload/${asked.id}?token=${'x'.repeat(43)}`, form);
    expect([wrong.statusCode, errorCode(wrong)]).toEqual([403, 'file.upload_token_invalid']);
    const missing = await postForm(`/api/file/upload/${asked.id}`, form);
    expect([missing.statusCode, errorCode(missing)]).toEqual([422, 'validation_failed']);
    expect((await postForm(asked.uploadUrl, form)).statusCode).toBe(204);

    const late = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'a.txt', mimeType: 'text/plain', size: 2 })).data;
    await t.app.db
      .updateTable('files')
      .set({ upload_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', late.id)
      .execute();
    const expired = await postForm(late.uploadUrl, form);
    expect([expired.statusCode, errorCode(expired)]).toEqual([403, 'file.upload_token_invalid']);
    expect((await api(t, team.cookie.admin, 'GET', `/api/file/${late.id}`)).statusCode).toBe(404);
  });

  test('an unknown file id is 404; a file not uploaded yet is 404 to readers', async () => {
    const form = await multipart({}, { name: 'a.txt', type: 'text/plain', content: Buffer.from('ok') });
    expect((await postForm(`/api/file/upload/${newId()}?token=abc`, form)).statusCode).toBe(404);
    const asked = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'a.txt', mimeType: 'text/plain', size: 2 })).data;
    for (const url of [`/api/file/${asked.id}`, `/api/file/get/${asked.id}`, `/api/file/protected/${team.pageId}/${asked.id}`]) {
      const res = await api(t, team.cookie.admin, 'GET', url);
      expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
    }
    expect((await api(t, team.cookie.admin, 'GET', `/api/file/${newId()}`)).statusCode).toBe(404);
  });

  test('an upload larger than it was declared is 413; nothing is left behind and the URL is gone', async () => {
    const before = storedFiles();
    const asked = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'a.txt', mimeType: 'text/plain', size: 10 })).data;
    const res = await postForm(asked.uploadUrl, await multipart({}, { name: 'a.txt', type: 'text/plain', content: Buffer.alloc(64 * 1024, 1) }));
    expect([res.statusCode, errorCode(res)]).toEqual([413, 'payload_too_large']);
    expect(storedFiles()).toEqual(before);
    expect(await t.app.db.selectFrom('files').select('id').where('id', '=', asked.id).executeTakeFirst()).toBeUndefined();
  });

  test('UPLOAD_LIMIT: a declared size over it is 413 at once; a stream over it is cut at the limit (413)', async () => {
    const over = await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'huge.bin', mimeType: 'application/octet-stream', size: LIMIT + 1 });
    expect([over.statusCode, errorCode(over)]).toEqual([413, 'payload_too_large']);

    const before = storedFiles();
    const asked = body<UploadUrlAnswer>(
      await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'huge.bin', mimeType: 'application/octet-stream', size: LIMIT }),
    ).data;
    const res = await postForm(
      asked.uploadUrl,
      await multipart({}, { name: 'huge.bin', type: 'application/octet-stream', content: Buffer.alloc(LIMIT + 4096, 2) }),
    );
    expect([res.statusCode, errorCode(res)]).toEqual([413, 'payload_too_large']);
    expect(storedFiles()).toEqual(before);
  });

  test('the upload must be multipart (415); a form without a file is 422', async () => {
    const asked = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'a.txt', mimeType: 'text/plain', size: 2 })).data;
    const json = await api(t, undefined, 'POST', asked.uploadUrl, { file: 'ok' });
    expect([json.statusCode, errorCode(json)]).toEqual([415, 'unsupported_media_type']);
    const raw = await t.app.inject({ method: 'POST', url: asked.uploadUrl, payload: 'ok', headers: { 'content-type': 'application/octet-stream' } });
    expect([raw.statusCode, errorCode(raw)]).toEqual([415, 'unsupported_media_type']);
    // Neither used the URL up.
    const empty = await postForm(asked.uploadUrl, await multipart({ note: 'no file' }));
    expect([empty.statusCode, errorCode(empty)]).toEqual([422, 'validation_failed']);
  });

  test('upload_url validates its body', async () => {
    const bad: Record<string, unknown>[] = [
      {},
      { name: 'a.txt', mimeType: 'text/plain' },
      { name: 'a.txt', mimeType: 'text/plain; charset=utf-8', size: 1 },
      { name: 'a.txt', mimeType: 'text/plain\r\nX-Evil: 1', size: 1 },
      { name: '', mimeType: 'text/plain', size: 1 },
      { name: 'a.txt', mimeType: 'text/plain', size: -1 },
      { name: 'a.txt', mimeType: 'text/plain', size: 1.5 },
      { name: 'a.txt', mimeType: 'text/plain', size: 1, extra: true },
    ];
    for (const payload of bad) {
      const res = await askUploadUrl(team.cookie.admin, payload);
      expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    }
    // Prototype keys are refused by the JSON parser itself: nothing can be polluted.
    for (const key of ['"__proto__":{"polluted":true}', '"constructor":{"prototype":{"polluted":true}}']) {
      const proto = await t.app.inject({
        method: 'POST',
        url: '/api/file/upload_url',
        headers: { cookie: team.cookie.admin as string, 'content-type': 'application/json' },
        payload: `{"name":"a.txt","mimeType":"text/plain","size":1,${key}}`,
      });
      expect([proto.statusCode, errorCode(proto)]).toEqual([400, 'bad_request']);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/file/upload_url',
      headers: { cookie: team.cookie.admin as string, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect([notJson.statusCode, errorCode(notJson)]).toEqual([400, 'bad_request']);
  });

  test('a name with a path and unicode is kept as a base name and offered UTF-8 encoded', async () => {
    const id = await pageFile('x', '../../etc/Отчёт "final".txt');
    const details = body<WireFile>(await api(t, team.cookie.admin, 'GET', `/api/file/get/${id}`)).data;
    expect(details.name).toBe('Отчёт "final".txt');
    const got = await api(t, team.cookie.admin, 'GET', `/api/file/${id}`);
    expect(got.headers['content-disposition']).toBe(`inline; filename="_____ \\"final\\".txt"; filename*=UTF-8''${encodeURIComponent('Отчёт "final".txt')}`);
  });

  test('access changed after the URL was handed out: the upload is refused and nothing is stored', async () => {
    const page = await insertPage(t, team.workspaceId, team.userId.admin, 'all', 'Will be locked');
    const asked = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.participant, { pageId: page, name: 'a.txt', mimeType: 'text/plain', size: 2 })).data;
    await t.app.db
      .insertInto('page_members')
      .values({ page_id: page, user_id: team.userId.participant, level: 'read', created_at: new Date().toISOString() })
      .execute();
    const before = storedFiles();
    const res = await postForm(asked.uploadUrl, await multipart({}, { name: 'a.txt', type: 'text/plain', content: Buffer.from('ok') }));
    expect([res.statusCode, errorCode(res)]).toEqual([403, 'forbidden']);
    expect(storedFiles()).toEqual(before);
  });
});

describe('serving', () => {
  test.each([
    ['page.html', 'text/html', '<script>alert(1)</script>'],
    ['pic.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['data.xml', 'application/xml', '<a/>'],
    ['doc.xhtml', 'application/xhtml+xml', '<html/>'],
    ['app.js', 'text/javascript', 'alert(1)'],
    ['doc.pdf', 'application/pdf', '%PDF-1.4'],
  ])('active content (%s) is never inline: attachment, CSP sandbox, nosniff', async (name, type, content) => {
    const id = await pageFile(content, name, type);
    for (const url of [`/api/file/${id}`, `/api/file/protected/${team.pageId}/${id}`]) {
      const res = await api(t, team.cookie.admin, 'GET', url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; /);
      expect(res.headers['content-security-policy']).toMatch(/(^|; )sandbox(;|$)/);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-type']).toBe(type);
    }
  });

  test('pictures are shown inline; page files are not cached by shared caches; ETag gives 304', async () => {
    const { id, res } = await uploadFile(team.cookie.admin, { name: 'dot.png', type: 'image/png', content: PNG }, { pageId: team.pageId });
    expect(res.statusCode).toBe(204);
    const got = await api(t, team.cookie.admin, 'GET', `/api/file/${id}`);
    expect(got.headers['content-disposition']).toMatch(/^inline; /);
    expect(got.headers['cache-control']).toBe('private, no-cache');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    const again = await api(t, team.cookie.admin, 'GET', `/api/file/${id}`, undefined, { 'if-none-match': got.headers.etag as string });
    expect(again.statusCode).toBe(304);
    // No 304 shortcut around the access check.
    const stranger = await api(t, team.cookie.outsider, 'GET', `/api/file/${id}`, undefined, { 'if-none-match': got.headers.etag as string });
    expect(stranger.statusCode).toBe(403);
  });

  test('a protected link names the page: another page in the path is 404, even for a reader of both', async () => {
    const id = await pageFile();
    const wrongPage = await api(t, team.cookie.admin, 'GET', `/api/file/protected/${team.otherPageId}/${id}`);
    expect([wrongPage.statusCode, errorCode(wrongPage)]).toEqual([404, 'not_found']);
  });

  test('a file whose bytes are missing on disk is 404, not 500', async () => {
    const id = await pageFile();
    fs.rmSync(path.join(t.config.filesDir, id.slice(0, 2), id));
    expect((await api(t, team.cookie.admin, 'GET', `/api/file/${id}`)).statusCode).toBe(404);
  });

  test('a public page lets anyone read the files it shows; trashing it ends that', async () => {
    const page = await insertPage(t, team.workspaceId, team.userId.admin, 'all', 'Published');
    const id = await pageFile('public words', 'p.txt', 'text/plain', page);
    // Shown by a block (the files only comments show stay private: filesHardening.int.test.ts).
    const block = { pageId: page, type: 'file', data: { remoteData: { fileId: id, title: 'p.txt', size: 12, mimeType: 'text/plain' } }, placeAfter: null };
    expect((await api(t, team.cookie.admin, 'POST', '/api/v3/spaces/block', block)).statusCode).toBe(201);
    expect((await api(t, undefined, 'GET', `/api/file/${id}`)).statusCode).toBe(401);
    await t.app.db.updateTable('pages').set({ is_public: 1 }).where('id', '=', page).execute();
    for (const cookie of [undefined, team.cookie.outsider, team.cookie.guest]) {
      const res = await api(t, cookie, 'GET', `/api/file/protected/${page}/${id}`);
      expect([res.statusCode, res.body]).toEqual([200, 'public words']);
    }
    await t.app.db.updateTable('pages').set({ in_trash: 1 }).where('id', '=', page).execute();
    expect((await api(t, undefined, 'GET', `/api/file/${id}`)).statusCode).toBe(401);
    expect((await api(t, team.cookie.outsider, 'GET', `/api/file/${id}`)).statusCode).toBe(403);
  });
});

describe('files in a synced block (docs/api/blocks.md «Synced blocks»)', () => {
  test("a page's file moved into a synced block made on it stays readable to anyone while the page is public; not before, not in the trash", async () => {
    const holder = await insertPage(t, team.workspaceId, team.userId.admin, 'all', 'Published holder');
    const id = await pageFile('moved words', 'm.txt', 'text/plain', holder);
    const content = body<{ id: string }>(await api(t, team.cookie.admin, 'POST', `/api/v3/spaces/element/${holder}/synced`, { id: crypto.randomUUID() })).data
      .id;
    // The file block now lives in the synced block's content; the holder shows the synced block.
    const file = { type: 'file', data: { remoteData: { fileId: id, title: 'm.txt', size: 11, mimeType: 'text/plain' } }, placeAfter: null };
    expect((await api(t, team.cookie.admin, 'POST', '/api/v3/spaces/block', { ...file, pageId: content })).statusCode).toBe(201);
    const synced = { pageId: holder, type: 'synced', data: { pageId: content }, placeAfter: null };
    expect((await api(t, team.cookie.admin, 'POST', '/api/v3/spaces/block', synced)).statusCode).toBe(201);
    expect((await api(t, undefined, 'GET', `/api/file/${id}`)).statusCode).toBe(401);
    expect((await api(t, team.cookie.outsider, 'GET', `/api/file/${id}`)).statusCode).toBe(403);
    await t.app.db.updateTable('pages').set({ is_public: 1 }).where('id', '=', holder).execute();
    const res = await api(t, undefined, 'GET', `/api/file/protected/${holder}/${id}`);
    expect([res.statusCode, res.body]).toEqual([200, 'moved words']);
    await t.app.db.updateTable('pages').set({ in_trash: 1 }).where('id', '=', holder).execute();
    expect((await api(t, undefined, 'GET', `/api/file/${id}`)).statusCode).toBe(401);
  });
});

describe('public uploads (avatars)', () => {
  test('a public image: anyone may read it, cached publicly', async () => {
    const { id, res } = await uploadFile(team.cookie.outsider, { name: 'me.png', type: 'image/png', content: PNG }, { public: true });
    expect(res.statusCode).toBe(204);
    for (const actor of ACTORS) {
      const got = await api(t, team.cookie[actor], 'GET', `/api/file/${id}`);
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['cache-control']).toBe('public, max-age=86400');
      expect(got.headers['content-disposition']).toMatch(/^inline; /);
    }
    const details = body<WireFile>(await api(t, undefined, 'GET', `/api/file/get/${id}`)).data;
    expect(details).toMatchObject({ isPublic: true, pageId: null, url: `/api/file/${id}` });
  });

  test.each([
    [{ name: 'x.svg', mimeType: 'image/svg+xml', size: 10, public: true }],
    [{ name: 'x.html', mimeType: 'text/html', size: 10, public: true }],
    [{ name: 'x.png', mimeType: 'image/png', size: 10, public: true, pageId: 'p' }],
  ])('a public upload must be a raster image of no page: %p → 422', async (payload) => {
    const before = await countFiles();
    const res = await askUploadUrl(team.cookie.admin, payload);
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'validation_failed']);
    expect(await countFiles()).toBe(before);
  });

  test('bytes that are not the declared image are refused (422) and not kept', async () => {
    const before = storedFiles();
    const { id, res } = await uploadFile(
      team.cookie.admin,
      { name: 'x.png', type: 'image/png', content: Buffer.from('<svg onload=alert(1)>') },
      { public: true },
    );
    expect([res.statusCode, errorCode(res)]).toEqual([422, 'file.not_an_image']);
    expect(storedFiles()).toEqual(before);
    expect((await api(t, undefined, 'GET', `/api/file/${id}`)).statusCode).toBe(404);
  });

  test('a file of no page that is not public is its owner’s alone', async () => {
    const { id, res } = await uploadFile(team.cookie.participant, { name: 'draft.txt', type: 'text/plain', content: Buffer.from('mine') });
    expect(res.statusCode).toBe(204);
    const expected: Record<Actor, number> = { admin: 404, participant: 200, reader: 404, guest: 404, outsider: 404, anonymous: 401 };
    for (const actor of ACTORS) {
      for (const url of [`/api/file/${id}`, `/api/file/get/${id}`]) {
        expect([actor, url, (await api(t, team.cookie[actor], 'GET', url)).statusCode]).toEqual([actor, url, expected[actor]]);
      }
    }
  });
});

describe('one-step page upload: POST /api/file/page', () => {
  test('pageId, id, then the file: answers status success with the file id as data', async () => {
    const id = newId();
    const res = await postForm(
      '/api/file/page',
      await multipart({ pageId: team.pageId, id }, { name: 'scan.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.7 body') }),
      team.cookie.participant,
    );
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toEqual({ status: 'success', data: id });
    const got = await api(t, team.cookie.reader, 'GET', `/api/file/protected/${team.pageId}/${id}`);
    expect([got.statusCode, got.body, got.headers['content-type']]).toEqual([200, '%PDF-1.7 body', 'application/pdf']);
    const details = body<WireFile>(await api(t, team.cookie.reader, 'GET', `/api/file/get/${id}`)).data;
    expect(details).toMatchObject({ name: 'scan.pdf', size: 13, pageId: team.pageId, isPublic: false });

    const taken = await postForm(
      '/api/file/page',
      await multipart({ pageId: team.pageId, id }, { name: 'b.txt', type: 'text/plain', content: Buffer.from('b') }),
      team.cookie.participant,
    );
    expect([taken.statusCode, errorCode(taken)]).toEqual([409, 'file.already_exists']);
    expect((await api(t, team.cookie.reader, 'GET', `/api/file/${id}`)).body).toBe('%PDF-1.7 body');
  });

  test('without an id the server makes one; an odd MIME type is stored as octet-stream', async () => {
    const res = await postForm(
      '/api/file/page',
      await multipart({ pageId: team.pageId }, { name: 'x', type: 'weird type', content: Buffer.from('?') }),
      team.cookie.admin,
    );
    expect(res.statusCode).toBe(200);
    const id = (body(res).data as { data: string }).data;
    expect((await api(t, team.cookie.admin, 'GET', `/api/file/${id}`)).headers['content-type']).toBe('application/octet-stream');
  });

  test('bad forms: fields after the file, no page, no file, a bad id, JSON → 4xx, nothing stored', async () => {
    const before = storedFiles();
    const rows = await countFiles();
    const file = { name: 'a.txt', type: 'text/plain', content: Buffer.from('a') };
    const cases: [Awaited<ReturnType<typeof multipart>>, number, string][] = [
      [await multipart({ pageId: team.pageId }, file, true), 422, 'validation_failed'],
      [await multipart({}, file), 422, 'validation_failed'],
      [await multipart({ pageId: team.pageId }), 422, 'validation_failed'],
      [await multipart({ pageId: team.pageId, id: 'not-a-uuid' }, file), 422, 'validation_failed'],
      [await multipart({ pageId: newId() }, file), 404, 'not_found'],
    ];
    for (const [form, status, code] of cases) {
      const res = await postForm('/api/file/page', form, team.cookie.admin);
      expect([res.statusCode, errorCode(res)]).toEqual([status, code]);
    }
    const json = await api(t, team.cookie.admin, 'POST', '/api/file/page', { pageId: team.pageId });
    expect([json.statusCode, errorCode(json)]).toEqual([415, 'unsupported_media_type']);
    expect(storedFiles()).toEqual(before);
    expect(await countFiles()).toBe(rows);
  });

  test('over the upload limit → 413, nothing kept', async () => {
    const before = storedFiles();
    const res = await postForm(
      '/api/file/page',
      await multipart({ pageId: team.pageId }, { name: 'big', type: 'application/octet-stream', content: Buffer.alloc(LIMIT + 1, 3) }),
      team.cookie.admin,
    );
    expect([res.statusCode, errorCode(res)]).toEqual([413, 'payload_too_large']);
    expect(storedFiles()).toEqual(before);
  });
});

describe('permission matrix', () => {
  // Adding a file to a page is editing it: admin (full) and participant (edit) may.
  const mayUpload: Record<Actor, number> = { admin: 201, participant: 201, reader: 403, guest: 403, outsider: 403, anonymous: 401 };
  const mayRead: Record<Actor, number> = { admin: 200, participant: 200, reader: 200, guest: 403, outsider: 403, anonymous: 401 };

  test.each(ACTORS.map((a) => [a]))('%s: upload_url for the team page', async (actor) => {
    const rows = await countFiles();
    const res = await askUploadUrl(team.cookie[actor], { pageId: team.pageId, name: 'a.txt', mimeType: 'text/plain', size: 1 });
    expect(res.statusCode).toBe(mayUpload[actor]);
    expect(await countFiles()).toBe(rows + (res.statusCode === 201 ? 1 : 0));
  });

  test.each(ACTORS.map((a) => [a]))('%s: one-step page upload', async (actor) => {
    const rows = await countFiles();
    const before = storedFiles();
    const res = await postForm(
      '/api/file/page',
      await multipart({ pageId: team.pageId }, { name: 'a.txt', type: 'text/plain', content: Buffer.from('a') }),
      team.cookie[actor],
    );
    expect(res.statusCode).toBe(mayUpload[actor] === 201 ? 200 : mayUpload[actor]);
    if (res.statusCode !== 200) {
      expect(await countFiles()).toBe(rows);
      expect(storedFiles()).toEqual(before);
    }
  });

  test.each(ACTORS.map((a) => [a]))('%s: reading a team page file by every link', async (actor) => {
    const id = await pageFile('secret plans');
    for (const url of [`/api/file/${id}`, `/api/file/protected/${team.pageId}/${id}`, `/api/file/get/${id}`]) {
      const res = await api(t, team.cookie[actor], 'GET', url);
      expect([url, res.statusCode]).toEqual([url, mayRead[actor]]);
      if (res.statusCode !== 200) expect(res.body).not.toContain('secret plans');
    }
  });

  test('a page the caller cannot open: its files are 403 even with the right page in the link', async () => {
    const id = await pageFile('admins only', 'a.txt', 'text/plain', team.otherPageId);
    for (const actor of ['participant', 'reader', 'guest', 'outsider'] as const) {
      expect((await api(t, team.cookie[actor], 'GET', `/api/file/protected/${team.otherPageId}/${id}`)).statusCode).toBe(403);
      expect((await api(t, team.cookie[actor], 'GET', `/api/file/${id}`)).statusCode).toBe(403);
    }
    expect((await api(t, team.cookie.admin, 'GET', `/api/file/${id}`)).body).toBe('admins only');
  });

  test('upload_url for a page that does not exist is 404, nothing created', async () => {
    const rows = await countFiles();
    const res = await askUploadUrl(team.cookie.admin, { pageId: newId(), name: 'a.txt', mimeType: 'text/plain', size: 1 });
    expect([res.statusCode, errorCode(res)]).toEqual([404, 'not_found']);
    expect(await countFiles()).toBe(rows);
  });
});

describe('over a real socket', () => {
  let base: string;
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  async function fetchUpload(size: number, declared: number): Promise<{ id: string; response: Response }> {
    const asked = body<UploadUrlAnswer>(
      await askUploadUrl(team.cookie.admin, { pageId: team.pageId, name: 'r.bin', mimeType: 'application/octet-stream', size: declared }),
    ).data;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(size).fill(5)], { type: 'application/octet-stream' }), 'r.bin');
    return { id: asked.id, response: await fetch(`${base}${asked.uploadUrl}`, { method: 'POST', body: form }) };
  }

  test('a browser-style FormData upload answers 204 and the bytes are served back', async () => {
    const { id, response } = await fetchUpload(2 * 1024 * 1024, 2 * 1024 * 1024);
    expect(response.status).toBe(204);
    const got = await fetch(`${base}/api/file/${id}`, { headers: { cookie: team.cookie.admin as string } });
    expect(got.status).toBe(200);
    expect((await got.arrayBuffer()).byteLength).toBe(2 * 1024 * 1024);
  });

  test('too large over the wire: 413 with the error envelope', async () => {
    const before = storedFiles();
    const { response } = await fetchUpload(LIMIT + 1024, LIMIT);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: { code: string }[] }).errors[0].code).toBe('payload_too_large');
    expect(storedFiles()).toEqual(before);
  });
});

test('a one-step upload with a second file is refused whole: no file is kept', async () => {
  const before = storedFiles();
  const rows = await countFiles();
  const form = new FormData();
  form.append('pageId', team.pageId);
  form.append('file', new Blob(['one']), 'one.txt');
  form.append('file', new Blob(['two']), 'two.txt');
  const request = new Request('http://test.invalid/', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/file/page',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string, cookie: team.cookie.admin as string },
  });
  expect([res.statusCode, errorCode(res)]).toEqual([413, 'payload_too_large']);
  expect(storedFiles()).toEqual(before);
  expect(await countFiles()).toBe(rows);
});

describe('a page in the trash takes no files', () => {
  test('upload_url, the one-step upload and a URL handed out before the trash answer 409 page.in_trash; nothing is stored; files stay readable', async () => {
    const page = await insertPage(t, team.workspaceId, team.userId.admin, 'all', 'Going to the trash');
    const kept = await pageFile('kept', 'kept.txt', 'text/plain', page);
    const early = body<UploadUrlAnswer>(await askUploadUrl(team.cookie.participant, { pageId: page, name: 'late.txt', mimeType: 'text/plain', size: 4 })).data;
    expect((await api(t, team.cookie.admin, 'DELETE', `/api/v3/spaces/element/${page}`)).statusCode).toBe(200);
    const rows = await countFiles();
    const before = storedFiles();

    const asked = await askUploadUrl(team.cookie.participant, { pageId: page, name: 'a.txt', mimeType: 'text/plain', size: 2 });
    expect([asked.statusCode, errorCode(asked)]).toEqual([409, 'page.in_trash']);
    const oneStep = await postForm(
      '/api/file/page',
      await multipart({ pageId: page }, { name: 'b.txt', type: 'text/plain', content: Buffer.from('b') }),
      team.cookie.participant,
    );
    expect([oneStep.statusCode, errorCode(oneStep)]).toEqual([409, 'page.in_trash']);
    const late = await postForm(early.uploadUrl, await multipart({}, { name: 'late.txt', type: 'text/plain', content: Buffer.from('late') }));
    expect([late.statusCode, errorCode(late)]).toEqual([409, 'page.in_trash']);
    // The early URL's pending row is gone with its refused upload; nothing else was added.
    expect(await countFiles()).toBe(rows - 1);
    expect(await t.app.db.selectFrom('files').select('id').where('id', '=', early.id).execute()).toEqual([]);
    expect(storedFiles()).toEqual(before);
    // Without edit access the answer is 403, as for a live page.
    const reader = await askUploadUrl(team.cookie.reader, { pageId: page, name: 'a.txt', mimeType: 'text/plain', size: 2 });
    expect([reader.statusCode, errorCode(reader)]).toEqual([403, 'forbidden']);

    const read = await api(t, team.cookie.admin, 'GET', `/api/file/${kept}`);
    expect([read.statusCode, read.body]).toEqual([200, 'kept']);
  });
});
