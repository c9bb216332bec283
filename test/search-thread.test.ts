// On a large site the search index is built on a thread of its own while the
// responses are made (issue 8). Its bytes must be those the build's own
// thread makes (D38, D40): the site is built for real, with the compiled
// worker, and its index compared with buildSearchIndex on this thread.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEARCH_INDEX_PATH } from '../build/core/files.js';
import { buildSearchIndex } from '../build/emit/search-index.js';
import { workerScript } from '../build/emit/workers.js';
import { writeCorpus } from './helpers/corpus.js';
import { buildInto, tempDir } from './helpers/site.js';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('folio-search-thread-');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('writes the index the build thread would have written, for a site large enough to use the thread', async () => {
  expect(workerScript('search-worker'), 'npm run compile writes lib/search-worker.js').not.toBeNull();
  const content = await writeCorpus(join(dir, 'content'), { posts: 320, tags: 12 });
  const built = await buildInto(content);
  const written = await readFile(join(built.out, SEARCH_INDEX_PATH), 'utf8');
  expect(JSON.parse(written).documents).toBe(built.site.posts.length + built.site.projects.length + built.site.services.length);
  expect(built.site.posts.length).toBe(320);
  expect(Buffer.from(buildSearchIndex(built.site)).toString('utf8')).toBe(written);
}, 120_000);
