// Faults (D40, D56): an incremental build killed with SIGKILL at random
// points, whether it stages hard links to the previous dist with spliced
// documents or the spare output kept in the cache, leaves the previous dist/
// byte-identical or the whole new one, and the next build is whole and correct.
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCorpus } from './helpers/corpus.js';
import { afterKill, CLI, folio, recordKills, stagingLeftovers } from './helpers/faults.js';
import { fuzzBudget, fuzzRuns, fuzzSeed } from './helpers/fuzz.js';
import { tempDir, treeHash } from './helpers/site.js';

/** The inode of the spare output in the cache beside the output in `parent` (spare.ts), or null when there is none. */
async function spareIno(parent: string): Promise<number | null> {
  const cache = join(parent, '.folio-cache');
  const name = (await readdir(cache)).find((n) => n.startsWith('spare-'));
  return name ? (await stat(join(cache, name))).ino : null;
}

let work: string;

beforeAll(async () => {
  work = await tempDir('folio-faults-');
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a build killed at random points (D40)', () => {
  for (const staged of ['links', 'spare'] as const) {
    const how =
      staged === 'links'
        ? 'hard links to the previous dist, spliced documents'
        : 'staged in the spare output, its changed files linked again';
    it(
      `an incremental build (${how}) killed at random points leaves the previous dist byte-identical or the whole new one (D40, D56)`,
      { timeout: fuzzBudget(180_000) },
      async () => {
        // One content folder and one output path, as in CI: the cache is keyed by both.
        const content = await writeCorpus(join(work, `inc-content-${staged}`), { posts: 200 });
        const parent = join(work, `inc-killed-${staged}`);
        const out = join(parent, 'dist');
        const snapshot = join(work, `inc-snapshot-${staged}`);
        const posts = (await readdir(join(content, 'posts'))).sort();
        const edit = async (at: number) => {
          const post = join(content, 'posts', posts[at]!);
          await writeFile(post, `${await readFile(post, 'utf8')}\nA sentence added by the kill test.\n`);
        };
        // The previous build and its cache (.folio-cache beside dist), kept to start every trial from; for
        // the spare, a second build after an edit, which keeps the output it replaced in the cache (spare.ts).
        expect((await folio(['build', '--content', content, '--out', out, '--now', '2026-11-22'])).code).toBe(0);
        if (staged === 'spare') {
          await edit(50);
          expect((await folio(['build', '--content', content, '--out', out, '--now', '2026-11-22'])).code).toBe(0);
          expect(await spareIno(parent)).not.toBeNull();
        }
        await cp(parent, snapshot, { recursive: true });
        const restore = async () => {
          await rm(parent, { recursive: true, force: true });
          await cp(snapshot, parent, { recursive: true });
        };
        await edit(100);
        // The edited content's output, built clean: what a kill after the swap must leave.
        const reference = join(work, `inc-reference-${staged}`, 'dist');
        expect((await folio(['build', '--content', content, '--out', reference, '--now', '2026-11-22', '--no-cache'])).code).toBe(0);
        const whole = await treeHash(reference);
        const previous = await treeHash(out);
        // Without a kill the build is incremental: it splices the documents and links every other file, or
        // moves the spare into place (the new output is that very directory).
        const spare = await spareIno(parent);
        const unkilled = await folio(['build', '--content', content, '--out', out, '--now', '2026-11-22']);
        expect(unkilled.stdout).toMatch(/\[1 of \d+ rendered, \d+ cached; 7 of \d+ responses asked/);
        expect(await treeHash(out)).toEqual(whole);
        if (staged === 'spare') expect((await stat(out)).ino).toBe(spare);
        // The previous build's copy is intact: no linked file was written in place.
        await restore();
        expect(await treeHash(out)).toEqual(previous);
        const seed = fuzzSeed();
        const delays = [150, ...fc.sample(fc.integer({ min: 20, max: 900 }), { seed, numRuns: fuzzRuns(4) })];
        let interrupted = 0;
        for (const delay of delays) {
          await restore();
          const child = spawn(process.execPath, [CLI, 'build', '--content', content, '--out', out, '--now', '2026-11-22'], {
            stdio: 'ignore',
          });
          const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
          const finished = await Promise.race([exited.then(() => true), sleep(delay).then(() => false)]);
          if (finished) continue;
          child.kill('SIGKILL');
          await exited;
          const tree = await afterKill(out);
          if (isDeepStrictEqual(tree, whole)) continue;
          interrupted++;
          expect(tree, `incremental build killed after ${delay} ms (seed ${seed}, FOLIO_FUZZ_SEED replays it)`).toEqual(previous);
          // The next build after the kill is whole and correct.
          const next = await folio(['build', '--content', content, '--out', out, '--now', '2026-11-22']);
          expect(next.code, next.stderr).toBe(0);
          expect(await treeHash(out)).toEqual(whole);
          expect(await stagingLeftovers(parent)).toEqual([]);
        }
        recordKills(
          staged === 'links'
            ? 'faults: incremental builds killed with SIGKILL'
            : 'faults: incremental builds in the spare output killed with SIGKILL',
          'folio build, 200 posts, one body edit',
          delays.length,
          interrupted,
          seed,
        );
        expect(interrupted, 'no incremental build was interrupted: the delays are too long').toBeGreaterThan(0);
      },
    );
  }
});
