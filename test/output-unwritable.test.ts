// Faults (D40): an output directory that cannot be written gives a clear
// error, exit 1 and no stack trace, and the previous dist/ survives: an --out
// under a regular file or in /proc, a file-size limit (ulimit -f, EFBIG),
// chmod 0555 when not root, and a read-only and a full tmpfs.
//
// We run as root in CI containers, where chmod does not stop a write. So a
// read-only and a full output directory are real file systems: a tmpfs
// mounted read-only, and a tmpfs only slightly larger than the previous
// dist (both need mount(2), so they are skipped where it is not allowed).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultsSite, stagingLeftovers, type Outcome } from './helpers/faults.js';
import { treeHash } from './helpers/site.js';

/** The failure a person can act on: what, where, the fix, and no stack trace. */
function expectClearOutputError(result: Outcome, out: string, reason: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toContain(`cannot write the output directory ${out}`);
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).toMatch(/\n {2}hint: .+previous output was left as it was/);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

const isRoot = process.getuid?.() === 0;
const site = faultsSite();
let canMount = false;
const mounts: string[] = [];

function mount(args: string[]): boolean {
  return spawnSync('mount', args, { stdio: 'ignore' }).status === 0;
}

/** A 64 MiB tmpfs mounted at `<work>/<name>`, holding a copy of the previous dist at its `dist`. */
async function tmpfsWithPreviousDist(name: string): Promise<{ parent: string; out: string; before: Record<string, string> }> {
  const parent = join(site.work, name);
  const out = join(parent, 'dist');
  await mkdir(parent);
  expect(mount(['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', parent])).toBe(true);
  mounts.push(parent);
  await cp(site.sample, out, { recursive: true });
  return { parent, out, before: await treeHash(out) };
}

beforeAll(async () => {
  if (isRoot) {
    const probe = join(site.work, 'probe');
    await mkdir(probe);
    canMount = mount(['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]);
    if (canMount) mounts.push(probe);
  }
});

// vitest runs afterAll hooks last registered first: the mounts go before faultsSite removes the folder.
afterAll(() => {
  for (const m of mounts.reverse()) spawnSync('umount', ['-l', m], { stdio: 'ignore' });
});

describe('an output directory that cannot be written (D40)', () => {
  it('--out under a regular file: a clear error, and the file is untouched', async () => {
    const file = join(site.work, 'not-a-dir');
    await writeFile(file, 'keep me');
    const out = join(file, 'dist');
    const result = await site.build(out);
    expectClearOutputError(result, out, /part of its path is a file, not a directory/);
    expect(await readFile(file, 'utf8')).toBe('keep me');
  });

  it.skipIf(!existsSync('/proc/self'))(
    '--out in /proc, where making a folder always fails with ENOENT: a clear error, not an endless retry',
    async () => {
      const out = `/proc/folio-test-${process.pid}`;
      const result = await site.build(out);
      expectClearOutputError(result, out, /ENOENT/);
    },
  );

  it('a file-size limit (EFBIG): a clear error, the previous dist byte-identical, no staging left', async () => {
    const parent = join(site.work, 'limited');
    const out = join(parent, 'dist');
    await cp(site.sample, out, { recursive: true });
    const before = await treeHash(out);
    // 16 blocks of 512 bytes: smaller than a post of 20 KB.
    const result = await site.build(out, { limitBlocks: 16 });
    expectClearOutputError(result, out, /file size limit \(EFBIG\)/);
    expect(await treeHash(out)).toEqual(before);
    expect(await stagingLeftovers(parent)).toEqual([]);
  });

  it.runIf(!isRoot)('a read-only parent (chmod 0555, as a normal user): a clear error, the previous dist byte-identical', async () => {
    const parent = join(site.work, 'readonly');
    const out = join(parent, 'dist');
    await mkdir(parent);
    await cp(site.sample, out, { recursive: true });
    const before = await treeHash(out);
    await chmod(parent, 0o555);
    try {
      const result = await site.build(out);
      expectClearOutputError(result, out, /permission is denied \(EACCES/);
      expect(await treeHash(out)).toEqual(before);
    } finally {
      await chmod(parent, 0o755);
    }
  });

  it('a read-only file system (tmpfs mounted ro, stops root): a clear error, the previous dist byte-identical', async (t) => {
    if (!canMount) return t.skip('mount(2) is not permitted here');
    const { parent, out, before } = await tmpfsWithPreviousDist('ro');
    expect(mount(['-o', 'remount,ro', parent])).toBe(true);
    const result = await site.build(out);
    expectClearOutputError(result, out, /read-only file system \(EROFS/);
    expect(await treeHash(out)).toEqual(before);
  });

  it('a full disk (tmpfs barely larger than the previous dist): a clear error, the previous dist byte-identical, no staging left', async (t) => {
    if (!canMount) return t.skip('mount(2) is not permitted here');
    const { parent, out, before } = await tmpfsWithPreviousDist('full');
    // Shrink the file system to what the previous dist uses plus 16 KiB.
    const used = Number(spawnSync('df', ['--output=used', '-k', parent], { encoding: 'utf8' }).stdout.trim().split('\n').pop());
    expect(used).toBeGreaterThan(0);
    expect(mount(['-o', `remount,size=${used + 16}k`, parent])).toBe(true);
    const result = await site.build(out);
    expectClearOutputError(result, out, /the disk is full \(ENOSPC/);
    expect(await treeHash(out)).toEqual(before);
    expect(await stagingLeftovers(parent)).toEqual([]);
  });
});
