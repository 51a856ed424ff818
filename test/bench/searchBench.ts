/**
 * `npm run bench:search` (issue 18): full-text search over BENCH_BLOCKS (200,000) blocks on
 * BENCH_PAGES (5,000) pages of one workspace, on SQLite and PostgreSQL side by side.
 *
 * The text (test/bench/searchCorpus.ts) is Russian with some English, its words at Zipf's
 * frequencies and in their varied forms. Seeding through the API would take hours, so: a server
 * process makes the account, its workspace and 20 root pages through the API and stops; the bench
 * then inserts the other pages (nested up to 3 deep, paths and sort keys as
 * server/repositories/pages.ts makes them) and the blocks (as blocks.ts makes them) straight into
 * the database in big transactions, through the app's own connection (server/db/connect.ts). The
 * triggers queue every page and block (search_queue), and the app's indexer (`indexQueued`, as
 * `indexAll` and the server's `searchIndexer` run it) drains the queue: the time is the figure.
 * PostgreSQL is then given a VACUUM ANALYZE, what autovacuum does soon after such a load anyway
 * (left to it, it would run in the middle of the measurement).
 *
 * Then a server process on that database answers `GET search/text` on 127.0.0.1 to the signed-in
 * owner of the pages: seven kinds of query, four queries each, picked from the text by how often
 * their words occur — a common word, a rare word, two words, a prefix being typed (2–4 letters), a
 * word in another form, a title with a typo (the trigram path) and a query matching nothing. As the
 * search box sends them: no trailing space, so the last word is also a prefix. Sequential
 * requests, BENCH_WARMUP rounds of every query first, then BENCH_SAMPLES per kind, the kinds
 * interleaved. Target: p95 of all queries ≤ 30 ms on each database. Then the whole workspace is
 * exported as Markdown and as JSON through the API (an export job): its time, the zip's size and
 * the server's memory meanwhile (the export streams page by page). Prints a table and writes
 * test/bench/results/search-<time>.json.
 *   BENCH_PAGES=5000 BENCH_BLOCKS=200000 BENCH_SAMPLES=60 BENCH_WARMUP=3 BENCH_DBS=sqlite,postgres npm run bench:search
 * BENCH_HOLD=<file> keeps each database (and its server) up after measuring until that file exists.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { sql, type Kysely } from 'kysely';
import { connectDatabase } from '../../server/db/connect';
import type { BlockRow, Database, PageRow } from '../../server/db/types';
import { FRESH_PAGE_STATE } from '../../server/repositories/pages';
import { indexQueued } from '../../server/search/indexer';
import { foldWord, stemWord } from '../../server/search/terms';
import type { WireSearchHit } from '../../schema/search';
import { fetchJson, signInToProcess, startPostgresProcess, startServerProcess } from '../helpers/serverProcess';
import { figures, percentile, runBench, S, timed, type BenchDatabase } from './bigTable';
import { FUNCTION_WORDS, makeCorpus, randomSource, type Corpus } from './searchCorpus';

const PAGES = Number(process.env.BENCH_PAGES ?? 5_000);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 200_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
/** Root pages made through the API (the rest hang below them). */
const ROOTS = Math.min(20, PAGES);
/** Rows a seeding transaction holds. */
const TRANSACTION_ROWS = 20_000;
const TARGET_P95_MS = 30;
const EMAIL = 'search-bench@example.com';

const stemOf = (word: string) => stemWord(foldWord(word));

interface QueryKind {
  kind: string;
  label: string;
  queries: Array<{ q: string; note: string; expectTitle?: string }>;
}

