// The writing thread: a build writes tens of thousands of small
// files, and each asynchronous write costs the main thread an open, a write
// and a close through the event loop. Here they are plain synchronous system
// calls on a thread of their own, while the main thread keeps asking
// respond() for the next responses. Compiled to lib/write-worker.js;
// build/emit/atomic.ts starts it.
import { constants, copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { collectGarbage } from './gc.js';
import { spliceFile, type Edit } from './splice-file.js';
import { afterLinkFailure, createFlag, unlinkFresh } from './prelink.js';

/**
 * `links`: each of `paths` (relative) linked from the directory `from` into `to`, so a batch of thousands costs one short message;
 * with `skipMissing`, a path `from` does not have is left out and named in the reply, not a failure;
 * with `replace`, a file already at a path in `to` (an earlier build's, spare.ts) is removed first, and stays removed where `from` has none.
 * `splice`: `path` written as the file `source` with `edits` applied.
 * `replace`: the path may hold a link to the previous output's file (prelink.ts), which is removed first, never written through.
 */
export type WriteOp =
  | { op: 'write'; path: string; body: Uint8Array | string; replace?: boolean }
  | { op: 'links'; from: string; to: string; paths: string[]; skipMissing?: boolean; replace?: boolean }
  | { op: 'splice'; path: string; source: string; edits: Edit[]; replace?: boolean };

export interface WriteBatch {
  id: number;
  ops: WriteOp[];
}

export type WriteReply = { id: number; error?: { message: string; code?: string; path?: string }; missing?: string[] };

const made = new Set<string>();

function ensureDir(dir: string): void {
  if (made.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  made.add(dir);
}

/** A body this large came moved, not copied (staging-writers.ts): its memory is this thread's to give back. */
const LARGE_BODY = 1024 * 1024;

parentPort?.on('message', (batch: WriteBatch) => {
  let reply: WriteReply = { id: batch.id };
  let large = false;
  try {
    for (const op of batch.ops) {
      if (op.op === 'write') {
        ensureDir(dirname(op.path));
        writeFileSync(op.path, op.body, { flag: createFlag(op.path, op.replace) });
        if (typeof op.body !== 'string' && op.body.byteLength >= LARGE_BODY) {
          large = true;
          op.body = '';
        }
        continue;
      }
      if (op.op === 'splice') {
        ensureDir(dirname(op.path));
        spliceFile(op.source, op.path, op.edits, createFlag(op.path, op.replace));
        continue;
      }
      for (const path of op.paths) {
        const from = join(op.from, path);
        const to = join(op.to, path);
        ensureDir(dirname(to));
        if (op.replace) unlinkFresh(to);
        try {
          linkSync(from, to);
        } catch (error) {
          // Across devices, or where no more links are taken: a copy, made only where no file is, so the
          // previous output keeps its bytes (D40).
          if (afterLinkFailure(error, op.skipMissing === true) === 'missing') (reply.missing ??= []).push(path);
          else copyFileSync(from, to, constants.COPYFILE_EXCL);
        }
      }
    }
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    reply = { id: batch.id, error: { message: e.message, code: e.code, path: e.path } };
  }
  // A moved body stays in memory until this thread collects it, and its heap
  // is too small for that to come on its own: at 10,000 posts the feeds,
  // llms-full.txt, the model and the manifest (some 150 MB) would stay
  // resident to the end of the build, its peak. A collection here takes a
  // millisecond or two.
  if (large) collectGarbage();
  parentPort!.postMessage(reply);
});
