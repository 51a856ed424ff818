import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WireExportJob } from '../../schema/exportJob';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server';
import { fetchJson, signInToProcess, startServerProcess, type ServerProcess } from '../../test/helpers/serverProcess';
import { createMigratedPostgresDatabase, testDb } from '../../test/helpers/testApp';
import { S3Store } from './s3Store';

/**
 * Several processes, one bucket (docs/deploy.md «Several processes»): two real server processes
 * on one PostgreSQL database, both with FILES_S3_* naming one bucket of a real S3-protocol server.
 * A file uploaded through process A is read (whole, ranged, HEAD) through process B; an export
 * started through A downloads through B whichever process wrote it; a page removed through B takes
 * its file with it for A too. Each process's own disk holds no file.
 *
 * SQLite deployments are one process: this suite runs on the postgres project only.
 */

const onPostgres = testDb() === 'postgres' ? describe : describe.skip;

jest.setTimeout(90_000);

onPostgres('two server processes sharing an S3 bucket', () => {
  let s3: S3Server;
  let database: Awaited<ReturnType<typeof createMigratedPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let cookie: string;

  beforeAll(async () => {
    s3 = await startS3Server('shared-files');
    database = await createMigratedPostgresDatabase();
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'info', ...s3.env };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    cookie = await signInToProcess(a, 'ann@example.com');
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    await s3?.stop();
  });

  const filesOnDisk = (server: ServerProcess) => {
    const dir = path.join(server.dataDir, 'files');
    return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(dir, p)).isFile()) : [];
  };

  test('uploaded through A, read through B (whole, a range, HEAD); removed through B, gone for A', async () => {
    const page = (
      await fetchJson<{ data: { id: string } }>(`${a.url}/api/v3/spaces/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Видео' }) })
    ).data.id;
    // Several S3 parts: the multipart upload streams through A.
    const content = crypto.randomBytes(7 * 1024 * 1024);
    const form = new FormData();
    form.append('pageId', page);
    form.append('file', new Blob([new Uint8Array(content)], { type: 'video/mp4' }), 'talk.mp4');
    const id = (await fetchJson<{ data: { data: string } }>(`${a.url}/api/file/page`, { method: 'POST', cookie, body: form })).data.data;

    const whole = await fetch(`${b.url}/api/file/${id}`, { headers: { cookie } });
    expect([whole.status, whole.headers.get('content-length'), whole.headers.get('accept-ranges')]).toEqual([200, String(content.length), 'bytes']);
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true);
    const seek = await fetch(`${b.url}/api/file/protected/${page}/${id}`, { headers: { cookie, range: 'bytes=5242000-5243000' } });
    expect([seek.status, seek.headers.get('content-range')]).toEqual([206, `bytes 5242000-5243000/${content.length}`]);
    expect(Buffer.from(await seek.arrayBuffer()).equals(content.subarray(5_242_000, 5_243_001))).toBe(true);
    const head = await fetch(`${b.url}/api/file/${id}`, { method: 'HEAD', headers: { cookie } });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(content.length)]);
    // B authorizes as A does: no session, no bytes.
    expect((await fetch(`${b.url}/api/file/${id}`, { headers: { range: 'bytes=0-9' } })).status).toBe(401);
    expect([filesOnDisk(a), filesOnDisk(b)]).toEqual([[], []]);

    const bucket = new S3Store(s3.config);
    try {
      const key = `${id.slice(0, 2)}/${id}`;
      expect(await bucket.stat(key)).toEqual({ size: content.length });
      await fetchJson(`${b.url}/api/v3/spaces/element/${page}`, { method: 'DELETE', cookie });
      await fetchJson(`${b.url}/api/v3/spaces/trash/${page}/remove`, { method: 'POST', cookie, body: '{}' });
      expect(await bucket.stat(key)).toBeNull();
      expect((await fetch(`${a.url}/api/file/${id}`, { headers: { cookie } })).status).toBe(404);
    } finally {
      await bucket.close();
    }
  });

  test('an export started through A downloads through B (and the other way round), whichever process wrote the zip', async () => {
    const page = (
      await fetchJson<{ data: { id: string } }>(`${a.url}/api/v3/spaces/section/private`, { method: 'POST', cookie, body: JSON.stringify({ title: 'Отчёт' }) })
    ).data.id;
    for (const [starter, reader] of [
      [a, b],
      [b, a],
    ]) {
      const job = (
        await fetchJson<{ data: WireExportJob }>(`${starter.url}/api/v3/spaces/exports`, {
          method: 'POST',
          cookie,
          body: JSON.stringify({ pageId: page, format: 'markdown' }),
        })
      ).data;
      let done = job;
      for (let i = 0; i < 300 && done.status !== 'done' && done.status !== 'failed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        done = (await fetchJson<{ data: WireExportJob }>(`${reader.url}/api/v3/spaces/exports/${job.id}`, { cookie })).data;
      }
      expect(done.status).toBe('done');
      const zip = await fetch(`${reader.url}${done.downloadUrl}`, { headers: { cookie } });
      expect([zip.status, Number(zip.headers.get('content-length'))]).toEqual([200, done.size]);
      expect(
        Buffer.from(await zip.arrayBuffer())
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
    }
    expect([filesOnDisk(a), filesOnDisk(b)]).toEqual([[], []]);
  });
});
