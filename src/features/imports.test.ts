/** @jest-environment node */
import fs from 'node:fs';
import path from 'node:path';

/*
 * Imports run one way (docs/ARCHITECTURE.md «src/features»): no two features import each other
 * (the shell composes the others; `pages` holds the pages' state and errors the others read), and
 * no view of a data table imports another view (they share `rows`, `cells`, `fields`, `filters`
 * and the folder's root). Tests are left out: a test may reach anywhere.
 */

const FEATURES = path.join(__dirname);
const VIEWS = ['table', 'board', 'calendar', 'timeline', 'chart', 'form'];

/** Every non-test source file under `dir`, with the files it imports (resolved, relative to `base`). */
function importsUnder(dir: string, base: string): Array<{ file: string; imports: string[] }> {
  const out: Array<{ file: string; imports: string[] }> = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...importsUnder(full, base));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      const text = fs.readFileSync(full, 'utf8');
      const imports = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => path.relative(base, path.resolve(dir, m[1])));
      out.push({ file: path.relative(base, full), imports });
    }
  }
  return out;
}

/** Pairs of parts (the first folder under `base`) that import each other, each with one import of each way. */
function cycles(base: string, parts?: readonly string[]): string[] {
  const edges = new Map<string, string>();
  for (const { file, imports } of importsUnder(base, base)) {
    const from = file.split(path.sep)[0];
    for (const target of imports) {
      const to = target.split(path.sep)[0];
      if (target.startsWith('..') || to === from || !fs.existsSync(path.join(base, to)) || !fs.statSync(path.join(base, to)).isDirectory()) continue;
      if (parts && !(parts.includes(from) && parts.includes(to))) continue;
      if (!edges.has(`${from} ${to}`)) edges.set(`${from} ${to}`, `${file} → ${target}`);
    }
  }
  const found: string[] = [];
  for (const [key, example] of edges) {
    const [from, to] = key.split(' ');
    if (from < to && edges.has(`${to} ${from}`)) found.push(`${from} ⇄ ${to}: ${example}; ${edges.get(`${to} ${from}`)}`);
  }
  return found;
}

test('no two features import each other', () => {
  expect(cycles(FEATURES)).toEqual([]);
});

test("no view of a data table imports another view's folder", () => {
  const views = importsUnder(path.join(FEATURES, 'database'), path.join(FEATURES, 'database')).flatMap(({ file, imports }) => {
    const from = file.split(path.sep)[0];
    if (!VIEWS.includes(from)) return [];
    return imports.filter((target) => VIEWS.includes(target.split(path.sep)[0]) && target.split(path.sep)[0] !== from).map((target) => `${file} → ${target}`);
  });
  expect(views).toEqual([]);
});
