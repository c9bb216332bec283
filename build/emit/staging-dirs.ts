// The directories around an output (atomic.ts): the staging directory a
// build writes, the replaced output it removes in the background or keeps
// as a spare (spare.ts), and what a killed build left of either.
import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmdirSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { onInterrupt } from './interrupt.js';

export function stagingPrefix(out: string): string {
  return `.${basename(out)}.folio-tmp-`;
}

/**
 * A build killed between its two renames leaves the previous output only
 * under "<staging>-old", and no output: put it back. The build calls this
 * first, so even a build that then fails on its content restores it.
 */
export async function recoverOutput(outDir: string): Promise<void> {
  const out = resolve(outDir);
  const prefix = stagingPrefix(out);
  const names = await readdir(dirname(out)).catch(() => [] as string[]);
  const old = names
    .filter((n) => n.startsWith(prefix) && n.endsWith('-old'))
    .sort()
    .pop();
  if (old && !(await stat(out).catch(() => null))) await rename(join(dirname(out), old), out);
}

function trashPrefix(out: string): string {
  return `.${basename(out)}.folio-old-`;
}

/**
 * Removes a directory in a process of its own that outlives this one.
 * Unlinking tens of thousands of files can take longer than the whole build
 * on a slow disk, and nothing waits for it: the new output is already in place.
 */
function removeInBackground(dir: string): void {
  try {
    const child = spawn(process.execPath, ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })', dir], {
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // It stays until the next build sweeps it.
  }
}

/**
 * If a signal stops the build: the staging folder is removed by a process of
 * its own, which starts after this one has exited. Not renamed away first: a
 * writing thread still at work would make the folder again under its name
 * (its writes make their folders), and that copy would stay.
 */
export function discardOnSignal(staging: string): () => void {
  return onInterrupt(() => removeInBackground(staging));
}

/** The replaced output: out of the way at once (a rename), removed in the background. */
export async function discard(out: string, old: string): Promise<void> {
  const trash = join(dirname(out), `${trashPrefix(out)}${process.pid}-${Date.now().toString(36)}`);
  try {
    await rename(old, trash);
  } catch {
    await rm(old, { recursive: true, force: true });
    return;
  }
  removeInBackground(trash);
}

/** Removes staging directories left by a build that was killed, and replaced outputs still on disk. */
export async function sweep(out: string): Promise<void> {
  await recoverOutput(out);
  const parent = dirname(out);
  const prefix = stagingPrefix(out);
  const names = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => rm(join(parent, n), { recursive: true, force: true })));
  // A remover may still be at work on these; another one in the background does no harm.
  for (const n of names.filter((n) => n.startsWith(trashPrefix(out)))) removeInBackground(join(parent, n));
}

/** The replaced output moved to `keep` (a spare output, spare.ts), or removed as discard does where it cannot be. */
export async function keepAside(out: string, old: string, keep: string): Promise<void> {
  await rename(old, keep).catch(() => discard(out, old));
}

/** The spare output `dir` in place of the empty staging directory; false, and nothing moved, when it cannot be (then the build links every file). */
export function adopt(dir: string, staging: string): boolean {
  try {
    rmdirSync(staging);
  } catch {
    return false;
  }
  try {
    renameSync(dir, staging);
    return true;
  } catch {
    mkdirSync(staging);
    return false;
  }
}
