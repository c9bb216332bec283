// Where a build may write: its output and its cache, neither inside a folder
// the build reads (the next build would read, or publish, this one), and the
// cache not inside the output, which every build replaces whole (D40).
// Checked before anything is written.
import { join, resolve } from 'node:path';
import { within } from '../content/paths.js';
import { OutputError } from './output-error.js';

/** The content folders every build reads; what lies under static/ is published as it is. */
const READ_FOLDERS = ['static', 'posts', 'projects', 'services'] as const;

const inside = (path: string, published: boolean) =>
  `it is inside ${path}, which every build reads, so the next build would read this one${published ? ' and publish it' : ''}`;

/** Throws when `out` or `cacheDir` (absolute, or null for no cache) is a place the build must not write. */
export function checkPlaces(content: string, out: string, cacheDir: string | null): void {
  for (const folder of READ_FOLDERS) {
    const read = join(content, folder);
    const reason = inside(read, folder === 'static');
    if (within(resolve(read), out))
      throw new OutputError(out, reason, 'Pass an --out outside the content folders, e.g. dist beside content/.', 'Nothing was written.');
    if (cacheDir && within(resolve(read), cacheDir)) throw cacheError(cacheDir, reason);
  }
  if (cacheDir && within(out, cacheDir))
    throw cacheError(cacheDir, `it is inside the output directory ${out}, which every build replaces whole`);
}

function cacheError(cacheDir: string, reason: string): Error {
  return new Error(
    `cannot use the cache directory ${cacheDir}: ${reason}.\n  hint: Pass a --cache-dir outside the content folders and the output, or leave it out for .folio-cache beside --out. Nothing was written.`,
  );
}
