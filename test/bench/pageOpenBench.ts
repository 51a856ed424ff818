/**
 * `npm run bench:open`: opening a big page in real Chromium against the real server (issue 15).
 *
 * A page of 20,000 paragraphs of about 120 characters is seeded straight into the database (one
 * block is made through the API, the rest are copies of its row with their own ids and sort keys,
 * written an hour earlier). Each repetition opens the page by its link twice, each time in a fresh
 * browser context (nothing cached), and measures from the navigation's start:
 *  - alone: the first screen (the first animation frame after the page's first paragraph is in
 *    the DOM), when the top of the page came in, and when the editor became editable (all blocks
 *    in); the blocks answer's size on the wire and decoded;
 *  - under load: meanwhile a separate client asks the server an unrelated question
 *    (`GET /api/notifications/counts`, which reads the database) back to back; the latencies of
 *    those that started during the whole load (navigation start → editable) give p50/p95/max,
 *    and the first screen under that load is shown too.
 *  - the floor: a static HTML page of the same top (the title and the first 100 paragraphs, what
 *    the app reads first), served by a bare Node HTTP server on the same loopback, opened the same
 *    way in the same run: its first screen is what the browser needs anyway (issue 35 §5's target
 *    is the app's first screen ≤ 1.5× it);
 *  - the baseline: the app without the page's top drawn into index.html by the server
 *    (`X-Server-Top: off`), as it was before issue 35 §5.
 * «First paint» is when the page's first text was painted (the render time of the first
 * largest-contentful-paint entry inside the page's editor or the server's drawing of it): the
 * first screen as a person sees it. «First screen» is the frame after its first paragraph is in
 * the DOM (which, with style sheets still coming, may be before anything is painted).
 * Prints a table per database and writes test/bench/results/open-<time>.json.
 *   BENCH_DBS=sqlite,postgres BENCH_REPS=7 BENCH_BLOCKS=20000 npm run bench:open
 *   BENCH_VERBOSE=1 lists every request's timing; BENCH_PROFILE=file.cpuprofile profiles the last one.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { generateNKeysBetween } from 'fractional-indexing';
import type { BlockRow } from '../../server/db/types';
import { launchBrowser } from '../helpers/browser';
import { fetchJson, signInToProcess, startPostgresProcess, startServerProcess, type ServerProcess } from '../helpers/serverProcess';

const REPS = Number(process.env.BENCH_REPS ?? 7);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20_000);
const DBS = (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const EMAIL = 'open-bench@example.com';

/** About 120 characters: a line number and a pangram. */
const paragraph = (n: number) =>
  `Строка ${n}: съешь же ещё этих мягких французских булок, да выпей чаю. В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!`.slice(0, 120);

/** A block's row as stored, without the writer's run (a copy starts none). */
type BlockRowCopy = Omit<BlockRow, 'origin' | 'origin_since'>;

/** Copies of the one real block, one per line, each after the one before. */
function copies(first: BlockRowCopy): BlockRowCopy[] {
  const keys = generateNKeysBetween(first.sort_key, null, BLOCKS - 1);
  const template = JSON.parse(first.data) as { tokens: { text: string }[] };
  // Written an hour ago: a page opened later, not while it is being written (the realtime
  // catch-up after the load reads what changed in the last 10 s; 20,000 of them would be too many).
  const earlier = new Date(Date.now() - 3_600_000).toISOString();
  return keys.map((key, i) => ({
    ...first,
    id: randomUUID(),
    sort_key: key,
    created_at: earlier,
    updated_at: earlier,
    data: JSON.stringify({ ...template, tokens: [{ text: paragraph(i + 2) }] }),
  }));
}

