// D55: the functions answer from the model's head and the precomputed files
// (build/runtime/edge.ts), never the whole model or manifest, and give the
// very answers respond() gives from the whole model (D38): paging the build
// did not enumerate, 404s, errors, MCP. A deployment missing a shard, chunk or
// record, or mixing files of two builds, answers the 500 envelope naming the
// file and the fix, never a wrong answer. What an edit keeps of the edge files:
// edge-edit.test.ts.
import { copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDGE_DIR,
  EDGE_HEAD_PATH,
  NOT_FOUND_PATH,
  POSTS_PATH,
  postChunkPath,
  routeShard,
  routeShardPath,
  SEARCH_HEAD_PATH,
  tagCount,
  termShardPath,
} from '../build/core/edge.js';
import { CHANGES_PATH, MANIFEST_PATH, SEARCH_INDEX_PATH, SITE_PATH } from '../build/core/files.js';
import { request, type Reply, type Req } from '../build/core/http.js';
import { respond } from '../build/core/respond.js';
import { openSearchIndex } from '../build/core/search/engine.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { edgeFileCount } from '../build/emit/edge.js';
import { createHandler, type ReadAsset } from '../build/runtime/handler.js';
import { fileReader } from '../build/serve-files.js';
import { expectDeploymentError, head } from './helpers/edge.js';
import { buildInto, tempDir, builtManifest } from './helpers/site.js';

type Built = Awaited<ReturnType<typeof buildInto>>;
let built: Built;
let other: Built;
let root: string;
const dirs: string[] = [];

beforeAll(async () => {
  built = await buildInto('content');
  // The same content for another site URL: another build, with files of the same names.
  other = await buildInto('content', { siteUrl: 'https://elsewhere.example' });
  root = await tempDir('folio-edge-');
  dirs.push(join(built.out, '..'), join(other.out, '..'), root);
}, 120_000);
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rpc = (id: number, method: string, params: unknown = {}) =>
  request('POST', '/mcp', MCP, new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id, method, params })));
const call = (id: number, name: string, args: unknown) => rpc(id, 'tools/call', { name, arguments: args });

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

/** A copy of the build with `change` applied, served by the function alone (as on a CDN). */
async function broken(name: string, change: (dir: string) => Promise<void>) {
  const dir = join(root, name);
  await cp(built.out, dir, { recursive: true });
  await change(dir);
  return createHandler(fileReader(dir));
}

describe('the host file limits count the edge files (D39, D55)', () => {
  it('estimates how many files _folio/edge holds before they are written', async () => {
    const count = async (dir: string): Promise<number> => {
      let n = 0;
      for (const entry of await readdir(dir, { withFileTypes: true })) n += entry.isDirectory() ? await count(join(dir, entry.name)) : 1;
      return n;
    };
    const manifest = JSON.parse(await readFile(join(built.out, MANIFEST_PATH), 'utf8'));
    const actual = await count(join(built.out, EDGE_HEAD_PATH, '..'));
    const estimate = edgeFileCount(built.site, builtManifest(manifest));
    expect(estimate).toBeGreaterThanOrEqual(actual * 0.8);
    expect(estimate).toBeLessThanOrEqual(actual * 1.5);
  });
});

