// A deployment missing a shard, chunk or record, or mixing files of two
// builds, answers the 500 envelope naming the file and the fix, never a wrong
// answer (D55); and the host file limits count the edge files (D39). What an
// edit keeps of the edge files: edge-edit.test.ts.
import { copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
import { CHANGES_PATH, MANIFEST_PATH } from '../build/core/files.js';
import { request, type Req } from '../build/core/http.js';
import { edgeFileCount } from '../build/emit/edge.js';
import { createHandler } from '../build/runtime/handler.js';
import { fileReader } from '../build/serve-files.js';
import { expectDeploymentError, head } from './helpers/edge.js';
import { call, edgeBuild, MCP, rpc } from './helpers/edge-site.js';
import { tempDir, builtManifest } from './helpers/site.js';

const built = edgeBuild();
const other = edgeBuild({ siteUrl: 'https://elsewhere.example' });
let root: string;

beforeAll(async () => {
  root = await tempDir('folio-edge-');
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
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
    await expectDeploymentError(await handle(request('GET', `/blog/${slug()}`)), file);
    await expectDeploymentError(await handle(request('GET', `/blog/${slug()}`, { accept: 'text/markdown' })), file);
    // The post's API record is in the same shard (core/edge.ts shardKey): the tool's error names it.
    const viaMcp = JSON.parse(new TextDecoder().decode((await handle(call(1, 'site_get_post', { slug: slug() }))).body!)).result;
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.content[0].text).toContain(file);
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
