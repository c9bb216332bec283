// Image work off the main thread (D44): one worker running sharp, started
// only when an image misses the cache. sharp spreads one image's work over
// libuv's threads itself, so one worker with a few images in flight keeps
// the cores busy without holding every decoded image at once.
import { Worker } from 'node:worker_threads';
import { ImageRejected, processImage, type Processed } from './image-process.js';
import type { ImageJob, ImageResult } from './image-worker.js';
import { workerScript } from './workers.js';

const IN_FLIGHT = 4;

export interface ImageTask {
  bytes: Uint8Array;
  ext: string;
  /** False to check the image only (folio check): no variants are made. */
  variants: boolean;
}

/** Processes every task; a rejected image (corrupt, wrong type) is its reason, never a thrown error. */
export async function processAll(tasks: ImageTask[]): Promise<(Processed | { rejected: string })[]> {
  if (!tasks.length) return [];
  const script = workerScript('image-worker');
  // Run from TypeScript sources without a compiled worker (some tests): the same code, in this thread.
  if (!script) return Promise.all(tasks.map((t) => processImage(t.bytes, t.ext, t.variants).catch(rejection)));
  const worker = new Worker(script);
  const results: (Processed | { rejected: string })[] = new Array(tasks.length);
  try {
    await new Promise<void>((done, fail) => {
      let next = 0;
      let finished = 0;
      const send = () => {
        if (next >= tasks.length) return;
        const id = next++;
        worker.postMessage({ id, ...tasks[id]! } satisfies ImageJob);
      };
      worker.on('message', (message: ImageResult) => {
        if ('error' in message) return fail(new Error(`The image worker failed: ${message.error}`));
        results[message.id] = 'processed' in message ? message.processed : { rejected: message.rejected };
        if (++finished === tasks.length) done();
        else send();
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`The image worker stopped (exit code ${code}).`)));
      for (let k = 0; k < IN_FLIGHT; k++) send();
    });
    return results;
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}

function rejection(error: unknown): { rejected: string } {
  if (error instanceof ImageRejected) return { rejected: error.message };
  throw error;
}