describe('a deployment missing a file or mixing builds (D55)', () => {
  const slug = () => built.site.posts[2]!.slug;
  const shardOf = async (dir: string, target: string) => routeShardPath(routeShard(target, tagCount((await head(dir)).routes)));

  it('answers 500 naming a missing route shard, for the page, its twin and MCP', async () => {
    const file = await shardOf(built.out, `/blog/${slug()}`);
    const handle = await broken('no-route-shard', (dir) => rm(join(dir, file)));
    await expectDeploymentError(await handle(request('GET', `/blog/${slug()}`, { accept: 'text/markdown' })), file);
  });

  it('reads a shard again after a read that failed, rather than keeping the failure', async () => {
    const file = await shardOf(built.out, `/blog/${slug()}`);
    const dir = join(root, 'shard-restored');
    await cp(built.out, dir, { recursive: true });
    await rm(join(dir, file));
    const handle = createHandler(fileReader(dir));
    const twin = () => handle(request('GET', `/blog/${slug()}`, { accept: 'text/markdown' }));
    await expectDeploymentError(await twin(), file);
    await copyFile(join(built.out, file), join(dir, file));
    const reply = await twin();
    expect(reply.status).toBe(200);
    expect(Buffer.from(reply.body!)).toEqual(await readFile(join(built.out, 'blog', `${slug()}.md`)));
  });

  it('answers 500 naming a missing post chunk, and a missing tag chunk', async () => {
    const tag = built.site.tags.findIndex((t) => t.count > 1);
    const handle = await broken('no-chunk', async (dir) => {
      await rm(join(dir, postChunkPath('all', 0)));
      await rm(join(dir, postChunkPath(String(tag), 0)));
    });
    await expectDeploymentError(await handle(request('GET', '/api/v1/posts?limit=3&offset=1')), postChunkPath('all', 0));
    await expectDeploymentError(
      await handle(request('GET', `/api/v1/posts?tag=${built.site.tags[tag]!.tag}&limit=1`)),
      postChunkPath(String(tag), 0),
    );
    // MCP reports it as the tool's error, with the same message.
    const reply = await handle(call(1, 'site_list_posts', { limit: 2 }));
    const result = JSON.parse(new TextDecoder().decode(reply.body!)).result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain(postChunkPath('all', 0));
    // A method that is not a tool call answers the protocol's internal error, naming the file and the fix.
    const listed = JSON.parse(new TextDecoder().decode((await handle(rpc(2, 'resources/list'))).body!));
    expect(listed.error.code).toBe(-32603);
    expect(listed.error.message).toContain(postChunkPath('all', 0));
    expect(listed.error.data.hint).toMatch(/^Rebuild the site with `folio build`/);
  });

  it('answers 500 naming a record the route table lists but the deployment lacks', async () => {
    const record = built.state.routes.get(`/api/v1/posts/${slug()}`)!.file;
    const handle = await broken('no-record', (dir) => rm(join(dir, record)));
    await expectDeploymentError(await handle(request('GET', `/api/v1/posts/${slug()}`)), record);
    const viaMcp = JSON.parse(new TextDecoder().decode((await handle(call(2, 'site_get_post', { slug: slug() }))).body!)).result;
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.content[0].text).toContain(record);
  });

  it('answers 500 naming missing search files, the head, the posts outline and the 404 pages', async () => {
    const cases: [string, Req][] = [
      [SEARCH_HEAD_PATH, request('GET', '/api/v1/search?q=ssh')],
      [termShardPath(0), request('GET', '/api/v1/search?q=0')],
      [POSTS_PATH, request('GET', '/api/v1/posts?limit=2')],
      [NOT_FOUND_PATH, request('GET', '/no-such-page')],
      [CHANGES_PATH, request('GET', '/api/v1/changes?since=2020-01-01')],
      [EDGE_HEAD_PATH, request('GET', '/api/v1/posts?limit=2')],
    ];
    for (const [file, req] of cases) {
      const handle = await broken(`no-${file.replace(/\W/g, '-')}`, (dir) => rm(join(dir, file)));
      await expectDeploymentError(await handle(req), file);
    }
    // Search documents: every hit's file is there or the answer is refused.
    const docs = join(EDGE_HEAD_PATH, '..', 'search');
    const handle = await broken('no-search-docs', async (dir) => {
      for (const f of await readdir(join(dir, docs))) if (f.startsWith('docs-')) await rm(join(dir, docs, f));
    });
    const reply = await handle(request('GET', '/api/v1/search?q=deliverabilty'));
    await expectDeploymentError(reply, `${docs}/docs-`);
  });

  it('refuses a shard, chunk or search shard from another build, naming it', async () => {
    const cases: [string, Req][] = [
      // The request looks its path up first, in this shard.
      [await shardOf(built.out, '/api/v1/posts'), request('GET', '/api/v1/posts?tag=ci&limit=1')],
      [postChunkPath('all', 0), request('GET', '/api/v1/posts?limit=2')],
      [POSTS_PATH, request('GET', '/api/v1/posts?limit=2')],
      [SEARCH_HEAD_PATH, request('GET', '/api/v1/search?q=ssh')],
      [NOT_FOUND_PATH, request('GET', '/no-such-page')],
      [CHANGES_PATH, request('GET', '/api/v1/changes?since=2020-01-01')],
    ];
    expect((await head(other.out)).build).not.toBe((await head(built.out)).build);
    for (const [file, req] of cases) {
      const handle = await broken(`other-${file.replace(/\W/g, '-')}`, async (dir) => {
        await mkdir(join(dir, file, '..'), { recursive: true });
        await copyFile(join(other.out, file), join(dir, file));
      });
      const reply = await handle(req);
      await expectDeploymentError(reply, file);
      expect(JSON.parse(new TextDecoder().decode(reply.body!)).error.message).toMatch(/another build/);
    }
  });

  it('refuses a head that is not a folio head', async () => {
    const handle = await broken('bad-head', (dir) => writeFile(join(dir, EDGE_HEAD_PATH), '{"format":"something-else"}'));
    await expectDeploymentError(
      await handle(request('POST', '/mcp', MCP, new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))),
      EDGE_HEAD_PATH,
    );
  });
});
