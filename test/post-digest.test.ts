// A post's digest is made where its record is read and kept in the record
// cache (emit/post-digest.ts). A build that takes it from the record must
// compare posts exactly as one that hashes every post again, and making it
// must not read the bodies a cached record keeps out of line.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import { build } from '../build/emit/build.js';
import type { Post } from '../build/core/model.js';
import { readContentFast } from '../build/emit/documents.js';
import { assembleWithImages } from '../build/emit/images.js';
import { digestSite } from '../build/emit/incremental.js';
import { digestPost, recordDigests } from '../build/emit/post-digest.js';
import { RecordCache } from '../build/emit/record-cache.js';
import { fieldsRead } from '../build/emit/record-shard.js';
import { isWhole, searchSources } from '../build/emit/search-sources.js';
import { madeFrom } from '../build/derived.js';
import { llmsTxtFrame } from '../build/core/documents/llms.js';
import { sitemapXml } from '../build/core/documents/sitemap.js';
import { pagePaths } from '../build/core/pages/index.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The sample (posts with site-root links and with images among them), and enough plain posts that the cache is written as shards. */
async function readTwice() {
  const content = await copyContent();
  for (let i = 0; i < 80; i++)
    await writeFile(
      join(content, 'posts', `plain-${i}.md`),
      `---\ntitle: "Plain ${i}"\ndate: 2025-01-${String(1 + (i % 28)).padStart(2, '0')}\ntags: [plain]\n---\n\nA body with **no** links, number ${i}.\n`,
    );
  const cacheDir = await tempDir('folio-post-digest-');
  dirs.push(content, cacheDir);
  const sources = await loadContent(content);
  const first = await RecordCache.open(cacheDir);
  const rendered = await readContentFast(sources, { cache: first, workers: 0 });
  await first.save();
  const cached = await readContentFast(sources, { cache: await RecordCache.open(cacheDir), workers: 0 });
  return { cacheDir, rendered: rendered.content, cached: cached.content };
}

describe('post digests made where records are read', () => {
  it('are each post’s digest of its value, rendered or from the cache, and read no out-of-line body', async () => {
    const { rendered, cached } = await readTwice();
    expect(cached.posts.filter((r) => r.read).length).toBeGreaterThan(5);
    for (const [i, record] of cached.posts.entries()) {
      if (!record.read) continue;
      const value = record.read.value as Post;
      expect(Object.getOwnPropertyDescriptor(value, 'html')?.get, record.file).toBeDefined();
      expect(record.digest, record.file).toEqual(rendered.posts[i]!.digest);
      expect(fieldsRead(value), record.file).toEqual([]);
      // Hashing the post again reads its summary and Markdown from the shard, never its html or text.
      expect(record.digest, record.file).toEqual(digestPost(value));
      expect(fieldsRead(value), record.file).toEqual(['summary', 'content_markdown']);
    }
  });

  it('give the digest of the site a build hashing every post gives, posts with site-root links and images among them', async () => {
    const { cacheDir, cached } = await readTwice();
    const { model } = await assembleWithImages(cached, { now: NOW, cache: cacheDir, fileStart: () => null });
    const { site } = model;
    const derived = recordDigests(cached);
    // Some posts are the records' values as read; others were copied to make links absolute or to place images.
    const asRead = site.posts.filter((p) => derived.digests.has(p));
    expect(asRead.length).toBeGreaterThan(0);
    expect(asRead.length).toBeLessThan(site.posts.length);
    const seeded = digestSite(site, derived);
    // Making the model, its digest, and the search sources of an edit of one post read no cached
    // text but that post's and those of posts whose images were placed: a post whose links were
    // made absolute makes its body when it is read.
    const copied = site.posts.filter((p) => madeFrom(p) !== p);
    expect(copied.length).toBeGreaterThan(0);
    const edited = copied[0]!;
    const sources = searchSources(site, (type, key) => key !== edited.slug);
    expect(sources.filter(isWhole).map((s) => s.key)).toEqual([edited.slug]);
    expect(sources.find(isWhole)!.markdown).toBe(edited.content_markdown);
    const withImages = new Set(cached.posts.filter((r) => r.read?.images.length).map((r) => r.read!.value));
    const unread = cached.posts.filter((r) => r.read && !withImages.has(r.read.value) && r.read.value !== madeFrom(edited));
    expect(unread.length).toBeGreaterThan(80);
    // llms.txt's frame, made again after every body edit, and the sitemap name every post's page but show no summary.
    // The frame shows the twins' token estimates: a build knows the kept twins' sizes from the previous one (emit.ts keep).
    for (const path of pagePaths(model)) model.twinSizes.set(path, 1);
    llmsTxtFrame(model);
    sitemapXml(model);
    for (const r of unread) expect(fieldsRead(r.read!.value), r.file).toEqual([]);
    expect(fieldsRead(madeFrom(edited))).toEqual(['summary', 'content_markdown']);
    for (const p of copied) expect(p.content_markdown).toContain('https://');

    const hashed = digestSite(site);
    expect(seeded).toEqual(hashed);
    expect([...seeded.posts.keys()]).toEqual(site.posts.map((p) => p.slug));
  });

  it('make a post whose links were made absolute compare as its source, and a new site URL still makes its body again', async () => {
    const content = await copyContent();
    const work = await tempDir('folio-post-digest-url-');
    dirs.push(content, work);
    const out = join(work, 'dist');
    const cache = join(work, 'cache');
    await build({ content, out, now: NOW, cache });
    const other = 'https://elsewhere.example';
    const moved = await build({ content, out, now: NOW, cache, siteUrl: other });
    expect(moved.stats.full).not.toBeNull();
    const clean = join(work, 'clean');
    await cleanBuild({ content, out: clean, now: NOW, siteUrl: other }, { cache, out });
    expect(await treeHash(out)).toEqual(await treeHash(clean));
    // A post with a site-root link shows the new address in its Markdown.
    const post = moved.site.posts.find((p) => madeFrom(p) !== p)!;
    const record = JSON.parse(await readFile(join(out, 'api', 'v1', 'posts', `${post.slug}.json`), 'utf8')) as { content_markdown: string };
    expect(record.content_markdown).toContain(`${other}/`);
  });
});
