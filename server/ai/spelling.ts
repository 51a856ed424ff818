import { Worker } from 'node:worker_threads';

/** A worker unused this long is ended (with its dictionary, ~100 MB); the next check starts it again. */
const IDLE_MS = 10 * 60 * 1000;

type WorkerMessage = { ready: true } | { failed: string } | { id: number; fixes: Record<string, string> };

export interface SpellChecker {
  /**
   * The fixes for those of `words` (lowercase Russian words) that are misspelled and have exactly
   * one suggestion one edit away; words not reached within `budgetMs` of suggesting stay as they
   * are. Rejects when the dictionary cannot be loaded.
   */
  fixes(words: string[], budgetMs: number): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * The Russian spelling checker (nspell with dictionary-ru, its forms found by their suffixes) in a worker thread
 * (server/ai/spellWorker.mjs), started on first use and ended after 10 idle minutes.
 */
export function createSpellChecker(): SpellChecker {
  let worker: Worker | null = null;
  let ready: Promise<void> | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  /** Set once the dictionary failed to load: it is not tried again (that costs seconds each time). */
  let broken: Error | null = null;
  const pending = new Map<number, { resolve: (fixes: Record<string, string>) => void; reject: (error: Error) => void }>();

  function stop() {
    clearTimeout(idleTimer);
    const ending = worker;
    worker = null;
    ready = null;
    for (const { reject } of pending.values()) reject(new Error('the spelling checker stopped'));
    pending.clear();
    return ending ? ending.terminate().then(() => undefined) : Promise.resolve();
  }

  function start(): Promise<void> {
    if (ready) return ready;
    const current = new Worker(new URL('./spellWorker.mjs', import.meta.url));
    current.unref();
    worker = current;
    ready = new Promise<void>((resolve, reject) => {
      current.on('message', (message: WorkerMessage) => {
        if ('ready' in message) return resolve();
        if ('failed' in message) {
          broken = new Error(`the Russian dictionary could not be loaded: ${message.failed}`);
          reject(broken);
          void stop();
          return;
        }
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        waiting?.resolve(message.fixes);
      });
      current.on('error', (error) => {
        reject(error);
        if (worker === current) void stop();
      });
      current.on('exit', () => {
        reject(new Error('the spelling checker exited'));
        if (worker === current) void stop();
      });
    });
    return ready;
  }

  return {
    async fixes(words, budgetMs) {
      if (words.length === 0) return {};
      if (broken) throw broken;
      clearTimeout(idleTimer);
      await start();
      const current = worker;
      if (!current) throw new Error('the spelling checker stopped');
      const id = nextId++;
      const answer = new Promise<Record<string, string>>((resolve, reject) => pending.set(id, { resolve, reject }));
      current.postMessage({ id, words, budgetMs });
      try {
        return await answer;
      } finally {
        if (pending.size === 0 && worker === current) {
          idleTimer = setTimeout(() => void stop(), IDLE_MS);
          idleTimer.unref();
        }
      }
    },
    close: stop,
  };
}
