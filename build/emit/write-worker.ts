// The writing thread: a build writes tens of thousands of small
// files, and each asynchronous write costs the main thread an open, a write
// and a close through the event loop. Here they are plain synchronous system
// calls on a thread of their own, while the main thread keeps asking
// respond() for the next responses. Compiled to lib/write-worker.js;
// build/emit/atomic.ts starts it.
import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort } from 'node:worker_threads';

export type WriteOp = { op: 'write'; path: string; body: Uint8Array | string } | { op: 'link'; path: string; from: string };

export interface WriteBatch {
  id: number;
  ops: WriteOp[];
}

export type WriteReply = { id: number; error?: { message: string; code?: string; path?: string } };

const made = new Set<string>();

function ensureDir(dir: string): void {
  if (made.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  made.add(dir);
}

parentPort?.on('message', (batch: WriteBatch) => {
  let reply: WriteReply = { id: batch.id };
  try {
    for (const op of batch.ops) {
      ensureDir(dirname(op.path));
      if (op.op === 'write') writeFileSync(op.path, op.body);
      else {
        try {
          linkSync(op.from, op.path);
        } catch {
          copyFileSync(op.from, op.path);
        }
      }
    }
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    reply = { id: batch.id, error: { message: e.message, code: e.code, path: e.path } };
  }
  parentPort!.postMessage(reply);
});
