// The search index thread: builds the index file and its shards from the
// sources it is started with (search-index.ts's indexBytes, the same code the
// main thread would run, patching the previous build's index where it can)
// and answers once, its bytes moved rather than copied. Compiled to
// lib/search-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from './gc.js';
import { indexBytes, type SearchWorkerReply } from './search-index.js';
import type { PreviousIndex } from './search-patch.js';
import type { SearchSource } from './search-sources.js';

const { sources, siteUrl, build, previous } = workerData as {
  sources: SearchSource[];
  siteUrl: string;
  build: string;
  previous: PreviousIndex | null;
};
let reply: SearchWorkerReply;
try {
  reply = indexBytes(sources, siteUrl, build, previous, collectGarbage);
} catch (error) {
  reply = { error: (error as Error)?.stack ?? String(error) };
}
parentPort!.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer as ArrayBuffer] : []);
