// folio dev's watcher and planner, each on its own (test/dev.test.ts runs them
// together through startDev, D1): one batch per burst of file events, and from
// two reads of the content, what changed, which posts kept their place and
// which rebuild to run.
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import { choosePath, changedPosts, diffSources, ownersOf, readChanges } from '../build/dev/planner.js';
import { initialState, type DevState } from '../build/dev/state.js';
import { watchBatches } from '../build/dev/watcher.js';
import { devParts, POST } from './helpers/dev-parts.js';

const s = devParts('folio-dev-watcher-planner-');

describe('the watcher', () => {
  it('hands on one batch per burst of events, with paths relative to the content directory', async () => {
    const dir = join(s.work, 'watched');
    await mkdir(join(dir, 'posts'), { recursive: true });
    const batches: string[][] = [];
    // A quiet time well above the debounce folio dev uses: on a loaded machine two writes a few
    // milliseconds apart can reach the watcher tens of milliseconds apart, and this is about batching, not timing.
    const batcher = watchBatches(
      dir,
      250,
      (paths) => batches.push(paths),
      (error) => batches.push([`error: ${error.message}`]),
    );
    try {
      await writeFile(join(dir, 'posts', 'a.md'), 'one');
      await appendFile(join(dir, 'posts', 'a.md'), ' two');
      expect(batcher.waiting()).toBe(true);
      for (let i = 0; i < 100 && batches.length === 0; i++) await new Promise((ok) => setTimeout(ok, 20));
      expect(batches).toEqual([['posts/a.md']]);
      expect(batcher.waiting()).toBe(false);
      await mkdir(join(dir, 'services'));
      for (let i = 0; i < 100 && batches.length === 1; i++) await new Promise((ok) => setTimeout(ok, 20));
      // A folder that came: with a slash, since what it holds came without events of its own.
      expect(batches[1]).toContain('services/');
    } finally {
      batcher.close();
    }
    await writeFile(join(dir, 'posts', 'b.md'), 'after close');
    await new Promise((ok) => setTimeout(ok, 400));
    expect(batches.flat()).not.toContain('posts/b.md');
  });
});

describe('the planner', () => {
  it('finds what changed between two reads of the content, and which posts kept their place', async () => {
    const before = await loadContent(s.content);
    const file = join(s.content, 'posts', `${POST}.md`);
    const original = await readFile(file, 'utf8');
    await writeFile(file, `${original}\nA planner test line.\n`);
    try {
      const after = await readChanges(s.content, before, [`posts/${POST}.md`]);
      // File names as messages show them: relative to the working directory.
      const shown = relative(process.cwd(), file);
      expect(diffSources(before, after)).toEqual({ added: [], changed: [shown], removed: [] });
      expect(after.services).toBe(before.services);
      expect(changedPosts(before, after)?.map((c) => c.source.file)).toEqual([shown]);
      const state = initialState(after);
      expect(choosePath(state, before)).toBe('full');
      state.build = { routes: new Map() } as DevState['build'];
      expect(choosePath(state, before)).toBe('incremental');
      state.model = {} as DevState['model'];
      expect(choosePath(state, before)).toBe('post-edit');
      expect(choosePath(state, after)).toBe('none');
      state.artifactsBehind = true;
      expect(choosePath(state, after)).toBe('incremental');
      // A folder that came or went: everything is read again, and no post keeps its place.
      const again = await readChanges(s.content, before, ['posts']);
      expect(again.posts).not.toBe(before.posts);
      expect(changedPosts(before, { ...after, services: [] })).toBeNull();
    } finally {
      await writeFile(file, original);
    }
  });

  it("groups each post's own targets by slug", () => {
    const record = { file: 'f', etag: '"e"', size: 1, set: 0 };
    const owners = ownersOf(
      new Map([
        [`/blog/${POST}`, record],
        [`/blog/${POST}.md`, record],
        [`/api/v1/posts/${POST}`, record],
        ['/blog', record],
      ]),
    );
    expect(owners.get(POST)?.sort()).toEqual([`/api/v1/posts/${POST}`, `/blog/${POST}`, `/blog/${POST}.md`]);
    expect([...owners.keys()]).toEqual([POST]);
  });
});
