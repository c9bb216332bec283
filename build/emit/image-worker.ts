// The image worker (D44): sharp's decoding and resizing off the main thread.
// Compiled to lib/image-worker.js; build/emit/images.ts starts it only when an
// image misses the cache.
import { parentPort } from 'node:worker_threads';
import { ImageRejected, processImage, type Processed } from './image-process.js';

export interface ImageJob {
  id: number;
  bytes: Uint8Array;
  ext: string;
  variants: boolean;
}

export type ImageResult = { id: number; processed: Processed } | { id: number; rejected: string } | { id: number; error: string };

parentPort?.on('message', async (job: ImageJob) => {
  let result: ImageResult;
  try {
    result = { id: job.id, processed: await processImage(job.bytes, job.ext, job.variants) };
  } catch (error) {
    result =
      error instanceof ImageRejected
        ? { id: job.id, rejected: error.message }
        : { id: job.id, error: (error as Error)?.stack ?? String(error) };
  }
  parentPort!.postMessage(result);
});
