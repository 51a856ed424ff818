/*
 * Reading an import's upload (server/export/importRead.ts) in a worker thread: unpacking its zips
 * and parsing its files take seconds of CPU and up to ARCHIVE_LIMITS of memory for a big archive,
 * none of which may hold up the server's event loop or stay in its memory. One import per worker;
 * it ends when it has answered. Started from its build as plain JavaScript (workerScripts.ts).
 *
 * workerData: { bytes: Uint8Array (moved here), name: string, scripts: WorkerScripts }. Message
 * out: an ImportWorkerAnswer, the files' buffers moved with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { answerImport } from './importRead';
import { useWorkerScripts, type WorkerScripts } from './workerScripts';

const { bytes, name, scripts } = workerData as { bytes: Uint8Array; name: string; scripts: WorkerScripts };
useWorkerScripts(scripts);
const { answer, transfer } = await answerImport(bytes, name);
parentPort!.postMessage(answer, transfer);
