// Tests that spawn the CLI, its workers or the functions run lib/, which must
// match build/ as it is now: lib/ is recompiled whenever any of its inputs is
// newer than its oldest output (or an output is missing), and only then.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const OUTPUTS = ['lib/cli.js', 'lib/render-worker.js', 'lib/write-worker.js', 'lib/search-worker.js'];
const INPUTS = ['build', 'scripts/compile.js', 'scripts/stylesheet.js', 'package.json', 'package-lock.json'];

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function oldestOutput(): number {
  try {
    return Math.min(...OUTPUTS.map((path) => statSync(path).mtimeMs));
  } catch {
    return -Infinity;
  }
}

/** Whether lib/ is older than its sources (exported for the test of this rule). */
export function libIsStale(): boolean {
  return Math.max(...INPUTS.map(newest)) > oldestOutput();
}

export default function setup(): void {
  if (libIsStale()) execFileSync(process.execPath, ['scripts/compile.js'], { stdio: 'inherit' });
}
