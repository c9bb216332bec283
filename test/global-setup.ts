// Before any test file runs: lib/ is recompiled if it is stale, and the run
// gets a temporary directory of its own, removed at the end.
//
// Tests that spawn the CLI, its workers or the functions run lib/, which must
// match build/ as it is now: lib/ is recompiled whenever any of its inputs is
// newer than its oldest output (or an output is missing), and only then.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every bundle scripts/compile.js writes (test/compiled.test.ts checks the list against its entry points). */
export const OUTPUTS = ['lib/cli.js', 'lib/render-worker.js', 'lib/write-worker.js', 'lib/search-worker.js', 'lib/image-worker.js'];
const INPUTS = ['build', 'scripts/compile.js', 'scripts/stylesheet.js', 'package.json', 'package-lock.json'];
const TMPFS_MAGIC = 0x01021994;

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

/**
 * Where the run's temporary files go: FOLIO_TEST_TMPDIR if set, else
 * /dev/shm when it is a writable tmpfs, else the system's. The tests write,
 * copy and delete tens of thousands of small files; on a disk mounted with
 * `discard` (this machine's), every delete is a TRIM, and a run spent 100 s
 * of system time there against 40 s on tmpfs.
 */
export function testTempBase(): string {
  if (process.env.FOLIO_TEST_TMPDIR) return process.env.FOLIO_TEST_TMPDIR;
  try {
    accessSync('/dev/shm', constants.W_OK);
    if (statfsSync('/dev/shm').type === TMPFS_MAGIC) return '/dev/shm';
  } catch {
    // No /dev/shm (macOS, Windows) or not ours to write.
  }
  return tmpdir();
}

export default function setup(): () => void {
  if (libIsStale()) execFileSync(process.execPath, ['scripts/compile.js'], { stdio: 'inherit' });
  // Set before the test workers start, so they and every process they spawn
  // (the CLI, wrangler, Chromium) inherit it through os.tmpdir().
  const run = mkdtempSync(join(testTempBase(), 'folio-tests-'));
  process.env.TMPDIR = run;
  return () => rmSync(run, { recursive: true, force: true });
}
