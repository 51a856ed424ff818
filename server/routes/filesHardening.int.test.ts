import fs from 'node:fs';
import path from 'node:path';
import type { UploadUrlAnswer } from '../../schema/file';
import { newId } from '../../schema/ids';
import { FILE_STATUS, UPLOAD_STALE_MS, storageKeyFor, sweepAbandonedUploads } from '../repositories/files';
import { DiskStore } from '../files/diskStore';
import { createTeam, insertPage, type Team } from '../../test/helpers/team';
import { api, body, createTestApp, errorCode, jsonQueryString, type TestApp } from '../../test/helpers/testApp';

/** Issue 19: public pages show only the files their blocks show; abandoned uploads are swept; a workspace's storage quota. */

const S = '/api/v3/spaces';
const QUOTA = 1000;

let t: TestApp;
let team: Team;

beforeAll(async () => {
  t = await createTestApp({ storageQuotaBytes: QUOTA });
  team = await createTeam(t);
});
afterAll(async () => {
  await t.close();
});

/** A multipart/form-data body as a browser's FormData sends it. */
async function form(fields: Record<string, string>, file: { name: string; type: string; content: Buffer }) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  data.append('file', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);
  const request = new Request('http://test.invalid/', { method: 'POST', body: data });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

const askUploadUrl = (pageId: string, size: number) =>
  api(t, team.cookie.admin, 'POST', '/api/file/upload_url', { pageId, name: 'a.txt', mimeType: 'text/plain', size });

/** A page file of `content`, uploaded in two steps by the admin. */
async function pageFile(pageId: string, content: string): Promise<string> {
  const asked = await askUploadUrl(pageId, Buffer.byteLength(content));
  expect(asked.statusCode).toBe(201);
  const answer = body<UploadUrlAnswer>(asked).data;
  const sent = await form(answer.fields, { name: 'a.txt', type: 'text/plain', content: Buffer.from(content) });
  const res = await t.app.inject({ method: 'POST', url: answer.uploadUrl, ...sent });
  expect(res.statusCode).toBe(204);
  return answer.id;
}

const fileBlock = (pageId: string, fileId: string) =>
  api(t, team.cookie.admin, 'POST', `${S}/block`, {
    pageId,
    type: 'file',
    data: { remoteData: { fileId, title: 'a.txt', size: 1, mimeType: 'text/plain' } },
    placeAfter: null,
  });

function storedFiles(): string[] {
  if (!fs.existsSync(t.config.filesDir)) return [];
  return (fs.readdirSync(t.config.filesDir, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(t.config.filesDir, p)).isFile());
}
const fileIds = async (workspaceId = team.workspaceId) =>
  (await t.app.db.selectFrom('files').select('id').where('workspace_id', '=', workspaceId).execute()).map((r) => r.id).sort();
