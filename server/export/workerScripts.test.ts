import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { workerScripts } from './workerScripts';

/* The import's workers as plain JavaScript (server/export/workerScripts.ts, docs/deploy.md «Memory»). */

const source = (url: string) => fs.readFileSync(fileURLToPath(url), 'utf8');
const packagesOf = (code: string) => [...code.matchAll(/^import [^;]*? from "([^"]+)";$/gm)].map((m) => m[1]).filter((name) => !name.startsWith('node:'));

test('each worker is one plain module, built once per process under a name that is its content', async () => {
  const scripts = await workerScripts();
  expect(await workerScripts()).toBe(scripts);
  for (const url of Object.values(scripts)) {
    expect(url).toMatch(/\/node_modules\/\.cache\/stranitsy-workers\/(import|html)-[0-9a-f]{16}\.mjs$/);
    const code = source(url);
    // No TypeScript left for a loader to compile, and no import of our own modules (all inlined).
    expect(code).not.toMatch(/from "\.{1,2}\//);
    expect(packagesOf(code).filter((name) => name.startsWith('tsx'))).toEqual([]);
  }
});

test("the import's reader loads nothing of the database (it runs in a worker per import)", async () => {
  const packages = packagesOf(source((await workerScripts()).import));
  expect(packages).toEqual(expect.arrayContaining(['fflate', 'zod']));
  for (const server of ['better-sqlite3', 'pg', 'kysely', 'fastify', 'jsdom']) expect(packages).not.toContain(server);
});

test("a module's import.meta.url stays its own file's in the bundle", async () => {
  const code = source((await workerScripts()).import);
  expect(code).not.toContain('import.meta.url');
  expect(code).toContain(JSON.stringify(pathToFileURL(path.join(__dirname, 'workerScripts.ts')).href));
});
