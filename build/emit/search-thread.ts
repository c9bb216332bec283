// The search index thread (search-worker.ts), as the main thread drives it.
// `folio build` starts it before it reads the content, with the path of the
// previous index file, which the thread reads, hashes and parses while the
// main thread loads and assembles the site (at 10,000 posts, 0.3 s of file
// and 0.2 s of start-up off the edit's longest path); emit() then sends it
// the job. Started later, it is sent the previous file's bytes instead.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SEARCH_INDEX_PATH } from '../core/files.js';
import type { SearchFiles } from './search-files.js';
import type { SearchWorkerData, SearchWorkerReply } from './search-index.js';
import { workerScript } from './workers.js';

/** Below this size the previous index is read when it is needed: a site that small may not use the thread at all. */
const EARLY_MIN_BYTES = 256 * 1024;

/** What the search worker is started with: the previous index file to read at once, if any. */
export interface SearchWorkerStart {
  file: string | null;
}

export class SearchThread {
  private readonly worker: Worker;
  private readonly failed: Promise<never>;
  private stopped = false;

  /** Started with `file`, the thread reads the previous index itself: it is then sent no bytes. */
  constructor(
    script: string,
    readonly file: string | null,
  ) {
    this.worker = new Worker(script, { workerData: { file } satisfies SearchWorkerStart });
    // Until it has a job, the thread keeps no build alive that ends without one.
    this.worker.unref();
    this.failed = new Promise<never>((_, reject) => {
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`The search index thread stopped (exit code ${code}) before it answered.`)));
    });
    this.failed.catch(() => undefined);
  }

  /** The thread's files, or null when it could not patch the previous index (the artifact then makes the index whole). */
  run(data: SearchWorkerData): Promise<SearchFiles | null> {
    this.worker.ref();
    // The previous index file (16 MB at 10,000 posts) and its term shards (6 MB) are moved, not copied:
    // copied, the index took the thread 0.2 s to receive, and the shards this thread 40-100 ms to send.
    const moved = [data.previous?.bytes, ...(data.previous?.terms?.files ?? [])].filter(ownsItsBuffer);
    const answered = new Promise<SearchFiles | null>((resolve, reject) => {
      this.worker.once('message', (reply: SearchWorkerReply) => {
        this.stop();
        if ('bytes' in reply) resolve(reply);
        else if ('unpatched' in reply) resolve(null);
        else reject(new Error(`The search index thread failed: ${reply.error}`));
      });
    });
    this.worker.postMessage(data, [...new Set(moved.map((b) => b.buffer as ArrayBuffer))]);
    return Promise.race([answered, this.failed]);
  }

  /** Ends the thread; a build that did not use it calls this too. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    void this.worker.terminate();
  }
}

/** Whether these bytes are the whole of their buffer, which can then be moved to the thread without taking anything else with it. */
function ownsItsBuffer(bytes: Uint8Array | null | undefined): bytes is Uint8Array {
  return !!bytes && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}

/** The search thread for a rebuild of `out`, started now to read its previous index, when that index is large enough to be worth it. */
export async function earlySearchThread(out: string): Promise<SearchThread | null> {
  const script = workerScript('search-worker');
  const file = join(out, SEARCH_INDEX_PATH);
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  return script && size >= EARLY_MIN_BYTES ? new SearchThread(script, file) : null;
}
