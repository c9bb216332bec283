// The two ways files reach a staging directory (atomic.ts): synchronous
// writes on threads of their own, in batches, or asynchronous writes on this
// thread when the compiled worker is not there. Both link a file the previous
// output already has instead of writing it again (D56).
import { constants } from 'node:fs';
import { copyFile, link, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterLinkFailure, createFlag, unlinkFresh } from './prelink.js';
import { spliceFile, type Edit } from './splice-file.js';
import type { WriteBatch, WriteOp, WriteReply } from './write-worker.js';
import { workerScript } from './workers.js';

/** Writes at once on this thread. */
const CONCURRENCY = 64;

/** Where the files of a staging directory are written from. */
export interface Writer {
  /**
   * Queues a write; resolves when there is room for the next one, rejects
   * after a failed one. The body is the writer's from then on: a large one's
   * bytes may be moved to another thread.
   */
  write(path: string, body: Uint8Array | string): Promise<void>;
  /**
   * Links the file at `path` of `from` (a directory) to the same path in the
   * staging directory. A promise only when the caller must wait for room: a
   * build that keeps 30,000 files would otherwise wait on as many promises.
   */
  link(path: string, from: string): Promise<void> | void;
  /**
   * Links each of `paths` from `from` into the staging directory, and
   * resolves once all are there (prelink.ts) with those `from` does not
   * have. Every write and splice after it replaces the file at its path
   * rather than write through a link; none may start before this resolves.
   * With `replace`, the staging directory holds files already (a spare
   * output, spare.ts): each of `paths` there is removed first, and stays
   * removed where `from` has none.
   */
  prelink(paths: readonly string[], from: string, replace?: boolean): Promise<string[]>;
  /** Writes the file at `path` of `from` (a directory) with `edits` applied to the same path in the staging directory; `size` is the result's. */
  splice(path: string, from: string, edits: readonly Edit[], size: number): Promise<void>;
  /** Waits for every queued write; rejects with the first failure. */
  flush(): Promise<{ files: number; bytes: number }>;
  close(): Promise<void>;
}

