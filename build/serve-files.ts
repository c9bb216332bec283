// The files of folio serve. The precomputed ones are kept in memory when hot:
// their bytes and ETag, within a bounded budget (least recently used out
// first). Every request still asks the file system whether the file is the
// one in memory (its inode, size and modification time), so a file renamed
// over it (folio dev) is served at once, and a reply is always one file's
// bytes with that file's ETag, never a mix. The functions read theirs
// through fileReader, as they read env.ASSETS on a host.
import { close, createReadStream, fstat, open, read, readFileSync, statSync, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { etag } from './core/http.js';
import type { ReadAsset } from './runtime/edge.js';

// The callback forms: a number for a descriptor is cheaper per request than a FileHandle.
const openFd = promisify(open);
const fstatFd = promisify(fstat);
const statPath = (path: string) => statSync(path);
const closeFd = promisify(close);
const readFd = promisify(read);

/**
 * Files up to this size the functions' reader reads at once, blocking. What
 * they read is small (the edge head, route shards, records, twins, search
 * shards: at most about 160 KB at 10,000 posts), and a file read through
 * the thread pool costs four round trips to it (open, stat, read, close):
 * on a busy machine that wait, not the read, is most of a search that
 * reads files.
 */
const READ_AT_ONCE_BYTES = 1024 * 1024;

/** Reads a file of `dir` by its path relative to it; null when it is missing, not a file, or outside `dir` (path traversal). */
export function fileReader(dir: string): ReadAsset {
  const root = resolve(dir);
  return async (path) => {
    const full = resolve(root, path);
    if (full !== root && !full.startsWith(root + sep)) return null;
    try {
      const s = statSync(full);
      if (!s.isFile()) return null;
      return s.size <= READ_AT_ONCE_BYTES ? readFileSync(full) : await readFile(full);
    } catch {
      return null;
    }
  };
}

/** Bytes of file contents kept in memory at most (folio serve's default). */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** A file served: its ETag and size, and its bytes, or a stream of them for a file too large to keep. */
export interface ServedFile {
  tag: string;
  size: number;
  body: Uint8Array | null;
  /** For a file without `body`: its bytes from the descriptor it was tagged from (which it closes). */
  stream?: () => NodeJS.ReadableStream;
  /** Lets go of the descriptor when the stream was never asked for. */
  release(): void;
}

interface Entry {
  ino: number;
  size: number;
  mtimeMs: number;
  tag: string;
  body: Uint8Array | null;
}

const sameFile = (e: Entry, s: Stats) => e.ino === s.ino && e.size === s.size && e.mtimeMs === s.mtimeMs;
const none = () => undefined;

async function readAll(fd: number, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const { bytesRead } = await readFd(fd, buffer, at, size - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return at === size ? buffer : buffer.subarray(0, at);
}

export class FileCache {
  /** In order of last use: the first is the next to go. */
  private entries = new Map<string, Entry>();
  private bytes = 0;
  /** A file larger than this is streamed and only its ETag kept. */
  private readonly largest: number;

  constructor(private readonly budget = DEFAULT_CACHE_BYTES) {
    this.largest = Math.floor(budget / 8);
  }

  /** The file at `full` (an absolute path inside the served directory). Rejects when it is missing. */
  async get(full: string): Promise<ServedFile> {
    const known = this.entries.get(full);
    if (known?.body) {
      const s = await statPath(full);
      if (sameFile(known, s)) {
        this.entries.delete(full);
        this.entries.set(full, known);
        return { tag: known.tag, size: known.size, body: known.body, release: none };
      }
    }
    // Tagged and read through one descriptor: the bytes are the file's whose identity is checked.
    const fd = await openFd(full, 'r');
    try {
      const s = await fstatFd(fd);
      const entry = this.entries.get(full);
      const same = entry && sameFile(entry, s) ? entry : null;
      if (same?.body) {
        await closeFd(fd);
        return { tag: same.tag, size: same.size, body: same.body, release: none };
      }
      if (same) {
        // A large file tagged before: streamed, not read whole again.
        let released = false;
        return {
          tag: same.tag,
          size: s.size,
          body: null,
          stream: () => {
            released = true;
            return createReadStream('', { fd, start: 0, end: Math.max(0, s.size - 1), autoClose: true });
          },
          release: () => {
            if (!released) close(fd, none);
            released = true;
          },
        };
      }
      const bytes = await readAll(fd, s.size);
      await closeFd(fd);
      const tag = etag(bytes);
      this.remember(full, { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, tag, body: bytes.byteLength <= this.largest ? bytes : null });
      return { tag, size: bytes.byteLength, body: bytes, release: none };
    } catch (error) {
      close(fd, none);
      throw error;
    }
  }

  private remember(full: string, entry: Entry): void {
    const old = this.entries.get(full);
    if (old?.body) this.bytes -= old.body.byteLength;
    this.entries.delete(full);
    if (entry.body) this.bytes += entry.body.byteLength;
    this.entries.set(full, entry);
    for (const [path, e] of this.entries) {
      if (this.bytes <= this.budget) break;
      if (e.body) this.bytes -= e.body.byteLength;
      this.entries.delete(path);
    }
  }
}
