import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { LightMyRequestResponse } from 'fastify';
import type { WireExportJob } from '../../schema/exportJob';
import type { UploadUrlAnswer } from '../../schema/file';
import { newId } from '../../schema/ids';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server';
import { createTeam, insertPage, type Team } from '../../test/helpers/team';
import { api, createTestApp, errorCode, expectOk, formData, type TestApp } from '../../test/helpers/testApp';
import type { JsonExport } from '../export/pageExport';
import { S3Store } from '../files/s3Store';
import type { FileStore } from '../files/store';
import { FILE_STATUS, storageKeyFor, sweepAbandonedUploads } from '../repositories/files';

/*
 * Files in either store (issue 19, docs/api/files.md, docs/deploy.md): the local directory
 * (FILES_DIR, the default) and an S3 bucket (FILES_S3_*, here a real S3-protocol server on a
 * loopback socket), through the real API on SQLite and PostgreSQL: upload → whole and ranged
 * downloads (HTTP Range, HEAD, If-Range) → removal; ranged reads authorized as whole ones;
 * export zips and imports through the store.
 */

jest.setTimeout(60_000);

type Kind = 'disk' | 's3';
const S = '/api/v3/spaces';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let s3: S3Server;
/** The bucket seen by a client of its own (not the app's). */
let bucket: S3Store;
const apps = {} as Record<Kind, TestApp>;
const teams = {} as Record<Kind, Team>;

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = new S3Store(s3.config);
  apps.disk = await createTestApp();
  apps.s3 = await createTestApp({ s3: s3.config });
  teams.disk = await createTeam(apps.disk);
  teams.s3 = await createTeam(apps.s3);
});

afterAll(async () => {
  await Promise.all(Object.values(apps).map((t) => t.close()));
  await bucket.close();
  await s3.stop();
});

/** Files on the local disk under FILES_DIR. */
function filesOnDisk(t: TestApp): string[] {
  if (!fs.existsSync(t.config.filesDir)) return [];
  return (fs.readdirSync(t.config.filesDir, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(t.config.filesDir, p)).isFile());
}

