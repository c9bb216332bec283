// A document of post sections written from the previous build's file with
// some byte ranges replaced (splice.ts makes the edits): the unchanged bytes
// are copied file to file through one small buffer, so at 10,000 posts a
// one-post edit never holds the 90 MB of llms-full.txt and the feeds in
// memory, nor hashes them. Synchronous: the writing threads call it, and so
// do the sinks that have no thread.
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

/** The range [start, end) of the previous file replaced by `bytes`; edits come in order and do not overlap. */
export interface Edit {
  start: number;
  end: number;
  bytes: Uint8Array;
}

const CHUNK = 1024 * 1024;
let chunk: Buffer | null = null;

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.byteLength;) at += writeSync(fd, bytes, at);
}

/** Writes `dest` as `source` with `edits` applied; `flag` as fs.openSync takes it (`wx`: refuse a `dest` that is there). */
export function spliceFile(source: string, dest: string, edits: readonly Edit[], flag = 'w'): void {
  const buffer = (chunk ??= Buffer.allocUnsafe(CHUNK));
  const from = openSync(source, 'r');
  try {
    const to = openSync(dest, flag);
    try {
      let at = 0;
      const copy = (end: number) => {
        while (at < end) {
          const n = readSync(from, buffer, 0, Math.min(CHUNK, end - at), at);
          if (n === 0) throw new Error(`${source} ends at byte ${at}, before the ${end} its splice needs. Build again with --no-cache.`);
          writeAll(to, buffer.subarray(0, n));
          at += n;
        }
      };
      for (const edit of edits) {
        copy(edit.start);
        writeAll(to, edit.bytes);
        at = edit.end;
      }
      copy(fstatSync(from).size);
    } finally {
      closeSync(to);
    }
  } finally {
    closeSync(from);
  }
}
