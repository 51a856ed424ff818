/*
 * Reading the HTML of an import (server/export/htmlImport.ts) in a worker thread: jsdom and the
 * DOMs of a big page take hundreds of MB and seconds of CPU, none of which may stay in the
 * server's memory or hold up its event loop. One import per worker; it ends when it has answered.
 * Started from its build as plain JavaScript (workerScripts.ts).
 *
 * workerData: { files: Map<path, bytes>, markdown: boolean }. Message out: an HtmlReading
 * (server/export/htmlRead.ts) — our export's document and the problems met, or { refused }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readHtmlFiles } from './htmlRead';

const { files, markdown } = workerData as { files: Map<string, Uint8Array>; markdown: boolean };
parentPort!.postMessage(await readHtmlFiles(files, { markdown }));