/** The queries, picked from the text by how often their words occur (the same on both databases). */
function pickQueries(corpus: Corpus): QueryKind[] {
  const df = corpus.blockFrequency;
  const stems = [...new Set([...df.keys(), ...corpus.titleFrequency.keys()])];
  const prefixFrequency = (stem: string) => stems.reduce((n, s) => (s.startsWith(stem) ? n + (df.get(s) ?? 0) : n), 0);
  const matchesNothing = (word: string) => !stems.some((s) => s.startsWith(stemOf(word)));
  const blocks = BLOCKS;
  // Russian words whose stem is neither a function word's nor shorter than 3 letters («прись» is «при»).
  const functionStems = new Set(FUNCTION_WORDS.map(stemOf));
  const content = corpus.words
    .filter((w) => !w.english && !functionStems.has(stemOf(w.lemma)) && stemOf(w.lemma).length >= 3)
    .map((lemma) => ({ lemma, df: df.get(stemOf(lemma.lemma)) ?? 0 }));
  const byFrequency = [...content].sort((a, b) => b.df - a.df);
  const spread = <T>(list: T[], n: number) => (list.length <= n ? list : Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]));
  // (Small runs, BENCH_BLOCKS of a few thousand, may have too few words of a band: the next ones by frequency then.)
  const atLeast = <T>(list: T[], n: number, otherwise: T[]) => (list.length >= n ? list : otherwise);
  const note = (stem: string) => `${df.get(stem) ?? 0} blocks hold «${stem}», ${prefixFrequency(stem)} a word starting so`;

  const common = [0, 2, 4, 6].map((i) => byFrequency[i].lemma.lemma).map((q) => ({ q, note: note(stemOf(q)) }));
  const rare = spread(
    atLeast(
      content.filter((c) => c.df >= 3 && c.df <= 30 && c.lemma.lemma.length >= 6 && prefixFrequency(stemOf(c.lemma.lemma)) <= 60),
      4,
      byFrequency.filter((c) => c.df > 0).slice(-40),
    ),
    4,
  ).map((c) => ({ q: c.lemma.lemma, note: note(stemOf(c.lemma.lemma)) }));
  const middle = atLeast(
    byFrequency.filter((c) => c.df >= blocks * 0.005 && c.df <= blocks * 0.03),
    8,
    byFrequency.slice(10),
  );
  const pairs = [0, 1, 2, 3].map((i) => [middle[i * 2].lemma.lemma, middle[i * 2 + 1].lemma.lemma]);
  // Blocks holding both words (the second as a prefix, as it is typed).
  const together = pairs.map(() => 0);
  const pairStems = pairs.map(([a, b]) => [stemOf(a), stemOf(b)]);
  for (const page of corpus.blocks) {
    for (const block of page) {
      const words = [...new Set([...block.text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => stemOf(m[0])))];
      pairStems.forEach(([a, b], i) => {
        if (words.includes(a) && words.some((w) => w.startsWith(b))) together[i] += 1;
      });
    }
  }
  const two = pairs.map(([a, b], i) => ({ q: `${a} ${b}`, note: `${together[i]} blocks hold both` }));
  const prefixes = [
    [1, 2],
    [3, 3],
    [5, 4],
    [8, 3],
  ]
    .map(([rank, letters]) => byFrequency[rank].lemma.lemma.slice(0, letters))
    .map((q) => ({ q, note: `${prefixFrequency(stemOf(q))} blocks hold a word starting «${stemOf(q)}»` }));
  const morphology = spread(
    atLeast(
      content.filter((c) => c.df >= blocks * 0.001 && c.df <= blocks * 0.02 && c.lemma.forms.filter((f) => stemOf(f) === stemOf(c.lemma.lemma)).length >= 4),
      4,
      byFrequency.filter((c) => c.lemma.forms.length >= 5),
    ),
    4,
  ).map(({ lemma }) => {
    const forms = lemma.forms.filter((f) => f !== lemma.lemma && stemOf(f) === stemOf(lemma.lemma)).sort((a, b) => b.length - a.length);
    const q = forms[0] ?? lemma.lemma;
    return { q, note: `«${lemma.lemma}»: ${note(stemOf(q))}` };
  });
  const typos = spread(
    corpus.titles.flatMap((title) => {
      const words = title.split(' ');
      if (words.length < 2) return [];
      const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
      if (longest.length < 7) return [];
      const typo = longest.slice(0, 2) + longest.slice(3);
      if (!matchesNothing(typo)) return [];
      return [{ q: words.map((w) => (w === longest ? typo : w)).join(' '), note: `«${title}» with a letter left out`, expectTitle: title }];
    }),
    4,
  );
  const random = randomSource(404);
  const syllables = ['кра', 'во', 'блу', 'ше', 'зю', 'тка', 'мор', 'фи', 'ндо', 'гля', 'пу', 'щек'];
  const none: QueryKind['queries'] = [];
  while (none.length < 4) {
    const word = Array.from({ length: 3 }, () => syllables[Math.floor(random() * syllables.length)]).join('') + 'ш';
    if (matchesNothing(word) && !none.some((n) => n.q === word)) none.push({ q: word, note: 'no word starts so' });
  }
  return [
    { kind: 'common', label: 'a common word', queries: common },
    { kind: 'rare', label: 'a rare word', queries: rare },
    { kind: 'two', label: 'two words', queries: two },
    { kind: 'prefix', label: 'a prefix being typed (2–4 letters)', queries: prefixes },
    { kind: 'morphology', label: 'another form of a word', queries: morphology },
    { kind: 'typo', label: 'a title with a typo (trigrams)', queries: typos },
    { kind: 'none', label: 'no match', queries: none },
  ];
}

