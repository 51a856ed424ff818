/**
 * `npm run bench:editor` (part of `npm run bench`): the editor in Chromium, measured as
 * shared/design/BENCH-METHOD.md ("How we measure the editor") says. Three production bundles
 * built from test/bench/editor/ — ours (the real DocumentEditor with every plugin), plain-cv
 * (a contenteditable div in content-visibility groups: the lower bound) and slate-chunk-cv
 * (vanilla slate-react with chunking) — served from 127.0.0.1, each run in a fresh Chromium
 * profile. Per run: mount → paint, first screen, interactive, heap after GC, keystroke latency
 * p50/p95 over 50 characters typed in the middle of the page, and a check that they all landed
 * in the DOM and in the model. Repetitions are interleaved (repetition → size → configuration,
 * the order rotating); cells are medians, ratios the median of per-repetition ratios to plain-cv.
 * Prints a table and the targets, writes test/bench/results/editor-<time>.json.
 *   BENCH_SIZES=1000,5000,20000 BENCH_REPS=3 BENCH_CONFIGS=ours,plain-cv,slate-chunk-cv npm run bench:editor
 * BENCH_VARIANT=mixed gives ours (only) a code, table, formula, toggle, progress, bookmark, date-mention, column or synced block every 333 blocks, the
 * method's second variant; the references stay as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../helpers/browser';
import { TYPED_SENTENCE } from './editor/document';
import { buildBenchPages, freshBrowser, locateTypingTarget, serve, typeSentence, TYPING_TARGET_OFFSET } from './editor/driver';
import type { KeyTiming, MountResult } from './editor/harness';

const SIZES = (process.env.BENCH_SIZES ?? '1000,5000,20000').split(',').map(Number);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONFIGS = [
  { name: 'ours', page: 'ours.html' },
  { name: 'plain-cv', page: 'plain.html' },
  { name: 'slate-chunk-cv', page: 'slate.html' },
].filter((config) => (process.env.BENCH_CONFIGS ?? 'ours,plain-cv,slate-chunk-cv').split(',').includes(config.name));
const VARIANT = process.env.BENCH_VARIANT === 'mixed' ? 'mixed' : 'plain';
const REFERENCE = 'plain-cv';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_DIR = path.join(HERE, 'results');

/** The targets of the issue; ratios are to plain-cv in the same run. */
const TARGETS = [
  { what: 'keystroke p95 ÷ plain-cv at 5k', size: 5000, metric: 'keyP95', kind: 'ratio', limit: 1.5 },
  { what: 'keystroke p95 ÷ plain-cv at 20k', size: 20000, metric: 'keyP95', kind: 'ratio', limit: 1.5 },
  { what: 'first screen painted at 20k (ms)', size: 20000, metric: 'firstScreen', kind: 'absolute', limit: 300 },
  { what: 'whole page interactive at 20k (ms)', size: 20000, metric: 'interactive', kind: 'absolute', limit: 1500 },
  { what: 'JS heap at 20k (MB)', size: 20000, metric: 'heapMb', kind: 'absolute', limit: 60 },
] as const;

/** clickTask: the longest main-thread task in the 400 ms after the click that focuses the editor (0 when none ≥ 50 ms). */
type Metric = 'mountToPaint' | 'mountScript' | 'firstScreen' | 'interactive' | 'heapMb' | 'clickTask' | 'keyP50' | 'keyP95';
const METRICS: Metric[] = ['mountToPaint', 'mountScript', 'firstScreen', 'interactive', 'heapMb', 'clickTask', 'keyP50', 'keyP95'];

interface RunResult {
  rep: number;
  size: number;
  config: string;
  metrics: Partial<Record<Metric, number>>;
  mount?: MountResult;
  keys?: KeyTiming[];
  verification: { ok: boolean; caretOffset: number | null; dom: string; model: string; expected: string; missingFrames: number };
  error?: string;
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN) / (1024 * 1024);
}

