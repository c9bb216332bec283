// An incremental build links the previous output's files into its staging
// directory all at once, as soon as it knows that build (D56): on a
// writing thread, while this thread reads the content and assembles the
// model, rather than one by one as the responses are routed. Each link is a
// file the build would otherwise link later; a file it writes again takes
// the place of its link, never writes through it (the link is the previous
// output's file, D40), and one it no longer has is removed before the swap.
import { rmdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What a link that failed with `error` leaves to do: `missing`, when the
 * previous output has no such file and the caller takes that (`skipMissing`,
 * a prelink); `copy`, across devices or where the file system or the file
 * takes no more links, made only where no file is (COPYFILE_EXCL), since a
 * copy over a link would write into the previous output. Any other failure
 * is thrown, for the build to report.
 */
export function afterLinkFailure(error: unknown, skipMissing: boolean): 'missing' | 'copy' {
  const code = (error as NodeJS.ErrnoException).code;
  if (skipMissing && code === 'ENOENT') return 'missing';
  if (code === 'EXDEV' || code === 'EPERM' || code === 'EMLINK' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return 'copy';
  throw error;
}

/** The flag to create `path` with: `w`, or, where it may hold a link to the previous output (`replace`), `wx` once that link is removed. */
export function createFlag(path: string, replace: boolean | undefined): 'w' | 'wx' {
  if (!replace) return 'w';
  unlinkFresh(path);
  return 'wx';
}

/** Removes the file at `path` if it is there. */
export function unlinkFresh(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Removes each of `paths` (relative) from `dir`, and the folders that leaves empty: a build that never linked them has neither. */
export function unlinkAll(dir: string, paths: readonly string[]): void {
  for (const path of paths) unlinkFresh(join(dir, path));
  removeEmptyFolders(dir, paths);
}

/** Removes the folders of `paths` (relative, their files removed already) from `dir` where they are empty now, and so their parents. */
export function removeEmptyFolders(dir: string, paths: readonly string[]): void {
  const folders = new Set(paths.map((path) => dirname(path)));
  const depth = (folder: string) => folder.split('/').length;
  for (const folder of [...folders].sort((a, b) => depth(b) - depth(a))) {
    for (let f = folder; f !== '.' && f !== '/'; f = dirname(f)) {
      try {
        rmdirSync(join(dir, f));
      } catch {
        // Not empty (or gone already): its parents are not empty either.
        break;
      }
    }
  }
}