/**
 * The pages below the roots (each under a page made before it, at most 3 deep) and every page's
 * blocks, inserted in transactions of TRANSACTION_ROWS rows; the triggers queue them all.
 */
async function seed(db: Kysely<Database>, corpus: Corpus, roots: PageRow[], userId: string): Promise<void> {
  const random = randomSource(5);
  const year = 365 * 24 * 3600 * 1000;
  const start = Date.now() - year;
  const pages: PageRow[] = [...roots];
  const depth = roots.map(() => 0);
  const lastChildKey = new Map<string, string | null>();
  for (let i = roots.length; i < PAGES; i++) {
    let parent = Math.floor(random() * i);
    while (depth[parent] >= 3) parent = pages.findIndex((p) => p.id === pages[parent].parent_id);
    const parentRow = pages[parent];
    const sortKey = generateKeyBetween(lastChildKey.get(parentRow.id) ?? null, null);
    lastChildKey.set(parentRow.id, sortKey);
    const updated = start + random() * year;
    pages.push({
      id: crypto.randomUUID(),
      workspace_id: parentRow.workspace_id,
      parent_id: parentRow.id,
      section: null,
      path: JSON.stringify([...(JSON.parse(parentRow.path) as string[]), parentRow.id]),
      type: 'Note',
      title: corpus.titles[i],
      icon: null,
      cover: null,
      is_public: 0,
      in_trash: 0,
      default_layout_id: null,
      sort_key: sortKey,
      created_by: userId,
      created_at: new Date(updated - random() * 30 * 24 * 3600 * 1000).toISOString(),
      updated_at: new Date(updated).toISOString(),
      ...FRESH_PAGE_STATE,
    });
    depth.push(depth[parent] + 1);
  }
  const made = pages.slice(roots.length);
  for (let at = 0; at < made.length; at += TRANSACTION_ROWS) {
    await db.transaction().execute(async (trx) => {
      const slice = made.slice(at, at + TRANSACTION_ROWS);
      for (let i = 0; i < slice.length; i += 200)
        await trx
          .insertInto('pages')
          .values(slice.slice(i, i + 200))
          .execute();
    });
  }
  // The roots made through the API may hold a block already: the bench's come after it.
  const existing = await db
    .selectFrom('blocks')
    .select(['page_id', (eb) => eb.fn.max('sort_key').as('key')])
    .where(
      'page_id',
      'in',
      roots.map((r) => r.id),
    )
    .groupBy('page_id')
    .execute();
  const lastKey = new Map(existing.map((e) => [e.page_id, e.key as string]));
  let rows: BlockRow[] = [];
  let written = 0;
  const flush = async () => {
    const slice = rows;
    rows = [];
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < slice.length; i += 500)
        await trx
          .insertInto('blocks')
          .values(slice.slice(i, i + 500))
          .execute();
    });
    written += slice.length;
    if (Math.floor(written / 50_000) !== Math.floor((written - slice.length) / 50_000)) process.stdout.write(`  ${written} blocks\n`);
  };
  for (let p = 0; p < pages.length; p++) {
    const page = pages[p];
    const blocks = corpus.blocks[p];
    if (blocks.length === 0) continue;
    const keys = generateNKeysBetween(lastKey.get(page.id) ?? null, null, blocks.length);
    blocks.forEach((block, i) => {
      const at = new Date(Date.parse(page.updated_at) - (blocks.length - i) * 1000).toISOString();
      rows.push({
        id: crypto.randomUUID(),
        page_id: page.id,
        parent_id: null,
        sort_key: keys[i],
        type: block.type,
        data: JSON.stringify(block.type === 'checkbox' ? { tokens: [{ text: block.text }], checked: random() < 0.3 } : { tokens: [{ text: block.text }] }),
        version: 1,
        created_at: at,
        updated_at: at,
        updated_by: userId,
        deleted_at: null,
        origin: null,
        origin_since: null,
      });
    });
    if (rows.length >= TRANSACTION_ROWS) await flush();
  }
  if (rows.length > 0) await flush();
}

