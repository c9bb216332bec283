// D12, D55: the functions search the sharded index (core/search/sharded.ts)
// and must answer exactly as the whole Orama index did (core/search/engine.ts,
// still written as _folio/search-index.json): the same hits, order, scores,
// snippets and totals, for the benchmark's queries over a benchmark corpus
// and for the sample site's own. Both engines are run here, on the same build.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_INDEX_PATH } from '../build/core/files.js';
import { openSearchIndex } from '../build/core/search/engine.js';
import { openShardedSearch } from '../build/core/search/sharded.js';
import { readHead } from '../build/runtime/edge.js';
import { openSearch } from '../build/runtime/search.js';
import { fileReader } from '../build/serve-files.js';
// @ts-expect-error plain JavaScript modules of the benchmark
import { corpusFiles } from '../bench/corpus.js';
// @ts-expect-error plain JavaScript modules of the benchmark
import { queries } from '../bench/search.js';
import { buildInto, tempDir } from './helpers/site.js';

const SAMPLE_QUERIES = [
  'deliverabilty',
  'deliverability',
  'ssh certificates',
  'email',
  'cache monorepo',
  'build pipelines',
  'zyxwvut',
  'DMARC p=reject',
  "Gmail's",
  'ssh-agent',
  'pid files',
  'monorepo',
  'monorep',
  'certificat',
  'a the of',
  'email deliverability dns spf dkim',
  'relay',
];

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function both(out: string) {
  const whole = openSearchIndex(await readFile(join(out, SEARCH_INDEX_PATH), 'utf8'));
  const sharded = await openSearch(fileReader(out));
  return { out, whole, sharded };
}

/** A sharded engine over `out` keeping `keepBytes` of shards, and the paths it has read so far. */
async function counted(out: string, keepBytes?: number) {
  const read = fileReader(out);
  const reads: string[] = [];
  const engine = await openShardedSearch(
    (path) => {
      reads.push(path);
      return read(path);
    },
    (await readHead(read)).tags.search,
    keepBytes,
  );
  return { engine, reads };
}

describe('sharded search answers as the whole index (D12, D55)', () => {
  let sample: Awaited<ReturnType<typeof both>>;
  let corpus: Awaited<ReturnType<typeof both>>;

  beforeAll(async () => {
    const built = await buildInto('content');
    dirs.push(join(built.out, '..'));
    sample = await both(built.out);
    const content = await tempDir('folio-edge-corpus-');
    dirs.push(content);
    for (const [path, text] of Object.entries(corpusFiles(300) as Record<string, string>)) {
      await mkdir(dirname(join(content, path)), { recursive: true });
      await writeFile(join(content, path), text);
    }
    const big = await buildInto(content);
    dirs.push(join(big.out, '..'));
    corpus = await both(big.out);
  }, 120_000);

  it('for the benchmark queries over a benchmark corpus, at limit 10 and 50', async () => {
    const list = queries() as string[];
    let hits = 0;
    for (const q of list) {
      for (const limit of [10, 50]) {
        const expected = corpus.whole.search(q, limit);
        expect(await corpus.sharded.search(q, limit), `${q} (limit ${limit})`).toEqual(expected);
        hits += expected.hits.length;
      }
    }
    // The set exercises real matches, typos and misses, not only empty answers.
    expect(hits).toBeGreaterThan(list.length * 5);
  });

  it('for the sample site, the one-typo query included', async () => {
    for (const q of SAMPLE_QUERIES) {
      for (const limit of [1, 3, 10, 50])
        expect(await sample.sharded.search(q, limit), `${q} (limit ${limit})`).toEqual(sample.whole.search(q, limit));
    }
    const { hits } = await sample.sharded.search('deliverabilty', 3);
    expect(hits[0]).toMatchObject({ type: 'post', id: 'email-deliverability-b2b-saas' });
  });

  it('for queries that run at once, which share one accumulator', async () => {
    const list = (queries() as string[]).slice(0, 60);
    const answers = await Promise.all(list.map((q) => corpus.sharded.search(q, 10)));
    answers.forEach((answer, i) => expect(answer, list[i]).toEqual(corpus.whole.search(list[i]!, 10)));
  });

  it('keeps the shards it read within its byte budget, and answers the same without any', async () => {
    const list = (queries() as string[]).slice(0, 40);
    const kept = await counted(corpus.out);
    for (const q of list) await kept.engine.search(q, 10);
    const first = kept.reads.length;
    expect(first).toBeGreaterThan(list.length);
    // The default budget holds this corpus's whole index: asked again, nothing is read.
    for (const q of list) expect(await kept.engine.search(q, 10), q).toEqual(corpus.whole.search(q, 10));
    expect(kept.reads.length).toBe(first);

    const none = await counted(corpus.out, 0);
    for (const q of list) await none.engine.search(q, 10);
    const once = none.reads.length;
    for (const q of list) expect(await none.engine.search(q, 10), q).toEqual(corpus.whole.search(q, 10));
    // Without a budget, every query reads its files again (but the one last read, which is kept).
    expect(none.reads.length - once).toBeGreaterThanOrEqual(once * 0.9);
  });

  it('reads a file again after a read that failed, rather than keeping the failure', async () => {
    const read = fileReader(corpus.out);
    let failed = false;
    const engine = await openShardedSearch(
      async (path) => {
        if (!failed && path.includes('/docs-')) {
          failed = true;
          return null;
        }
        return read(path);
      },
      (await readHead(read)).tags.search,
    );
    const q = (queries() as string[])[0]!;
    await expect(engine.search(q, 10)).rejects.toThrow(/docs-/);
    expect(await engine.search(q, 10)).toEqual(corpus.whole.search(q, 10));
  });
});
