// Incremental builds (D38, D40): after each kind of edit, a build
// that reuses the cache and the previous dist has exactly the bytes of a
// clean build of the same content, and a body-only edit asks respond() again
// only for that post's addresses, and splices the documents that show bodies
// (llms-full.txt, the feeds) from the previous files (D56).
import { readFileSync } from 'node:fs';
import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSummary } from '../build/summary.js';
import { build, type BuildResult } from '../build/emit/build.js';
import { paint } from '../build/progress.js';
import { ownerOf } from '../build/emit/incremental.js';
import { cleanBuild, copyContent, NOW, tempDir, treeHash } from './helpers/site.js';

const SLOW = { timeout: 300_000 };
let work: string;
let content: string;
let cache: string;
let out: string;
let cleanRuns = 0;

beforeAll(async () => {
  work = await tempDir('folio-incremental-');
  content = await copyContent();
  cache = join(work, '.folio-cache');
  out = join(work, 'dist');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

async function incremental(now = NOW): Promise<BuildResult> {
  return build({ content, out, now, cache });
}

/**
 * The incremental output equals a clean build (no cached records, fresh
 * directory) of the same content. The record of what earlier builds
 * published is an input, not a cache (D61): the clean build is given it too.
 */
async function expectSameAsClean(now = NOW): Promise<void> {
  const clean = join(work, `clean-${cleanRuns++}`);
  await cleanBuild({ content, out: clean, now }, { cache, out });
  expect(await treeHash(out)).toEqual(await treeHash(clean));
  await rm(clean, { recursive: true, force: true });
}

async function edit(file: string, change: (text: string) => string): Promise<void> {
  const path = join(content, file);
  const before = await readFile(path, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} changes it`).not.toBe(before);
  await writeFile(path, after);
}

describe('incremental builds', () => {
  it('classifies targets: a post owns its page, twin and API record, nothing else', () => {
    expect(ownerOf('/blog/bounce-handling')).toBe('bounce-handling');
    expect(ownerOf('/blog/bounce-handling.md')).toBe('bounce-handling');
    expect(ownerOf('/api/v1/posts/bounce-handling')).toBe('bounce-handling');
    expect(ownerOf('/blog')).toBeNull();
    expect(ownerOf('/blog/tags/email')).toBeNull();
    expect(ownerOf('/api/v1/posts?tag=email')).toBeNull();
    expect(ownerOf('/feed.xml')).toBeNull();
    expect(ownerOf('/llms-full.txt')).toBeNull();
  });

  it('starts from a full build, and a rebuild without changes asks for nothing and writes nothing', SLOW, async () => {
    const first = await incremental();
    expect(first.stats.full).toBe('no previous build');
    expect(first.stats.asked).toBe(first.stats.targets);
    const again = await incremental();
    expect(again.stats.full).toBeNull();
    expect(again.stats.rendered).toBe(0);
    expect(again.stats.asked).toBe(0);
    expect(again.stats.written).toEqual([]);
    expect(again.files).toBe(first.files);
    expect(again.bytes).toBe(first.bytes);
    await expectSameAsClean();
  });

  it('later the same day, asks for no response: only the model and the files naming the build take the new clock', SLOW, async () => {
    await incremental();
    const noon = new Date(NOW.getTime() + 12.5 * 3600_000);
    const r = await incremental(noon);
    expect(r.stats.full).toBeNull();
    expect(r.stats.asked).toBe(0);
    // The model for the functions shows the whole clock, the manifest and the edge head the build id made with it.
    expect(r.stats.written.sort()).toEqual(['_folio/edge/head.json', '_folio/manifest.json', '_folio/site.json']);
    expect(JSON.parse(await readFile(join(out, '_folio/site.json'), 'utf8')).built_at).toBe(noon.toISOString());
    await expectSameAsClean(noon);

    // A body edit in the evening: the post's own responses and the documents showing bodies, as on any edit.
    await appendFile(join(content, 'posts/bounce-handling.md'), '\nA paragraph added in the evening.\n');
    const evening = new Date(NOW.getTime() + 23 * 3600_000);
    const edited = await incremental(evening);
    expect(edited.stats.full).toBeNull();
    expect(edited.stats.asked).toBe(6);
    await expectSameAsClean(evening);
  });

  it('on a new day, asks for the responses that showed the day; in a new year, for all', SLOW, async () => {
    const first = await incremental();
    const tomorrow = new Date(NOW.getTime() + 25 * 3600_000);
    const r = await incremental(tomorrow);
    expect(r.stats.full).toBeNull();
    // Exactly those the previous build recorded reading the day: availability, and the pages and documents showing it.
    const dated = [...first.state.clock!.keys()];
    expect(r.stats.asked).toBe(dated.length);
    expect(dated).toEqual(expect.arrayContaining(['/api/v1/availability', '/about', '/about.md', '/sitemap.xml', '/llms-full.txt']));
    // Posts' own responses show the year only.
    expect(dated.filter((t) => ownerOf(t) !== null)).toEqual([]);
    expect(r.stats.written.filter((f) => /^(blog\/[^/]+\.(html|md)|api\/v1\/posts\/[^/]+\.json)$/.test(f))).toEqual([]);
    expect(r.stats.written).toContain('api/v1/availability.json');
    // llms.txt and llms-full.txt show the about page: their frames, and the sections of the pages whose twins showed
    // the day, are made again; the posts' sections are kept.
    expect(r.stats.spliced.sort()).toEqual(['/llms-full.txt', '/llms.txt']);
    expect(r.files).toBe(first.files);
    await expectSameAsClean(tomorrow);

    // Days on which the about and home pages change too (the availability they sum up moves on).
    for (const day of ['2026-11-26T09:00:00Z', '2026-11-27T09:30:00Z']) {
      const at = new Date(day);
      expect((await incremental(at)).stats.full).toBeNull();
      await expectSameAsClean(at);
    }

    const nextYear = new Date('2027-01-02T08:00:00Z');
    expect((await incremental(nextYear)).stats.full).toMatch(/year of the build clock/);
    await expectSameAsClean(nextYear);
    await incremental();
  });

  it('after a body-only edit, asks for that post and the shared addresses only', SLOW, async () => {
    // The post has no `summary`, so the edit must not touch its first paragraph.
    await appendFile(join(content, 'posts/bounce-handling.md'), '\nOne more paragraph, added by the incremental test.\n');
    const r = await incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.rendered).toBe(1);
    expect(r.stats.asked).toBeLessThan(r.stats.targets);
    // Other posts' own pages were not asked for, so not rewritten.
    expect(r.stats.written).toContain('blog/bounce-handling.html');
    expect(r.stats.written).toContain('blog/bounce-handling.md');
    expect(r.stats.written).toContain('api/v1/posts/bounce-handling.json');
    expect(r.stats.written).toContain('feed.xml');
    expect(r.stats.written).toContain('llms-full.txt');
    expect(r.stats.written.filter((f) => f.startsWith('blog/') && !f.includes('bounce-handling'))).toEqual([]);
    // Its page, twin and API record, and the three documents that show bodies, spliced from the previous files;
    // llms.txt shows of the bodies only token estimates, which a sentence leaves as they were.
    expect(r.stats.asked).toBe(6);
    expect(r.stats.written).not.toContain('llms.txt');
    expect(r.stats.spliced.sort()).toEqual(['/feed.json', '/feed.xml', '/llms-full.txt']);
    await expectSameAsClean();
  });

  it('after a body edit that moves a token estimate, asks for llms.txt too', SLOW, async () => {
    const before = await readFile(join(out, 'llms.txt'), 'utf8');
    // One long word: a thousand bytes, and the same reading time (a listed field).
    await appendFile(join(content, 'posts/bounce-handling.md'), `\nSee https://example.com/${'a'.repeat(1000)}.\n`);
    const r = await incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.asked).toBe(7);
    expect(r.stats.written).toContain('llms.txt');
    // Its frame (llms-full.txt's estimate) and the post's line made again, the other posts' lines kept.
    expect(r.stats.spliced).toContain('/llms.txt');
    expect(await readFile(join(out, 'llms.txt'), 'utf8')).not.toBe(before);
    await expectSameAsClean();
  });

  it("after a body edit that moves llms-full.txt's estimate, makes llms.txt's frame again", SLOW, async () => {
    const line = (text: string) => text.split('\n').find((l) => l.includes('/llms-full.txt'));
    const before = line(await readFile(join(out, 'llms.txt'), 'utf8'));
    // Four thousand bytes in one word: a thousand tokens more for llms-full.txt, and the same reading time.
    await appendFile(join(content, 'posts/bounce-handling.md'), `\nSee https://example.com/${'b'.repeat(4000)}.\n`);
    const r = await incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.spliced).toContain('/llms.txt');
    expect(line(await readFile(join(out, 'llms.txt'), 'utf8'))).not.toBe(before);
    await expectSameAsClean();
  });

  it('after body edits of the first and the last post at once, splices both sections of each document', SLOW, async () => {
    const before = await incremental();
    const [first, last] = [before.site.posts[0]!.slug, before.site.posts.at(-1)!.slug];
    for (const slug of [first, last]) await appendFile(join(content, `posts/${slug}.md`), '\nEdited.\n');
    const r = await incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.spliced).toHaveLength(3);
    for (const slug of [first, last]) expect(r.stats.written).toContain(`api/v1/posts/${slug}.json`);
    expect(r.stats.written).toEqual(expect.arrayContaining(['feed.xml', 'feed.json', 'llms-full.txt']));
    await expectSameAsClean();
  });

  it('after a body edit, makes whole a file of sections whose previous file is not the size the state remembers', SLOW, async () => {
    await incremental();
    // Another size than the state's: the splice cannot trust the previous bytes, so these are made whole.
    for (const file of ['llms-full.txt', '_folio/site.json']) await appendFile(join(out, file), '\n');
    await appendFile(join(content, 'posts/bounce-handling.md'), '\nAnother paragraph, after the files were touched.\n');
    const r = await incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.spliced.sort()).toEqual(['/feed.json', '/feed.xml']);
    expect(r.stats.written).toEqual(expect.arrayContaining(['llms-full.txt', '_folio/site.json']));
    await expectSameAsClean();
  });

  it('after a title edit, asks for the shared addresses, that post and the posts whose related posts show it', SLOW, async () => {
    // The pages whose related posts list bounce-handling, read from the previous output.
    const related = (await readdir(join(out, 'blog')))
      .filter((f) => f.endsWith('.html') && f !== 'bounce-handling.html')
      .filter((f) => {
        const page = readFileSync(join(out, 'blog', f), 'utf8');
        return /<aside class="related"[\s\S]*?href="\/blog\/bounce-handling"[\s\S]*?<\/aside>/.test(page);
      });
    expect(related.length).toBeGreaterThan(0);
    // Of the same length, so no token estimate moves: llms.txt must be asked for the title alone.
    await edit('posts/bounce-handling.md', (t) => t.replace(/^title: .*$/m, 'title: "Bounce Handling: Hard, Soft, and the Ones That Lie"'));
    const r = await incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.asked).toBeLessThan(r.stats.targets);
    const pages = r.stats.written.filter((f) => /^blog\/[^/]+\.html$/.test(f)).map((f) => f.slice('blog/'.length));
    expect(pages.sort()).toEqual(['bounce-handling.html', ...related].sort());
    // Lists, tag pages and the documents show the title: asked, the documents spliced with their frames made again.
    expect(r.stats.written).toEqual(expect.arrayContaining(['blog.html', 'blog/tags/email.html', 'feed.xml', 'llms.txt', 'llms-full.txt']));
    expect(r.stats.spliced.sort()).toEqual(['/feed.json', '/feed.xml', '/llms-full.txt', '/llms.txt']);
    await expectSameAsClean();
  });

  it('after a summary, reading-time or date edit that keeps the order, the same; after a tag edit, everything', SLOW, async () => {
    await edit('posts/bounce-handling.md', (t) =>
      t.replace(/^title: (.*)$/m, 'title: $1\nsummary: "A summary added by the incremental test."'),
    );
    expect((await incremental()).stats.full).toBeNull();
    await expectSameAsClean();
    // Past the next minute of reading time (220 words a minute).
    await appendFile(join(content, 'posts/bounce-handling.md'), `\n${'Another word to read. '.repeat(120)}\n`);
    expect((await incremental()).stats.full).toBeNull();
    await expectSameAsClean();
    // The newest post a day earlier, still the newest: the feeds' own date moves with it.
    await edit('posts/socket-activation-zero-downtime.md', (t) => t.replace(/^date: 2026-10-05$/m, 'date: 2026-10-04'));
    expect((await incremental()).stats.full).toBeNull();
    await expectSameAsClean();
    await edit('posts/bounce-handling.md', (t) => t.replace('  - saas\n', '  - saas\n  - incidents\n'));
    const tagged = await incremental();
    // Named as the post's tags: the site's tag list that moved with them follows from them.
    expect(tagged.stats.full).toBe('the tags of bounce-handling changed');
    // The summary says why every response was asked again; a cold build's says nothing of it.
    expect(buildSummary(tagged, 'dist', paint(false))).toContain(`every response asked: ${tagged.stats.full}]`);
    await expectSameAsClean();
    const cold = await cleanBuild({ content, out: join(work, 'cold'), now: NOW });
    expect(cold.stats.full).toBe('no previous build');
    expect(buildSummary(cold, 'dist', paint(false))).not.toContain('asked');
  });

  it('after adding, removing, drafting and scheduling posts', SLOW, async () => {
    await writeFile(
      join(content, 'posts/a-new-post.md'),
      '---\ntitle: A new post\ndate: 2026-11-20\ntags: [email]\n---\n\nA new post, written by the incremental test. See [bounces](/blog/bounce-handling).\n',
    );
    const added = await incremental();
    expect(added.stats.written).toContain('blog/a-new-post.html');
    await expectSameAsClean();

    await rm(join(content, 'posts/a-new-post.md'));
    const removed = await incremental();
    expect(removed.stats.removed).toContain('blog/a-new-post.html');
    await expectSameAsClean();

    await edit('posts/short-lived-ssh-certificates.md', (t) => t.replace(/^date: .*$/m, 'date: 2027-05-01'));
    await incremental();
    await expectSameAsClean();

    await edit('posts/ci-cost-per-merged-pull-request.md', (t) => t.replace(/^---\n/, '---\ndraft: true\n'));
    await incremental();
    await expectSameAsClean();
  });

  it('after edits outside the posts: profile, a project, the API lifecycle, the clock', SLOW, async () => {
    await edit('profile.md', (t) => t.replace(/^headline: .*$/m, 'headline: "Platform engineer, edited by a test"'));
    expect((await incremental()).stats.full).toMatch(/outside the posts/);
    await expectSameAsClean();

    await edit('projects/bouncedesk.md', (t) => `${t}\nA sentence added by the incremental test.\n`);
    await incremental();
    await expectSameAsClean();

    await appendFile(
      join(content, 'site.yaml'),
      'api:\n  versions:\n    v1: { deprecated: 2026-10-01, sunset: 2027-06-01, successor: v2 }\n',
    );
    await incremental();
    await expectSameAsClean();

    const later = new Date('2027-07-01T00:00:00Z');
    expect((await incremental(later)).stats.full).toMatch(/outside the posts/);
    await expectSameAsClean(later);
  });

  it('does not reuse a dist that is not the build it remembers', SLOW, async () => {
    const manifest = join(out, '_folio/manifest.json');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('"version": 1', '"version": 1 '));
    const r = await incremental();
    expect(r.stats.full).toBe('no previous build');
    await expectSameAsClean();
  });

  it('takes a build state it cannot read, cut short or of no format, for no previous build', SLOW, async () => {
    await incremental();
    const [name] = (await readdir(cache)).filter((n) => n.startsWith('state-'));
    const state = join(cache, name!);
    const bytes = await readFile(state);
    for (const broken of [bytes.subarray(0, bytes.byteLength >> 1), Buffer.from('not a build state')]) {
      await writeFile(state, broken);
      const r = await incremental();
      expect(r.stats.full).toBe('no previous build');
      await expectSameAsClean();
    }
  });
});
