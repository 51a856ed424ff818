// A test's reader of many uploads in one worker thread (server/export/importRead.test.ts): each
// upload of workerData.uploads is read by readExport (server/export/readExport.ts) in turn, and
// a message says how it ended — so the test can tell an upload the reader never finishes (an
// endless loop cannot be stopped on the thread running it) by the message that does not come.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { readExport, ImportError } = await tsImport('../../server/export/readExport.ts', import.meta.url);
for (const [index, { bytes, name }] of workerData.uploads.entries()) {
  try {
    const read = await readExport(bytes, name);
    parentPort.postMessage({ index, pages: read.document.pages.length, files: [...read.files.keys()] });
  } catch (error) {
    parentPort.postMessage({ index, refused: error instanceof ImportError ? error.message : null, error: String(error) });
  }
}
