import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Builds the web app when dist/ is missing or older than any source it is built from,
 * so `npm start` and `npm test` always serve what the sources say.
 */
const root = process.cwd();
const sources = ['src', 'schema', 'plugins', 'vite.config.ts', 'server/web/precompress.ts', 'package.json'];
const builtIndex = path.join(root, 'dist', 'index.html');

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(
  ...sources
    .map((s) => path.join(root, s))
    .filter(fs.existsSync)
    .map(newestMtime),
);
if (sourcesAt > builtAt) {
  console.log('Building the web app (vite build)…');
  execSync('npx vite build --logLevel warn', { stdio: 'inherit', cwd: root });
}
