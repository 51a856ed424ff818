import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server';
import { DiskStore } from './diskStore';
import { S3Store } from './s3Store';
import type { FileStore } from './store';

/**
 * The file store's contract (server/files/store.ts), run against both stores: a directory, and an
 * S3 bucket on a real S3-protocol server (s3rver) over a loopback socket.
 */

jest.setTimeout(60_000);

let s3: S3Server;
let dir: string;
const stores: Record<'disk' | 's3', FileStore> = {} as never;

beforeAll(async () => {
  s3 = await startS3Server();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-store-'));
  stores.disk = new DiskStore(dir);
  stores.s3 = new S3Store(s3.config);
});

afterAll(async () => {
  await Promise.all(Object.values(stores).map((store) => store.close()));
  await s3.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bytes = (n: number) => crypto.randomBytes(n);
const key = () => `${crypto.randomBytes(1).toString('hex')}/${crypto.randomUUID()}`;
/** A stream of `data` in chunks of `size`, as an upload arrives. */
const chunked = (data: Buffer, size = 64 * 1024) =>
  Readable.from(Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size)));
const read = async (store: FileStore, k: string, range?: { start: number; end: number }) => {
  const stream = await store.get(k, range);
  return stream ? buffer(stream) : null;
};

describe.each(['disk', 's3'] as const)('the %s store', (kind) => {
  const store = () => stores[kind];

  test('put streams bytes in and answers their count; get gives them back, whole or a range; stat knows the size', async () => {
    const data = bytes(300_000);
    const k = key();
    expect(await store().put(k, chunked(data), 'application/octet-stream')).toBe(data.length);
    expect((await read(store(), k))!.equals(data)).toBe(true);
    expect(await store().stat(k)).toEqual({ size: data.length });
    expect((await read(store(), k, { start: 0, end: 9 }))!.equals(data.subarray(0, 10))).toBe(true);
    expect((await read(store(), k, { start: 150_000, end: 150_000 }))!.equals(data.subarray(150_000, 150_001))).toBe(true);
    expect((await read(store(), k, { start: data.length - 100, end: data.length - 1 }))!.equals(data.subarray(-100))).toBe(true);
  });

  test('bytes held in memory (an import) are put as they are; an empty file is a file', async () => {
    const data = bytes(1000);
    const k = key();
    expect(await store().put(k, new Uint8Array(data))).toBe(1000);
    expect((await read(store(), k))!.equals(data)).toBe(true);
    const empty = key();
    expect(await store().put(empty, Readable.from([]))).toBe(0);
    expect(await store().stat(empty)).toEqual({ size: 0 });
    expect((await read(store(), empty))!.length).toBe(0);
  });

  test('a file of several S3 parts (11 MiB) streams in and reads back across the part boundaries', async () => {
    const data = bytes(11 * 1024 * 1024);
    const k = key();
    expect(await store().put(k, chunked(data, 1024 * 1024))).toBe(data.length);
    expect(await store().stat(k)).toEqual({ size: data.length });
    const boundary = 5 * 1024 * 1024;
    expect((await read(store(), k, { start: boundary - 10, end: boundary + 9 }))!.equals(data.subarray(boundary - 10, boundary + 10))).toBe(true);
    expect(
      crypto
        .createHash('sha256')
        .update((await read(store(), k))!)
        .digest('hex'),
    ).toBe(crypto.createHash('sha256').update(data).digest('hex'));
  });

  test.each([
    ['a small one', 1000],
    ['one of several parts', 11 * 1024 * 1024],
  ])('a put whose body fails (%s) rejects with that failure and leaves nothing new: what was there stays', async (_name, length) => {
    const k = key();
    const before = bytes(100);
    await store().put(k, new Uint8Array(before));
    const body = new PassThrough();
    const put = store().put(k, body);
    const data = bytes(length);
    for (let at = 0; at < data.length; at += 1024 * 1024) body.write(data.subarray(at, at + 1024 * 1024));
    setTimeout(() => body.destroy(new Error('the client went away')), 100);
    await expect(put).rejects.toThrow('the client went away');
    expect((await read(store(), k))!.equals(before)).toBe(true);
    const fresh = key();
    const failing = new PassThrough();
    const put2 = store().put(fresh, failing);
    failing.write(bytes(10));
    setTimeout(() => failing.destroy(new Error('cut')), 50);
    await expect(put2).rejects.toThrow('cut');
    expect(await store().stat(fresh)).toBeNull();
  });

  test('a put replaces what was under the key', async () => {
    const k = key();
    await store().put(k, chunked(bytes(5000)));
    const next = bytes(20);
    expect(await store().put(k, chunked(next))).toBe(20);
    expect((await read(store(), k))!.equals(next)).toBe(true);
  });

  test('a content type that is no media type (a line break in it: issue 33) does not fail the put (S3: its type: application/octet-stream)', async () => {
    for (const body of [() => new Uint8Array(bytes(10)), () => chunked(bytes(10))]) {
      const k = key();
      expect(await store().put(k, body(), 'text/plain\r\nX-Injected: 1')).toBe(10);
      expect(await store().stat(k)).toEqual({ size: 10 });
    }
  });

  test('nothing under a key: get and stat answer null, delete is fine; delete removes', async () => {
    const k = key();
    expect(await store().get(k)).toBeNull();
    expect(await store().get(k, { start: 0, end: 0 })).toBeNull();
    expect(await store().stat(k)).toBeNull();
    await store().delete(k);
    await store().put(k, chunked(bytes(10)));
    await store().delete(k);
    expect(await store().get(k)).toBeNull();
    expect(await store().stat(k)).toBeNull();
  });

  test('a key that could lead out of the store is refused', async () => {
    for (const bad of ['../keep.txt', 'a/../../b', '/etc/passwd', 'a//b', '', 'a/./b', 'a\\b']) {
      await expect(store().get(bad)).rejects.toThrow('not a storage key');
      await expect(store().put(bad, new Uint8Array(1))).rejects.toThrow('not a storage key');
      await expect(store().delete(bad)).rejects.toThrow('not a storage key');
    }
  });
});

test('the disk store removes the partial files a stopped process left with the file', async () => {
  const store = stores.disk as DiskStore;
  const k = key();
  await store.put(k, new Uint8Array(bytes(10)));
  fs.writeFileSync(`${store.path(k)}.a1b2c3.part`, 'partial');
  const neighbour = key().replace(/^[^/]+/, k.split('/')[0]);
  await store.put(neighbour, new Uint8Array(bytes(10)));
  await store.delete(k);
  const left = fs.readdirSync(path.dirname(store.path(k)));
  expect(left.filter((name) => name.startsWith(k.split('/')[1]))).toEqual([]);
  expect(left).toContain(neighbour.split('/')[1]);
});

test('FILES_S3_PREFIX: keys live under the prefix in the bucket', async () => {
  const prefixed = new S3Store({ ...s3.config, prefix: 'pages/' });
  const bare = stores.s3;
  try {
    const k = key();
    const data = bytes(50);
    await prefixed.put(k, new Uint8Array(data));
    expect((await read(bare, `pages/${k}`))!.equals(data)).toBe(true);
    expect(await bare.stat(k)).toBeNull();
    expect(prefixed.where).toBe(`s3://${s3.bucket}/pages/`);
  } finally {
    await prefixed.close();
  }
});
