import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A local HTTP server that speaks the OpenAI chat-completions API the way OpenAI, Ollama,
 * llama.cpp and vLLM do (`POST /v1/chat/completions`; with `stream: true` a `text/event-stream`
 * of `data: {chunk}` events ending with `data: [DONE]`), driven by the test: what it answers to
 * each request is queued with `enqueue` (else `fallback`).
 */
export type FakeReply =
  /**
   * A normal stream: a first chunk with the role, one chunk per piece (`delayMs` apart, the first
   * after `firstDelayMs`), a chunk with `finish_reason: "stop"`, then `[DONE]`. `then: 'stall'`
   * keeps the connection open after the pieces without another byte; `'cut'` ends the response
   * after the pieces with neither a finish reason nor `[DONE]`. `fragment` writes every event in
   * three parts a few ms apart (splitting lines and UTF-8 characters); `crlf` ends lines with CRLF.
   * `reasoning` sends reasoning chunks (`delta.reasoning_content`) first, `delayMs` apart.
   */
  | {
      kind: 'stream';
      pieces: string[];
      delayMs?: number;
      firstDelayMs?: number;
      then?: 'done' | 'stall' | 'cut';
      fragment?: boolean;
      crlf?: boolean;
      reasoning?: string[];
    }
  /** An OpenAI-style error answer: `{ error: { message, type, param, code } }` with this status (and a Retry-After header, when given). */
  | { kind: 'error'; status: number; message?: string; type?: string; code?: string | null; retryAfter?: string }
  /** An `error` object inside a stream after some pieces (as vLLM and OpenRouter send). */
  | { kind: 'streamError'; pieces: string[]; error: { message: string; code?: number | string } }
  /** Bytes of its own (garbage, bad JSON, an HTML page), as `contentType` with `status`, then the end (or a stall). */
  | { kind: 'raw'; chunks: Array<string | Buffer>; status?: number; contentType?: string; delayMs?: number; then?: 'end' | 'stall' }
  /** The headers of a stream and then nothing at all. */
  | { kind: 'stall' }
  /** A whole (non-streamed) completion as JSON, as a server that ignores `stream: true` answers. */
  | { kind: 'json'; content: string };

export interface FakeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (null when it was not JSON). */
  body: { model?: string; stream?: boolean; messages?: Array<{ role: string; content: string }>; [key: string]: unknown } | null;
  /** performance.now() of this process when the request arrived / each content piece was written / the client went away. */
  receivedAt: number;
  piecesSentAt: number[];
  closedAt: number | null;
  /** The client closed the connection before the answer was complete. */
  abandoned: boolean;
}

export interface OpenAiServer {
  /** The base URL to give as AI_BASE_URL (ends with /v1). */
  url: string;
  requests: FakeRequest[];
  /** The answers to the next requests, in order. */
  enqueue(...replies: FakeReply[]): void;
  /** Forgets the queued answers (a test that failed half-way leaves none to the next one). */
  clearQueue(): void;
  /** What a request gets when nothing is queued (a short stream by default). */
  fallback: FakeReply | ((request: FakeRequest) => FakeReply);
  /** Resolves with request number `index` (0-based, in arrival order) once it has arrived. */
  requestAt(index: number, timeoutMs?: number): Promise<FakeRequest>;
  /** Resolves once the request's connection closed (complete, or abandoned by the client). */
  closed(request: FakeRequest, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The chunk objects of the real API. */
function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

export async function startOpenAiServer(options: { apiKey?: string; fallback?: FakeReply } = {}): Promise<OpenAiServer> {
  const queue: FakeReply[] = [];
  const requests: FakeRequest[] = [];

  const server = http.createServer({ noDelay: true }, (req, res) => {
    const request: FakeRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: null,
      receivedAt: performance.now(),
      piecesSentAt: [],
      closedAt: null,
      abandoned: false,
    };
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (raw += part));
    req.on('end', () => {
      try {
        request.body = JSON.parse(raw);
      } catch {
        request.body = null;
      }
      requests.push(request);
      res.on('close', () => {
        request.closedAt = performance.now();
        request.abandoned = !res.writableFinished;
      });
      void answer(request, res).catch(() => res.destroy());
    });
  });

