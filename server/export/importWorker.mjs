// Reading an import's upload (server/export/importRead.ts) in a worker thread: unpacking its zips
// and parsing its files take seconds of CPU and up to ARCHIVE_LIMITS of memory for a big archive,
// none of which may hold up the server's event loop or stay in its memory. One import per worker;
// it ends when it has answered.
//
// workerData: { bytes: Uint8Array (moved here), name: string }. Message out: an ImportWorkerAnswer,
// the files' buffers moved with it.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

// The server runs its TypeScript through tsx: the reader is loaded the same way here.
const { answerImport } = await tsImport('./importRead.ts', import.meta.url);
const { answer, transfer } = await answerImport(workerData.bytes, workerData.name);
parentPort.postMessage(answer, transfer);
