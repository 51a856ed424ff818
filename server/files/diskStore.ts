import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { keySegments, type ByteRange, type FileStore } from './store';

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * Files in a directory (FILES_DIR): a key is a path under it. A put writes `{key}.{random}.part`
 * beside the target and renames it into place once complete, so a reader never sees half a file.
 */
export class DiskStore implements FileStore {
  readonly where: string;

  constructor(readonly root: string) {
    this.where = path.resolve(root);
  }

  path(key: string): string {
    return path.join(this.where, ...keySegments(key));
  }

  async put(key: string, body: Readable | Uint8Array, _contentType?: string): Promise<number> {
    const target = this.path(key);
    const temp = `${target}.${crypto.randomBytes(6).toString('hex')}.part`;
    const source = body instanceof Uint8Array ? Readable.from([body]) : body;
    // The body may fail while the directory is made (a client that goes away): until the pipeline
    // listens to it, its 'error' is listened to here, else it would be thrown out of the process.
    // The pipeline then rejects with that error, as with a failure mid-way.
    const early = () => {};
    source.on('error', early);
    let written: Promise<void>;
    try {
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      written = pipeline(source, fs.createWriteStream(temp, { flags: 'wx' }));
    } catch (error) {
      // No directory: the body is never read; dropped, so that its later failure has nowhere to go either.
      source.destroy();
      throw error;
    } finally {
      source.off('error', early);
    }
    try {
      await written;
      const { size } = await fs.promises.stat(temp);
      await fs.promises.rename(temp, target);
      return size;
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const handle = await fs.promises.open(this.path(key), 'r').catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!handle) return null;
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      return null;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const stat = await fs.promises.stat(this.path(key)).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    return stat?.isFile() ? { size: stat.size } : null;
  }

  async delete(key: string): Promise<void> {
    const target = this.path(key);
    const dir = path.dirname(target);
    const prefix = `${path.basename(target)}.`;
    const partials = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter((name) => name.startsWith(prefix) && name.endsWith('.part'));
    await Promise.all([target, ...partials.map((name) => path.join(dir, name))].map((file) => fs.promises.rm(file, { force: true })));
  }

  async close(): Promise<void> {}
}
