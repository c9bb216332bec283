// The search index thread (driven by search-thread.ts): reads the previous
// build's index file at once when it is started with one, then patches it
// with the job it is sent (search-index.ts's patchedFiles), or builds the
// index whole from every source (indexBytes, the same code the main thread
// would run), and answers once, its bytes moved rather than copied.
// Compiled to lib/search-worker.js.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from './gc.js';
import { indexBytes, patchedFiles, type SearchWorkerData, type SearchWorkerReply } from './search-index.js';
import { siteSearchLanguage } from './search-language.js';
import { readIndex, type IndexRead } from './search-patch.js';
import type { SearchWorkerStart } from './search-thread.js';

const { file } = workerData as SearchWorkerStart;
// Read at once, while the main thread loads the site; null when unreadable (the patch then fails, and the index is made whole).
let early: IndexRead | null = file ? readFileAt(file) : null;

parentPort!.once('message', async (data: SearchWorkerData) => {
  let reply: SearchWorkerReply;
  try {
    const language = await siteSearchLanguage(data.language);
    if (data.job)
      reply = patchedFiles(data.job, data.siteUrl, data.previous.bytes ? data.previous : { ...data.previous, read: early }, language) ?? {
        unpatched: true,
      };
    else {
      early = null;
      reply = indexBytes(data.sources, data.siteUrl, language, null, collectGarbage);
    }
  } catch (error) {
    reply = { error: (error as Error)?.stack ?? String(error) };
  }
  parentPort!.postMessage(reply, 'bytes' in reply ? [reply.bytes.buffer as ArrayBuffer] : []);
});

function readFileAt(path: string): IndexRead | null {
  try {
    return readIndex(readFileSync(path));
  } catch {
    return null;
  }
}
