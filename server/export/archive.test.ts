import { strToU8, zipSync } from 'fflate';
import { archiveBudget, entryPath, foldersUp, ImportError, unzipWithin } from './archive';

/* A zip's entry names and sizes (docs/import-export.md «Zips within bounds»; issue 33). */

/** Offsets of a zip's central directory records (signature PK\1\2). */
function centralRecords(zip: Uint8Array): number[] {
  const view = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const found: number[] = [];
  for (let at = view.indexOf('PK\x01\x02', 0, 'latin1'); at >= 0; at = view.indexOf('PK\x01\x02', at + 4, 'latin1')) found.push(at);
  return found;
}

/** The zip with the central directory's declared sizes of entry `index` set (compressed, unpacked). */
function declared(zip: Uint8Array, index: number, sizes: { compressed?: number; unpacked?: number }): Uint8Array {
  const copy = Buffer.from(zip);
  const at = centralRecords(copy)[index];
  if (sizes.compressed !== undefined) copy.writeUInt32LE(sizes.compressed, at + 20);
  if (sizes.unpacked !== undefined) copy.writeUInt32LE(sizes.unpacked, at + 24);
  return new Uint8Array(copy);
}

describe('entryPath: a relative path, whatever the zip wrote', () => {
  test.each([
    ['/abs-x/evil.md', 'abs-x/evil.md'],
    ['C:\\Users\\me\\note.md', 'Users/me/note.md'],
    ['c:note.md', 'note.md'],
    ['\\\\host\\share\\a.md', 'host/share/a.md'],
    ['//host/share/a.md', 'host/share/a.md'],
    ['./a/./b.md', 'a/b.md'],
    ['a//b///c.md', 'a/b/c.md'],
    ['../../etc/passwd', 'etc/passwd'],
    ['a/../../b.md', 'b.md'],
    ['Отчёт/Приложение.md', 'Отчёт/Приложение.md'],
    ['/', null],
    ['', null],
    ['./', null],
    ['a/', null],
    ['a\\', null],
    ['..', null],
    ['/./..//', null],
  ])('%j → %j', (name, path) => expect(entryPath(name)).toBe(path));
});

describe('foldersUp: ends at the top', () => {
  test.each([
    ['a/b/c', ['a/b/c', 'a/b', 'a']],
    ['a', ['a']],
    ['.', []],
    ['', []],
    ['/', []],
    ['/a/b', ['/a/b', '/a']],
    ['C:', ['C:']],
  ])('%j', (dir, folders) => expect([...foldersUp(dir)]).toEqual(folders));
});

describe('unzipWithin', () => {
  const budget = (entries: number, bytes: number) => archiveBudget({ entries, bytes, depth: 3 });

  test('names come out as relative paths; folder entries and nameless ones are left out; the first of two same paths is kept', () => {
    const zip = zipSync({
      '/abs/a.md': strToU8('один'),
      'abs\\a.md': strToU8('два'),
      'dir/': new Uint8Array(0),
      '/': new Uint8Array(0),
      'C:\\x\\b.md': strToU8('три'),
    });
    const files = unzipWithin(zip, budget(100, 1_000_000));
    expect(Object.keys(files).sort()).toEqual(['abs/a.md', 'x/b.md']);
    expect(new TextDecoder().decode(files['abs/a.md'])).toBe('один');
  });

  test('every size is judged from the central directory before any file is unpacked', () => {
    // The first entry's data is broken: unpacking it first would fail as «cannot be read»; the second declares 2 GB.
    const zip = zipSync({ 'a.md': strToU8('x'.repeat(10_000)), 'b.md': strToU8('y'.repeat(10_000)) }, { level: 6 });
    const broken = Buffer.from(zip);
    const local = broken.indexOf('a.md', 0, 'latin1') + 4; // the first entry's data, right after its name in the local header
    broken.fill(0xff, local, local + 8);
    const bomb = declared(new Uint8Array(broken), 1, { unpacked: 2 ** 31 });
    expect(() => unzipWithin(bomb, budget(100, 1024 ** 3))).toThrow(/too big to import: more than 1024 MB unpacked/);
    // Within the budget, the broken entry is what refuses it.
    expect(() => unzipWithin(new Uint8Array(broken), budget(100, 1024 ** 3))).toThrow('the zip cannot be read');
  });

  test('the files count is judged before anything is unpacked too, and the budget is shared by the zips of one import', () => {
    const zip = zipSync(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}.md`, strToU8(`страница ${i}`)])));
    const shared = budget(50, 1_000_000);
    expect(Object.keys(unzipWithin(zip, shared))).toHaveLength(30);
    expect(() => unzipWithin(zip, shared)).toThrow(/more than 50 files/);
  });

  test('a stored file is counted at the size of its data, not the size it declares (entries sharing one stored file)', () => {
    const data = new Uint8Array(1024 * 1024).fill(7);
    const zip = zipSync({ 'big.bin': [data, { level: 0 }] });
    // A stored entry that declares it unpacks to nothing is still 1 MB copied.
    const lying = declared(zip, 0, { unpacked: 0 });
    expect(() => unzipWithin(lying, budget(10, 512 * 1024))).toThrow(/more than 512 KB|more than 524288 bytes/);
    expect(unzipWithin(lying, budget(10, 2 * 1024 * 1024))['big.bin']).toHaveLength(1024 * 1024);
  });

  test('a file never unpacks to more than it declared: it is cut there', () => {
    const zip = zipSync({ 'a.txt': strToU8('z'.repeat(100_000)) }, { level: 9 });
    const small = declared(zip, 0, { unpacked: 1000 });
    const counted = budget(10, 5000);
    const files = unzipWithin(small, counted);
    expect(files['a.txt'].length).toBeLessThanOrEqual(1000);
    expect(counted.bytes).toBe(5000 - Math.max(1000, centralSize(small)));
  });

  test('not a zip', () => {
    expect(() => unzipWithin(strToU8('PK но не zip'), budget(10, 1000))).toThrow(ImportError);
    expect(() => unzipWithin(strToU8('PK но не zip'), budget(10, 1000))).toThrow('the zip cannot be read');
  });
});

/** The compressed size the first central record declares. */
function centralSize(zip: Uint8Array): number {
  return Buffer.from(zip).readUInt32LE(centralRecords(zip)[0] + 20);
}
