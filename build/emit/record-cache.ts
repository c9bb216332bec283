// The records of the content-hash cache (cache.ts): what each content file
// rendered to, by its key. They live in 16 shard files (by the key's first
// hex digit, record-shard.ts), and a journal (v8.serialize) of the records added
// since the shards were last written. An edit writes the journal, a few
// records, and leaves the shards as they are (rewriting the two shards an
// edited post's old and new records fall in took an edit at 10,000 posts
// 0.2 s); once the journal and the records no build uses pass a thirty-second
// of the cache, the shards are written again with only the used records, so
// a cache stays about the size of the site. A shard holds the long texts
// (summaries, bodies) out of line, read only when asked for. Beside them, the
// key each content file's stamp gave (stamps.ts), so that a build finds the
// records of files it has not read.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import type { DocumentRecord } from '../content/kinds.js';
import { atomicWrite, codeFingerprint, FORMAT } from './cache.js';
import { detach, readShard, shardBytes, type Entries } from './record-shard.js';
import { Stamps } from './stamps.js';
import { deserializeFile } from './whole-file.js';
import { makeDirs } from './make-dirs.js';

const SHARDS = 16;
const JOURNAL = 'journal.bin';
const STAMPS = 'stamps.txt';

interface Shard {
  entries: Map<string, DocumentRecord>;
  /** Keys asked for in this build: only they are kept when the shard is written. */
  used: Set<string>;
  /** An entry in `entries` that its file does not hold (set in this build, or read from the journal). */
  dirty: boolean;
}

export class RecordCache {
  hits = 0;
  misses = 0;
  private constructor(
    readonly dir: string,
    private readonly shards: Shard[],
    /** The keys whose records are in the journal file, not in their shard's. */
    private readonly journaled: Set<string>,
    /** The key of each content file by its stamp: the last build's, and this one's. */
    readonly stamps: Stamps,
    /** Keys set in this build. */
    private readonly added = new Set<string>(),
  ) {}

  /** Opens the cache in `dir`; a missing, stale or unreadable cache is an empty one. */
  static async open(dir: string): Promise<RecordCache> {
    const folder = join(dir, `records-${FORMAT}`);
    // Records of other code would all miss: do not even read them.
    const current = (await readFile(join(folder, 'FINGERPRINT'), 'utf8').catch(() => '')) === codeFingerprint();
    // A cache is only ever a shortcut: a part that cannot be read starts empty.
    const read = <T>(file: string, decode: (path: string) => T, empty: T): T => {
      if (!current) return empty;
      try {
        return decode(join(folder, file));
      } catch {
        return empty;
      }
    };
    const journal = read(JOURNAL, (p) => deserializeFile(p) as Entries, []);
    const stamps = read(STAMPS, Stamps.read, Stamps.empty());
    const shards = Array.from({ length: SHARDS }, (_, i): Shard => ({
      entries: new Map(read(`${i.toString(16)}.bin`, readShard, [])),
      used: new Set(),
      dirty: !current,
    }));
    const cache = new RecordCache(dir, shards, new Set(), stamps);
    for (const [key, record] of journal) {
      const shard = cache.shard(key);
      shard.entries.set(key, record);
      shard.dirty = true;
      cache.journaled.add(key);
    }
    return cache;
  }

  private shard(key: string): Shard {
    return this.shards[parseInt(key[0]!, 16)]!;
  }

  get(key: string): DocumentRecord | undefined {
    const shard = this.shard(key);
    const hit = shard.entries.get(key);
    shard.used.add(key);
    if (hit) this.hits++;
    else this.misses++;
    return hit;
  }

  /** Marks an entry as used by this build without reading it (a caller that kept the record). */
  keep(key: string): void {
    this.shard(key).used.add(key);
  }

  set(key: string, record: DocumentRecord): void {
    const shard = this.shard(key);
    shard.entries.set(key, record);
    shard.used.add(key);
    shard.dirty = true;
    this.added.add(key);
  }

  /**
   * Writes what this build added: to the journal while it and the records
   * no build used stay few, else every shard that changed, with only the
   * records this build used. Never fails the build.
   */
  async save(): Promise<void> {
    const folder = join(this.dir, `records-${FORMAT}`);
    try {
      makeDirs(folder);
      await writeFile(join(folder, 'FINGERPRINT'), codeFingerprint());
      const used = this.shards.reduce((n, s) => n + s.used.size, 0);
      const unused = this.shards.reduce((n, s) => n + s.entries.size - s.used.size, 0);
      const journal = [...new Set([...this.journaled, ...this.added])].filter((k) => this.shard(k).used.has(k)).sort();
      if (journal.length + unused > Math.max(64, used / 32)) await this.compact(folder);
      else if (this.added.size > 0 || journal.length !== this.journaled.size) {
        await atomicWrite(join(folder, JOURNAL), serialize(journal.map((k) => [k, this.shard(k).entries.get(k)!])));
        this.journaled.clear();
        for (const k of journal) this.journaled.add(k);
      }
      this.added.clear();
      const stamps = this.stamps.changed();
      if (stamps !== null) await atomicWrite(join(folder, STAMPS), stamps);
    } catch (error) {
      console.error(
        `folio: could not save the cache in ${this.dir} (${(error as Error).message}); the next build renders everything again.`,
      );
      await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Every shard that changed written again with the records this build used, the journal folded in. */
  private async compact(folder: string): Promise<void> {
    await Promise.all(
      this.shards.map(async (shard, i) => {
        if (!shard.dirty && shard.entries.size === shard.used.size) return;
        // Its records read whole and its file closed before a new one is renamed over it.
        detach(shard.entries.values());
        const kept = [...shard.used].sort().flatMap((k): Entries => {
          const v = shard.entries.get(k);
          return v ? [[k, v]] : [];
        });
        await atomicWrite(join(folder, `${i.toString(16)}.bin`), shardBytes(kept));
        shard.dirty = false;
      }),
    );
    await rm(join(folder, JOURNAL), { force: true });
    this.journaled.clear();
  }
}
