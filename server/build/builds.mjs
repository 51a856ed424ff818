/**
 * The builds `npm start`, `npm test` and the benches run from, made when missing or older than
 * any source they are built from, so what runs is always what the sources say.
 *
 * The web app: `vite build` into dist/, and its page top for the server (`vite build --ssr`) into dist-ssr/.
 *
 * The server, built once into plain JavaScript (issue 35, item 4), as the web app is: `npm start`
 * and the test and bench server processes run `dist-server/main.mjs` with plain Node instead of
 * compiling TypeScript through tsx on every start.
 *
 * esbuild bundles `server/main.ts` and our own modules it imports (server/, schema/, plugins/)
 * into one ES module; packages stay imports, resolved from node_modules as before. A module's
 * `import.meta.url` stays its own source file's URL (`new URL('./spellWorker.mjs', import.meta.url)`
 * names what it named in the sources: the worker scripts are read from the checkout).
 *
 * Plain JavaScript, so that checking the builds costs no TypeScript compiler: a build is stale
 * when a source is newer than its output (a walk of the folders' times, ≈ 10 ms). The server's
 * bundle is written to a temporary name and renamed, so processes that start at once (Jest's
 * workers) never read a half-written file.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the built server is; `node dist-server/main.mjs` starts it. */
export const SERVER_BUNDLE = path.join(ROOT, 'dist-server', 'main.mjs');
const SERVER_SOURCES = ['server', 'schema', 'plugins', 'examples', 'package.json', 'package-lock.json'];
const WEB_INDEX = path.join(ROOT, 'dist', 'index.html');
/** The page's top as the server draws it (src/ssr/pageTop.tsx, server/web/serverTop.ts): an SSR build beside the web app's. */
const PAGE_TOP = path.join(ROOT, 'dist-ssr', 'pageTop.mjs');
const WEB_SOURCES = ['src', 'schema', 'plugins', 'examples', 'vite.config.ts', 'server/web/precompress.ts', 'package.json'];

function newestMtime(entry) {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** True when `output` is missing or one of `sources` (files or folders under `root`) changed after it. */
export function isStale(output, sources, root = ROOT) {
  const builtAt = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
  const sourcesAt = Math.max(
    ...sources
      .map((s) => path.join(root, s))
      .filter((s) => fs.existsSync(s))
      .map(newestMtime),
  );
  return sourcesAt > builtAt;
}

/** Builds the web app (dist/) and the server's drawing of a page's top (dist-ssr/) when either is missing or stale. */
export function ensureWebBuild() {
  if (!isStale(WEB_INDEX, WEB_SOURCES) && !isStale(PAGE_TOP, WEB_SOURCES)) return;
  console.log('Building the web app (vite build)…');
  execSync('npm run build --silent', { stdio: 'inherit', cwd: ROOT });
}

/** esbuild's plugin: our modules' `import.meta.url` is their source file's URL in the bundle. */
export const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, 'utf8');
      const contents = source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      const extension = path.extname(args.path).replace(/^\.[cm]?/, '');
      return { contents, loader: extension === 'jsx' || extension === 'tsx' || extension === 'ts' ? extension : 'js' };
    });
  },
};

/** Builds dist-server/main.mjs (and its source map) from server/main.ts (≈ 1 s). */
export async function buildServer() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(ROOT, 'server', 'main.ts')],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: SERVER_BUNDLE,
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
    plugins: [ownImportMetaUrl],
  });
  fs.mkdirSync(path.dirname(SERVER_BUNDLE), { recursive: true });
  // The map first: the bundle's arrival is what says the build is there.
  const isMap = (output) => output.path.endsWith('.map');
  for (const output of [...result.outputFiles.filter(isMap), ...result.outputFiles.filter((o) => !isMap(o))]) await writeWhole(output.path, output.contents);
}

/**
 * Writes `file` under a temporary name and renames it into place: processes building at once
 * (Jest's workers, server processes) never read each other's half-written file.
 */
export async function writeWhole(file, contents) {
  const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.promises.writeFile(partial, contents);
  await fs.promises.rename(partial, file);
}

/** Builds the server when its bundle is missing or stale; says so on stderr when it does. */
export async function ensureServerBuild() {
  if (!isStale(SERVER_BUNDLE, SERVER_SOURCES)) return;
  process.stderr.write('Building the server (esbuild)…\n');
  await buildServer();
}
