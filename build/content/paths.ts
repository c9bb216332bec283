// Where a path lies against a folder, by path segments rather than string
// prefixes (/a/bc is not under /a/b, and a folder may be named `..x`).
import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` is the folder `dir` itself or lies anywhere below it. */
export function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Whether `path` lies below the folder `dir`, and is not the folder itself. */
export function below(dir: string, path: string): boolean {
  return relative(dir, path) !== '' && within(dir, path);
}
