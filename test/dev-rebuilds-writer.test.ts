// folio dev's rebuilds, writer and cache saver on their own (test/dev.test.ts runs them through startDev, D1):
// a post edit writes the post's own responses first, then the rest, and ends as a clean build; the cache is
// saved once rebuilds pause; a broken file leaves the output as it was (D2); files go through a temporary name.
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import { loadState } from '../build/emit/cache.js';
import { RecordCache } from '../build/emit/record-cache.js';
import { saver } from '../build/dev/persist.js';
import { readChanges } from '../build/dev/planner.js';
import { fullBuild, incrementalRebuild, postEdit } from '../build/dev/rebuild.js';
import { devContext, emptySources, initialState, type DevContext } from '../build/dev/state.js';
import { inPlaceSink, removeFile } from '../build/dev/writer.js';
import { devParts, POST } from './helpers/dev-parts.js';
import { cleanBuild, NOW, treeHash } from './helpers/site.js';

const s = devParts('folio-dev-rebuilds-');

function context(out: string): DevContext {
  return devContext({ content: s.content, out, now: NOW, cache: false, port: 0, host: '127.0.0.1', log: () => undefined }, null);
}

describe('the rebuilds and the writer', () => {
  it("writes a post's own responses first, then the rest, and ends as a clean build", { timeout: 120_000 }, async () => {
    const out = join(s.work, 'rebuilt');
    const ctx = context(out);
    const state = initialState(await loadContent(s.content));
    const first = await fullBuild(ctx, state, performance.now(), emptySources(s.content));
    expect(first.ok).toBe(true);
    expect(state.build && state.model).toBeTruthy();
    const file = join(s.content, 'posts', `${POST}.md`);
    const original = await readFile(file, 'utf8');
    try {
      const before = state.sources;
      await writeFile(file, `${original}\nA sentence from the rebuild test.\n`);
      state.sources = await readChanges(s.content, before, [`posts/${POST}.md`]);
      // The post's own responses are on disk, and nothing else yet, when the rebuild says they can be served.
      const served: string[] = [];
      const edit = await postEdit(ctx, state, performance.now(), before, async (r) => {
        served.push(...r.targets);
        expect(await readFile(join(out, 'blog', `${POST}.md`), 'utf8')).toContain('A sentence from the rebuild test.');
        expect(await readFile(join(out, 'llms-full.txt'), 'utf8')).not.toContain('A sentence from the rebuild test.');
        return true;
      });
      expect(edit?.deferred).toBeTruthy();
      expect(served.sort()).toEqual([`/api/v1/posts/${POST}`, `/blog/${POST}`, `/blog/${POST}.md`]);
      expect(edit!.report.targets).toContain('/llms-full.txt');
      await edit!.deferred!.later();
      const clean = join(s.work, 'clean-1');
      await cleanBuild({ content: s.content, out: clean, now: NOW });
      expect(await treeHash(out)).toEqual(await treeHash(clean));

      // Saved once no rebuild ran for a while, as the next session's warm start; a save held back is not made.
      const cacheDir = join(s.work, 'cache');
      const saving = { ...ctx, cacheDir, records: await RecordCache.open(cacheDir) };
      const held = saver(saving, state, 10);
      held.schedule();
      await held.hold();
      await new Promise((ok) => setTimeout(ok, 50));
      expect(loadState(cacheDir, out)).toBeNull();
      const saves = saver(saving, state, 10);
      saves.schedule();
      for (let i = 0; i < 100 && !state.stateSaved; i++) await new Promise((ok) => setTimeout(ok, 20));
      expect(loadState(cacheDir, out)?.routes.size).toBe(state.build!.routes.size);

      // A broken file: the problems, and the output as it was.
      const kept = await treeHash(out);
      const broken = state.sources;
      await writeFile(file, '---\ntitle: [unclosed\n---\nbody\n');
      state.sources = await readChanges(s.content, broken, [`posts/${POST}.md`]);
      const failed = await incrementalRebuild(ctx, state, performance.now(), broken);
      expect(failed.report.ok).toBe(false);
      expect(failed.report.problems[0]!.file).toBe(relative(process.cwd(), file));
      expect(await treeHash(out)).toEqual(kept);
    } finally {
      await writeFile(file, original);
    }
  });

  it('writes through a temporary name and removes emptied folders, never the output itself', async () => {
    const out = join(s.work, 'sink');
    await inPlaceSink(out).write('a/b/c.txt', 'bytes');
    expect(await readFile(join(out, 'a/b/c.txt'), 'utf8')).toBe('bytes');
    expect(await readdir(join(out, 'a/b'))).toEqual(['c.txt']);
    await inPlaceSink(out).write('a/d.txt', 'more');
    await removeFile(out, 'a/b/c.txt');
    expect(existsSync(join(out, 'a/b'))).toBe(false);
    expect(existsSync(join(out, 'a/d.txt'))).toBe(true);
    await removeFile(out, 'a/d.txt');
    expect(existsSync(join(out, 'a'))).toBe(false);
    expect(existsSync(out)).toBe(true);
  });
});
