// A site large enough for the build's threads: the search index is
// built on a thread of its own while the responses are made, and files of
// 1 MB or more move to a writing thread rather than being copied. Their bytes
// must be those the build's own thread makes (D38, D40): the site is built for
// real, with the compiled workers, and compared with this thread's answers.
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MANIFEST_PATH, SEARCH_INDEX_PATH, type Manifest } from '../build/core/files.js';
import { request } from '../build/core/http.js';
import { respond } from '../build/core/respond.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { buildSearchIndex } from '../build/emit/search-index.js';
import { SearchThread } from '../build/emit/search-thread.js';
import { workerScript } from '../build/emit/workers.js';
import { writeCorpus } from './helpers/corpus.js';
import { buildInto, tempDir } from './helpers/site.js';

let dir: string;
let built: Awaited<ReturnType<typeof buildInto>>;
beforeAll(async () => {
  dir = await tempDir('folio-search-thread-');
  const content = await writeCorpus(join(dir, 'content'), { posts: 320, tags: 12, bodyBytes: 4000 });
  built = await buildInto(content);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

it('writes the index the build thread would have written, for a site large enough to use the thread', async () => {
  expect(workerScript('search-worker'), 'npm run compile writes lib/search-worker.js').not.toBeNull();
  const written = await readFile(join(built.out, SEARCH_INDEX_PATH), 'utf8');
  expect(JSON.parse(written).documents).toBe(built.site.posts.length + built.site.projects.length + built.site.services.length);
  expect(built.site.posts.length).toBe(320);
  expect(Buffer.from(await buildSearchIndex(built.site)).toString('utf8')).toBe(written);
});

it('writes files of 1 MB or more whole: the bytes moved to a writing thread are those respond() answers', async () => {
  expect(workerScript('write-worker'), 'npm run compile writes lib/write-worker.js').not.toBeNull();
  const manifest = JSON.parse(await readFile(join(built.out, MANIFEST_PATH), 'utf8')) as Manifest;
  const rt = memoryRuntime(built.site);
  const large: string[] = [];
  for (const [target, [file]] of Object.entries(manifest.routes)) {
    const bytes = await readFile(join(built.out, file));
    if (bytes.length < 1024 * 1024) continue;
    large.push(target);
    const reply = await respond(request('GET', target), rt);
    expect(Buffer.from(reply.body!).equals(bytes), `${target} (${file}, ${bytes.length} bytes)`).toBe(true);
  }
  // At 320 posts of about 4 KB, llms-full.txt at least is over 1 MB.
  expect(large).toContain('/llms-full.txt');
});

it('records the size of every file in the build state, those moved to a writing thread too (llms.txt estimates tokens from them)', async () => {
  const sizes = [...built.state.routes.values()].map(async ({ file, size }) => [file, size, (await stat(join(built.out, file))).size]);
  const wrong = (await Promise.all(sizes)).filter(([, recorded, real]) => recorded !== real);
  expect(wrong).toEqual([]);
  expect(built.state.routes.get('/llms-full.txt')!.size).toBeGreaterThanOrEqual(1024 * 1024);
});

it('moves the previous index and its term shards to the thread, copying only bytes that share their buffer', async () => {
  const thread = new SearchThread(workerScript('search-worker')!, null);
  const index = new Uint8Array(64);
  const shard = new Uint8Array(32);
  const shared = new Uint8Array(new ArrayBuffer(48), 16, 16);
  const memo = { hash: 'sha256:none', digests: [], tags: [], words: new Map<string, number>() };
  const answer = thread.run({
    siteUrl: 'https://ada.example',
    language: 'en',
    job: { sources: [], digests: [], tags: [] },
    previous: {
      memo,
      bytes: index,
      sha1: 'not these bytes',
      shards: new Map(),
      terms: { firsts: ['a', 'b'], tags: '', files: [shard, shared, null] },
    },
  });
  expect([index.byteLength, shard.byteLength]).toEqual([0, 0]);
  expect(shared.byteLength).toBe(16);
  // Bytes of another index than the state names: the thread answers that it cannot patch.
  await expect(answer).resolves.toBeNull();
});