async function seedSqlite(server: ServerProcess, blockId: string): Promise<void> {
  const db = new Database(path.join(server.dataDir, 'workspace.sqlite'));
  try {
    const first = db
      .prepare('select id, page_id, parent_id, sort_key, type, data, version, created_at, updated_at, updated_by, deleted_at from blocks where id = ?')
      .get(blockId) as BlockRowCopy;
    const insert = db.prepare(
      'insert into blocks (id, page_id, parent_id, sort_key, type, data, version, created_at, updated_at, updated_by, deleted_at) values (@id, @page_id, @parent_id, @sort_key, @type, @data, @version, @created_at, @updated_at, @updated_by, @deleted_at)',
    );
    db.transaction((rows: BlockRowCopy[]) => rows.forEach((row) => insert.run(row)))(copies(first));
  } finally {
    db.close();
  }
}

async function seedPostgres(url: string, blockId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const first = (
      await client.query<BlockRowCopy>(
        'select id, page_id, parent_id, sort_key, type, data, version, created_at, updated_at, updated_by, deleted_at from blocks where id = $1',
        [blockId],
      )
    ).rows[0];
    const rows = copies(first);
    const columns = Object.keys(rows[0]) as (keyof BlockRowCopy)[];
    for (let at = 0; at < rows.length; at += 1000) {
      const slice = rows.slice(at, at + 1000);
      const values = slice.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
      await client.query(
        `insert into blocks (${columns.join(', ')}) values ${values}`,
        slice.flatMap((row) => columns.map((c) => row[c])),
      );
    }
    await client.query('analyze blocks');
  } finally {
    await client.end();
  }
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const median = (values: number[]) => quantile(values, 0.5);
const ms = (n: number) => `${n.toFixed(1)} ms`;

interface Rep {
  firstScreen: number;
  firstPaint: number;
  firstScreenLoaded: number;
  /** The static page of the same top, opened in the same repetition. */
  staticFirstScreen: number;
  staticFirstPaint: number;
  /** The app without the page's top in index.html (`X-Server-Top: off`), in the same repetition. */
  bareFirstScreen: number;
  bareFirstPaint: number;
  bareEditable: number;
  topEnd: number;
  editable: number;
  blocksEnd: number;
  blocksStart: number;
  wireBytes: number;
  decodedBytes: number;
  encoding: string | null;
  unrelated: number[];
}

/** Asks an unrelated question back to back until stopped; records start (epoch ms) and latency. */
function unrelatedLoad(url: string, cookie: string) {
  const samples: { start: number; ms: number }[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const start = performance.timeOrigin + performance.now();
      const res = await fetch(`${url}/api/notifications/counts`, { headers: { cookie } });
      await res.arrayBuffer();
      samples.push({ start, ms: performance.timeOrigin + performance.now() - start });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await done;
    },
  };
}

