// Rendering across the cores: a small pool of worker threads, each
// with its own frozen unified processor, reads batches of content files. The
// main thread only hands out batches and keeps the results in input order,
// so the records (and so the output) do not depend on which worker ran what.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DocumentKind, DocumentRecord } from '../content/kinds.js';
import type { Source } from '../content/frontmatter.js';
import type { Batch, BatchResult } from './render-worker.js';

export interface Job {
  kind: DocumentKind;
  source: Source;
}

/** Below this many files to render, starting workers costs more than it saves. */
export const MIN_JOBS_FOR_WORKERS = 200;

/**
 * The compiled worker: beside the compiled CLI (lib/), or, when folio runs
 * from its TypeScript sources (the tests), the one `npm run compile` wrote.
 */
export function workerScript(name = 'render-worker'): string | null {
  for (const candidate of [`./${name}.js`, `../../lib/${name}.js`]) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  return null;
}

/** How many workers to use by default: the main thread renders too, so one fewer than the cores. */
export function defaultWorkers(): number {
  return Math.max(0, availableParallelism() - 1);
}

export class RenderPool {
  private readonly workers: Worker[];
  private closed = false;

  private constructor(script: string, count: number) {
    this.workers = Array.from({ length: count }, () => new Worker(script));
  }

  /** Starts `count` workers now (they load their modules while the caller reads files), or null when none can run. */
  static start(count: number): RenderPool | null {
    const script = workerScript();
    if (!script || count < 1) return null;
    return new RenderPool(script, count);
  }

  get size(): number {
    return this.workers.length;
  }

  /**
   * Reads every job; results are in the order of `jobs`. The calling thread
   * renders batches too (with `local`, the same readDocument), so it does
   * useful work while the workers start and the pool needs one worker fewer
   * than there are cores. `progress` is told how many jobs are done.
   */
  async run(jobs: Job[], local: (job: Job) => DocumentRecord, progress?: (done: number) => void): Promise<DocumentRecord[]> {
    const results: DocumentRecord[] = new Array(jobs.length);
    const threads = this.workers.length + 1;
    // Batches shrink as the work runs out (guided scheduling), so no thread
    // waits long at the end for another's last large batch.
    const size = () => Math.max(4, Math.min(32, Math.ceil((jobs.length - next) / (threads * 4))));
    let next = 0;
    let done = 0;
    let pending = 0;
    let failure: Error | null = null;
    let wake: (() => void) | null = null;
    const nudge = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const take = () => {
      if (next >= jobs.length) return null;
      const start = next;
      next = Math.min(jobs.length, next + size());
      return start;
    };
    const send = (worker: Worker) => {
      const start = take();
      if (start === null) return;
      pending++;
      worker.postMessage({ id: start, jobs: jobs.slice(start, next) } satisfies Batch);
    };
    const cleanups = this.workers.map((worker) => {
      const onMessage = (message: BatchResult) => {
        pending--;
        if ('error' in message) failure ??= new Error(`A rendering worker failed: ${message.error}`);
        else {
          message.records.forEach((r, i) => (results[message.id + i] = r));
          done += message.records.length;
          progress?.(done);
          send(worker);
        }
        nudge();
      };
      const onError = (error: Error) => {
        failure ??= error;
        nudge();
      };
      const onExit = (code: number) => {
        if (!this.closed) failure ??= new Error(`A rendering worker stopped (exit code ${code}).`);
        nudge();
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      return () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
    });
    try {
      // Two batches in flight per worker, so none waits for the busy main thread.
      for (const worker of this.workers) for (let k = 0; k < 2; k++) send(worker);
      for (;;) {
        if (failure) throw failure;
        const start = take();
        if (start === null) break;
        const end = next;
        for (let i = start; i < end; i++) results[i] = local(jobs[i]!);
        done += end - start;
        progress?.(done);
        // Let the workers' replies in, so they get their next batch.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      while (pending > 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
      return results;
    } finally {
      for (const c of cleanups) c();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