const pageCount = async () =>
  Number(
    (
      await t.app.db
        .selectFrom('pages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', team.workspaceId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Clears the team's files, so each quota test starts from an empty store. */
async function emptyStore() {
  await t.app.db.deleteFrom('files').where('workspace_id', '=', team.workspaceId).execute();
}

describe('the files of a public page', () => {
  test('anyone reads the files its blocks and cover show; a comment’s file (or a deleted block’s) is 404 to those without access', async () => {
    await emptyStore();
    const page = await insertPage(t, team.workspaceId, team.userId.admin, 'all', 'Published');
    const shown = await pageFile(page, 'shown');
    const cover = await pageFile(page, 'cover');
    const commented = await pageFile(page, 'comment');
    const removed = await pageFile(page, 'removed');
    expect((await fileBlock(page, shown)).statusCode).toBe(201);
    const gone = await fileBlock(page, removed);
    expect(gone.statusCode).toBe(201);
    await t.app.db.updateTable('blocks').set({ deleted_at: new Date().toISOString() }).where('id', '=', body<{ id: string }>(gone).data.id).execute();
    expect((await api(t, team.cookie.admin, 'PATCH', `${S}/element/${page}`, { cover: { contentType: 'FileCover', fileId: cover } })).statusCode).toBe(200);
    const comment = await api(t, team.cookie.admin, 'POST', `${S}/element/${page}/comments`, {
      content: [{ text: 'see' }],
      attaches: [{ id: commented, name: 'a', extension: 'txt' }],
    });
    expect(comment.statusCode).toBe(201);
    await t.app.db.updateTable('pages').set({ is_public: 1 }).where('id', '=', page).execute();

    for (const cookie of [undefined, team.cookie.outsider]) {
      for (const [id, text] of [
        [shown, 'shown'],
        [cover, 'cover'],
      ]) {
        for (const url of [`/api/file/${id}`, `/api/file/protected/${page}/${id}`]) {
          const res = await api(t, cookie, 'GET', url);
          expect([url, res.statusCode, res.body]).toEqual([url, 200, text]);
        }
        expect((await api(t, cookie, 'GET', `/api/file/get/${id}`)).statusCode).toBe(200);
      }
      // Comments are not public: their files are as if they did not exist (404, not 401/403).
      for (const id of [commented, removed]) {
        for (const url of [`/api/file/${id}`, `/api/file/protected/${page}/${id}`, `/api/file/get/${id}`]) {
          const res = await api(t, cookie, 'GET', url);
          expect([url, res.statusCode, errorCode(res)]).toEqual([url, 404, 'not_found']);
        }
      }
    }
    // Those who may read the page read every file of it, as before.
    expect((await api(t, team.cookie.admin, 'GET', `/api/file/${commented}`)).body).toBe('comment');
  });
});

describe('abandoned uploads', () => {
  test('the sweep removes expired upload URLs and stale unfinished uploads with their bytes; live ones stay', async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const make = async (status: string, expiresAt: string | null, createdAt: string, bytes: 'file' | 'part' | 'none') => {
      const id = newId();
      await t.app.db
        .insertInto('files')
        .values({
          id,
          owner_id: team.userId.admin,
          page_id: team.pageId,
          workspace_id: team.workspaceId,
          name: 'x.bin',
          mime_type: 'application/octet-stream',
          size: 10,
          storage_key: storageKeyFor(id),
          is_public: 0,
          status,
          upload_token_hash: status === FILE_STATUS.pending ? `hash-${id}` : null,
          upload_expires_at: expiresAt,
          created_at: createdAt,
        })
        .execute();
      const target = new DiskStore(t.config.filesDir).path(storageKeyFor(id));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (bytes === 'file') fs.writeFileSync(target, 'x');
      if (bytes === 'part') fs.writeFileSync(`${target}.a1b2c3.part`, 'partial');
      return id;
    };
    const expired = await make(FILE_STATUS.pending, iso(now - 1000), iso(now - 3_600_000), 'part');
    const live = await make(FILE_STATUS.pending, iso(now + 3_600_000), iso(now), 'none');
    const stale = await make(FILE_STATUS.uploading, iso(now - UPLOAD_STALE_MS - 1000), iso(now - UPLOAD_STALE_MS - 3_600_000), 'part');
    const staleOneStep = await make(FILE_STATUS.uploading, null, iso(now - UPLOAD_STALE_MS - 1000), 'file');
    const arriving = await make(FILE_STATUS.uploading, iso(now - 1000), iso(now - 3_600_000), 'part');
    const ready = await make(FILE_STATUS.ready, null, iso(now - 10 * UPLOAD_STALE_MS), 'file');

    expect(await sweepAbandonedUploads(t.app.db, t.app.fileStore, now)).toBe(3);
    const left = new Set((await t.app.db.selectFrom('files').select('id').execute()).map((r) => r.id));
    expect([expired, stale, staleOneStep].filter((id) => left.has(id))).toEqual([]);
    expect([live, arriving, ready].filter((id) => left.has(id))).toEqual([live, arriving, ready]);
    const onDisk = storedFiles().join('\n');
    for (const id of [expired, stale, staleOneStep]) expect(onDisk).not.toContain(id);
    for (const id of [arriving, ready]) expect(onDisk).toContain(id);
    // Nothing left to do: a second sweep removes nothing.
    expect(await sweepAbandonedUploads(t.app.db, t.app.fileStore, now)).toBe(0);
  });
});

describe('the storage quota (STORAGE_QUOTA_MB)', () => {
  test('upload URLs reserve their declared size; one that would pass the quota is 413 file.quota_exceeded, nothing stored', async () => {
    await emptyStore();
    await pageFile(team.pageId, 'x'.repeat(600));
    const before = await fileIds();
    const over = await askUploadUrl(team.pageId, 401);
    expect([over.statusCode, errorCode(over)]).toEqual([413, 'file.quota_exceeded']);
    expect(await fileIds()).toEqual(before);
    // Exactly full is fine; the pending upload counts, so a second one does not fit.
    expect((await askUploadUrl(team.pageId, 400)).statusCode).toBe(201);
    const raced = await askUploadUrl(team.pageId, 1);
    expect([raced.statusCode, errorCode(raced)]).toEqual([413, 'file.quota_exceeded']);
    // Another workspace's files and avatars (no workspace) are not counted.
    const avatar = await api(t, team.cookie.admin, 'POST', '/api/file/upload_url', { name: 'me.png', mimeType: 'image/png', size: 900, public: true });
    expect(avatar.statusCode).toBe(201);
  });

  test('the one-step page upload: over the quota 413, no row and no bytes; within it stored', async () => {
    await emptyStore();
    await pageFile(team.pageId, 'x'.repeat(900));
    const before = { ids: await fileIds(), disk: storedFiles().length };
    const sent = await form({ pageId: team.pageId }, { name: 'b.txt', type: 'text/plain', content: Buffer.from('y'.repeat(200)) });
    const refused = await t.app.inject({ method: 'POST', url: '/api/file/page', ...sent, headers: { ...sent.headers, cookie: team.cookie.admin } });
    expect([refused.statusCode, errorCode(refused)]).toEqual([413, 'file.quota_exceeded']);
    expect({ ids: await fileIds(), disk: storedFiles().length }).toEqual(before);

    await emptyStore();
    const small = await form({ pageId: team.pageId }, { name: 'b.txt', type: 'text/plain', content: Buffer.from('y'.repeat(200)) });
    const stored = await t.app.inject({ method: 'POST', url: '/api/file/page', ...small, headers: { ...small.headers, cookie: team.cookie.admin } });
    expect(stored.statusCode).toBe(200);
    const row = await t.app.db
      .selectFrom('files')
      .select(['size', 'status'])
      .where('id', '=', body<{ data: string }>(stored).data.data)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ size: 200, status: FILE_STATUS.ready });
  });

  test('an import whose files would pass the quota is 413 file.quota_exceeded: no page, no file made', async () => {
    await emptyStore();
    const page = await insertPage(t, team.workspaceId, team.userId.admin, 'all', 'With a file');
    const fileId = await pageFile(page, 'z'.repeat(600));
    expect((await fileBlock(page, fileId)).statusCode).toBe(201);
    const exported = await api(t, team.cookie.admin, 'GET', `${S}/element/${page}/export?${jsonQueryString({ format: 'json' })}`);
    expect(exported.statusCode).toBe(200);
    const before = { ids: await fileIds(), pages: await pageCount(), disk: storedFiles().length };

    const data = new FormData();
    data.append('section', 'all');
    data.append('file', new Blob([new Uint8Array(exported.rawPayload)], { type: 'application/zip' }), 'export.zip');
    const request = new Request('http://test.invalid/', { method: 'POST', body: data });
    const payload = Buffer.from(await request.arrayBuffer());
    const headers = { 'content-type': request.headers.get('content-type') ?? '', cookie: team.cookie.admin ?? '', 'x-workspace-id': team.workspaceId };
    const refused = await t.app.inject({ method: 'POST', url: `${S}/import`, payload, headers });
    expect([refused.statusCode, errorCode(refused)]).toEqual([413, 'file.quota_exceeded']);
    expect({ ids: await fileIds(), pages: await pageCount(), disk: storedFiles().length }).toEqual(before);

    // With room for it, the same import goes through.
    await t.app.db.deleteFrom('files').where('id', '=', fileId).execute();
    const done = await t.app.inject({ method: 'POST', url: `${S}/import`, payload, headers });
    expect(done.statusCode).toBe(201);
    expect(body<{ files: number }>(done).data.files).toBe(1);
  });
});
