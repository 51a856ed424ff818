import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isStale } from './builds.mjs';

describe('a build is made again when a source changed after it (server/build/builds.mjs)', () => {
  let root: string;
  const touch = (file: string, secondsAgo: number) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    if (!fs.existsSync(path.join(root, file))) fs.writeFileSync(path.join(root, file), '');
    const at = new Date(Date.now() - secondsAgo * 1000);
    fs.utimesSync(path.join(root, file), at, at);
  };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'builds-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('missing: stale; built after every source: not; a file deep in a source folder newer: stale', () => {
    touch('server/a.ts', 100);
    touch('server/deep/b.ts', 90);
    // A folder's own time changes when a file is added or removed in it: set it old too.
    for (const dir of ['server/deep', 'server']) fs.utimesSync(path.join(root, dir), new Date(Date.now() - 80_000), new Date(Date.now() - 80_000));
    const output = path.join(root, 'out', 'main.mjs');
    expect(isStale(output, ['server', 'package.json'], root)).toBe(true);
    touch('out/main.mjs', 50);
    expect(isStale(output, ['server', 'package.json'], root)).toBe(false);
    touch('server/deep/b.ts', 10);
    expect(isStale(output, ['server', 'package.json'], root)).toBe(true);
  });

  test('a file removed from a source folder (the folder is newer) makes it stale', () => {
    touch('server/a.ts', 100);
    touch('server/b.ts', 100);
    fs.utimesSync(path.join(root, 'server'), new Date(Date.now() - 100_000), new Date(Date.now() - 100_000));
    touch('out/main.mjs', 50);
    const output = path.join(root, 'out', 'main.mjs');
    expect(isStale(output, ['server'], root)).toBe(false);
    fs.rmSync(path.join(root, 'server', 'b.ts'));
    expect(isStale(output, ['server'], root)).toBe(true);
  });
});
