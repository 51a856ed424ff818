import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ownImportMetaUrl, writeWhole } from '../build/builds.mjs';

/**
 * The import's worker threads as plain JavaScript (issue 33, item 13; docs/deploy.md «Memory»).
 * The server runs its TypeScript through tsx; a worker loading TypeScript through tsx keeps some
 * 3–4 KB in the server's main thread every time (tsx's loader, on Node 20), which a worker per
 * import turns into growth without end. So each worker's entry (`importWorker.ts`, `htmlWorker.ts`)
 * is bundled once per process with esbuild into one plain ES module — our own modules inlined,
 * packages left as imports — written under `node_modules/.cache/stranitsy-workers/` (packages
 * resolve from there; the name carries a hash of the content, written to a temporary name and
 * renamed, so processes building at once never read each other's half-written file), and the
 * workers start from that. A worker reading an import hands the HTML reader's script to its own
 * worker (`WorkerScripts` in workerData): only the main thread builds.
 */

/** The workers' entries, by name. */
const ENTRIES = {
  import: new URL('./importWorker.ts', import.meta.url),
  html: new URL('./htmlWorker.ts', import.meta.url),
} as const;

/** The built scripts' file URLs, by worker. */
export type WorkerScripts = Record<keyof typeof ENTRIES, string>;

const OUT_DIR = fileURLToPath(new URL('../../node_modules/.cache/stranitsy-workers/', import.meta.url));

let built: Promise<WorkerScripts> | null = null;
let handed: WorkerScripts | null = null;

/** In a worker: the scripts the main thread built (the worker's workerData carries them). */
export function useWorkerScripts(scripts: WorkerScripts): void {
  handed = scripts;
}

/** The workers' scripts, built on first use in this process (a failed build is tried again next time). */
export function workerScripts(): Promise<WorkerScripts> {
  if (handed) return Promise.resolve(handed);
  built ??= buildScripts().catch((error: unknown) => {
    built = null;
    throw error;
  });
  return built;
}

async function buildScripts(): Promise<WorkerScripts> {
  const { build } = await import('esbuild');
  const names = Object.keys(ENTRIES) as Array<keyof typeof ENTRIES>;
  const result = await build({
    entryPoints: Object.fromEntries(names.map((name) => [name, fileURLToPath(ENTRIES[name])])),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    write: false,
    logLevel: 'silent',
    plugins: [ownImportMetaUrl],
  });
  await fs.mkdir(OUT_DIR, { recursive: true });
  const scripts = {} as WorkerScripts;
  for (const name of names) {
    const { contents } = result.outputFiles.find((output) => path.basename(output.path) === `${name}.mjs`)!;
    const file = path.join(OUT_DIR, `${name}-${createHash('sha256').update(contents).digest('hex').slice(0, 16)}.mjs`);
    const exists = await fs.stat(file).then(
      () => true,
      () => false,
    );
    if (!exists) await writeWhole(file, contents);
    scripts[name] = pathToFileURL(file).href;
  }
  return scripts;
}