/** The queue drained by the app's indexer, batch after batch; answers how many targets it took. */
async function drainQueue(db: Kysely<Database>): Promise<number> {
  let total = 0;
  let shown = 0;
  const started = performance.now();
  for (;;) {
    const taken = await indexQueued(db);
    total += taken;
    if (total - shown >= 50_000) {
      shown = total;
      process.stdout.write(`  ${total} indexed, ${Math.round(total / ((performance.now() - started) / 1000))}/s\n`);
    }
    if (taken === 0) {
      // The indexer also notes the pages for page history: their first versions are not what is
      // measured here, and the server's historian would record 5,000 of them during the queries.
      await db.deleteFrom('history_queue').execute();
      return total;
    }
  }
}

/** The search index's size on disk, MB (null when the database does not say). */
async function indexSizeMb(db: Kysely<Database>, postgres: boolean): Promise<number | null> {
  try {
    const bytes = postgres
      ? (
          await sql<{
            bytes: string;
          }>`select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c where c.relname in ('search_entries', 'search_postings', 'search_pages', 'search_trigrams', 'search_queue')`.execute(
            db,
          )
        ).rows[0].bytes
      : (await sql<{ bytes: number }>`select sum(pgsize) as bytes from dbstat where name like 'search%'`.execute(db)).rows[0].bytes;
    return Number((Number(bytes) / 1024 / 1024).toFixed(1));
  } catch {
    return null;
  }
}

/** A process's resident memory now, MB (Linux). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/**
 * The whole workspace exported as a background job (issue 18, docs/import-export.md «Export
 * jobs») through the API, as the app does it: its time from the POST to `done`, the zip's size,
 * and the server's resident memory before and at its highest meanwhile (sampled every 50 ms).
 */
async function exportWorkspace(url: string, pid: number, cookie: string, format: 'markdown' | 'json') {
  const workspaces = await fetchJson<{ data: Array<{ id: string }> }>(`${url}${S}/workspace`, { cookie });
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = performance.now();
  try {
    type Job = { id: string; status: string; total: number; size: number | null };
    let job = (
      await fetchJson<{ data: Job }>(`${url}${S}/exports`, { method: 'POST', cookie, body: JSON.stringify({ workspaceId: workspaces.data[0].id, format }) })
    ).data;
    while (job.status !== 'done' && job.status !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await fetchJson<{ data: Job }>(`${url}${S}/exports/${job.id}`, { cookie })).data;
    }
    if (job.status !== 'done') throw new Error(`the ${format} export failed`);
    return {
      format,
      seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      pages: job.total,
      zipMb: Number(((job.size ?? 0) / 1024 / 1024).toFixed(1)),
      rssBeforeMb: before,
      rssPeakMb: Math.max(peak, rssMb(pid)),
    };
  } finally {
    clearInterval(sampler);
  }
}

interface KindResult {
  kind: string;
  label: string;
  /** The first request of the kind's first query, before any warm-up. */
  firstMs: number;
  p50: number;
  p95: number;
  max: number;
  samples: number;
  queries: Array<{ q: string; note: string; p50: number; pages: string; fuzzy: number; foundExpected?: boolean }>;
}

