// A rendering worker: reads batches of content files with the same
// readRecord the main thread would use, so its records are identical.
// Compiled to lib/render-worker.js; build/emit/workers.ts starts it.
import { parentPort } from 'node:worker_threads';
import type { DocumentKind, DocumentRecord } from '../content/kinds.js';
import type { Source } from '../content/frontmatter.js';
import { readRecord } from './post-digest.js';

export interface Batch {
  id: number;
  jobs: { kind: DocumentKind; source: Source }[];
}

export type BatchResult = { id: number; records: DocumentRecord[] } | { id: number; error: string };

parentPort?.on('message', (batch: Batch) => {
  let result: BatchResult;
  try {
    result = { id: batch.id, records: batch.jobs.map((job) => readRecord(job.kind, job.source)) };
  } catch (error) {
    result = { id: batch.id, error: (error as Error)?.stack ?? String(error) };
  }
  parentPort!.postMessage(result);
});
