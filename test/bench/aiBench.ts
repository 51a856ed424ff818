/**
 * `npm run bench` (AI part, `npm run bench:ai`): what our server adds to the time a model takes to
 * start answering, as shared/design/BENCH-METHOD.md says: the server in its own process
 * (server/main.ts, as `npm start` runs it, SQLite) with AI_BASE_URL pointed at a local model server
 * speaking the OpenAI streaming protocol (test/helpers/openaiServer.ts) that runs in this process,
 * beside the socket.io client that receives the stream: one clock for all the times.
 *
 * Per request (POST /api/ai/continue, then the `add` events on `aiproxy:{id}`):
 *   - stream: the model server writes its first content chunk → our client receives the first
 *     `add` (parsing the event stream, emitting on the socket): the brief's figure, target p95 < 20 ms;
 *   - before: our client starts the request → the model server receives the call (sign-in check,
 *     the channel check, the rate limit, connecting to the model);
 *   - added: request → first `add`, less the model's own time (call received → first chunk) =
 *     before + stream: the "time from request to first streamed token added by our server";
 *   - HTTP: the 202 answer's round trip.
 * The model answers each call with FIRST_DELAY ms of "thinking", then PIECES pieces PIECE_DELAY ms
 * apart. Sequential: REQUESTS requests one after another (after WARMUP not counted); concurrent:
 * the same number CONCURRENCY at a time (each on its own channel). Every request must end with an
 * `edit` holding the whole text. Prints a table, writes test/bench/results/ai-<time>.json, exits 1
 * when a request failed.
 *   BENCH_AI_REQUESTS=200 BENCH_AI_WARMUP=20 BENCH_AI_CONCURRENCY=10 npm run bench:ai
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import type { AiDelta, AiResult } from '../../schema/ai';
import { channels } from '../../schema/realtime';
import { startOpenAiServer } from '../helpers/openaiServer';
import { connectRealtime, request } from '../helpers/realtimeClient';
import { signInToProcess, startServerProcess } from '../helpers/serverProcess';

const REQUESTS = Number(process.env.BENCH_AI_REQUESTS ?? 200);
const WARMUP = Number(process.env.BENCH_AI_WARMUP ?? 20);
const CONCURRENCY = Number(process.env.BENCH_AI_CONCURRENCY ?? 10);
const FIRST_DELAY = 20;
const PIECE_DELAY = 5;
const PIECES = ['Продолжение', ' текста', ' идёт', ' своим', ' чередом', '.'];
const TARGET_P95_MS = 20;
const EMAIL = 'ai-bench@example.com';

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const round = (n: number, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
};

interface Sample {
  stream: number;
  before: number;
  added: number;
  http: number;
  model: number;
}

const fake = await startOpenAiServer({ fallback: { kind: 'stream', pieces: PIECES, firstDelayMs: FIRST_DELAY, delayMs: PIECE_DELAY } });
const server = await startServerProcess({
  AI_BASE_URL: fake.url,
  AI_MODEL: 'bench-model',
  AI_RATE_LIMIT_PER_MINUTE: '0',
  LOG_REQUESTS: 'false',
});
const sockets: Socket[] = [];
let failures = 0;

try {
  const cookie = await signInToProcess(server, EMAIL);

  /** A connection in a fresh aiproxy channel of its own. */
  async function channel(): Promise<{ socket: Socket; id: string }> {
    const socket = await connectRealtime(server.url, { cookie });
    sockets.push(socket);
    const id = crypto.randomUUID();
    const joined = await request(socket, 'join', { channel: channels.aiproxy(id) });
    if (!joined.ok) throw new Error(`join refused: ${JSON.stringify(joined.error)}`);
    return { socket, id };
  }

  /** One request, timed; null when it did not end with the whole text. */
  async function once(socket: Socket, id: string): Promise<Sample | null> {
    const name = channels.aiproxy(id);
    let firstAdd = 0;
    const done = new Promise<AiResult | null>((resolve) => {
      const timer = setTimeout(() => finish(null), 10_000);
      const onAdd = (payload: AiDelta) => {
        if (payload.channel === name && !firstAdd) firstAdd = performance.now();
      };
      const onEdit = (payload: AiResult) => payload.channel === name && finish(payload);
      const onError = (payload: { channel?: string }) => payload.channel === name && finish(null);
      function finish(result: AiResult | null) {
        clearTimeout(timer);
        socket.off('add', onAdd).off('edit', onEdit).off('error', onError);
        resolve(result);
      }
      socket.on('add', onAdd).on('edit', onEdit).on('error', onError);
    });
    const text = `Начало текста ${crypto.randomUUID()}`;
    const started = performance.now();
    const res = await fetch(`${server.url}/api/ai/continue`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ websocket_id: id, text, context: 'Контекст документа.' }),
    });
    const answered = performance.now();
    if (res.status !== 202) {
      console.error(`POST answered ${res.status}: ${await res.text()}`);
      return null;
    }
    const requestId = ((await res.json()) as { data: { requestId: string } }).data.requestId;
    const result = await done;
    const fakeRequest = fake.requests.find((r) => r.body?.messages?.[1]?.content === text);
    if (!result || result.requestId !== requestId || result.text !== PIECES.join('') || !fakeRequest || !firstAdd) return null;
    const firstChunk = fakeRequest.piecesSentAt[0];
    const model = firstChunk - fakeRequest.receivedAt;
    return { stream: firstAdd - firstChunk, before: fakeRequest.receivedAt - started, added: firstAdd - started - model, http: answered - started, model };
  }

  async function sequential(count: number, counted: boolean): Promise<Sample[]> {
    const { socket, id } = await channel();
    const samples: Sample[] = [];
    for (let i = 0; i < count; i++) {
      const sample = await once(socket, id);
      if (sample) samples.push(sample);
      else if (counted) failures++;
    }
    return samples;
  }

  async function concurrent(count: number): Promise<Sample[]> {
    const lanes = await Promise.all(Array.from({ length: CONCURRENCY }, () => channel()));
    const samples: Sample[] = [];
    let next = 0;
    await Promise.all(
      lanes.map(async ({ socket, id }) => {
        while (next < count) {
          next++;
          const sample = await once(socket, id);
          if (sample) samples.push(sample);
          else failures++;
        }
      }),
    );
    return samples;
  }

  await sequential(WARMUP, false);
  const wall = performance.now();
  const seq = await sequential(REQUESTS, true);
  const con = await concurrent(REQUESTS);
  const wallSeconds = round((performance.now() - wall) / 1000, 1);

  const summarize = (samples: Sample[]) => ({
    requests: samples.length,
    stream: stats(samples.map((s) => s.stream)),
    before: stats(samples.map((s) => s.before)),
    added: stats(samples.map((s) => s.added)),
    http: stats(samples.map((s) => s.http)),
    model: stats(samples.map((s) => s.model)),
  });
  const results = { sequential: summarize(seq), [`concurrent${CONCURRENCY}`]: summarize(con) };

  console.log(`\nAI streaming latency (ms), SQLite, ${REQUESTS} requests each (${failures} failed), ${os.cpus().length} cores, ${wallSeconds} s`);
  console.log(
    '| run | first chunk → first add p50 / p95 / p99 | request → model p50 / p95 | added in all p50 / p95 | HTTP 202 p50 / p95 | model’s own first chunk p50 | target p95 < 20 ms |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const [run, r] of Object.entries(results)) {
    console.log(
      `| ${run} | ${r.stream.p50} / ${r.stream.p95} / ${r.stream.p99} | ${r.before.p50} / ${r.before.p95} | ${r.added.p50} / ${r.added.p95} | ${r.http.p50} / ${r.http.p95} | ${r.model.p50} | ${r.stream.p95 < TARGET_P95_MS && r.added.p95 < TARGET_P95_MS ? 'met' : '**missed**'} |`,
    );
  }
  fs.mkdirSync('test/bench/results', { recursive: true });
  const file = `test/bench/results/ai-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  fs.writeFileSync(
    file,
    `${JSON.stringify({ method: { REQUESTS, WARMUP, CONCURRENCY, FIRST_DELAY, PIECE_DELAY, PIECES: PIECES.length, database: 'sqlite', cores: os.cpus().length }, wallSeconds, failures, results }, null, 2)}\n`,
  );
  console.log(`\nwritten ${file}`);
  // The server logs each request's action, sizes, times and outcome (never the texts).
  const logged = server
    .log()
    .split('\n')
    .find((line) => line.includes('"ai":'));
  if (!logged) throw new Error('the server logged no AI request');
  console.log(`a log line: ${logged}`);
} finally {
  for (const socket of sockets) socket.close();
  await server.stop();
  await fake.close();
}
if (failures > 0) {
  console.error(`${failures} requests failed`);
  process.exit(1);
}
