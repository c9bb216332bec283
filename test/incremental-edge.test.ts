// An edit of post bodies alone keeps the previous build's route shards for
// the targets it did not ask for again (build/emit/edge-before.ts), on a
// site with enough shards that most are kept. A body can still add or drop a
// target nobody asks for (its second image); the shard that target falls in
// must be made again, and the output must equal a clean build (D55, D56).
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain JavaScript module of the benchmark
import { corpusFiles } from '../bench/corpus.js';
import { EDGE_HEAD_PATH, routeShard, tagCount, type EdgeHead } from '../build/core/edge.js';
import { build, type BuildResult } from '../build/emit/build.js';
import { cloudflare } from '../build/emit/hosts/cloudflare.js';
import { netlify } from '../build/emit/hosts/netlify.js';
import { planHosts } from '../build/emit/hosts/plan.js';
import { vercel } from '../build/emit/hosts/vercel.js';
import type { Manifest } from '../build/core/files.js';
import { builtManifest, cleanBuild, NOW, tempDir, treeHash } from './helpers/site.js';

const SLOW = { timeout: 300_000 };
let work: string;
let content: string;
let cache: string;
let out: string;
/** The post whose body the test edits, and the targets a body edit of it asks for again. */
let post: string;
let asked: string[];

const incremental = (): Promise<BuildResult> => build({ content, out, now: NOW, cache });
const json = async <T>(file: string): Promise<T> => JSON.parse(await readFile(join(out, file), 'utf8')) as T;
const routes = async () => Object.keys((await json<{ routes: Record<string, unknown> }>('_folio/manifest.json')).routes);
const postFile = () => join(content, 'posts', `${post}.md`);

async function expectSameAsClean(): Promise<void> {
  const clean = join(work, 'clean');
  await cleanBuild({ content, out: clean, now: NOW }, { cache, out });
  expect(await treeHash(out)).toEqual(await treeHash(clean));
  await rm(clean, { recursive: true, force: true });
}

beforeAll(async () => {
  work = await tempDir('folio-incremental-edge-');
  content = join(work, 'content');
  cache = join(work, '.folio-cache');
  out = join(work, 'dist');
  for (const [path, text] of Object.entries(corpusFiles(300) as Record<string, string>)) {
    await mkdir(dirname(join(content, path)), { recursive: true });
    await writeFile(join(content, path), text);
  }
  // One post shows an image, so a second one changes its body alone (lists show the first).
  const first = await incremental();
  post = first.site.posts[40]!.slug;
  await mkdir(join(content, 'posts', 'img'), { recursive: true });
  await copyFile('content/posts/img/affected-pipeline.svg', join(content, 'posts', 'img', 'first.svg'));
  await writeFile(postFile(), `${await readFile(postFile(), 'utf8')}\n![The first diagram](./img/first.svg)\n`);
  await incremental();
  asked = [`/blog/${post}`, '/llms.txt', '/llms-full.txt', '/feed.xml', '/feed.json'];
}, 300_000);
afterAll(() => rm(work, { recursive: true, force: true }));

