/**
 * Bench-only preload of `npm run bench:soak` (test/bench/soakBench.ts), given to the server
 * process as `--import ./test/bench/soakMemory.mjs`: appends the process's memory (VmRSS of
 * /proc/self/status, and `process.memoryUsage()`'s heap figures) as a JSON line
 * to the file named by SOAK_MEMORY_FILE every SOAK_MEMORY_EVERY_MS (default 10,000). With
 * `--expose-gc` and SOAK_MEMORY_GC_EVERY=N, every Nth line is taken right after a full garbage
 * collection (`gc: true`): what the heap really holds, without the garbage not yet collected.
 * The main thread only (worker threads inherit the preload). Nothing without SOAK_MEMORY_FILE.
 */
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.SOAK_MEMORY_FILE;
if (file && isMainThread) {
  const everyMs = Number(process.env.SOAK_MEMORY_EVERY_MS ?? 10_000);
  const gcEvery = Number(process.env.SOAK_MEMORY_GC_EVERY ?? 0);
  let n = 0;
  const sample = () => {
    n += 1;
    const gc = gcEvery > 0 && typeof globalThis.gc === 'function' && n % gcEvery === 0;
    if (gc) globalThis.gc();
    const m = process.memoryUsage();
    // RSS as the kernel counts it (VmRSS), at the same instant as the heap's figures.
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024 || m.rss;
    const line = { t: Date.now(), gc, rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, everyMs).unref();
  sample();
}