describe.each(['disk', 's3'] as const)('files in the %s store', (kind) => {
  let t: TestApp;
  let team: Team;
  beforeAll(() => {
    t = apps[kind];
    team = teams[kind];
  });

  /** Where the bytes of a key are, looked at from outside the app: the bucket, or FILES_DIR. */
  const stored = async (key: string): Promise<number | null> => {
    if (kind === 's3') return (await bucket.stat(key))?.size ?? null;
    const file = path.join(t.config.filesDir, ...key.split('/'));
    return fs.existsSync(file) ? fs.statSync(file).size : null;
  };
  const keyOf = async (id: string) => (await t.app.db.selectFrom('files').select('storage_key').where('id', '=', id).executeTakeFirstOrThrow()).storage_key;
  const store = (): FileStore => t.app.fileStore;

  /** upload_url, then the multipart upload; answers the id and the upload's answer. */
  async function upload(
    content: Buffer,
    options: { pageId?: string; name?: string; type?: string; declared?: number; public?: boolean } = {},
  ): Promise<{ id: string; res: LightMyRequestResponse }> {
    const { name = 'clip.mp4', type = 'video/mp4' } = options;
    const asked = await api(t, team.cookie.admin, 'POST', '/api/file/upload_url', {
      name,
      mimeType: type,
      size: options.declared ?? content.length,
      ...(options.public ? { public: true } : { pageId: options.pageId ?? team.pageId }),
    });
    const answer = expectOk<UploadUrlAnswer>(asked, 201);
    const form = await formData(answer.fields, { name, type, content });
    return { id: answer.id, res: await t.app.inject({ method: 'POST', url: answer.uploadUrl, ...form }) };
  }

  const get = (url: string, headers: Record<string, string> = {}, cookie = team.cookie.reader) => api(t, cookie, 'GET', url, undefined, headers);

  test('upload → the whole file and any range of it (Range, HEAD, If-Range, If-None-Match); the bytes live in the store', async () => {
    const content = crypto.randomBytes(200_000);
    const { id, res } = await upload(content);
    expect(res.statusCode).toBe(204);
    const url = `/api/file/${id}`;
    const size = content.length;

    const whole = await get(url);
    expect([whole.statusCode, whole.headers['accept-ranges'], whole.headers['content-length'], whole.headers['content-type']]).toEqual([
      200,
      'bytes',
      String(size),
      'video/mp4',
    ]);
    expect(whole.rawPayload.equals(content)).toBe(true);
    const etag = whole.headers.etag as string;

    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-', 1000, size - 1],
      ['bytes=-500', size - 500, size - 1],
      ['bytes=199990-250000', 199_990, size - 1],
      ['bytes=77-77', 77, 77],
    ];
    for (const [range, start, end] of cases) {
      const part = await get(url, { range });
      expect([range, part.statusCode, part.headers['content-range'], part.headers['content-length'], part.headers['accept-ranges']]).toEqual([
        range,
        206,
        `bytes ${start}-${end}/${size}`,
        String(end - start + 1),
        'bytes',
      ]);
      expect(part.rawPayload.equals(content.subarray(start, end + 1))).toBe(true);
      // The file's own headers stay: its type, how it is shown, that it is private.
      expect([part.headers['content-type'], part.headers['cache-control'], part.headers['x-content-type-options']]).toEqual([
        'video/mp4',
        'private, no-cache',
        'nosniff',
      ]);
    }
    // The protected link answers ranges too.
    const linked = await get(`/api/file/protected/${team.pageId}/${id}`, { range: 'bytes=10-19' });
    expect([linked.statusCode, linked.rawPayload.equals(content.subarray(10, 20))]).toEqual([206, true]);

    // Past the end: 416 with the size; several ranges or a malformed one: the whole file.
    const beyond = await get(url, { range: `bytes=${size}-` });
    expect([beyond.statusCode, errorCode(beyond), beyond.headers['content-range']]).toEqual([416, 'range_not_satisfiable', `bytes */${size}`]);
    for (const range of ['bytes=0-1,5-9', 'bytes=9-2', 'pages=1-2']) {
      const all = await get(url, { range });
      expect([range, all.statusCode, all.headers['content-range'], all.rawPayload.equals(content)]).toEqual([range, 200, undefined, true]);
    }

    // HEAD: the headers without the bytes.
    const head = await api(t, team.cookie.reader, 'HEAD', url);
    expect([head.statusCode, head.headers['content-length'], head.headers['accept-ranges'], head.headers['content-type'], head.body]).toEqual([
      200,
      String(size),
      'bytes',
      'video/mp4',
      '',
    ]);
    const headPart = await api(t, team.cookie.reader, 'HEAD', url, undefined, { range: 'bytes=0-9' });
    expect([headPart.statusCode, headPart.headers['content-length'], headPart.headers['content-range'], headPart.body]).toEqual([
      206,
      '10',
      `bytes 0-9/${size}`,
      '',
    ]);

    // If-Range: the range only of this very version; If-None-Match: 304.
    expect((await get(url, { range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    const changed = await get(url, { range: 'bytes=0-9', 'if-range': '"another"' });
    expect([changed.statusCode, changed.rawPayload.equals(content)]).toEqual([200, true]);
    expect((await get(url, { range: 'bytes=0-9', 'if-range': 'Wed, 21 Oct 2015 07:28:00 GMT' })).statusCode).toBe(200);
    expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(304);

    // Where the bytes are: the bucket alone, or FILES_DIR.
    expect(await stored(await keyOf(id))).toBe(size);
    if (kind === 's3') expect(filesOnDisk(t)).toEqual([]);
  });

  test('a ranged read is authorized exactly as a whole one: no session 401, no access 403 — no bytes, no Content-Range', async () => {
    const content = crypto.randomBytes(5000);
    const { id } = await upload(content);
    for (const url of [`/api/file/${id}`, `/api/file/protected/${team.pageId}/${id}`]) {
      for (const [cookie, status, code] of [
        [team.cookie.anonymous, 401, 'unauthorized'],
        [team.cookie.outsider, 403, 'forbidden'],
        [team.cookie.guest, 403, 'forbidden'],
      ] as const) {
        for (const method of ['GET', 'HEAD'] as const) {
          const denied = await api(t, cookie, method, url, undefined, { range: 'bytes=0-99' });
          expect([url, method, denied.statusCode, denied.headers['content-range'], denied.headers['accept-ranges']]).toEqual([
            url,
            method,
            status,
            undefined,
            undefined,
          ]);
          if (method === 'GET') expect(errorCode(denied)).toBe(code);
          expect(denied.rawPayload.includes(content.subarray(0, 32))).toBe(false);
        }
      }
      // A range past the end tells nobody without access the file's size.
      const probe = await api(t, team.cookie.outsider, 'GET', url, undefined, { range: 'bytes=999999-' });
      expect([probe.statusCode, probe.headers['content-range']]).toEqual([403, undefined]);
      expect((await api(t, team.cookie.reader, 'GET', url, undefined, { range: 'bytes=0-99' })).statusCode).toBe(206);
    }
  });

  test('a one-step upload of several S3 parts (6 MiB) streams into the store and reads back across the part boundary', async () => {
    const content = crypto.randomBytes(6 * 1024 * 1024);
    const form = await formData({ pageId: team.pageId }, { name: 'movie.webm', type: 'video/webm', content });
    const res = await t.app.inject({ method: 'POST', url: '/api/file/page', ...form, headers: { ...form.headers, cookie: team.cookie.admin as string } });
    const id = expectOk<{ data: string }>(res).data;
    const boundary = 5 * 1024 * 1024;
    const part = await get(`/api/file/${id}`, { range: `bytes=${boundary - 100}-${boundary + 99}` });
    expect([part.statusCode, part.rawPayload.equals(content.subarray(boundary - 100, boundary + 100))]).toEqual([206, true]);
    expect(await stored(await keyOf(id))).toBe(content.length);
    const row = await t.app.db.selectFrom('files').select(['size', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ size: content.length, status: 'ready' });
  });

  test('an upload past its declared size (413) or an avatar that is no image (422) leaves nothing in the store', async () => {
    const over = await upload(crypto.randomBytes(2000), { declared: 1000 });
    expect([over.res.statusCode, errorCode(over.res)]).toEqual([413, 'payload_too_large']);
    expect(await stored(storageKeyFor(over.id))).toBeNull();
    const fake = await upload(Buffer.from('<svg onload=alert(1)>'), { public: true, name: 'me.png', type: 'image/png' });
    expect([fake.res.statusCode, errorCode(fake.res)]).toEqual([422, 'file.not_an_image']);
    expect(await stored(storageKeyFor(fake.id))).toBeNull();
    const avatar = await upload(PNG, { public: true, name: 'me.png', type: 'image/png' });
    expect(avatar.res.statusCode).toBe(204);
    const anyone = await api(t, undefined, 'GET', `/api/file/${avatar.id}`, undefined, { range: 'bytes=0-7' });
    expect([anyone.statusCode, anyone.rawPayload.equals(PNG.subarray(0, 8))]).toEqual([206, true]);
    if (kind === 's3') expect(filesOnDisk(t)).toEqual([]);
  });

  test('bytes missing from the store: 404 (whole, ranged, HEAD), never a 500', async () => {
    const { id } = await upload(crypto.randomBytes(100));
    await store().delete(await keyOf(id));
    for (const [method, headers] of [
      ['GET', {}],
      ['GET', { range: 'bytes=0-9' }],
      ['HEAD', {}],
    ] as const) {
      expect((await api(t, team.cookie.reader, method, `/api/file/${id}`, undefined, headers)).statusCode).toBe(404);
    }
  });

  test('deleting the page for good (and the workspace) removes the bytes from the store', async () => {
    const page = await insertPage(t, team.workspaceId, team.userId.admin, 'all', 'Temporary');
    const { id } = await upload(crypto.randomBytes(3000), { pageId: page });
    const key = await keyOf(id);
    expect(await stored(key)).toBe(3000);
    expect((await api(t, team.cookie.admin, 'DELETE', `${S}/element/${page}`)).statusCode).toBe(200);
    expect((await api(t, team.cookie.admin, 'POST', `${S}/trash/${page}/remove`)).statusCode).toBe(200);
    expect(await stored(key)).toBeNull();
    expect((await get(`/api/file/${id}`, { range: 'bytes=0-9' }, team.cookie.admin)).statusCode).toBe(404);

    const workspace = expectOk<{ id: string }>(await api(t, team.cookie.admin, 'POST', `${S}/workspace`, { name: 'Short-lived' }), 201);
    const inside = await insertPage(t, workspace.id, team.userId.admin, 'all', 'Inside');
    const second = await upload(crypto.randomBytes(10), { pageId: inside });
    const secondKey = await keyOf(second.id);
    expect(await stored(secondKey)).toBe(10);
    expect((await api(t, team.cookie.admin, 'DELETE', `${S}/workspace/${workspace.id}`)).statusCode).toBe(200);
    expect(await stored(secondKey)).toBeNull();
  });

  test('abandoned uploads are swept from the store', async () => {
    const id = newId();
    const key = storageKeyFor(id);
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
        storage_key: key,
        is_public: 0,
        status: FILE_STATUS.uploading,
        upload_token_hash: null,
        upload_expires_at: null,
        created_at: new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString(),
      })
      .execute();
    await store().put(key, new Uint8Array(10));
    expect(await stored(key)).toBe(10);
    expect(await sweepAbandonedUploads(t.app.db, store())).toBeGreaterThanOrEqual(1);
    expect(await stored(key)).toBeNull();
  });

  test('an export job writes its zip into the store (any process can send it), downloaded whole or resumed with a Range; an import writes its files there', async () => {
    const page = await insertPage(t, team.workspaceId, team.userId.admin, 'all', 'Отчёт');
    const picture = crypto.randomBytes(4000);
    const { id: fileId } = await upload(picture, { pageId: page, name: 'кадр.png', type: 'image/png' });
    expect(
      (
        await api(t, team.cookie.admin, 'POST', `${S}/block`, {
          pageId: page,
          type: 'file',
          data: { remoteData: { fileId, title: 'кадр.png', size: picture.length, mimeType: 'image/png' } },
          placeAfter: null,
        })
      ).statusCode,
    ).toBe(201);

    const job = expectOk<WireExportJob>(await api(t, team.cookie.admin, 'POST', `${S}/exports`, { pageId: page, format: 'json', subpages: true }), 202);
    let done: WireExportJob = job;
    for (let i = 0; i < 200 && done.status !== 'done' && done.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = expectOk<WireExportJob>(await api(t, team.cookie.admin, 'GET', `${S}/exports/${job.id}`));
    }
    expect(done.status).toBe('done');
    expect(await stored(`exports/${job.id}.zip`)).toBe(done.size);
    const zip = await api(t, team.cookie.admin, 'GET', done.downloadUrl!);
    expect([zip.statusCode, zip.headers['accept-ranges'], Number(zip.headers['content-length'])]).toEqual([200, 'bytes', done.size]);
    const tail = await api(t, team.cookie.admin, 'GET', done.downloadUrl!, undefined, { range: 'bytes=100-' });
    expect([tail.statusCode, tail.headers['content-range'], tail.rawPayload.equals(zip.rawPayload.subarray(100))]).toEqual([
      206,
      `bytes 100-${done.size! - 1}/${done.size}`,
      true,
    ]);
    // Someone else's export is not theirs to read, ranged or not.
    expect((await api(t, team.cookie.participant, 'GET', done.downloadUrl!, undefined, { range: 'bytes=0-9' })).statusCode).toBe(404);
    const exported = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.rawPayload))['export.json'])) as JsonExport;
    expect(exported.files.map((f) => f.name)).toEqual(['кадр.png']);

    const form = await formData({ parentId: team.pageId }, { name: 'export.zip', type: 'application/zip', content: zip.rawPayload });
    const imported = await t.app.inject({ method: 'POST', url: `${S}/import`, ...form, headers: { ...form.headers, cookie: team.cookie.admin as string } });
    expect(expectOk<{ files: number }>(imported, 201).files).toBe(1);
    const copy = await t.app.db
      .selectFrom('files')
      .selectAll()
      .where('workspace_id', '=', team.workspaceId)
      .where('name', '=', 'кадр.png')
      .where('id', '!=', fileId)
      .executeTakeFirstOrThrow();
    expect(await stored(copy.storage_key)).toBe(picture.length);
    const read = await get(`/api/file/${copy.id}`, { range: 'bytes=0-15' });
    expect([read.statusCode, read.rawPayload.equals(picture.subarray(0, 16))]).toEqual([206, true]);
  });
});

test('with S3 configured the app keeps nothing on its own disk', () => {
  expect(filesOnDisk(apps.s3)).toEqual([]);
  expect(apps.s3.app.fileStore.where).toBe(`s3://${s3.bucket}/`);
});
