// Reading the HTML of an import (server/export/htmlImport.ts) in a worker thread: jsdom and the
// DOMs of a big page take hundreds of MB and seconds of CPU, none of which may stay in the
// server's memory or hold up its event loop. One import per worker; it ends when it has answered.
//
// workerData: { files: Map<path, bytes>, markdown: boolean }. Message out: an HtmlReading
// (server/export/htmlRead.ts) — our export's document and the problems met, or { refused }.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

// The server runs its TypeScript through tsx: the reader is loaded the same way here.
const { readHtmlFiles } = await tsImport('./htmlRead.ts', import.meta.url);
parentPort.postMessage(await readHtmlFiles(workerData.files, { markdown: workerData.markdown }));
