// The output a build replaces, kept in the cache as a spare for the next
// build to stage in (D56). An edit's staging directory otherwise starts empty
// and takes a hard link to each of the previous output's files (35,000 at
// 10,000 posts, some 0.4 s of kernel time on a core the build wants), and the
// replaced output is then unlinked file by file in the background. The spare
// is the output before the previous one: it shares every file with the
// current output (the same inodes) but those the previous build changed, so
// the next build renames it into place as its staging directory and links
// again only those files. The current output is never written to (D40), and
// a spare that is not the output the state describes is removed, not used.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MANIFEST_PATH } from '../core/files.js';
import type { Spare } from './atomic.js';
import type { BuildState } from './build-state.js';
import { sha1 } from './ledger.js';
import { discard } from './staging-dirs.js';
import { withWholeFile } from './whole-file.js';

/** Where the spare of the output `out` is kept: in the cache, which a CI job keeps with the output. */
export function spareDir(cacheDir: string, out: string): string {
  return join(cacheDir, `spare-${createHash('sha1').update(resolve(out)).digest('hex').slice(0, 16)}`);
}

/**
 * The spare the previous build's state describes, when it is there and is
 * that output (its manifest is the one the state names); else null, and a
 * spare that is something else (a build stopped after keeping it, a copy
 * restored from elsewhere) is removed in the background.
 */
export async function takeSpare(cacheDir: string, out: string, previous: BuildState | null): Promise<Spare | null> {
  const dir = spareDir(cacheDir, out);
  if (!existsSync(dir)) return null;
  const wanted = previous?.spare;
  let manifest: string | null;
  try {
    manifest = withWholeFile(join(dir, MANIFEST_PATH), sha1);
  } catch {
    manifest = null;
  }
  if (wanted && manifest === wanted.manifest) return { dir, changed: wanted.changed };
  await discard(out, dir);
  return null;
}

/**
 * What the state of a build records of the spare it keeps: the replaced
 * output's manifest, and the files where it differs from the new output.
 * Null when keeping it is not worth its room: the files the build changed
 * are the files the two do not share, and past half of them a fresh
 * staging directory costs little more than the spare saves.
 */
export function spareRecord(previous: BuildState | null, changed: readonly string[], files: number): BuildState['spare'] | null {
  const manifest = previous?.extras.get(MANIFEST_PATH)?.hash;
  if (!manifest || changed.length * 2 > files) return null;
  return { manifest, changed: [...changed] };
}
