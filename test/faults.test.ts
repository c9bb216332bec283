// Faults (D40): an output directory that cannot be written gives a
// clear error, exit 1 and no stack trace, and the previous dist/ survives.
//
// We run as root in CI containers, where chmod does not stop a write. So a
// read-only and a full output directory are real file systems: a tmpfs
// mounted read-only, and a tmpfs only slightly larger than the previous
// dist (both need mount(2), so they are skipped where it is not allowed).
// Everywhere: an --out under a regular file (ENOTDIR/EEXIST, stops root too),
// a file-size limit (ulimit -f, EFBIG), and chmod 0555 when not root.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual, promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCorpus } from './helpers/corpus.js';
import { fuzzBudget, fuzzRuns, fuzzSeed, recordFigures } from './helpers/fuzz.js';
import { tempDir, treeHash } from './helpers/site.js';
import { recoverOutput } from '../build/emit/atomic.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'bin/folio.js');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI; `limit` is an optional `ulimit -f` in 512-byte blocks. */
async function folio(args: string[], options: { limitBlocks?: number } = {}): Promise<Outcome> {
  const [file, argv] = options.limitBlocks
    ? ['/bin/sh', ['-c', `ulimit -f ${options.limitBlocks} && exec "$0" "$@"`, process.execPath, CLI, ...args]]
    : [process.execPath, [CLI, ...args]];
  try {
    // A build that hangs is killed and fails the test, rather than the run.
    const { stdout, stderr } = await run(file, argv as string[], {
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The failure a person can act on: what, where, the fix, and no stack trace. */
function expectClearOutputError(result: Outcome, out: string, reason: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toContain(`cannot write the output directory ${out}`);
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).toMatch(/\n {2}hint: .+previous output was left as it was/);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

async function stagingLeftovers(parent: string): Promise<string[]> {
  return (await readdir(parent)).filter((n) => n.includes('.folio-tmp-'));
}

/** The figures of a test that kills builds: how many it started, and how many it interrupted before they finished. */
function recordKills(name: string, target: string, builds: number, interrupted: number, seed: number): void {
  recordFigures({
    name,
    target,
    inputs: builds,
    requests: 0,
    failures: 0,
    seed,
    ms: 0,
    note: `${interrupted} of ${builds} interrupted before they finished`,
  });
}

/** The inode of the spare output in the cache beside the output in `parent` (spare.ts), or null when there is none. */
async function spareIno(parent: string): Promise<number | null> {
  const cache = join(parent, '.folio-cache');
  const name = (await readdir(cache)).find((n) => n.startsWith('spare-'));
  return name ? (await stat(join(cache, name))).ino : null;
}

/**
 * The output a killed build left, as the next build starts from it: a kill
 * between the swap's two renames leaves no output and the previous one under
 * `<staging>-old`, which the next build puts back first (recoverOutput; its
 * own test below kills a build there on purpose).
 */
async function afterKill(out: string): Promise<Record<string, string>> {
  await recoverOutput(out);
  return treeHash(out);
}

const isRoot = process.getuid?.() === 0;
let work: string;
/** A small generated site (its builds are quick), and a finished build of it to copy as a previous dist. */
let content: string;
let sample: string;
let canMount = false;
const mounts: string[] = [];

function build(out: string, options: { limitBlocks?: number } = {}): Promise<Outcome> {
  return folio(['build', '--content', content, '--out', out, '--now', '2026-11-22'], options);
}

function mount(args: string[]): boolean {
  return spawnSync('mount', args, { stdio: 'ignore' }).status === 0;
}

beforeAll(async () => {
  work = await tempDir('folio-faults-');
  content = await writeCorpus(join(work, 'content'), { posts: 3, bodyBytes: 20_000 });
  sample = join(work, 'sample');
  const built = await build(sample);
  expect(built.code, built.stderr).toBe(0);
  if (isRoot) {
    const probe = join(work, 'probe');
    await mkdir(probe);
    canMount = mount(['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]);
    if (canMount) mounts.push(probe);
  }
});

afterAll(async () => {
  for (const m of mounts.reverse()) spawnSync('umount', ['-l', m], { stdio: 'ignore' });
  if (work) await rm(work, { recursive: true, force: true });
});

describe('an output directory that cannot be written (D40)', () => {
  it('--out under a regular file: a clear error, and the file is untouched', async () => {
    const file = join(work, 'not-a-dir');
    await writeFile(file, 'keep me');
    const out = join(file, 'dist');
    const result = await build(out);
    expectClearOutputError(result, out, /part of its path is a file, not a directory/);
    expect(await readFile(file, 'utf8')).toBe('keep me');
  });

  it.skipIf(!existsSync('/proc/self'))(
    '--out in /proc, where making a folder always fails with ENOENT: a clear error, not an endless retry',
    async () => {
      const out = `/proc/folio-test-${process.pid}`;
      const result = await build(out);
      expectClearOutputError(result, out, /ENOENT/);
    },
  );

  it('--out naming an existing file: refused, and the file is untouched (nothing is lost)', async () => {
    const file = join(work, 'notes.txt');
    await writeFile(file, 'my notes');
    const result = await build(file);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`cannot write the output directory ${file}: it is a file, not a directory`);
    expect(result.stderr).toMatch(/\n {2}hint: .+Nothing was written\./);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await readFile(file, 'utf8')).toBe('my notes');
  });

  it('--out naming the content itself (a folder that is not a build): refused, and every file is kept', async () => {
    const mine = join(work, 'mine');
    await cp(content, mine, { recursive: true });
    const before = await treeHash(mine);
    const result = await folio(['build', '--content', mine, '--out', mine, '--now', '2026-11-22']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `cannot write the output directory ${mine}: it holds 3 entries (posts, profile.md, site.yaml) but is not a folio build (no _folio/manifest.json)`,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await treeHash(mine)).toEqual(before);
  });

  it('--out naming a folder of other work: refused before the build writes anywhere, its cache and staging included', async () => {
    const parent = join(work, 'desk');
    await mkdir(join(parent, 'letters'), { recursive: true });
    await writeFile(join(parent, 'letters', 'draft.txt'), 'dear client');
    const before = await treeHash(parent);
    const result = await folio(['build', '--content', content, '--out', join(parent, 'letters'), '--now', '2026-11-22']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/but is not a folio build .*\n {2}hint: .+Nothing was written\./s);
    // The default cache goes beside the output: a refused build must not have made it.
    expect(await readdir(parent)).toEqual(['letters']);
    expect(await treeHash(parent)).toEqual(before);
  });

  it('--out inside a folder the build reads (static/, posts/): refused before anything is written, so no build publishes the last', async () => {
    const mine = join(work, 'inside');
    await cp(content, mine, { recursive: true });
    const before = await treeHash(mine);
    for (const [folder, out] of [
      ['static', join(mine, 'static', 'out')],
      ['posts', join(mine, 'posts')],
    ]) {
      const result = await folio(['build', '--content', mine, '--out', out!, '--now', '2026-11-22']);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(
        `cannot write the output directory ${out}: it is inside ${join(mine, folder!)}, which every build reads`,
      );
      expect(result.stderr).toMatch(/hint: Pass an --out outside the content folders/);
    }
    expect(await treeHash(mine)).toEqual(before);
  });

  it('--cache-dir inside static/ or inside the output: refused before anything is written, so no build publishes its cache', async () => {
    const parent = join(work, 'cached');
    const mine = join(parent, 'content');
    await cp(content, mine, { recursive: true });
    const before = await treeHash(parent);
    const out = join(parent, 'dist');
    for (const [cache, reason] of [
      [
        join(mine, 'static', 'cache'),
        `it is inside ${join(mine, 'static')}, which every build reads, so the next build would read this one and publish it`,
      ],
      [join(out, 'cache'), `it is inside the output directory ${out}, which every build replaces whole`],
    ]) {
      const result = await folio(['build', '--content', mine, '--out', out, '--cache-dir', cache!, '--now', '2026-11-22']);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`cannot use the cache directory ${cache}: ${reason}.`);
      expect(result.stderr).toMatch(/\n {2}hint: Pass a --cache-dir outside .+Nothing was written\./);
      expect(await treeHash(parent)).toEqual(before);
    }
  });

  it('a file-size limit (EFBIG): a clear error, the previous dist byte-identical, no staging left', async () => {
    const parent = join(work, 'limited');
    const out = join(parent, 'dist');
    await cp(sample, out, { recursive: true });
    const before = await treeHash(out);
    // 16 blocks of 512 bytes: smaller than a post of 20 KB.
    const result = await build(out, { limitBlocks: 16 });
    expectClearOutputError(result, out, /file size limit \(EFBIG\)/);
    expect(await treeHash(out)).toEqual(before);
    expect(await stagingLeftovers(parent)).toEqual([]);
  });

  it.runIf(!isRoot)('a read-only parent (chmod 0555, as a normal user): a clear error, the previous dist byte-identical', async () => {
    const parent = join(work, 'readonly');
    const out = join(parent, 'dist');
    await mkdir(parent);
    await cp(sample, out, { recursive: true });
    const before = await treeHash(out);
    await chmod(parent, 0o555);
    try {
      const result = await build(out);
      expectClearOutputError(result, out, /permission is denied \(EACCES/);
      expect(await treeHash(out)).toEqual(before);
    } finally {
      await chmod(parent, 0o755);
    }
  });

  it('a read-only file system (tmpfs mounted ro, stops root): a clear error, the previous dist byte-identical', async (t) => {
    if (!canMount) return t.skip('mount(2) is not permitted here');
    const parent = join(work, 'ro');
    const out = join(parent, 'dist');
    await mkdir(parent);
    expect(mount(['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', parent])).toBe(true);
    mounts.push(parent);
    await cp(sample, out, { recursive: true });
    const before = await treeHash(out);
    expect(mount(['-o', 'remount,ro', parent])).toBe(true);
    const result = await build(out);
    expectClearOutputError(result, out, /read-only file system \(EROFS/);
    expect(await treeHash(out)).toEqual(before);
  });

  it('a full disk (tmpfs barely larger than the previous dist): a clear error, the previous dist byte-identical, no staging left', async (t) => {
    if (!canMount) return t.skip('mount(2) is not permitted here');
    const parent = join(work, 'full');
    const out = join(parent, 'dist');
    await mkdir(parent);
    expect(mount(['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', parent])).toBe(true);
    mounts.push(parent);
    await cp(sample, out, { recursive: true });
    const before = await treeHash(out);
    // Shrink the file system to what the previous dist uses plus 16 KiB.
    const used = Number(spawnSync('df', ['--output=used', '-k', parent], { encoding: 'utf8' }).stdout.trim().split('\n').pop());
    expect(used).toBeGreaterThan(0);
    expect(mount(['-o', `remount,size=${used + 16}k`, parent])).toBe(true);
    const result = await build(out);
    expectClearOutputError(result, out, /the disk is full \(ENOSPC/);
    expect(await treeHash(out)).toEqual(before);
    expect(await stagingLeftovers(parent)).toEqual([]);
  });
});

describe('a build killed at random points (D40)', () => {
  it(
    'leaves the previous dist byte-identical, or the whole new one once it was swapped in, and the next build succeeds and sweeps the staging it left',
    { timeout: fuzzBudget(120_000) },
    async () => {
      const big = await writeCorpus(join(work, 'big'), { posts: 300 });
      // The new build's output, whole (D40: the same bytes on every build), for a kill that lands after the swap.
      const reference = join(work, 'reference', 'dist');
      const clean = await folio(['build', '--content', big, '--out', reference, '--now', '2026-11-22']);
      expect(clean.code, clean.stderr).toBe(0);
      const whole = await treeHash(reference);
      const parent = join(work, 'killed');
      const out = join(parent, 'dist');
      await mkdir(parent);
      await cp(sample, out, { recursive: true });
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
          await cp(sample, out, { recursive: true });
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

  it('killed between its two renames: the next build puts the previous dist back, even one that fails', async () => {
    const parent = join(work, 'window');
    const out = join(parent, 'dist');
    await mkdir(parent);
    await cp(sample, out, { recursive: true });
    const before = await treeHash(out);
    // What SIGKILL after `rename(dist, staging-old)` and before `rename(staging, dist)` leaves.
    await rename(out, join(parent, '.dist.folio-tmp-999-abc-old'));
    await mkdir(join(parent, '.dist.folio-tmp-999-abc'));
    await writeFile(join(parent, '.dist.folio-tmp-999-abc', 'partial.json'), '{');
    const broken = join(work, 'broken');
    await cp(content, broken, { recursive: true });
    await writeFile(join(broken, 'posts', 'untitled.md'), '---\ndate: 2026-01-01\n---\n\nNo title.\n');
    const failed = await folio(['build', '--content', broken, '--out', out, '--now', '2026-11-22']);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(/untitled\.md:1:1: .*`title`/);
    expect(await treeHash(out)).toEqual(before);
    const ok = await build(out);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await stagingLeftovers(parent)).toEqual([]);
  });
});
