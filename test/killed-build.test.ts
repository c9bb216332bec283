// Faults (D40): a full build of a 300-post site killed with SIGKILL at random
// points leaves the previous dist/ byte-identical or the whole new one, and a
// kill between the swap's two renames is put right by the next build, even
// one that fails; the next build succeeds and sweeps the staging left behind.
import { spawn } from 'node:child_process';
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeCorpus } from './helpers/corpus.js';
import { afterKill, CLI, faultsSite, folio, recordKills, stagingLeftovers } from './helpers/faults.js';
import { fuzzBudget, fuzzRuns, fuzzSeed } from './helpers/fuzz.js';
import { treeHash } from './helpers/site.js';

const site = faultsSite();

describe('a build killed at random points (D40)', () => {
  it(
    'leaves the previous dist byte-identical, or the whole new one once it was swapped in, and the next build succeeds and sweeps the staging it left',
    { timeout: fuzzBudget(120_000) },
    async () => {
      const big = await writeCorpus(join(site.work, 'big'), { posts: 300 });
      // The new build's output, whole (D40: the same bytes on every build), for a kill that lands after the swap.
      const reference = join(site.work, 'reference', 'dist');
      const clean = await folio(['build', '--content', big, '--out', reference, '--now', '2026-11-22']);
      expect(clean.code, clean.stderr).toBe(0);
      const whole = await treeHash(reference);
      const parent = join(site.work, 'killed');
      const out = join(parent, 'dist');
      await mkdir(parent);
      await cp(site.sample, out, { recursive: true });
      const before = await treeHash(out);
      const seed = fuzzSeed();
      // Delays across start-up, reading, rendering and writing of a 300-post build
      // (one that finishes first is counted and its output put back); 200 ms
      // always interrupts, so every run kills at least one build.
      const delays = [200, ...fc.sample(fc.integer({ min: 50, max: 1800 }), { seed, numRuns: fuzzRuns(3) })];
      let interrupted = 0;
      for (const delay of delays) {
        const child = spawn(process.execPath, [CLI, 'build', '--content', big, '--out', out, '--now', '2026-11-22'], { stdio: 'ignore' });
        const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
        const finished = await Promise.race([exited.then(() => true), sleep(delay).then(() => false)]);
        const putBack = async () => {
          await rm(out, { recursive: true, force: true });
          await cp(site.sample, out, { recursive: true });
        };
        if (finished) {
          // The build beat the kill: put the previous dist back for the next trial.
          await putBack();
          continue;
        }
        child.kill('SIGKILL');
        await exited;
        const tree = await afterKill(out);
        if (isDeepStrictEqual(tree, whole)) {
          // Killed after the swap (saving its cache, stopping its threads): the new build, whole.
          await putBack();
          continue;
        }
        interrupted++;
        expect(tree, `killed after ${delay} ms (seed ${seed}, FOLIO_FUZZ_SEED replays it)`).toEqual(before);
      }
      recordKills('faults: builds killed with SIGKILL', 'folio build, 300 posts', delays.length, interrupted, seed);
      expect(interrupted, 'no build was interrupted: the corpus is too small for the delays').toBeGreaterThan(0);
      const done = await folio(['build', '--content', big, '--out', out, '--now', '2026-11-22']);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain('built 300 posts');
      expect(await stagingLeftovers(parent)).toEqual([]);
    },
  );

  it('killed between its two renames: the next build puts the previous dist back, even one that fails', async () => {
    const parent = join(site.work, 'window');
    const out = join(parent, 'dist');
    await mkdir(parent);
    await cp(site.sample, out, { recursive: true });
    const before = await treeHash(out);
    // What SIGKILL after `rename(dist, staging-old)` and before `rename(staging, dist)` leaves.
    await rename(out, join(parent, '.dist.folio-tmp-999-abc-old'));
    await mkdir(join(parent, '.dist.folio-tmp-999-abc'));
    await writeFile(join(parent, '.dist.folio-tmp-999-abc', 'partial.json'), '{');
    const broken = join(site.work, 'broken');
    await cp(site.content, broken, { recursive: true });
    await writeFile(join(broken, 'posts', 'untitled.md'), '---\ndate: 2026-01-01\n---\n\nNo title.\n');
    const failed = await folio(['build', '--content', broken, '--out', out, '--now', '2026-11-22']);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(/untitled\.md:1:1: .*`title`/);
    expect(await treeHash(out)).toEqual(before);
    const ok = await site.build(out);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await stagingLeftovers(parent)).toEqual([]);
  });
});
