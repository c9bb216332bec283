// The per-file half of the build, fast: each content file is parsed and
// rendered once, by a worker when there are many, and not at all when the
// cache already holds its record. Every path gives the same records as
// readContent() in one thread.
import type { DocumentRecord } from '../content/kinds.js';
import type { Source } from '../content/frontmatter.js';
import type { ContentSources } from '../content/load.js';
import { readContent, type ReadContent } from '../site.js';
import { recordKey, codeFingerprint } from './cache.js';
import { readRecord } from './post-digest.js';
import type { RecordCache } from './record-cache.js';
import { defaultWorkers, MIN_JOBS_FOR_WORKERS, RenderPool, type Job } from './workers.js';

export interface ReadOptions {
  cache?: RecordCache | null;
  /** Worker threads besides the main thread; default one fewer than the cores. 0 renders in this thread only. */
  workers?: number;
  /** Records of sources read before, by identity (folio dev keeps unchanged sources as they were). */
  memo?: WeakMap<Source, Remembered>;
  /** Told how many of `total` files have been read. */
  progress?: (done: number, total: number) => void;
}

export interface ReadStats {
  files: number;
  /** Files parsed and rendered in this build (the others came from the cache). */
  rendered: number;
  workers: number;
}

export interface Remembered {
  record: DocumentRecord;
  /** Its cache key, when a cache was used. */
  key?: string;
}

const local = (job: Job) => readRecord(job.kind, job.source);

export async function readContentFast(
  sources: ContentSources,
  options: ReadOptions = {},
): Promise<{ content: ReadContent; stats: ReadStats }> {
  const jobs: Job[] = [];
  const collect = readContent(sources, (kind, source) => {
    jobs.push({ kind, source });
    // A placeholder, replaced below: readContent fixes the order and the shape.
    return { kind, file: source.file, read: null, problems: [] };
  });
  const { cache, memo } = options;
  const fingerprint = cache ? codeFingerprint() : '';
  const keys: string[] = [];
  const records = jobs.map((job, i) => {
    const known = memo?.get(job.source);
    if (known?.record.kind === job.kind && (!cache || known.key)) {
      if (cache) cache.keep(known.key!);
      return known.record;
    }
    if (!cache) return undefined;
    const stamped = cache.stamps.keyOf(job.kind, job.source);
    const hit = stamped === undefined ? undefined : cache.get(stamped);
    // A record is stored only under the key of the text it was made from: a file written again between its
    // stat and its read must not leave its new record under the old text's key.
    const key = hit ? stamped! : recordKey(fingerprint, job.kind, job.source);
    cache.stamps.note(job.kind, job.source, key);
    keys[i] = key;
    return hit ?? cache.get(key);
  });
  const misses: number[] = [];
  for (let i = 0; i < jobs.length; i++) if (!records[i]) misses.push(i);
  const total = jobs.length;
  const already = total - misses.length;
  options.progress?.(already, total);

  const wanted = options.workers ?? defaultWorkers();
  const pool = misses.length >= MIN_JOBS_FOR_WORKERS ? RenderPool.start(wanted) : null;
  try {
    // A plain copy of each source: a stamped one reads its text through a getter, which a message to a thread drops.
    const todo = misses.map((i): Job => ({ kind: jobs[i]!.kind, source: { file: jobs[i]!.source.file, text: jobs[i]!.source.text } }));
    const rendered = pool
      ? await pool.run(todo, local, (done) => options.progress?.(already + done, total))
      : todo.map((job, n) => {
          const r = local(job);
          if (n % 64 === 63) options.progress?.(already + n + 1, total);
          return r;
        });
    misses.forEach((i, n) => {
      records[i] = rendered[n]!;
      if (cache) cache.set(keys[i]!, rendered[n]!);
    });
    if (memo) jobs.forEach((job, i) => memo.set(job.source, { record: records[i]!, key: keys[i] ?? memo.get(job.source)?.key }));
  } finally {
    await pool?.close();
  }
  options.progress?.(total, total);

  let n = 0;
  const take = () => records[n++]!;
  // The same walk as the collecting one above, so every record lands in its place.
  const content: ReadContent = {
    dir: collect.dir,
    site: collect.site,
    profile: collect.profile && (take() as ReadContent['profile']),
    services: collect.services.map(() => take() as ReadContent['services'][number]),
    posts: collect.posts.map(() => take() as ReadContent['posts'][number]),
    projects: collect.projects.map(() => take() as ReadContent['projects'][number]),
    theme: collect.theme,
    static: collect.static,
    strays: collect.strays,
  };
  return { content, stats: { files: total, rendered: misses.length, workers: pool?.size ?? 0 } };
}
