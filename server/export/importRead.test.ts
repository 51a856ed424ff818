import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { READ_TIMEOUT_MS, readImport } from './importRead';
import { ImportError } from './archive';

/*
 * Reading an upload never hangs (issue 33: a 155-byte zip whose entry was `/abs-x/evil.md` sent
 * the importer into an endless loop, and the whole server with it). Every upload of generated
 * entry names — absolute, drive-lettered, UNC, `./`, `..`, empty parts, a lone `/` — is read to
 * its end or refused, within a bound; and readImport (the route's reader, in a worker thread)
 * gives up on one that would not end without holding anything up.
 */

const prefix = fc.constantFrom('', '/', '//', 'C:\\', 'c:', '\\\\host\\share\\', './', '../', '/abs-x/', '.\\');
const part = fc.constantFrom('', '.', '..', 'a', 'Отчёт', 'Отчёт 0123456789abcdef0123456789abcdef', 'Export-1-Part-1', 'b c', '__MACOSX');
// HTML is read in a worker of its own (a second each): a few fixed uploads below have it, the generated ones not.
const ending = fc.constantFrom('.md', '.csv', '.zip', '.png', '', '/', '\\');
const entryName = fc
  .tuple(prefix, fc.array(part, { maxLength: 4 }), fc.constantFrom('/', '\\'), ending)
  .map(([start, parts, separator, end]) => `${start}${parts.join(separator)}${end}`);
const content = (name: string) =>
  strToU8(
    /\.csv$/i.test(name)
      ? 'Название,Число\nОдин,1\n'
      : /\.html$/i.test(name)
        ? '<h1>Страница</h1><p><a href="../a.md">ссылка</a></p>'
        : '# Страница\n\n[наверх](../a.md) [корень](/a.md) ![картинка](./a.png)\n',
  );
const upload = fc
  .uniqueArray(entryName, { minLength: 1, maxLength: 6 })
  .map((names) => zipSync(Object.fromEntries(names.map((name) => [name, content(name)]))));

/** Each upload read in turn in one worker; resolves with what each came to, rejects naming the first that took longer than `boundMs`. */
function readAll(uploads: Uint8Array[], boundMs: number): Promise<Array<{ index: number; pages?: number; refused?: string | null; error?: string }>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../../test/helpers/importReadingWorker.mjs', import.meta.url), {
      workerData: { uploads: uploads.map((bytes, i) => ({ bytes, name: `upload-${i}.zip` })) },
    });
    const results: Array<{ index: number; pages?: number; refused?: string | null; error?: string }> = [];
    let timer: NodeJS.Timeout;
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void worker.terminate();
        reject(new Error(`upload ${results.length} was not read within ${boundMs} ms`));
      }, boundMs);
    };
    wait();
    worker.on('message', (result) => {
      results.push(result);
      if (results.length === uploads.length) {
        clearTimeout(timer);
        void worker.terminate().then(() => resolve(results));
      } else wait();
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

test('every upload of generated entry names is read or refused within a bound', async () => {
  const uploads = fc.sample(upload, { numRuns: 300, seed: 33 });
  uploads.unshift(
    zipSync({ '/abs-x/evil.md': strToU8('# Зло') }),
    zipSync({ '/': strToU8('') }),
    zipSync({ 'C:\\a\\b.md': strToU8('b'), '\\\\h\\s\\c.md': strToU8('c') }),
    zipSync({ '/abs/a.html': content('a.html'), '/abs/a/b.html': content('b.html'), '//h/s/../c.html': content('c.html') }),
  );
  // Generous for a loaded machine; an endless loop never answers at all.
  const results = await readAll(uploads, 10_000);
  expect(results).toHaveLength(uploads.length);
  for (const result of results) {
    // Read, or refused as an upload we do not import: never a failure of the reader itself.
    if (!('pages' in result)) expect(result.refused).toEqual(expect.any(String));
  }
  expect(results[0]).toMatchObject({ pages: 1, files: ['abs-x/evil.md'] });
  expect(results[1].refused).toMatch(/neither export.json nor Markdown or HTML/);
}, 120_000);

test('readImport reads in a worker thread: the event loop goes on meanwhile, and the files come back moved', async () => {
  const zip = zipSync({ '/abs-x/evil.md': strToU8('# Зло\n\n![](pic.png)'), '/abs-x/pic.png': new Uint8Array([137, 80, 78, 71]) });
  let ticks = 0;
  const ticking = setInterval(() => (ticks += 1), 5);
  const read = await readImport(zip, 'evil.zip');
  clearInterval(ticking);
  expect(ticks).toBeGreaterThan(0);
  expect(read.document.pages.map((page) => page.title)).toEqual(['Зло']);
  // Only the files the document names come back (the page's own .md stays in the worker).
  expect([...read.files.keys()]).toEqual(['abs-x/pic.png']);
  expect([...read.files.get('abs-x/pic.png')!]).toEqual([137, 80, 78, 71]);
});

test('readImport refuses what is not ours with ImportError, and gives up on an upload it cannot read in time', async () => {
  await expect(readImport(strToU8('not json'), 'x.json')).rejects.toThrow(new ImportError('export.json is not JSON'));
  // Too short to even start the reader: the worker is ended and the upload refused.
  await expect(readImport(strToU8('# a'), 'a.md', { timeoutMs: 1 })).rejects.toThrow(/could not be read within 1 ms/);
});

test('readImport ends the worker when its sender goes away (the signal aborts), and by default within READ_TIMEOUT_MS', async () => {
  const gone = new AbortController();
  const reading = readImport(strToU8('# a'), 'a.md', { signal: gone.signal });
  gone.abort();
  await expect(reading).rejects.toThrow(/sender went away/);
  expect(READ_TIMEOUT_MS).toBeLessThanOrEqual(300_000);
});
