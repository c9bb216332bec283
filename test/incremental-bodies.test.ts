// Incremental builds after body edits (D38, D56): respond() is asked again only for the edited post's
// own addresses (its page, twin and API record) and the documents that show bodies, which are spliced
// from the previous files (llms-full.txt, the feeds, llms.txt when an estimate moves) or made whole when
// those files are not what the state remembers; each output equals a clean build's (D40).
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyDocuments } from '../build/core/documents/index.js';
import { mustAsk, ownerOf, showsMovedClock, untouchedBy, type Plan } from '../build/emit/incremental.js';
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

  it("keeps untouched by a body edit only targets the plan's own questions would keep", SLOW, async () => {
    const { state } = await s.incremental();
    const targets = [...state.routes.keys()];
    const clocked = [...state.clock!.keys()];
    expect(clocked.length).toBeGreaterThan(0);
    const plans: Extract<Plan, { all: false }>[] = [
      { all: false, changed: new Set(['bounce-handling']) },
      { all: false, changed: new Set(['bounce-handling', 'dmarc-p-reject-rollout']), clock: 'day' },
      { all: false, changed: new Set(), clock: 'time' },
    ];
    for (const plan of plans) {
      const untouched = untouchedBy(plan, state)!;
      const kept = targets.filter(untouched);
      // What it keeps, mustKeep keeps: not asked, no moved clock shown, no bodies shown.
      for (const target of kept) {
        expect(mustAsk(plan, target), target).toBe(false);
        expect(showsMovedClock(plan, state, target), target).toBe(false);
        expect(bodyDocuments.has(target), target).toBe(false);
      }
      // And it leaves those questions for every other target, the changed posts' own addresses among them.
      const owned = targets.filter((t) => plan.changed.has(ownerOf(t) ?? ''));
      expect(owned.length).toBe(plan.changed.size * 3);
      for (const target of [...owned, ...bodyDocuments]) expect(untouched(target), target).toBe(false);
      if (plan.clock === 'day') for (const target of clocked) expect(untouched(target), target).toBe(false);
      expect(kept.length).toBeGreaterThan(targets.length / 2);
    }
    expect(untouchedBy({ all: true, reason: 'a test' }, state)).toBeNull();
    expect(untouchedBy({ all: false, changed: new Set(['bounce-handling']), listed: new Set(['bounce-handling']) }, state)).toBeNull();
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