  const fake: OpenAiServer = {
    url: '',
    requests,
    enqueue: (...replies) => queue.push(...replies),
    clearQueue: () => void queue.splice(0),
    fallback: options.fallback ?? { kind: 'stream', pieces: ['Hello', ', world', '!'] },
    async requestAt(index, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length <= index) {
        if (Date.now() > deadline) throw new Error(`request ${index} did not reach the fake model within ${timeoutMs} ms`);
        await sleep(5);
      }
      return requests[index];
    },
    async closed(request, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (request.closedAt === null) {
        if (Date.now() > deadline) throw new Error(`the request was still open after ${timeoutMs} ms`);
        await sleep(10);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  async function answer(request: FakeRequest, res: http.ServerResponse) {
    const error = (status: number, message: string, type: string, code: string | null = null, retryAfter?: string) => {
      res.writeHead(status, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) });
      res.end(JSON.stringify({ error: { message, type, param: null, code } }));
    };
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions')
      return error(404, `Unknown request URL: ${request.method} ${request.path}`, 'invalid_request_error', 'unknown_url');
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return error(401, 'Incorrect API key provided. You can find your API key at your provider.', 'invalid_request_error', 'invalid_api_key');
    }
    if (!request.body || !Array.isArray(request.body.messages)) return error(400, "'messages' is a required property", 'invalid_request_error');

    const reply = queue.shift() ?? (typeof fake.fallback === 'function' ? fake.fallback(request) : fake.fallback);
    const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
    const model = request.body.model ?? 'fake-model';
    const streamHeaders = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };
    const gone = () => res.destroyed || request.closedAt !== null;

    switch (reply.kind) {
      case 'error':
        return error(reply.status, reply.message ?? `fake error ${reply.status}`, reply.type ?? 'server_error', reply.code ?? null, reply.retryAfter);
      case 'json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }],
          }),
        );
        return;
      case 'stall':
        res.writeHead(200, streamHeaders);
        res.flushHeaders();
        return;
      case 'raw':
        res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'text/event-stream' });
        res.flushHeaders();
        for (const part of reply.chunks) {
          if (reply.delayMs) await sleep(reply.delayMs);
          if (gone()) return;
          res.write(part);
        }
        if (reply.then !== 'stall') res.end();
        return;
      case 'streamError':
      case 'stream': {
        res.writeHead(200, streamHeaders);
        res.flushHeaders();
        const fragment = reply.kind === 'stream' && reply.fragment;
        const eol = reply.kind === 'stream' && reply.crlf ? '\r\n' : '\n';
        const send = async (data: unknown) => {
          const bytes = Buffer.from(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`);
          if (!fragment) return void res.write(bytes);
          // Three parts: the second cut falls inside the payload (often inside a UTF-8 character), the last inside the line ending.
          const cuts = [Math.floor(bytes.length / 3), bytes.length - 1];
          res.write(bytes.subarray(0, cuts[0]));
          await sleep(3);
          res.write(bytes.subarray(cuts[0], cuts[1]));
          await sleep(3);
          res.write(bytes.subarray(cuts[1]));
        };
        await send(chunk(id, model, { role: 'assistant', content: '' }));
        if (reply.kind === 'stream') {
          for (const thought of reply.reasoning ?? []) {
            await sleep(reply.delayMs ?? 0);
            if (gone()) return;
            await send(chunk(id, model, { reasoning_content: thought }));
          }
        }
        for (const [index, piece] of reply.pieces.entries()) {
          const wait = reply.kind === 'stream' ? (index === 0 ? (reply.firstDelayMs ?? reply.delayMs) : reply.delayMs) : 0;
          if (wait) await sleep(wait);
          if (gone()) return;
          await send(chunk(id, model, { content: piece }));
          request.piecesSentAt.push(performance.now());
        }
        if (reply.kind === 'streamError') {
          await send({ error: { message: reply.error.message, type: 'server_error', code: reply.error.code ?? null } });
          res.end();
          return;
        }
        if (reply.then === 'stall') return;
        if (reply.then === 'cut') return void res.end();
        await send(chunk(id, model, {}, 'stop'));
        await send('[DONE]');
        res.end();
        return;
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
