// The search index thread: builds the index file from the sources
// it is started with (search-index.ts's indexFile, the same code the main
// thread would run, patching the previous build's index where it can), cuts
// its shards once the main thread names the build, and answers once, its
// bytes moved rather than copied. Compiled to lib/search-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { searchShards } from '../core/search/shards.js';
import { collectGarbage } from './gc.js';
import { indexFile, type SearchWorkerReply } from './search-index.js';
import type { PreviousIndex } from './search-patch.js';
import type { SearchSource } from './search-sources.js';

const { sources, siteUrl, previous } = workerData as {
  sources: SearchSource[];
  siteUrl: string;
  previous: PreviousIndex | null;
};
const named = new Promise<string>((resolve) => parentPort!.once('message', resolve));
let reply: SearchWorkerReply;
try {
  const { data, bytes, memo } = indexFile(sources, siteUrl, previous, collectGarbage);
  reply = { bytes, shards: searchShards(data, await named), memo };
} catch (error) {
  reply = { error: (error as Error)?.stack ?? String(error) };
}
parentPort!.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer as ArrayBuffer] : []);
