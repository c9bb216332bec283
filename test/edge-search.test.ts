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
import { openSearch } from '../build/runtime/search.js';
import { fileReader } from '../build/serve.js';
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
  return { whole, sharded };
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
});