/** Asynchronous writes on this thread, at most CONCURRENCY at once. */
export function fsWriter(staging: string): Writer {
  const dirs = new Map<string, Promise<unknown>>([[staging, Promise.resolve()]]);
  const ensureDir = (dir: string): Promise<unknown> => {
    let made = dirs.get(dir);
    if (!made) {
      made = mkdir(dir, { recursive: true });
      dirs.set(dir, made);
    }
    return made;
  };
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  let files = 0;
  let bytes = 0;
  let replacing = false;
  const linkTo = async (path: string, from: string, missing?: string[], replace?: boolean) => {
    const full = join(staging, path);
    const source = join(from, path);
    await ensureDir(dirname(full));
    if (replace) unlinkFresh(full);
    try {
      await link(source, full);
    } catch (error) {
      if (afterLinkFailure(error, missing !== undefined) === 'missing') return void missing!.push(path);
      await copyFile(source, full, constants.COPYFILE_EXCL);
    }
    files++;
  };
  const queue = async (task: () => Promise<void>) => {
    if (failure) throw failure;
    const p: Promise<void> = task()
      .catch((error) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
    if (failure) throw failure;
  };
  return {
    write: (path, body) =>
      queue(async () => {
        const full = join(staging, path);
        await ensureDir(dirname(full));
        await writeFile(full, body, { flag: createFlag(full, replacing) });
        files++;
        bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      }),
    link: (path, from) => queue(() => linkTo(path, from)),
    async prelink(paths, from, replace) {
      replacing = true;
      const missing: string[] = [];
      for (const path of paths) await queue(() => linkTo(path, from, missing, replace));
      await Promise.all(inFlight);
      if (failure) throw failure;
      return missing;
    },
    splice: (path, from, edits, size) =>
      queue(async () => {
        const full = join(staging, path);
        await ensureDir(dirname(full));
        spliceFile(join(from, path), full, edits, createFlag(full, replacing));
        files++;
        bytes += size;
      }),
    async flush() {
      await Promise.all(inFlight);
      if (failure) throw failure;
      return { files, bytes };
    },
    async close() {
      failure ??= new Error('The build was stopped.');
      await Promise.allSettled(inFlight);
    },
  };
}

const BATCH_FILES = 128;
/** Links are cheap for the thread (one system call) and cost the main thread only their path. */
const BATCH_LINKS = 2048;
/**
 * Writing threads. Creating a file costs about half a millisecond of kernel
 * time here, and at 10,000 posts one thread writing 31,854 files was the
 * longest part of the build; two wrote 3,300 files in 2.0 s against 2.7 s,
 * and took the 10,000-post emit phase from 34-36 s to 27 s (BENCHMARKS.md).
 * Over a prelinked output (an incremental build) the second starts only once
 * this many files are queued to be written: an edit writes some 80, and a
 * thread's start-up is CPU that the build's own thread wants meanwhile.
 */
const WRITE_THREADS = 2;
const SECOND_THREAD_FILES = 1024;
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCHES_IN_FLIGHT = 8;
const LARGE_FILE = 1024 * 1024;

/**
 * Synchronous writes on threads of their own (write-worker.ts), in batches,
 * so the main thread spends its time on respond() rather than on system
 * calls. Null when the compiled worker is not there (the TypeScript sources
 * without a compile), and then fsWriter does the same work.
 */
export function threadWriter(staging: string): Writer | null {
  const script = workerScript('write-worker');
  if (!script) return null;
  const workers: Worker[] = [];
  let ops: WriteOp[] = [];
  let size = 0;
  let id = 0;
  let pending = 0;
  let files = 0;
  /** Files written or spliced, not linked: what the second thread waits for. */
  let queued = 0;
  let bytes = 0;
  let failure: Error | null = null;
  let closed = false;
  let replacing = false;
  /** The prelink batches not yet done, and the paths they did not find. */
  const linking = new Set<number>();
  const missing: string[] = [];
  // Every waiter, not only the last: a prelink and a write may wait at once.
  let waiting: (() => void)[] = [];
  const nudge = () => {
    const woken = waiting;
    waiting = [];
    for (const w of woken) w();
  };
  const start = () => {
    const worker = new Worker(script);
    workers.push(worker);
    worker.on('message', (reply: WriteReply) => {
      pending--;
      linking.delete(reply.id);
      if (reply.missing) missing.push(...reply.missing);
      if (reply.error) failure ??= Object.assign(new Error(reply.error.message), { code: reply.error.code, path: reply.error.path });
      nudge();
    });
    worker.on('error', (error) => {
      failure ??= error;
      nudge();
    });
    worker.on('exit', (code) => {
      if (!closed) failure ??= new Error(`A writing thread stopped (exit code ${code}).`);
      pending = 0;
      nudge();
    });
  };
  start();
  let transfer: ArrayBuffer[] = [];
  let links: { from: string; paths: string[] } | null = null;
  const send = (worker?: Worker) => {
    if (links) {
      ops.push({ op: 'links', from: links.from, to: staging, paths: links.paths });
      links = null;
    }
    if (!ops.length) return;
    // Batches go round the threads unless one is named: creating files is mostly the kernel's work, which runs on both cores.
    if (!worker && workers.length < WRITE_THREADS && (!replacing || queued >= SECOND_THREAD_FILES)) start();
    (worker ?? workers[id % workers.length]!).postMessage({ id: id++, ops } satisfies WriteBatch, transfer);
    pending++;
    ops = [];
    size = 0;
    transfer = [];
  };
  const until = async (ready: () => boolean) => {
    while (!ready() && !failure) await new Promise<void>((resolve) => waiting.push(resolve));
    if (failure) throw failure;
  };
  const add = async (op: WriteOp, length: number) => {
    if (failure) throw failure;
    ops.push(op);
    size += length;
    files++;
    queued++;
    if (ops.length >= BATCH_FILES || size >= BATCH_BYTES) send();
    if (pending >= BATCHES_IN_FLIGHT) await until(() => pending < BATCHES_IN_FLIGHT);
  };
  return {
    write(path, body) {
      const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      bytes += length;
      const op: WriteOp = { op: 'write', path: join(staging, path), body, replace: replacing };
      if (length < LARGE_FILE) return add(op, length);
      // A large body (a feed, llms-full.txt at 10,000 posts: 20-30 MB) goes at
      // once, its bytes moved rather than copied. Written from this thread
      // instead, it waited for the event loop, which the build keeps busy, and
      // held 86 MB until the end of the responses, raising the peak memory.
      if (
        typeof body !== 'string' &&
        body.byteOffset === 0 &&
        body.buffer instanceof ArrayBuffer &&
        body.byteLength === body.buffer.byteLength
      )
        transfer.push(body.buffer);
      const queued = add(op, length);
      send();
      return queued;
    },
    splice(path, from, edits, size) {
      bytes += size;
      return add({ op: 'splice', path: join(staging, path), source: join(from, path), edits: [...edits], replace: replacing }, size);
    },
    link(path, from) {
      if (failure) throw failure;
      if (links && links.from !== from) send();
      links ??= { from, paths: [] };
      links.paths.push(path);
      files++;
      if (links.paths.length < BATCH_LINKS) return;
      send();
      if (pending >= BATCHES_IN_FLIGHT) return until(() => pending < BATCHES_IN_FLIGHT);
    },
    async prelink(paths, from, replace) {
      if (failure) throw failure;
      send();
      replacing = true;
      // All at once (a batch is a short list of paths, and nothing else is queued yet), to one
      // thread: the build's own thread has the other core meanwhile, and at 10,000 posts an edit
      // took 2.17-2.46 s (median 2.30, 6 runs) with the links on one thread, 2.27-2.60 s (2.41) on both.
      for (let at = 0; at < paths.length; at += BATCH_LINKS) {
        linking.add(id);
        ops.push({ op: 'links', from, to: staging, paths: paths.slice(at, at + BATCH_LINKS), skipMissing: true, replace });
        send(workers[0]);
      }
      await until(() => linking.size === 0);
      files += paths.length - missing.length;
      return missing;
    },
    async flush() {
      send();
      await until(() => pending === 0);
      return { files, bytes };
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
