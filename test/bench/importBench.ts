/**
 * `npm run bench:import` (issue 33): importing the largest archives the limits allow, through the
 * real server process on SQLite and on PostgreSQL, while another user asks the server an unrelated
 * question back to back (`GET /api/notifications/counts`) — how long that user waits — and how
 * fast the import goes.
 *
 * Two archives, both at a limit of docs/import-export.md «Zips within bounds»:
 *  - «files»: a page showing one picture of 960 MB (zeros: ~1 MB zipped) — the most bytes to unpack;
 *  - «pages»: 19,999 Markdown pages (~1.5 KB each, in nested folders) — the most files to parse
 *    and pages to make.
 * Baselines in the same run: the same unrelated question asked with nothing else going on, and
 * the bench's own unpacking of the same zip with fflate (the bare work of reading it).
 *   BENCH_DBS=sqlite,postgres BENCH_IMPORT_PAGES=19999 BENCH_IMPORT_MB=960 npm run bench:import
 * Prints a table and writes test/bench/results/import-<time>.json.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { fetchJson, signInToProcess } from '../helpers/serverProcess';
import { deflatedZeros, zipOf } from '../helpers/zipBomb';
import { figures, pair, runBench, S, startBenchServer, timed, type BenchDatabase } from './bigTable';

const PAGES = Number(process.env.BENCH_IMPORT_PAGES ?? 19_999);
const FILE_MB = Number(process.env.BENCH_IMPORT_MB ?? 960);

const words = ['отчёт', 'план', 'команда', 'задача', 'срок', 'итог', 'встреча', 'проект', 'данные', 'решение', 'выпуск', 'заметка'];
const paragraph = (seed: number) => Array.from({ length: 14 }, (_, i) => words[(seed * 7 + i * 3) % words.length]).join(' ');

/** The «pages» archive: PAGES Markdown files, ten to a folder page, each a title, a heading, a list and paragraphs. */
function pagesArchive(): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < PAGES; i += 1) {
    const folder = i < 10 ? '' : `Раздел ${Math.floor(i / 10) % 10}/`;
    const body = [
      `# Страница ${i}`,
      '',
      `## ${paragraph(i)}`,
      '',
      paragraph(i + 1),
      '',
      `- ${paragraph(i + 2)}`,
      `- ${paragraph(i + 3)}`,
      '',
      paragraph(i + 4),
      '',
      paragraph(i + 5),
      '',
    ];
    files[`${folder}Страница ${i}.md`] = strToU8(body.join('\n'));
  }
  return zipSync(files, { level: 6 });
}

/** The «files» archive: a page showing one picture of FILE_MB megabytes. */
function filesArchive(): Uint8Array {
  const units = Math.floor(FILE_MB / 64);
  const page = Buffer.from('# Большой файл\n\n![схема](схема.png)\n');
  return new Uint8Array(
    zipOf([
      { name: 'Большой файл.md', data: page, size: page.length, method: 0 },
      { name: 'схема.png', data: deflatedZeros(units), size: units * 64 * 1024 * 1024 },
    ]),
  );
}

/** Asks the unrelated question back to back until stopped: each answer's wait (ms). */
function unrelated(url: string, cookie: string) {
  const waits: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const start = performance.now();
      const res = await fetch(`${url}/api/notifications/counts`, { headers: { cookie } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`the unrelated request answered ${res.status}`);
      waits.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return waits;
    },
  };
}

interface ArchiveResult {
  archive: string;
  uploadMb: number;
  unpackedMb: number;
  entries: number;
  bareUnzipMs: number;
  importMs: number;
  pages: number;
  waits: { p50: number; p95: number; max: number; count: number };
}

async function importOnce(url: string, cookie: string, workspaceId: string, name: string, bytes: Uint8Array, bystander: string): Promise<ArchiveResult> {
  const [bareUnzipMs, files] = await timed(async () => unzipSync(bytes));
  const unpacked = Object.values(files).reduce((sum, file) => sum + file.length, 0);
  const form = new FormData();
  form.append('section', 'private');
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), `${name}.zip`);
  const asking = unrelated(url, bystander);
  const [importMs, answer] = await timed(() =>
    fetchJson<{ data: { pages: number } }>(`${url}${S}/import`, { method: 'POST', cookie, headers: { 'x-workspace-id': workspaceId }, body: form }),
  );
  const waits = await asking.stop();
  return {
    archive: name,
    uploadMb: Number((bytes.length / 1024 / 1024).toFixed(1)),
    unpackedMb: Math.round(unpacked / 1024 / 1024),
    entries: Object.keys(files).length,
    bareUnzipMs: Math.round(bareUnzipMs),
    importMs: Math.round(importMs),
    pages: answer.data.pages,
    waits: { ...figures(waits), max: Math.round(Math.max(...waits)), count: waits.length },
  };
}

interface Result {
  database: BenchDatabase;
  idle: { p50: number; p95: number; max: number; count: number };
  files: ArchiveResult;
  pages: ArchiveResult;
}

const archives = { files: filesArchive(), pages: pagesArchive() };

async function bench(database: BenchDatabase): Promise<Result> {
  const { server, stop } = await startBenchServer(database);
  try {
    const cookie = await signInToProcess(server, 'import-bench@example.com');
    const bystander = await signInToProcess(server, 'import-bystander@example.com');
    const workspaces = await fetchJson<{ data: Array<{ id: string }> }>(`${server.url}${S}/workspace`, { cookie });
    // Baseline: the same question with nothing else going on.
    const idle = unrelated(server.url, bystander);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idleWaits = await idle.stop();
    const result: Result = {
      database,
      idle: { ...figures(idleWaits), max: Math.round(Math.max(...idleWaits)), count: idleWaits.length },
      files: await importOnce(server.url, cookie, workspaces.data[0].id, 'files', archives.files, bystander),
      pages: await importOnce(server.url, cookie, workspaces.data[0].id, 'pages', archives.pages, bystander),
    };
    process.stdout.write(`[${database}] ${JSON.stringify(result)}\n`);
    return result;
  } finally {
    await stop();
  }
}

const waitCell = (w: { p50: number; p95: number; max: number; count: number }) => `${pair(w)} / ${w.max} (${w.count})`;
const throughput = (r: ArchiveResult) =>
  `${(r.importMs / 1000).toFixed(1)} s: ${Math.round(r.unpackedMb / (r.importMs / 1000))} MB/s, ${Math.round(r.pages / (r.importMs / 1000))} pages/s (bare unzip ${(r.bareUnzipMs / 1000).toFixed(1)} s)`;

void runBench(
  'import',
  bench,
  `Imports at the limits (files: ${FILE_MB} MB unpacked in one picture; pages: ${PAGES} Markdown pages) — an unrelated request's wait, ms p50 / p95 / max (n)`,
  [
    ['unrelated request, idle (baseline)', '', (r) => waitCell(r.idle)],
    ['unrelated request during «files»', 'p95 ≤ 50', (r) => waitCell(r.files.waits)],
    ['unrelated request during «pages»', 'p95 ≤ 50', (r) => waitCell(r.pages.waits)],
    ['«files» import', '', (r) => `${r.files.uploadMb} MB upload → ${throughput(r.files)}`],
    ['«pages» import', '', (r) => `${r.pages.uploadMb} MB upload → ${throughput(r.pages)}`],
  ],
  { pages: PAGES, fileMb: FILE_MB, unrelated: 'GET /api/notifications/counts by another user, back to back, 2 ms apart' },
  { unrelatedP95Ms: 50 },
);