async function runOnce(baseUrl: string, config: (typeof CONFIGS)[number], size: number, rep: number): Promise<RunResult> {
  const result: RunResult = {
    rep,
    size,
    config: config.name,
    metrics: {},
    verification: { ok: false, caretOffset: null, dom: '', model: '', expected: '', missingFrames: 0 },
  };
  const browser = await freshBrowser('editor-bench-');
  try {
    const { page } = browser;
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${baseUrl}/${config.page}?n=${size}&variant=${VARIANT}`);
    const mount = await page.evaluate(() => window.bench.mounted);
    result.mount = mount;
    if (mount.blockCount !== size) throw new Error(`page built ${mount.blockCount} blocks, not ${size}`);
    result.metrics.mountToPaint = mount.mountToPaint;
    result.metrics.mountScript = mount.mountScript;
    if (mount.firstScreen !== null) result.metrics.firstScreen = mount.firstScreen;
    result.metrics.interactive = mount.interactive;

    await page.waitForTimeout(500);
    result.metrics.heapMb = await heapAfterGc(page);

    const point = await locateTypingTarget(page);
    const clickedAt = await page.evaluate(() => window.bench.now());
    await page.mouse.click(point.x, point.y);
    await page.waitForTimeout(400);
    result.metrics.clickTask = await page.evaluate((since) => window.bench.longestTaskSince(since), clickedAt);
    const caretOffset = await page.evaluate(() => window.bench.caretOffset());
    const original = await page.evaluate(() => window.bench.domTargetText());

    const keys = await typeSentence(page);
    result.keys = keys;
    const latencies = keys.map((k) => k.latency).filter((l): l is number => l !== null);
    if (latencies.length > 0) {
      result.metrics.keyP50 = percentile(latencies, 50);
      result.metrics.keyP95 = percentile(latencies, 95);
    }
    const at = caretOffset ?? TYPING_TARGET_OFFSET;
    const expected = original.slice(0, at) + TYPED_SENTENCE + original.slice(at);
    const dom = await page.evaluate(() => window.bench.domTargetText());
    const model = await page.evaluate(() => window.bench.modelTargetText());
    const missingFrames = keys.length - latencies.length;
    result.verification = {
      ok: caretOffset === TYPING_TARGET_OFFSET && dom === expected && model === expected && missingFrames === 0,
      caretOffset,
      dom,
      model,
      expected,
      missingFrames,
    };
    if (pageErrors.length > 0) result.error = `page errors: ${pageErrors.join(' | ')}`;
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await browser.close();
  }
  return result;
}

const fmt = (value: number | undefined, digits = 1) => (value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits));

interface Cell {
  size: number;
  config: string;
  medians: Partial<Record<Metric, number>>;
  ratios: Partial<Record<Metric, number>>;
  verified: string;
}

function summarise(runs: RunResult[]): Cell[] {
  const cells: Cell[] = [];
  for (const size of SIZES) {
    for (const config of CONFIGS) {
      const mine = runs.filter((r) => r.size === size && r.config === config.name);
      const medians: Cell['medians'] = {};
      const ratios: Cell['ratios'] = {};
      for (const metric of METRICS) {
        const values = mine.map((r) => r.metrics[metric]).filter((v): v is number => v !== undefined);
        if (values.length > 0) medians[metric] = median(values);
        const perRep = mine
          .map((r) => {
            const reference = runs.find((x) => x.size === size && x.rep === r.rep && x.config === REFERENCE)?.metrics[metric];
            const value = r.metrics[metric];
            return value !== undefined && reference !== undefined && reference > 0 ? value / reference : undefined;
          })
          .filter((v): v is number => v !== undefined);
        if (perRep.length > 0) ratios[metric] = median(perRep);
      }
      cells.push({ size, config: config.name, medians, ratios, verified: `${mine.filter((r) => r.verification.ok && !r.error).length}/${mine.length}` });
    }
  }
  return cells;
}

function printTable(cells: Cell[]): void {
  const header = [
    'size',
    'config',
    'mount→paint ms',
    'script ms',
    'first screen ms',
    'interactive ms',
    'heap MB',
    'click task ms',
    'key p50 ms',
    'key p95 ms',
    'p95 ÷ plain',
    'verified',
  ];
  const rows = cells.map((c) => [
    String(c.size),
    c.config,
    `${fmt(c.medians.mountToPaint)} (${fmt(c.ratios.mountToPaint, 2)}×)`,
    fmt(c.medians.mountScript),
    fmt(c.medians.firstScreen),
    `${fmt(c.medians.interactive)} (${fmt(c.ratios.interactive, 2)}×)`,
    `${fmt(c.medians.heapMb)} (${fmt(c.ratios.heapMb, 2)}×)`,
    fmt(c.medians.clickTask),
    fmt(c.medians.keyP50),
    fmt(c.medians.keyP95),
    `${fmt(c.ratios.keyP95, 2)}×`,
    c.verified,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cols: string[]) => cols.map((col, i) => col.padEnd(widths[i])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

function checkTargets(cells: Cell[]) {
  return TARGETS.map((target) => {
    const cell = cells.find((c) => c.size === target.size && c.config === 'ours');
    const value = cell ? (target.kind === 'ratio' ? cell.ratios[target.metric] : cell.medians[target.metric]) : undefined;
    const verdict = value === undefined ? 'not measured' : value <= target.limit ? 'PASS' : 'FAIL';
    return { ...target, value: value ?? null, verdict };
  });
}

async function main() {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it with 'apt-get install -y chromium'`);
  console.log(`building the benchmark pages (production bundles); document variant: ${VARIANT}…`);
  const outDir = await buildBenchPages();
  const server = await serve(outDir);
  const runs: RunResult[] = [];
  try {
    for (let rep = 0; rep < REPS; rep++) {
      for (const size of SIZES) {
        const order = CONFIGS.map((_, i) => CONFIGS[(i + rep) % CONFIGS.length]);
        for (const config of order) {
          const run = await runOnce(server.url, config, size, rep);
          runs.push(run);
          const v = run.verification;
          console.log(
            `rep ${rep + 1}/${REPS} ${String(size).padStart(6)} ${config.name.padEnd(15)} paint ${fmt(run.metrics.mountToPaint)} ms, heap ${fmt(run.metrics.heapMb)} MB, key p50/p95 ${fmt(run.metrics.keyP50)}/${fmt(run.metrics.keyP95)} ms` +
              (v.ok && !run.error
                ? ', verified'
                : `, NOT VERIFIED (caret ${v.caretOffset}, missing frames ${v.missingFrames}${v.dom !== v.expected ? `, DOM ${JSON.stringify(v.dom)} ≠ ${JSON.stringify(v.expected)}` : ''}${v.model !== v.expected ? `, model ${JSON.stringify(v.model)}` : ''}${run.error ? `, ${run.error}` : ''})`),
          );
        }
      }
    }
  } finally {
    await server.close();
  }
  const cells = summarise(runs);
  console.log('');
  printTable(cells);
  const targets = checkTargets(cells);
  console.log('\ntargets (ours):');
  for (const t of targets) console.log(`  ${t.verdict.padEnd(12)} ${t.what}: ${t.value === null ? '—' : fmt(t.value, 2)} (limit ${t.limit})`);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `editor-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        method: 'shared/design/BENCH-METHOD.md',
        date: new Date().toISOString(),
        variant: VARIANT,
        sizes: SIZES,
        reps: REPS,
        sentence: TYPED_SENTENCE,
        cells,
        targets,
        runs,
      },
      null,
      2,
    ),
  );
  console.log(`\nwritten ${path.relative(process.cwd(), file)}`);
  if (runs.some((r) => !r.verification.ok || r.error)) process.exitCode = 1;
}

await main();
