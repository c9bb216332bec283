// The build clock as responses read it (core/clock.ts): every read of it in
// core goes through the one module, which tells a build what each response
// showed, so that the next build asks only for those when the clock moved
// (D56). On a site without posts the Atom feed is dated by the time itself.
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clockDay, clockMonth, clockTime, clockYear, replayClock, watchClock, watchClockAsync } from '../build/core/clock.js';
import { build } from '../build/emit/build.js';
import { cleanBuild, tempDir, treeHash } from './helpers/site.js';
import { writeSmallSite } from './helpers/small-site.js';

const ROOT = new URL('..', import.meta.url).pathname;
const site = { built_at: '2026-11-22T09:30:00.000Z' };

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the build clock', () => {
  it('is read in core through core/clock.ts alone', () => {
    const readers = tsFiles(join(ROOT, 'build/core'))
      .filter((f) => !f.endsWith('/clock.ts') && /\.built_at\b/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(readers).toEqual([]);
  });

  it('tells a watch the part each read shows, through nested watches and reused answers', async () => {
    expect(watchClock(() => clockYear(site))).toEqual({ value: '2026', read: null });
    expect(watchClock(() => clockMonth(site))).toEqual({ value: '2026-11', read: 'day' });
    expect(watchClock(() => [clockYear(site), clockDay(site)]).read).toBe('day');
    expect(watchClock(() => [clockDay(site), clockTime(site)]).read).toBe('time');
    // A page built inside a response: its reads count for both.
    const outer = watchClock(() => watchClock(() => clockDay(site)).read);
    expect(outer).toEqual({ value: 'day', read: 'day' });
    // A twin reused from an earlier response counts what that one read.
    expect(watchClock(() => replayClock('time')).read).toBe('time');
    const later = await watchClockAsync(async () => {
      await new Promise((ok) => setTimeout(ok, 1));
      return clockDay(site);
    });
    expect(later).toEqual({ value: '2026-11-22', read: 'day' });
    // A watch whose maker throws ends all the same: the reads before the throw count for the outer one only.
    const failed = watchClock(() => {
      try {
        watchClock(() => {
          clockDay(site);
          throw new Error('no answer');
        });
      } catch {
        // the answer that failed
      }
      return watchClock(() => clockYear(site)).read;
    });
    expect(failed).toEqual({ value: null, read: 'day' });
    // Outside a watch, a read is a read.
    expect(clockTime(site)).toBe(site.built_at);
  });

  describe('on a site without posts', () => {
    const dirs: string[] = [];
    afterAll(async () => {
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    it(
      'asks for the Atom feed again later the same day: its <updated> is the time (JSON Feed has no date of its own)',
      { timeout: 120_000 },
      async () => {
        const root = await tempDir('folio-clock-');
        dirs.push(root);
        const content = join(root, 'content');
        await writeSmallSite(content, { posts: 0, services: 1, projects: 1 });
        const options = { content, out: join(root, 'dist'), cache: join(root, 'cache') };
        await build({ ...options, now: new Date('2026-11-22T08:00:00Z') });
        const later = new Date('2026-11-22T17:45:10Z');
        const r = await build({ ...options, now: later });
        expect(r.stats.full).toBeNull();
        expect(
          [...r.state.clock!]
            .filter(([, read]) => read === 'time')
            .map(([t]) => t)
            .sort(),
        ).toEqual(['/feed.xml']);
        expect(r.stats.written).toContain('feed.xml');
        expect(r.stats.written).not.toContain('feed.json');
        expect(readFileSync(join(options.out, 'feed.xml'), 'utf8')).toContain('2026-11-22T17:45:10Z');
        const clean = join(root, 'clean');
        await cleanBuild({ content, out: clean, now: later });
        expect(await treeHash(options.out)).toEqual(await treeHash(clean));
      },
    );
  });
});
