// The functions answer from the model's head and the precomputed files
// (build/runtime/edge.ts), never the whole model or manifest, and give the
// very answers respond() gives from the whole model (D38, D55): paging the
// build did not enumerate, 404s, errors, MCP.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EDGE_DIR, EDGE_HEAD_PATH } from '../build/core/edge.js';
import { MANIFEST_PATH, SEARCH_INDEX_PATH, SITE_PATH } from '../build/core/files.js';
import { request, type Reply, type Req } from '../build/core/http.js';
import { respond } from '../build/core/respond.js';
import { openSearchIndex } from '../build/core/search/engine.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { createHandler, type ReadAsset } from '../build/runtime/handler.js';
import { fileReader } from '../build/serve-files.js';
import { call, edgeBuild, rpc } from './helpers/edge-site.js';

const built = edgeBuild();

/** Requests the build could not enumerate, or that reach the core in the functions. */
function corpus(): Req[] {
  const tag = built.site.tags[0]!.tag;
  const slug = built.site.posts[3]!.slug;
  const site = built.site.config.site_url;
  return [
    ...[
      'limit=3',
      'limit=3&offset=2',
      'offset=7',
      'limit=7&offset=3',
      'limit=100',
      'offset=999',
      'limit=1&offset=16',
      'offset=19&limit=20',
    ].map((q) => request('GET', `/api/v1/posts?${q}`)),
    ...[
      `tag=${tag}&limit=1`,
      `tag=${tag}&limit=2&offset=1`,
      `tag=${tag.toUpperCase()}&offset=1`,
      'tag=no-such-tag&limit=3',
      'tag=no-such-tag&offset=40',
    ].map((q) => request('GET', `/api/v1/posts?${q}`)),
    request('GET', `/api/v1/posts/${slug.replace('-', '%2D')}`),
    request('GET', '/api/v1/posts/no-such-post'),
    request('GET', '/api/v1/projects/no-such-project'),
    request('GET', '/api/v1/posts?limit=0'),
    request('GET', '/api/v1/search?q=deliverabilty&limit=3'),
    request('GET', '/api/v1/search?q=ssh%20certificates'),
    request('GET', '/api/v1/search'),
    request('GET', '/api/v1/nope'),
    request('GET', '/no-such-page'),
    request('GET', '/no-such-page', { accept: 'text/markdown' }),
    request('GET', '/no-such-page.md'),
    request('POST', '/api/v1/posts'),
    request('OPTIONS', '/api/v1/posts'),
    rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'edge', version: '1' } }),
    rpc(2, 'tools/list'),
    rpc(3, 'resources/list'),
    rpc(4, 'resources/read', { uri: `${site}/blog/${slug}.md` }),
    rpc(5, 'resources/read', { uri: `${site}/blog.md` }),
    call(6, 'site_get_post', { slug }),
    call(7, 'site_get_post', { slug: 'no-such-post' }),
    call(8, 'site_list_posts', { tag, limit: 2, offset: 1 }),
    call(9, 'site_list_posts', {}),
    call(10, 'site_search_writing', { query: 'deliverabilty', limit: 2 }),
    call(11, 'site_get_profile', {}),
    call(12, 'site_list_projects', { status: 'live' }),
    call(13, 'site_get_post', { slug: formerSlug() }),
  ];
}

/** A post's former slug (D48): the first alias whose API address redirects. */
function formerSlug(): string {
  const from = Object.keys(built.site.redirects).find((path) => path.startsWith('/api/v1/posts/'));
  if (!from) throw new Error('The sample has no post alias; give a post `aliases: [/blog/<old-slug>]`.');
  return from.slice('/api/v1/posts/'.length);
}

/** A reader over `dir` that records every file asked for. */
function logged(dir: string): { read: ReadAsset; files: string[] } {
  const files: string[] = [];
  const inner = fileReader(dir);
  return { files, read: (path) => (files.push(path), inner(path)) };
}

