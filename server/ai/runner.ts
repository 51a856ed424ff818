import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AiAction, AiDelta, AiFailure, AiResult } from '../../schema/ai';
import type { AiConfig } from '../config';
import { AI_MESSAGES, AiError } from './errors';
import { createOfflineProvider } from './offline';
import { createOpenAiProvider } from './openai';
import type { AiProvider } from './provider';
import { createSpellChecker, type SpellChecker } from './spelling';

export interface AiJob {
  requestId: string;
  websocketId: string;
  action: AiAction;
  userId: string;
  text: string;
  context: string;
}

export interface AiRunner {
  /** Whether `action` can run on this server (generate and continue need a model). */
  available(action: AiAction): boolean;
  /** Runs a job in the background; its events go to `aiproxy:{websocketId}`. */
  start(job: AiJob, log: FastifyBaseLogger): void;
  close(): Promise<void>;
}

/** Why a job was stopped before its end. */
type StopReason = 'timeout' | 'superseded' | 'gone' | 'left' | 'closing';

/** How long a channel may stay without its owner (a reconnect) before its running job is given up. */
const GONE_GRACE_MS = 10_000;
/** How often a running job looks whether its channel still has its owner. */
const GONE_CHECK_MS = 2_000;
const THINK_START = '<think>';
const THINK_END = '</think>';

/**
 * The AI requests being answered (docs/ai.md): each streams its provider's pieces to its channel
 * as `add` events, then the whole text as `edit`, or an `error` with the spec's message and
 * reason. A new request on a channel stops the one still running there; a channel without its
 * owner for 10 s (gone, on any process) stops its job, and the owner leaving it stops it at once;
 * no token for `timeoutMs` fails it with 'timeout context'.
 * Improve without a model runs offline (server/ai/offline.ts).
 */
export function createAiRunner(app: FastifyInstance, config: AiConfig): AiRunner {
  const model = config.baseUrl ? createOpenAiProvider({ ...config, baseUrl: config.baseUrl }) : null;
  const checker: SpellChecker | null = !model && config.spellcheck ? createSpellChecker() : null;
  const offline = model ? null : createOfflineProvider(checker, (error) => app.log.warn({ err: error }, 'ai: offline spelling is off'));
  const running = new Map<string, { requestId: string; userId: string; controller: AbortController }>();

  const providerFor = (action: AiAction): AiProvider | null => model ?? (action === 'improve' ? offline : null);

  /**
   * Stops a job whose channel has been without its owner's connections for 10 s (they closed the
   * page or left the channel; a reconnect within that keeps it). Asked of every process, so an
   * owner connected to another one counts as well.
   */
  function watchOwner(job: AiJob, controller: AbortController): ReturnType<typeof setInterval> {
    let goneSince: number | null = null;
    let asking = false;
    const timer = setInterval(() => {
      if (asking || controller.signal.aborted) return;
      asking = true;
      app.realtime
        .ownsAiProxy(job.websocketId, job.userId)
        .then(
          (here) => {
            const now = performance.now();
            goneSince = here ? null : (goneSince ?? now);
            if (goneSince !== null && now - goneSince >= GONE_GRACE_MS - GONE_CHECK_MS / 2) controller.abort('gone' satisfies StopReason);
          },
          () => undefined,
        )
        .finally(() => (asking = false));
    }, GONE_CHECK_MS);
    timer.unref();
    return timer;
  }

  // Its owner left the channel on purpose (discarded the result, or asked again elsewhere): the
  // job stops at once if none of their connections is still in it (on any process).
  const unwatchLeaving = app.realtime.onAiProxyLeft((websocketId) => {
    const job = running.get(websocketId);
    if (!job) return;
    app.realtime.ownsAiProxy(websocketId, job.userId).then(
      (here) => {
        if (!here && running.get(websocketId) === job) job.controller.abort('left' satisfies StopReason);
      },
      () => undefined,
    );
  });

  async function run(job: AiJob, provider: AiProvider, controller: AbortController, log: FastifyBaseLogger) {
    const { requestId, websocketId, action } = job;
    const started = performance.now();
    let firstTokenMs: number | null = null;
    let text = '';
    let outcome = 'done';
    let failure: AiError | null = null;
    const watch = watchOwner(job, controller);
    const emit = (event: 'add' | 'edit' | 'error', payload: Omit<AiDelta, 'channel'> | Omit<AiResult, 'channel'> | Omit<AiFailure, 'channel'>) =>
      app.realtime.toAiProxy(websocketId, job.userId, event, payload);
    try {
      const pieces = cleanAnswer(guarded(provider.stream(action, job.text, job.context, controller.signal), controller, config.timeoutMs));
      for await (const delta of pieces) {
        firstTokenMs ??= performance.now() - started;
        text += delta;
        emit('add', { requestId, type: action, delta });
      }
      text = text.trimEnd();
      if (text === '') throw new AiError(AI_MESSAGES.empty, 'the model answered nothing');
      if (action === 'improve' && text === job.text.trim()) throw new AiError(AI_MESSAGES.nothingToChange);
      emit('edit', { requestId, type: action, text });
    } catch (error) {
      const stop = controller.signal.aborted ? (controller.signal.reason as StopReason) : null;
      if (stop && stop !== 'timeout') {
        outcome = `stopped: ${stop}`;
      } else {
        failure = stop === 'timeout' ? new AiError(AI_MESSAGES.timeout, `no token for ${config.timeoutMs} ms`) : error instanceof AiError ? error : null;
        if (!failure) {
          log.error({ err: error, ai: { requestId, action } }, 'ai: the request failed');
          failure = new AiError(AI_MESSAGES.unexpected, error instanceof Error ? error.message : String(error));
        }
        outcome = failure.message;
        emit('error', {
          requestId,
          type: action,
          message: failure.message,
          reason: failure.reason,
          ...(failure.retryAfter ? { retryAfter: failure.retryAfter } : {}),
        });
      }
    } finally {
      clearInterval(watch);
      if (running.get(websocketId)?.controller === controller) running.delete(websocketId);
      // What was asked and how it went; never the texts.
      const entry = {
        ai: {
          requestId,
          action,
          provider: provider.name,
          userId: job.userId,
          textChars: job.text.length,
          contextChars: job.context.length,
          resultChars: text.length,
          firstTokenMs: firstTokenMs === null ? null : Math.round(firstTokenMs),
          durationMs: Math.round(performance.now() - started),
          outcome,
          ...(failure?.status ? { status: failure.status } : {}),
          ...(failure?.detail ? { detail: failure.detail } : {}),
        },
      };
      if (failure && failure.message !== AI_MESSAGES.nothingToChange) log.warn(entry, `ai ${action}: ${outcome}`);
      else log.info(entry, `ai ${action}: ${outcome}`);
    }
  }

  return {
    available: (action) => providerFor(action) !== null,
    start(job, log) {
      const provider = providerFor(job.action);
      if (!provider) throw new Error(`no provider for ${job.action}`);
      running.get(job.websocketId)?.controller.abort('superseded' satisfies StopReason);
      const controller = new AbortController();
      running.set(job.websocketId, { requestId: job.requestId, userId: job.userId, controller });
      void run(job, provider, controller, log);
    },
    async close() {
      unwatchLeaving();
      for (const { controller } of running.values()) controller.abort('closing' satisfies StopReason);
      running.clear();
      await checker?.close();
    },
  };
}