describe('route shards after an edit of bodies alone (D55, D56)', () => {
  it('makes again the shard of an image file a body adds or drops, though nobody asked for it', SLOW, async () => {
    const before = await routes();
    const svg = await readFile('content/posts/img/affected-pipeline.svg', 'utf8');
    const count = tagCount((await json<EdgeHead>(EDGE_HEAD_PATH)).routes);
    expect(count).toBeGreaterThan(8);
    const askedShards = new Set(asked.map((t) => routeShard(t, count)));
    // The image's address comes from its bytes: try titles until it falls in a shard no asked target is in.
    let added: string | undefined;
    let line = '';
    for (let n = 0; n < 12 && !added; n++) {
      await writeFile(join(content, 'posts', 'img', 'second.svg'), svg.replace('<title>', `<title>Second (${n}): `));
      line = `\n![The second diagram](./img/second.svg)\n`;
      const text = (await readFile(postFile(), 'utf8')).replace(line, '');
      await writeFile(postFile(), text + line);
      const r = await incremental();
      expect(r.stats.full, 'a body edit').toBeNull();
      const now = (await routes()).filter((t) => !before.includes(t));
      expect(now).toHaveLength(1);
      if (!askedShards.has(routeShard(now[0]!, count))) added = now[0];
      else await writeFile(postFile(), text);
    }
    expect(added, 'an image address in a shard nobody asked for').toBeDefined();
    await expectSameAsClean();
    // And dropped again.
    await writeFile(postFile(), (await readFile(postFile(), 'utf8')).replace(line, ''));
    expect((await incremental()).stats.full).toBeNull();
    expect(await routes()).toEqual(before);
    await expectSameAsClean();
  });

  it('writes no list chunk, outline or other route shard after a body edit, and equals a clean build', SLOW, async () => {
    await writeFile(postFile(), `${await readFile(postFile(), 'utf8')}\nOne more sentence, about zyzzogeton.\n`);
    const r = await incremental();
    expect(r.stats.full).toBeNull();
    const edge = r.stats.written.filter((f) => f.startsWith('_folio/edge/') && !f.startsWith('_folio/edge/search'));
    const count = tagCount((await json<EdgeHead>(EDGE_HEAD_PATH)).routes);
    // The head, and at most the shard of the post (its twin's token estimate).
    const shard = `_folio/edge/routes/${routeShard(`/blog/${post}`, count)}.json`;
    expect(edge).toContain(EDGE_HEAD_PATH);
    expect(edge.filter((f) => f !== EDGE_HEAD_PATH && f !== shard)).toEqual([]);
    await expectSameAsClean();
  });

  it(
    'keeps the host files after a body edit they print nothing of, and prints them again when they print its twin or were edited',
    SLOW,
    async () => {
      const hostFiles = ['_headers', '_redirects', '_routes.json', 'netlify.toml', 'vercel.json'];
      // A longer body moves the twin's token estimate, which is a header of its own.
      const lengthen = async (slug: string) =>
        writeFile(
          join(content, 'posts', `${slug}.md`),
          `${await readFile(join(content, 'posts', `${slug}.md`), 'utf8')}\n${'A longer body. '.repeat(40)}\n`,
        );
      const twins = (headers: string) => [...headers.matchAll(/^\/blog\/([^/\s]+)\.md$/gm)].map((m) => m[1]!);
      await incremental();
      // Only the first twins of a site this size fit Cloudflare's rule budget in _headers.
      const printed = twins(await readFile(join(out, '_headers'), 'utf8'));
      expect(printed.length).toBeGreaterThan(0);
      expect(printed).not.toContain(post);

      await lengthen(post);
      const unprinted = await incremental();
      expect(unprinted.stats.full).toBeNull();
      expect(unprinted.stats.hostFiles).toBe('kept');
      expect(unprinted.stats.written.filter((f) => hostFiles.includes(f))).toEqual([]);
      await expectSameAsClean();

      await lengthen(printed[0]!);
      const shown = await incremental();
      expect(shown.stats.full).toBeNull();
      expect(shown.stats.hostFiles).toBe('printed');
      expect(shown.stats.written).toContain('_headers');
      await expectSameAsClean();

      // A host file edited by hand since is not the previous build's: printed again, not carried.
      await writeFile(join(out, '_headers'), `${await readFile(join(out, '_headers'), 'utf8')}# an edit by hand\n`);
      await lengthen(post);
      expect((await incremental()).stats.hostFiles).toBe('printed');
      await expectSameAsClean();
    },
  );

  it('prints the same host files whatever the own headers of the routes the printers did not read', SLOW, async () => {
    // What the memo rests on, tried rather than assumed: change the own headers of routes the printers
    // did not read (a sample of them) and print again; the same bytes. Changing those of routes they read does show.
    const site = (await incremental()).site;
    const manifest = builtManifest(await json<Manifest>('_folio/manifest.json'));
    const print = (m: typeof manifest) => {
      const plan = planHosts(site, m);
      const bytes = [...cloudflare(plan), ...netlify(plan), ...vercel(plan)].map((f) => `${f.path}\n${String(f.body)}`).join('\0');
      return { bytes, read: plan.headersRead };
    };
    const withOwn = (target: string) => {
      const routes = new Map(manifest.routes);
      const [file, set, own] = routes.get(target)!;
      routes.set(target, [file, set, { ...own, 'x-markdown-tokens': '999999' }]);
      return { ...manifest, routes };
    };
    const base = print(manifest);
    const targets = [...manifest.routes.keys()];
    const unread = targets.filter((t) => !base.read.has(t));
    const read = targets.filter((t) => base.read.has(t));
    expect(unread.length).toBeGreaterThan(500);
    const every = Math.max(1, Math.floor(unread.length / 150));
    const sample = unread.filter((_, i) => i % every === 0);
    expect(sample.filter((t) => print(withOwn(t)).bytes !== base.bytes)).toEqual([]);
    expect(read.slice(0, 20).some((t) => print(withOwn(t)).bytes !== base.bytes)).toBe(true);
  });
});
