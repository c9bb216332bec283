// Incremental builds after body edits (D38, D56): respond() is asked again only for the edited post's
// own addresses (its page, twin and API record) and the documents that show bodies, which are spliced
// from the previous files (llms-full.txt, the feeds, llms.txt when an estimate moves) or made whole when
// those files are not what the state remembers; each output equals a clean build's (D40).
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyDocuments } from '../build/core/documents/index.js';
import { mustAsk, ownerOf, type Plan } from '../build/emit/incremental.js';
import { incrementalSite, SLOW } from './helpers/incremental.js';

const s = incrementalSite('folio-incremental-bodies-');

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

  it('after a body edit, asks for every target its post owns and the body documents, and no other', SLOW, async () => {
    const targets = [...(await s.incremental()).state.routes.keys()];
    // Each plan with the number of its slugs that are posts' (each owns its page, twin and API record).
    const plans: [Extract<Plan, { all: false }>, number][] = [
      [{ all: false, changed: new Set(['bounce-handling']) }, 1],
      [{ all: false, changed: new Set(['bounce-handling', 'dmarc-p-reject-rollout']), clock: 'day' }, 2],
      // A slug other targets hold (a tag's pages and lists, a post's slug): they are looked at, and not asked.
      [{ all: false, changed: new Set(['email']) }, 0],
    ];
    for (const [plan, posts] of plans) {
      // mustAsk answers a target that holds no changed slug without ownerOf; the answer is ownerOf's.
      const asked = targets.filter((t) => mustAsk(plan, t));
      const expected = targets.filter((t) => {
        const owner = ownerOf(t);
        return owner === null ? bodyDocuments.has(t) : plan.changed.has(owner);
      });
      expect(asked).toEqual(expected);
      expect(asked.length).toBe(3 * posts + bodyDocuments.size);
    }
  });

  it('after a body-only edit, asks for that post and the shared addresses only', SLOW, async () => {
    // The post has no `summary`, so the edit must not touch its first paragraph.
    await appendFile(join(s.content, 'posts/bounce-handling.md'), '\nOne more paragraph, added by the incremental test.\n');
    const r = await s.incremental();
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
    await s.expectSameAsClean();
  });

  it('after a body edit that moves a token estimate, asks for llms.txt too', SLOW, async () => {
    const before = await readFile(join(s.out, 'llms.txt'), 'utf8');
    // One long word: a thousand bytes, and the same reading time (a listed field).
    await appendFile(join(s.content, 'posts/bounce-handling.md'), `\nSee https://example.com/${'a'.repeat(1000)}.\n`);
    const r = await s.incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.asked).toBe(7);
    expect(r.stats.written).toContain('llms.txt');
    // Its frame (llms-full.txt's estimate) and the post's line made again, the other posts' lines kept.
    expect(r.stats.spliced).toContain('/llms.txt');
    expect(await readFile(join(s.out, 'llms.txt'), 'utf8')).not.toBe(before);
    await s.expectSameAsClean();
  });

  it("after a body edit that moves llms-full.txt's estimate, makes llms.txt's frame again", SLOW, async () => {
    const line = (text: string) => text.split('\n').find((l) => l.includes('/llms-full.txt'));
    const before = line(await readFile(join(s.out, 'llms.txt'), 'utf8'));
    // Four thousand bytes in one word: a thousand tokens more for llms-full.txt, and the same reading time.
    await appendFile(join(s.content, 'posts/bounce-handling.md'), `\nSee https://example.com/${'b'.repeat(4000)}.\n`);
    const r = await s.incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.spliced).toContain('/llms.txt');
    expect(line(await readFile(join(s.out, 'llms.txt'), 'utf8'))).not.toBe(before);
    await s.expectSameAsClean();
  });

  it('after body edits of the first and the last post at once, splices both sections of each document', SLOW, async () => {
    const before = await s.incremental();
    const [first, last] = [before.site.posts[0]!.slug, before.site.posts.at(-1)!.slug];
    for (const slug of [first, last]) await appendFile(join(s.content, `posts/${slug}.md`), '\nEdited.\n');
    const r = await s.incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.spliced).toHaveLength(3);
    for (const slug of [first, last]) expect(r.stats.written).toContain(`api/v1/posts/${slug}.json`);
    expect(r.stats.written).toEqual(expect.arrayContaining(['feed.xml', 'feed.json', 'llms-full.txt']));
    await s.expectSameAsClean();
  });

  it('after a body edit, makes whole a file of sections whose previous file is not the size the state remembers', SLOW, async () => {
    await s.incremental();
    // Another size than the state's: the splice cannot trust the previous bytes, so these are made whole.
    for (const file of ['llms-full.txt', '_folio/site.json']) await appendFile(join(s.out, file), '\n');
    await appendFile(join(s.content, 'posts/bounce-handling.md'), '\nAnother paragraph, after the files were touched.\n');
    const r = await s.incremental();
    expect(r.stats.full).toBeNull();
    expect(r.stats.spliced.sort()).toEqual(['/feed.json', '/feed.xml']);
    expect(r.stats.written).toEqual(expect.arrayContaining(['llms-full.txt', '_folio/site.json']));
    await s.expectSameAsClean();
  });
});