describe('the functions answer from precomputed files as respond() does from the model (D38, D55)', () => {
  it('for every request of the corpus: status, headers and bytes', async () => {
    const whole = openSearchIndex(await readFile(join(built.out, SEARCH_INDEX_PATH), 'utf8'));
    const rt = memoryRuntime(built.site, async () => whole);
    const handle = createHandler(fileReader(built.out));
    for (const req of corpus()) {
      const label = `${req.method} ${req.path}?${req.search} ${req.body ? new TextDecoder().decode(req.body) : ''}`;
      const [expected, actual] = [await respond(req, rt), await handle(req)];
      expect(actual.status, label).toBe(expected.status);
      expect(actual.headers, label).toEqual(expected.headers);
      expect(Buffer.from(actual.body ?? []).toString('utf8'), label).toBe(Buffer.from(expected.body ?? []).toString('utf8'));
    }
  });

  it("answers site_get_post for a former slug with the record the API's 301 leads to, from the model and from the files (D48)", async () => {
    const old = formerSlug();
    const to = built.site.redirects[`/api/v1/posts/${old}`]!;
    const slug = to.slice('/api/v1/posts/'.length);
    const rt = memoryRuntime(built.site);
    const handle = createHandler(fileReader(built.out));
    const record = JSON.parse(new TextDecoder().decode((await respond(request('GET', to), rt)).body!));
    expect(record.slug).toBe(slug);
    const twin = new TextDecoder().decode((await respond(request('GET', `/blog/${slug}.md`), rt)).body!);
    const answers: [string, (req: Req) => Promise<Reply>][] = [
      ['respond() over the model, as the build', (req) => respond(req, rt)],
      ['the functions over the files', (req) => handle(req)],
    ];
    for (const [label, answer] of answers) {
      const result = JSON.parse(new TextDecoder().decode((await answer(call(1, 'site_get_post', { slug: old }))).body!)).result;
      expect(result.isError ?? false, label).toBe(false);
      expect(result.structuredContent, label).toEqual(record);
      expect(result.content, label).toEqual([{ type: 'text', text: twin }]);
    }
  });

  it('never reads the whole model, the whole manifest or the whole search index', async () => {
    const { read, files } = logged(built.out);
    const handle = createHandler(read);
    for (const req of corpus()) expect((await handle(req)).status, `${req.method} ${req.path}`).toBeLessThan(500);
    expect(files.length).toBeGreaterThan(corpus().length);
    expect(files.filter((f) => [SITE_PATH, MANIFEST_PATH, SEARCH_INDEX_PATH].includes(f))).toEqual([]);
  });

  it('reads a handful of small files for a post by MCP, a twin by Accept and a page of the list', async () => {
    const slug = built.site.posts[5]!.slug;
    const cases: [Req, number][] = [
      // The post's record, and its twin for the text block (D53).
      [call(1, 'site_get_post', { slug }), 5],
      [request('GET', `/blog/${slug}`, { accept: 'text/markdown' }), 3],
      [request('GET', '/api/v1/posts?limit=5&offset=3'), 5],
    ];
    for (const [req, most] of cases) {
      const { read, files } = logged(built.out);
      const reply = await createHandler(read)(req);
      expect(reply.status).toBe(200);
      // The head, the route shards of the targets asked (a page and its twin share one), and the answer's own record or chunks.
      expect(files.length, files.join(', ')).toBeLessThanOrEqual(most);
      expect(files[0]).toBe(EDGE_HEAD_PATH);
    }
  });

  it('reads no route shard for a search, which the build never answers ahead of time', async () => {
    for (const req of [request('GET', '/api/v1/search?q=deliverability&limit=3'), request('GET', '/api/v1/search')]) {
      const { read, files } = logged(built.out);
      const reply = await createHandler(read)(req);
      expect(reply.status).toBe(req.search ? 200 : 400);
      expect(
        files.filter((f) => f.startsWith(`${EDGE_DIR}/routes/`)),
        files.join(', '),
      ).toEqual([]);
    }
  });
});