async function benchDatabase(database: 'sqlite' | 'postgres') {
  const postgres = database === 'postgres' ? await startPostgresProcess() : null;
  const server = await startServerProcess({ LOG_REQUESTS: 'false', ...(postgres ? { DATABASE_URL: postgres.url } : {}) });
  const browser = await launchBrowser();
  let staticServer: http.Server | undefined;
  try {
    const cookie = await signInToProcess(server, EMAIL);
    const page = await fetchJson<{ data: { id: string } }>(`${server.url}/api/v3/spaces/section/private`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ title: `Большая страница ${BLOCKS}` }),
    });
    const first = await fetchJson<{ data: { id: string } }>(`${server.url}/api/v3/spaces/block`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({ pageId: page.data.id, type: 'text', placeAfter: null, data: { tokens: [{ text: paragraph(1) }] } }),
    });
    process.stdout.write(`[${database}] seeding ${BLOCKS} blocks…\n`);
    if (postgres) await seedPostgres(postgres.url, first.data.id);
    else await seedSqlite(server, first.data.id);
    const check = await fetchJson<{ data: unknown[] }>(`${server.url}/api/v3/spaces/note/${page.data.id}/blocks`, { cookie });
    if (check.data.length !== BLOCKS) throw new Error(`seeded ${check.data.length} blocks, not ${BLOCKS}`);

    const [name, value] = cookie.split(';')[0].split('=');
    // The floor: the same top as a static page (no script), from a bare HTTP server.
    const staticHtml = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Большая страница</title><style>body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222}main{max-width:720px;margin:0 auto;padding:80px 24px}h1{font-size:40px;margin:0 0 24px}div[data-block-id]{padding:3px 0}</style></head><body><main><h1>Большая страница ${BLOCKS}</h1><div data-slate-editor>${Array.from(
      { length: Math.min(100, BLOCKS) },
      (_, i) => `<div data-block-id="b${i}">${paragraph(i + 1)}</div>`,
    ).join('')}</div></main></body></html>`;
    staticServer = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(staticHtml);
    });
    const listening = staticServer;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const staticUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/`;
    /**
     * A fresh context whose pages note their first screen (the first frame after the page's first
     * paragraph is in the DOM: the server's drawing of it, or the app's), when that paragraph was
     * first painted (the render time of the first largest-contentful-paint entry inside either),
     * and when the editor became editable. `serverTop: false` asks for index.html without the
     * page's top drawn in it (`X-Server-Top: off`): the app as it was before issue 35 §5.
     */
    const measuringContext = async (serverTop = true) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies([{ name, value, url: server.url }]);
      if (!serverTop) await context.setExtraHTTPHeaders({ 'x-server-top': 'off' });
      await context.addInitScript(
        (firstLine: string) => {
          const w = window as unknown as { __firstScreen?: number; __firstPaint?: number; __editable?: number };
          const BLOCKS = '[data-slate-editor] [data-block-id], [data-top-editor] [data-top-block]';
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { element: Element | null; startTime: number }[]) {
              if (w.__firstPaint === undefined && entry.element?.closest('[data-slate-editor], [data-top-editor]')) w.__firstPaint = entry.startTime;
            }
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          const observer = new MutationObserver(() => {
            if (w.__firstScreen === undefined && [...document.querySelectorAll(BLOCKS)].some((n) => (n.textContent ?? '').startsWith(firstLine))) {
              requestAnimationFrame(() => (w.__firstScreen ??= performance.now()));
            }
            if (w.__editable === undefined && document.querySelector('[data-slate-editor][contenteditable="true"]')) {
              w.__editable = -1;
              requestAnimationFrame(() => (w.__editable = performance.now()));
            }
            if (w.__firstScreen !== undefined && w.__editable !== undefined && w.__editable > 0) observer.disconnect();
          });
          observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['contenteditable'] });
        },
        paragraph(1).slice(0, 20),
      );
      return context;
    };
    /** The static page's first screen and first paint, in a fresh context. */
    const openStatic = async () => {
      const context = await measuringContext();
      const tab = await context.newPage();
      await tab.goto(staticUrl);
      await tab.waitForFunction(
        () => {
          const w = window as unknown as { __firstScreen?: number; __firstPaint?: number };
          return w.__firstScreen !== undefined && w.__firstPaint !== undefined;
        },
        undefined,
        { timeout: 60_000 },
      );
      const measured = await tab.evaluate(() => {
        const w = window as unknown as { __firstScreen: number; __firstPaint: number };
        return { firstScreen: w.__firstScreen, firstPaint: w.__firstPaint };
      });
      await context.close();
      return measured;
    };
    /** Opens the page in a fresh context; with `load`, an unrelated client asks the server questions meanwhile. */
    const openOnce = async (withLoad: boolean, profile: boolean, serverTop = true) => {
      const context = await measuringContext(serverTop);
      const tab = await context.newPage();
      const profiler = profile ? await context.newCDPSession(tab) : null;
      if (profiler) {
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
        await profiler.send('Profiler.start');
      }
      const load = withLoad ? unrelatedLoad(server.url, cookie) : null;
      if (load) await new Promise((resolve) => setTimeout(resolve, 20));
      await tab.goto(`${server.url}/${page.data.id}`);
      await tab.waitForFunction(
        () => {
          const w = window as unknown as { __editable?: number; __firstScreen?: number; __firstPaint?: number };
          return (w.__editable ?? -1) > 0 && w.__firstScreen !== undefined && w.__firstPaint !== undefined;
        },
        undefined,
        { timeout: 60_000 },
      );
      await load?.stop();
      if (profiler) {
        const { profile: cpu } = await profiler.send('Profiler.stop');
        fs.writeFileSync(process.env.BENCH_PROFILE as string, JSON.stringify(cpu));
      }
      const measured = await tab.evaluate(() => {
        const {
          __firstScreen: firstScreen,
          __firstPaint: firstPaint,
          __editable: editable,
        } = window as unknown as { __firstScreen: number; __firstPaint: number; __editable: number };
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const blocks = entries.find((e) => /\/note\/[^/]+\/blocks$/.test(e.name));
        const top = entries.find((e) => /\/note\/[^/]+\/blocks\?limit=/.test(e.name));
        return {
          timeOrigin: performance.timeOrigin,
          firstScreen,
          firstPaint,
          editable,
          topEnd: top?.responseEnd ?? NaN,
          blocksStart: blocks?.startTime ?? NaN,
          blocksEnd: blocks?.responseEnd ?? NaN,
          wireBytes: blocks?.encodedBodySize ?? NaN,
          decodedBytes: blocks?.decodedBodySize ?? NaN,
        };
      });
      if (process.env.BENCH_VERBOSE) {
        const entries = await tab.evaluate(() =>
          performance.getEntriesByType('resource').map((e) => {
            const r = e as PerformanceResourceTiming;
            return `${r.startTime.toFixed(0).padStart(5)} → ${r.responseEnd.toFixed(0).padStart(5)}  ${r.name.replace(location.origin, '')}`;
          }),
        );
        process.stdout.write(entries.join('\n') + '\n');
      }
      const encoding = await tab.evaluate(
        async (url) => (await fetch(url)).headers.get('content-encoding'),
        `${server.url}/api/v3/spaces/note/${page.data.id}/blocks`,
      );
      // The whole load: from the navigation's start until the editor took over (all blocks in).
      const windowStart = measured.timeOrigin;
      const windowEnd = measured.timeOrigin + measured.editable;
      const unrelated = (load?.samples ?? []).filter((x) => x.start >= windowStart && x.start <= windowEnd).map((x) => x.ms);
      await context.close();
      return { ...measured, encoding, unrelated };
    };

    const reps: Rep[] = [];
    // One warm-up opening (the server's statement caches, the OS file cache), then the measured
    // ones: each opens the page once alone (first screen, editable) and once while another client
    // asks the server questions back to back (their latency; first screen under that load).
    for (let rep = 0; rep <= REPS; rep++) {
      const alone = await openOnce(false, !!process.env.BENCH_PROFILE && rep === REPS);
      const bare = await openOnce(false, false, false);
      const loaded = await openOnce(true, false);
      const floor = await openStatic();
      if (rep === 0) continue;
      reps.push({
        ...alone,
        unrelated: loaded.unrelated,
        firstScreenLoaded: loaded.firstScreen,
        staticFirstScreen: floor.firstScreen,
        staticFirstPaint: floor.firstPaint,
        bareFirstScreen: bare.firstScreen,
        bareFirstPaint: bare.firstPaint,
        bareEditable: bare.editable,
      });
      process.stdout.write(
        `[${database}] #${rep}: first paint ${ms(alone.firstPaint)} (first screen ${ms(alone.firstScreen)}; without the server's top ${ms(bare.firstPaint)}; static page ${ms(floor.firstPaint)}), editable ${ms(alone.editable)} (without the top ${ms(bare.editable)}), top in at ${ms(alone.topEnd)}, blocks ${ms(alone.blocksStart)} → ${ms(alone.blocksEnd)}; under load: first screen ${ms(loaded.firstScreen)}, unrelated p95 ${ms(quantile(loaded.unrelated, 0.95))} (${loaded.unrelated.length})\n`,
      );
    }
    const allUnrelated = reps.flatMap((r) => r.unrelated);
    return {
      database,
      blocks: BLOCKS,
      reps: REPS,
      firstPaintMedian: median(reps.map((r) => r.firstPaint)),
      firstPaintMax: Math.max(...reps.map((r) => r.firstPaint)),
      staticFirstPaintMedian: median(reps.map((r) => r.staticFirstPaint)),
      bareFirstPaintMedian: median(reps.map((r) => r.bareFirstPaint)),
      bareFirstScreenMedian: median(reps.map((r) => r.bareFirstScreen)),
      bareEditableMedian: median(reps.map((r) => r.bareEditable)),
      firstScreenMedian: median(reps.map((r) => r.firstScreen)),
      firstScreenMax: Math.max(...reps.map((r) => r.firstScreen)),
      firstScreenLoadedMedian: median(reps.map((r) => r.firstScreenLoaded)),
      staticFirstScreenMedian: median(reps.map((r) => r.staticFirstScreen)),
      topEndMedian: median(reps.map((r) => r.topEnd)),
      editableMedian: median(reps.map((r) => r.editable)),
      blocksRequestStartMedian: median(reps.map((r) => r.blocksStart)),
      blocksResponseEndMedian: median(reps.map((r) => r.blocksEnd)),
      blocksWireBytes: reps[0].wireBytes,
      blocksDecodedBytes: reps[0].decodedBytes,
      blocksEncoding: reps[0].encoding,
      unrelatedCount: allUnrelated.length,
      unrelatedP50: quantile(allUnrelated, 0.5),
      unrelatedP95: quantile(allUnrelated, 0.95),
      unrelatedMax: Math.max(...allUnrelated),
    };
  } finally {
    staticServer?.close();
    await browser.close();
    await server.stop();
    await postgres?.stop();
  }
}

