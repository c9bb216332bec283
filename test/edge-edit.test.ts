// D55, D56: an edit rewrites the edge files whose content it changes and keeps
// the bytes of every other; the function refuses the previous build's copy of a
// file the edit changed. Tagged files carry the tag of their content.
import { appendFile, copyFile, cp, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDGE_DIR,
  EDGE_HEAD_PATH,
  NOT_FOUND_PATH,
  routeShard,
  routeShardPath,
  SEARCH_HEAD_PATH,
  tagCount,
  termShardPath,
} from '../build/core/edge.js';
import { request, type Req } from '../build/core/http.js';
import { tagged, untaggedHash } from '../build/emit/edge.js';
import { createHandler } from '../build/runtime/handler.js';
import { fileReader } from '../build/serve-files.js';
import { expectDeploymentError, head } from './helpers/edge.js';
import { buildInto, tempDir } from './helpers/site.js';

type Built = Awaited<ReturnType<typeof buildInto>>;
let built: Built;
let root: string;
const dirs: string[] = [];

beforeAll(async () => {
  built = await buildInto('content');
  root = await tempDir('folio-edge-edit-copies-');
  dirs.push(join(built.out, '..'), root);
}, 120_000);
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('an edit keeps the bytes of every edge file whose content it leaves alone (D55, D56)', () => {
  // One post gains a sentence with a word no other post has: its reading
  // time and list entry stay, its record, twin, search document and postings change.
  const WORD = 'zyzzogeton';
  let edited: Built;
  const post = () => built.site.posts.find((p) => p.slug === 'bounce-handling')!;

  beforeAll(async () => {
    const content = join(await tempDir('folio-edge-edit-'), 'content');
    dirs.push(join(content, '..'));
    await cp('content', content, { recursive: true });
    await appendFile(join(content, 'posts', 'bounce-handling.md'), `\nOne more sentence, about the ${WORD}.\n`);
    edited = await buildInto(content);
    dirs.push(join(edited.out, '..'));
    expect(edited.site.posts.find((p) => p.slug === post().slug)!.reading_time_minutes).toBe(post().reading_time_minutes);
  }, 120_000);

  /** Every file under _folio/edge, by its path in dist. */
  const edgeFiles = async (dir: string) =>
    (await readdir(join(dir, EDGE_DIR), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => join(relative(dir, e.parentPath), e.name))
      .sort();
  const bytes = (dir: string, file: string) => readFile(join(dir, file), 'utf8');
  const withoutTag = (text: string) => {
    const { tag: _tag, ...rest } = JSON.parse(text) as { tag?: string };
    return rest;
  };

  it('rewrites the files whose content changed, and no other', async () => {
    const files = await edgeFiles(built.out);
    expect(await edgeFiles(edited.out)).toEqual(files);
    const changed: string[] = [];
    for (const file of files) {
      const [before, after] = [await bytes(built.out, file), await bytes(edited.out, file)];
      if (before !== after) changed.push(file);
      // The tag follows the content: the same content is the same bytes, other content another tag.
      if (file === EDGE_HEAD_PATH) continue;
      const same = JSON.stringify(withoutTag(before)) === JSON.stringify(withoutTag(after));
      expect(before === after, file).toBe(same);
      if (!same) expect(JSON.parse(after).tag, file).not.toBe(JSON.parse(before).tag);
    }
    const shard = routeShardPath(routeShard(`/blog/${post().slug}`, tagCount((await head(built.out)).routes)));
    expect(changed).toContain(shard);
    expect(changed).toContain(SEARCH_HEAD_PATH);
    // No other route shard, no post chunk, and neither outline nor the 404 pages.
    expect(changed.filter((f) => f.startsWith(join(EDGE_DIR, 'routes')) && f !== shard)).toEqual([]);
    expect(changed.filter((f) => f.startsWith(join(EDGE_DIR, 'posts')))).toEqual([]);
    expect(changed).not.toContain(NOT_FOUND_PATH);
    expect(changed.length).toBeLessThan(files.length / 4);
  });

  it("refuses the previous build's copy of a file the edit changed, naming it", async () => {
    const shard = routeShardPath(routeShard(`/blog/${post().slug}`, tagCount((await head(built.out)).routes)));
    const search = JSON.parse(await bytes(edited.out, SEARCH_HEAD_PATH)) as { terms: string[] };
    const term = termShardPath(search.terms.findLastIndex((first) => first <= WORD));
    expect(await bytes(built.out, term)).not.toBe(await bytes(edited.out, term));
    const cases: [string, string, Req][] = [
      [shard, shard, request('GET', `/blog/${post().slug}`, { accept: 'text/markdown' })],
      [term, term, request('GET', `/api/v1/search?q=${WORD}`)],
      [SEARCH_HEAD_PATH, SEARCH_HEAD_PATH, request('GET', `/api/v1/search?q=${WORD}`)],
      // The previous head expects the previous shard.
      [EDGE_HEAD_PATH, shard, request('GET', `/blog/${post().slug}`, { accept: 'text/markdown' })],
    ];
    for (const [copied, named, req] of cases) {
      const dir = join(root, `edited-${copied.replace(/\W/g, '-')}`);
      await cp(edited.out, dir, { recursive: true });
      await copyFile(join(built.out, copied), join(dir, copied));
      const reply = await createHandler(fileReader(dir))(req);
      await expectDeploymentError(reply, named);
      expect(JSON.parse(new TextDecoder().decode(reply.body!)).error.message).toMatch(/another build/);
    }
    // The edited build alone finds the word.
    const found = await createHandler(fileReader(edited.out))(request('GET', `/api/v1/search?q=${WORD}`));
    expect(JSON.parse(new TextDecoder().decode(found.body!)).data.map((hit: { id: string }) => hit.id)).toEqual([post().slug]);
  });

  it('keeps the route shards a handler read for its next requests, and reads again the one the edit changed', async () => {
    // One handler whose deployment changes under it, as under `folio dev` or a redeploy read by a warm isolate.
    const readers = new Map([built.out, edited.out].map((dir) => [dir, fileReader(dir)]));
    let dir = built.out;
    let files: string[] = [];
    const handle = createHandler((path) => (files.push(path), readers.get(dir)!(path)));
    const count = tagCount((await head(built.out)).routes);
    const shardOf = (slug: string) => routeShardPath(routeShard(`/blog/${slug}`, count));
    const other = built.site.posts.find((p) => shardOf(p.slug) !== shardOf(post().slug))!;
    const twin = async (slug: string) => {
      files = [];
      const reply = await handle(request('GET', `/blog/${slug}`, { accept: 'text/markdown' }));
      expect(reply.status).toBe(200);
      return new TextDecoder().decode(reply.body!);
    };

    for (const slug of [post().slug, other.slug]) {
      expect(await twin(slug)).not.toContain(WORD);
      expect(files).toContain(shardOf(slug));
      // The next request reads the head and the twin, not the shard.
      expect(await twin(slug)).not.toContain(WORD);
      expect(files).toEqual([EDGE_HEAD_PATH, `blog/${slug}.md`]);
    }

    dir = edited.out;
    // The edited post's shard has another tag in the new head: read again, and the new twin answered.
    expect(await twin(post().slug)).toContain(WORD);
    expect(files).toContain(shardOf(post().slug));
    // The other shard is the same bytes with the same tag: still kept.
    await twin(other.slug);
    expect(files).toEqual([EDGE_HEAD_PATH, `blog/${other.slug}.md`]);
  });
});

describe('tagged files (build/emit/edge.ts)', () => {
  it('carry the tag of their content, and give back the hash the build state knows them by', () => {
    const a = tagged({ items: [{ title: 'Ünïcödé “quotes”' }] });
    expect(a.body.startsWith(`{"tag":"${a.tag}",`)).toBe(true);
    expect(JSON.parse(a.body).items[0].title).toBe('Ünïcödé “quotes”');
    expect(untaggedHash(a.body)).toBe(a.hash);
    expect(tagged({ items: [{ title: 'Ünïcödé “quotes”' }] })).toEqual(a);
    const b = tagged({ items: [{ title: 'another' }] });
    expect(b.tag).not.toBe(a.tag);
    // A file whose text is not the tagged one's: another hash, or none.
    expect(untaggedHash(a.body.replace('quotes', 'QUOTES'))).not.toBe(a.hash);
    expect(untaggedHash('{"items":[]}')).toBeNull();
  });
});
