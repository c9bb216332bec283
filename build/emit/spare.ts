// The output a build replaces, kept in the cache as a spare for the next
// build to stage in (D56). An edit's staging directory otherwise starts empty
// and takes a hard link to each of the previous output's files (35,000 at
// 10,000 posts, some 0.4 s of kernel time on a core the build wants), and the
// replaced output is then unlinked file by file in the background. The spare
// is the output before the previous one: it shares every file with the
// current output (the same inodes) but those the previous build changed, so
// the next build renames it into place as its staging directory and links
// again only those files, which the spare need not keep meanwhile. The
// current output is never written to (D40), and a spare that is not the
// output the state describes is removed, not used.
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_PATH } from '../core/files.js';
import type { Spare } from './atomic.js';
import type { BuildState } from './build-state.js';
import { outputKey } from './cache.js';
import { sha1 } from './ledger.js';
import { removeEmptyFolders } from './prelink.js';
import { discard } from './staging-dirs.js';
import { withWholeFile } from './whole-file.js';

/** Where the spare of the output `out` is kept: in the cache, which a CI job keeps with the output. */
export function spareDir(cacheDir: string, out: string): string {
  return join(cacheDir, `spare-${outputKey(out)}`);
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
 * The kept spare without the files the next build links again anyway (the
 * ones this build changed), so that it shares every file it holds with the
 * output and takes no room of its own: at 10,000 posts the large documents
 * an edit splices (the model, the feeds, llms-full.txt, the search index)
 * would be 130 MB. Only the manifest stays, by which the next build knows
 * it. Unlinked on the thread pool while the build saves its state; a file
 * left (a build stopped first, a failure) leaves a spare that is still
 * right, since the next build links each of those files again regardless.
 */
export async function pruneSpare(dir: string, spare: NonNullable<BuildState['spare']>): Promise<void> {
  const paths = spare.changed.filter((path) => path !== MANIFEST_PATH);
  await Promise.all(paths.map((path) => unlink(join(dir, path)).catch(() => undefined)));
  removeEmptyFolders(dir, paths);
}

/**
 * What the state of a build records of the spare it keeps: the replaced
 * output's manifest, and the files where it differs from the new output.
 * Null when keeping it is not worth its room: the files the build changed
 * are the files the two do not share, and past half of them a fresh
 * staging directory costs little more than the spare saves.
 */
export function spareRecord(previous: BuildState | null, changed: string[], files: number): BuildState['spare'] | null {
  const manifest = previous?.extras.get(MANIFEST_PATH)?.hash;
  return manifest && changed.length * 2 <= files ? { manifest, changed } : null;
}
