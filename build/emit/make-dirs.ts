// `mkdir -p`, one folder at a time. Node's recursive mkdir retries for as
// long as making a folder fails with ENOENT under a parent that exists, which
// a file system such as /proc answers every time: `--out /proc/x` would keep
// every thread of a build in that loop. Made one by one, the first folder that
// cannot be made throws its error, which the caller reports.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `path` and the folders above it that are missing; a folder another process makes meanwhile is fine. */
export function makeDirs(path: string): void {
  const missing: string[] = [];
  for (let dir = resolve(path); !exists(dir); dir = dirname(dir)) {
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