async function main() {
  const results = [];
  for (const database of DBS) results.push(await benchDatabase(database));
  process.stdout.write(`\nOpening a page of ${BLOCKS} paragraphs in Chromium (loopback, ${REPS} runs each, medians)\n`);
  process.stdout.write(
    "| database | first paint of the text: app (median / max) | app without the server's top | static page of the same top | ratio to the static page | first screen (DOM + frame): app / without the top / static | editable: app / without the top | top of the page in | first screen under load | blocks request starts → answer ends | blocks answer on the wire / decoded | unrelated request during the load p50 / p95 / max (n) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
  );
  for (const r of results) {
    process.stdout.write(
      `| ${r.database} | ${ms(r.firstPaintMedian)} / ${ms(r.firstPaintMax)} | ${ms(r.bareFirstPaintMedian)} | ${ms(r.staticFirstPaintMedian)} | ${(r.firstPaintMedian / r.staticFirstPaintMedian).toFixed(2)}× (without the top ${(r.bareFirstPaintMedian / r.staticFirstPaintMedian).toFixed(2)}×) | ${ms(r.firstScreenMedian)} / ${ms(r.bareFirstScreenMedian)} / ${ms(r.staticFirstScreenMedian)} | ${ms(r.editableMedian)} / ${ms(r.bareEditableMedian)} | ${ms(r.topEndMedian)} | ${ms(r.firstScreenLoadedMedian)} | ${ms(r.blocksRequestStartMedian)} → ${ms(r.blocksResponseEndMedian)} | ${(r.blocksWireBytes / 1e6).toFixed(2)} MB (${r.blocksEncoding ?? 'identity'}) / ${(r.blocksDecodedBytes / 1e6).toFixed(2)} MB | ${ms(r.unrelatedP50)} / ${ms(r.unrelatedP95)} / ${ms(r.unrelatedMax)} (${r.unrelatedCount}) |\n`,
    );
  }
  const dir = path.join('test', 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `open-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(results, null, 2));
  process.stdout.write(`\nwritten ${file}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