/**
 * The provider's pieces, failing the stream when none comes for `timeoutMs` (first or mid-stream:
 * the controller is aborted with 'timeout') and stopping at once when the controller is aborted
 * for any reason, even if the provider does not listen to its signal.
 */
async function* guarded(source: AsyncIterable<string>, controller: AbortController, timeoutMs: number): AsyncGenerator<string> {
  const { signal } = controller;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const timer = setTimeout(() => controller.abort('timeout' satisfies StopReason), timeoutMs);
      const next = iterator.next();
      next.catch(() => undefined);
      let result: IteratorResult<string>;
      try {
        result = await Promise.race([next, aborted]);
      } finally {
        clearTimeout(timer);
      }
      if (result.done) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    // Stopped early: the provider is aborted (or ends on its own); let it wind down.
    if (!finished) iterator.return?.().catch(() => undefined);
  }
}

/**
 * The answer without what is not the text: whitespace before it, and a leading
 * `<think>…</think>` of reasoning models that write their thoughts into the content. Empty
 * pieces (signs of life) are dropped. The start is held back only while it could still be
 * `<think>`.
 */
export async function* cleanAnswer(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  let head = '';
  let thinking = false;
  let started = false;
  for await (const piece of pieces) {
    if (piece === '') continue;
    if (started) {
      yield piece;
      continue;
    }
    head += piece;
    for (;;) {
      if (thinking) {
        const end = head.indexOf(THINK_END);
        if (end < 0) {
          // Keep only what may be the start of a split '</think>'.
          head = head.slice(-(THINK_END.length - 1));
          break;
        }
        head = head.slice(end + THINK_END.length);
        thinking = false;
        continue;
      }
      head = head.replace(/^\s+/, '');
      if (head === '') break;
      if (head.startsWith(THINK_START)) {
        head = head.slice(THINK_START.length);
        thinking = true;
        continue;
      }
      if (THINK_START.startsWith(head)) break;
      started = true;
      yield head;
      head = '';
      break;
    }
  }
  if (!started && !thinking && head !== '') yield head;
}
