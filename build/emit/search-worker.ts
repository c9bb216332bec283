// The search index thread: patches the previous build's index with the job
// it is started with (search-index.ts's patchedFiles), or builds the index
// whole from every source (indexBytes, the same code the main thread would
// run), and answers once, its bytes moved rather than copied. Compiled to
// lib/search-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from './gc.js';
import { indexBytes, patchedFiles, type SearchWorkerData, type SearchWorkerReply } from './search-index.js';

const data = workerData as SearchWorkerData;
let reply: SearchWorkerReply;
try {
  if (data.job) reply = patchedFiles(data.job, data.siteUrl, data.previous) ?? { unpatched: true };
  else reply = indexBytes(data.sources, data.siteUrl, null, collectGarbage);
} catch (error) {
  reply = { error: (error as Error)?.stack ?? String(error) };
}
parentPort!.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer as ArrayBuffer] : []);
