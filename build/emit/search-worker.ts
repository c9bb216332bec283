// The search index thread (issue 8): builds the index text from the sources
// it is started with (search-index.ts's indexText, the same code the main
// thread would run) and answers once. Compiled to lib/search-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { indexText, type SearchSource, type SearchWorkerReply } from './search-index.js';

const { sources, siteUrl } = workerData as { sources: SearchSource[]; siteUrl: string };
let reply: SearchWorkerReply;
try {
  reply = { text: indexText(sources, siteUrl) };
} catch (error) {
  reply = { error: (error as Error)?.stack ?? String(error) };
}
parentPort!.postMessage(reply);
