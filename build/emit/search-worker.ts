// The search index thread: builds the index file from the sources
// it is started with (search-index.ts's indexBytes, the same code the main
// thread would run) and answers once, its bytes moved rather than copied.
// Compiled to lib/search-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { indexBytes, type SearchSource, type SearchWorkerReply } from './search-index.js';

const { sources, siteUrl, build } = workerData as { sources: SearchSource[]; siteUrl: string; build: string };
let reply: SearchWorkerReply;
try {
  reply = indexBytes(sources, siteUrl, build);
} catch (error) {
  reply = { error: (error as Error)?.stack ?? String(error) };
}
parentPort!.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer as ArrayBuffer] : []);
