import { Worker } from 'node:worker_threads';
import { ImportError, type ImportDocument } from './readExport';
import { type ImportProblem } from '../../schema/importProblems';
import { workerScripts } from './workerScripts';

/**
 * Importing HTML files (issue 18, docs/import-export.md «HTML»): one `.html`/`.htm`, or a zip of
 * them with their pictures (ours, Notion's, Google Docs' or Word's «web page»), read by the
 * clipboard's HTML reader in jsdom's DOM (server/export/htmlRead.ts) — in a worker thread of its
 * own for each import (server/export/htmlWorker.ts, built to plain JavaScript: workerScripts.ts): jsdom is loaded only then, a big page's
 * seconds of parsing do not hold up the event loop, and the memory is given back when it ends.
 */

/**
 * The worker's heap: HTML whose DOMs need more is refused (422) rather than the server's memory
 * taken. Measured: a page of 8,000 blocks (0.7 MB of HTML) takes about 250 MB; this lets one of
 * some 15,000 blocks in.
 */
const HEAP_LIMIT_MB = 512;

/** What the worker answers (server/export/htmlRead.ts, `readHtmlFiles`): the document and the problems met, or why nothing was read. */
export type HtmlReading = { document: ImportDocument; problems: ImportProblem[] } | { refused: string };

/**
 * HTML files (a zip's entries by path, or one file) as our export's document: a page per
 * `.html`/`.htm` — with `markdown`, a page per `.md` too — laid out as Markdown's are. Rejects
 * with ImportError when no file holds anything readable, or the HTML is too big to read.
 */
export async function htmlToDocument(
  files: ReadonlyMap<string, Uint8Array>,
  options: { markdown?: boolean; heapLimitMb?: number } = {},
): Promise<{ document: ImportDocument; problems: ImportProblem[] }> {
  const scripts = await workerScripts();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(scripts.html), {
      workerData: { files, markdown: Boolean(options.markdown) },
      resourceLimits: { maxOldGenerationSizeMb: options.heapLimitMb ?? HEAP_LIMIT_MB },
    });
    let answered = false;
    worker.once('message', (reading: HtmlReading) => {
      answered = true;
      if ('refused' in reading) reject(new ImportError(reading.refused));
      else resolve(reading);
    });
    worker.once('error', (error: Error & { code?: string }) =>
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ImportError('the HTML is too big to read', true) : error),
    );
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the HTML reader ended without an answer (exit code ${code})`));
    });
  });
}
