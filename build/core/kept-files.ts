// What a function keeps between requests: the last head it parsed, and the
// tagged files of the deployment (./edge.ts), route shards, post chunks and
// search shards, parsed once and kept while they are among the last `budget`
// bytes read, the least recently used dropped first. A file is known by its
// path and its tag, a hash of its content, so a file kept from an earlier
// build (folio dev's previous one) is never taken for the current build's: a
// request finds the tags it expects in the head it has just read.
import { edgeFile } from './edge.js';

/** Reads a file of dist/ by its path relative to dist (no leading slash). */
export type ReadAsset = (path: string) => Promise<Uint8Array | null>;

/**
 * The fields are assigned in the constructor and declared with `declare`: a
 * field initializer is code V8 compiles on an isolate's first request.
 */
export class KeptFiles {
  /** The files by tag and path, least recently used first; `sizes` has the bytes each was read from, once read. */
  declare private readonly files: Map<string, Promise<unknown>>;
  declare private readonly sizes: Map<string, number>;
  declare private kept: number;
  declare private readonly budget: number;
  declare private last: { text: string; value: unknown } | undefined;

  constructor(budget: number) {
    this.files = new Map();
    this.sizes = new Map();
    this.kept = 0;
    this.budget = budget;
    this.last = undefined;
  }

  /**
   * `parse(text)`, or what it gave for the same text the last time: for the
   * head, which names no tag of its own and which every request reads to
   * learn which files are current. The value is shared by the requests that
   * follow, and the head's site goes to the whole core, so it is frozen all
   * the way down: code that would change it throws instead of changing the
   * next request's answer. (The tagged files go only to runtime/edge.ts and
   * the search engine, which read them and change nothing.)
   */
  parsed<T>(text: string, parse: (text: string) => T): T {
    if (this.last?.text === text) return this.last.value as T;
    const value = deepFreeze(parse(text));
    this.last = { text, value };
    return value;
  }

  /**
   * The file at `path` that carries `tag`: the kept one, or read and checked
   * by edgeFile (which throws DeploymentError naming the file when it is
   * missing, unreadable or of another build). A failed read is not kept, so
   * the next request reads again.
   */
  get<T extends { tag: string }>(read: ReadAsset, path: string, tag: string): Promise<T> {
    const key = `${tag} ${path}`;
    let value = this.files.get(key) as Promise<T> | undefined;
    if (value) {
      this.files.delete(key);
      this.files.set(key, value);
      return value;
    }
    const loaded = read(path).then((bytes) => ({ file: edgeFile<T>(path, bytes, tag), size: bytes!.byteLength }));
    const made = (value = loaded.then(({ file }) => file));
    this.files.set(key, value);
    // Only while this read is the one kept: one dropped and read again is counted once.
    loaded.then(
      ({ size }) => this.files.get(key) === made && this.count(key, size),
      () => this.files.get(key) === made && this.files.delete(key),
    );
    return value;
  }

  /** Counts a file's bytes, then drops the least recently used files past the budget (never the one just counted). */
  private count(key: string, size: number): void {
    this.sizes.set(key, size);
    this.kept += size;
    for (const old of this.files.keys()) {
      if (this.kept <= this.budget || old === key) break;
      this.files.delete(old);
      this.kept -= this.sizes.get(old) ?? 0;
      this.sizes.delete(old);
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