async function bench(database: BenchDatabase, corpus: Corpus, kinds: QueryKind[]) {
  const postgres = database === 'postgres' ? await startPostgresProcess() : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-bench-'));
  // SEARCH_LIMIT_PER_10_S off: the bench sends its samples one after another as one user (the limit is not what it measures).
  const env: Record<string, string> = {
    LOG_REQUESTS: 'false',
    SEARCH_LIMIT_PER_10_S: '0',
    DATA_DIR: dataDir,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
  try {
    // The account, its workspace and the root pages, through the API.
    const setup = await startServerProcess(env);
    let cookie: string;
    const rootIds: string[] = [];
    try {
      cookie = await signInToProcess(setup, EMAIL);
      for (let i = 0; i < ROOTS; i++) {
        const page = await fetchJson<{ data: { id: string } }>(`${setup.url}${S}/section/private`, {
          method: 'POST',
          cookie,
          body: JSON.stringify({ title: corpus.titles[i] }),
        });
        rootIds.push(page.data.id);
      }
    } finally {
      await setup.stop();
    }

    const { db } = connectDatabase({ databaseUrl: postgres?.url, sqliteFile: path.join(dataDir, 'workspace.sqlite') });
    let seedMs: number;
    let indexMs: number;
    let indexed: number;
    let entries: number;
    let trigrams: number;
    let sizeMb: number | null;
    try {
      const roots = await db.selectFrom('pages').selectAll().where('id', 'in', rootIds).execute();
      roots.sort((a, b) => rootIds.indexOf(a.id) - rootIds.indexOf(b.id));
      const user = await db.selectFrom('users').select('id').where('email', '=', EMAIL).executeTakeFirstOrThrow();
      process.stdout.write(`[${database}] seeding ${PAGES} pages, ${BLOCKS} blocks by direct inserts…\n`);
      [seedMs] = await timed(() => seed(db, corpus, roots, user.id));
      const queued = await db
        .selectFrom('search_queue')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      process.stdout.write(`[${database}] seeded in ${(seedMs / 1000).toFixed(1)} s; indexing ${queued.n} queued targets…\n`);
      [indexMs, indexed] = await timed(() => drainQueue(db));
      process.stdout.write(`[${database}] indexed in ${(indexMs / 1000).toFixed(1)} s\n`);
      if (postgres) await sql`vacuum analyze`.execute(db);
      entries = Number(
        (
          await db
            .selectFrom('search_entries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      trigrams = Number(
        (
          await db
            .selectFrom('search_trigrams')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      sizeMb = await indexSizeMb(db, !!postgres);
    } finally {
      await db.destroy();
    }

    // Queries against a fresh server process on that database.
    const server = await startServerProcess(env);
    try {
      /** Per step of the server's work (its Server-Timing header), every measured request's figure. */
      const steps = new Map<string, number[]>();
      let measuring = false;
      const search = async (q: string) => {
        const res = await fetch(`${server.url}${S}/search/text?q=${encodeURIComponent(JSON.stringify(q))}`, { headers: { cookie } });
        if (!res.ok) throw new Error(`search «${q}» → ${res.status} ${await res.text()}`);
        if (measuring)
          for (const [, name, ms] of (res.headers.get('server-timing') ?? '').matchAll(/(\w+);dur=([\d.]+)/g))
            steps.set(name, [...(steps.get(name) ?? []), Number(ms)]);
        return (await res.json()) as { data: WireSearchHit[]; meta: { hasMoreNext?: boolean } };
      };
      const firsts = new Map<string, number>();
      const answers = new Map<string, Awaited<ReturnType<typeof search>>>();
      for (const kind of kinds) firsts.set(kind.kind, (await timed(() => search(kind.queries[0].q)))[0]);
      for (let round = 0; round < WARMUP; round++) {
        for (const kind of kinds) for (const { q } of kind.queries) answers.set(q, await search(q));
      }
      const samples = new Map<string, number[]>(kinds.map((k) => [k.kind, []]));
      measuring = true;
      const perQuery = new Map<string, number[]>();
      for (let round = 0; round < SAMPLES; round++) {
        for (const kind of kinds) {
          const { q } = kind.queries[round % kind.queries.length];
          const [ms] = await timed(() => search(q));
          samples.get(kind.kind)?.push(ms);
          perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
        }
      }
      const kindResults: KindResult[] = kinds.map((kind) => {
        const times = samples.get(kind.kind) ?? [];
        return {
          kind: kind.kind,
          label: kind.label,
          firstMs: Number((firsts.get(kind.kind) ?? NaN).toFixed(1)),
          ...figures(times),
          max: Number(Math.max(...times).toFixed(1)),
          samples: times.length,
          queries: kind.queries.map(({ q, note, expectTitle }) => {
            const answer = answers.get(q);
            const hits = answer?.data ?? [];
            return {
              q,
              note,
              p50: figures(perQuery.get(q) ?? []).p50,
              pages: `${hits.length}${answer?.meta.hasMoreNext ? '+' : ''}`,
              fuzzy: hits.filter((h) => h.match.fuzzy).length,
              ...(expectTitle ? { foundExpected: hits.some((h) => h.page.title === expectTitle) } : {}),
            };
          }),
        };
      });
      const all = [...samples.values()].flat();
      // Where the server's time went: each step's p50 / p95 over all measured requests.
      const stepFigures = Object.fromEntries([...steps].map(([name, times]) => [name, figures(times)]));
      process.stdout.write(
        `[${database}] server steps, p50 / p95 ms: ${Object.entries(stepFigures)
          .map(([name, f]) => `${name} ${f.p50} / ${f.p95}`)
          .join(' · ')}\n`,
      );
      const exports = [];
      for (const format of ['markdown', 'json'] as const) exports.push(await exportWorkspace(server.url, server.pid, cookie, format));
      for (const k of kindResults) {
        for (const r of k.queries)
          process.stdout.write(
            `[${database}] ${k.kind.padEnd(10)} «${r.q}»: ${r.pages} pages${r.fuzzy ? ` (${r.fuzzy} by trigrams)` : ''}${r.foundExpected === false ? ' — NOT the page with the typo' : ''}, p50 ${r.p50} ms; ${r.note}\n`,
          );
      }
      // BENCH_HOLD=1: the seeded database stays up (PostgreSQL's URL and the owner's cookie printed)
      // until the file named by BENCH_HOLD is made, to measure a changed server against it.
      if (process.env.BENCH_HOLD) {
        process.stdout.write(
          `[${database}] held: DATABASE_URL=${postgres?.url ?? ''} DATA_DIR=${dataDir} cookie ${cookie}; make ${process.env.BENCH_HOLD} to go on\n`,
        );
        while (!fs.existsSync(process.env.BENCH_HOLD)) await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      return {
        database,
        pages: PAGES,
        blocks: BLOCKS,
        seedSeconds: Number((seedMs / 1000).toFixed(1)),
        indexSeconds: Number((indexMs / 1000).toFixed(1)),
        indexedTargets: indexed,
        entries,
        trigrams,
        indexSizeMb: sizeMb,
        kinds: kindResults,
        all: { ...figures(all), p99: Number(percentile(all, 99).toFixed(1)), samples: all.length },
        steps: stepFigures,
        exports,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await postgres?.stop();
    // BENCH_KEEP=1 keeps a SQLite run's data directory, to look into afterwards.
    if (process.env.BENCH_KEEP && !postgres) process.stdout.write(`[${database}] kept ${dataDir}\n`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

process.stdout.write(`making the text: ${PAGES} pages, ${BLOCKS} blocks…\n`);
const [corpusMs, corpus] = await timed(async () => makeCorpus(PAGES, BLOCKS));
const kinds = pickQueries(corpus);
process.stdout.write(
  `made in ${(corpusMs / 1000).toFixed(1)} s: ${corpus.wordsTotal} words, ${corpus.blockFrequency.size} distinct stems in blocks, a vocabulary of ${corpus.words.length} words\n`,
);

type Result = Awaited<ReturnType<typeof bench>>;
const kindFigure = (kind: string) => (r: Result) => {
  const k = r.kinds.find((x) => x.kind === kind) as KindResult;
  return `${k.p50} / ${k.p95}`;
};
await runBench(
  'search',
  (database) => bench(database, corpus, kinds),
  `Full-text search (GET search/text, sequential requests on loopback after ${WARMUP} warm-up rounds; ${PAGES} pages, ${BLOCKS} blocks, ${corpus.wordsTotal} words; p50 / p95 ms over ${SAMPLES} requests per kind, 4 queries each):`,
  [
    ['seeding by direct inserts, s', '—', (r) => String(r.seedSeconds)],
    ['indexing the queue (indexQueued until empty), s', '—', (r) => `${r.indexSeconds} (${Math.round(r.indexedTargets / r.indexSeconds)} targets/s)`],
    ['entries / title trigrams', '—', (r) => `${r.entries} / ${r.trigrams}`],
    ['search tables on disk, MB', '—', (r) => String(r.indexSizeMb ?? '?')],
    ...kinds.map((k): [string, string, (r: Result) => string] => [`${k.label} (${k.queries.map((q) => `«${q.q}»`).join(', ')})`, '—', kindFigure(k.kind)]),
    ['first request of each kind, before warm-up, ms', '—', (r) => r.kinds.map((k) => k.firstMs).join(' / ')],
    ['all queries p50 / p95', `p95 ≤ ${TARGET_P95_MS}`, (r) => `${r.all.p50} / **${r.all.p95}**`],
    ['all queries p99', '—', (r) => String(r.all.p99)],
    ...(['markdown', 'json'] as const).map((format): [string, string, (r: Result) => string] => [
      `the whole workspace exported as ${format} (a background job through the API): s, zip MB, server RSS before → peak MB`,
      '—',
      (r) => {
        const e = r.exports.find((x) => x.format === format)!;
        return `${e.seconds} s, ${e.zipMb} MB, ${e.rssBeforeMb} → ${e.rssPeakMb}`;
      },
    ]),
  ],
  { PAGES, BLOCKS, SAMPLES, WARMUP, ROOTS, corpusSeconds: Number((corpusMs / 1000).toFixed(1)), queries: kinds },
  { allP95Ms: TARGET_P95_MS },
);
