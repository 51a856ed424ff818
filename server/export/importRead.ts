import { Worker } from 'node:worker_threads';
import type { ImportProblem } from '../../schema/importProblems';
import { ImportError } from './archive';
import { readExport, type ImportDocument } from './readExport';
import { workerScripts } from './workerScripts';

/**
 * Reading an import's upload off the event loop (issue 33, docs/import-export.md «Reading an
 * upload»): the zips are unpacked and the files parsed — our JSON, Markdown, a Notion export,
 * HTML — in a worker thread of their own for each import (server/export/importWorker.ts runs
 * `readExport` of server/export/readExport.ts, built to plain JavaScript: workerScripts.ts), so a big archive's seconds of inflating and
 * parsing hold up nobody else's request, an endless loop or a heap blown by the upload ends the
 * worker, not the server, and the memory is given back when it ends. The files come back
 * transferred, not copied.
 */

/** What an upload holds: our export's document, the files it names by path, the problems met. */
export interface ImportReading {
  document: ImportDocument;
  files: Map<string, Uint8Array>;
  problems: ImportProblem[];
}

/** The worker's answer: the reading, or why the upload is refused (an ImportError's message), or a failure of the reader itself. */
export type ImportWorkerAnswer = { reading: ImportReading } | { refused: string; tooBig: boolean } | { failed: string };

/**
 * The worker's heap: an upload whose reading needs more (a huge export.json's objects) is refused
 * (422) rather than the server's memory taken. The files' bytes are outside it (array buffers),
 * bounded by ARCHIVE_LIMITS.
 */
const HEAP_LIMIT_MB = 2048;

/**
 * How long reading an upload may take before the worker is ended and the upload refused (422
 * `import.too_big`): the largest archive the limits allow is read in about 15 s on 2 busy cores
 * (bench:import), so this is only ever met by a reader that would not end.
 */
export const READ_TIMEOUT_MS = 120_000;

export interface ReadImportOptions {
  heapLimitMb?: number;
  /** Ends the worker and rejects with ImportError after this long (READ_TIMEOUT_MS when not given). */
  timeoutMs?: number;
  /** Ends the worker and rejects when aborted (the person who sent the upload went away). */
  signal?: AbortSignal;
}

/**
 * An upload (`name` is the file's name: `.md`, `.html`, `.json`, a zip…) read in a worker thread
 * into our export's document. Rejects with ImportError when the upload is not something we
 * import, is beyond the archive limits, or needs more than the worker's heap.
 */
export async function readImport(bytes: Uint8Array, name: string, options: ReadImportOptions = {}): Promise<ImportReading> {
  const scripts = await workerScripts();
  return new Promise((resolve, reject) => {
    // The upload is moved into the worker, not copied: a copy of it of its own first (the caller's may be a pooled Buffer).
    const upload = new Uint8Array(bytes);
    const worker = new Worker(new URL(scripts.import), {
      workerData: { bytes: upload, name, scripts },
      transferList: [upload.buffer],
      resourceLimits: { maxOldGenerationSizeMb: options.heapLimitMb ?? HEAP_LIMIT_MB },
    });
    let settled = false;
    const settle = (answer: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      answer();
    };
    const timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
    const timer = setTimeout(() => {
      settle(() => reject(new ImportError(`the upload could not be read within ${timeoutMs} ms`, true)));
      void worker.terminate();
    }, timeoutMs);
    const abort = () => {
      settle(() => reject(new Error('the import was given up: its sender went away')));
      void worker.terminate();
    };
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
    worker.once('message', (answer: ImportWorkerAnswer) =>
      settle(() => {
        if ('reading' in answer) resolve(answer.reading);
        else if ('refused' in answer) reject(new ImportError(answer.refused, answer.tooBig));
        else reject(new Error(`reading the import failed: ${answer.failed}`));
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ImportError('the upload is too big to read', true) : error)),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`the import reader ended without an answer (exit code ${code})`))));
  });
}

/** The worker's side: the upload read, as the message to post and the buffers to move with it (each once). */
export async function answerImport(bytes: Uint8Array, name: string): Promise<{ answer: ImportWorkerAnswer; transfer: ArrayBuffer[] }> {
  try {
    const read = await readExport(bytes, name);
    // Only the files the document names go back to the server: the pages themselves and files
    // nothing shows (an archive's 256 MB of data beside its pages) stay here and end with the
    // worker, rather than land in the server's heap and set off its garbage collector.
    const named = new Set(read.document.files.map((file) => file.path));
    const reading = { ...read, files: new Map([...read.files].filter(([path]) => named.has(path))) };
    const buffers = new Set<ArrayBuffer>();
    for (const file of reading.files.values()) if (file.buffer instanceof ArrayBuffer) buffers.add(file.buffer);
    return { answer: { reading }, transfer: [...buffers] };
  } catch (error) {
    if (error instanceof ImportError) return { answer: { refused: error.message, tooBig: error.tooBig }, transfer: [] };
    // A string too long for the engine (a file of hundreds of MB read as text) is the upload's fault, not the server's.
    if (error instanceof RangeError && /string length/i.test(error.message))
      return { answer: { refused: 'the upload is too big to read', tooBig: true }, transfer: [] };
    return { answer: { failed: error instanceof Error ? (error.stack ?? error.message) : String(error) }, transfer: [] };
  }
}
