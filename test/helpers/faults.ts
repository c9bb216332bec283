// What the fault tests share (output-*.test.ts, killed-*.test.ts): the real
// CLI run under an optional file-size limit, a small generated site with a
// finished build of it to copy as a previous dist, the staging a build may
// leave, and the figures and recovery of the tests that kill builds.
import { execFile } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import { writeCorpus } from './corpus.js';
import { recordFigures } from './fuzz.js';
import { tempDir, treeHash } from './site.js';
import { recoverOutput } from '../../build/emit/atomic.js';

const run = promisify(execFile);
export const CLI = join(process.cwd(), 'bin/folio.js');

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI; `limit` is an optional `ulimit -f` in 512-byte blocks. */
export async function folio(args: string[], options: { limitBlocks?: number } = {}): Promise<Outcome> {
  const [file, argv] = options.limitBlocks
    ? ['/bin/sh', ['-c', `ulimit -f ${options.limitBlocks} && exec "$0" "$@"`, process.execPath, CLI, ...args]]
    : [process.execPath, [CLI, ...args]];
  try {
    // A build that hangs is killed and fails the test, rather than the run.
    const { stdout, stderr } = await run(file, argv as string[], {
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export interface FaultsSite {
  /** The file's temporary folder, removed after its tests. */
  work: string;
  /** A small generated site (its builds are quick). */
  content: string;
  /** A finished build of it, to copy as a previous dist. */
  sample: string;
  /** Builds the site into `out`, under an optional file-size limit. */
  build(out: string, options?: { limitBlocks?: number }): Promise<Outcome>;
}

/** The site, written and built before the file's tests and removed after them; its fields are set once beforeAll has run. */
export function faultsSite(): FaultsSite {
  const site = {
    build: (out, options = {}) => folio(['build', '--content', site.content, '--out', out, '--now', '2026-11-22'], options),
  } as FaultsSite;
  beforeAll(async () => {
    site.work = await tempDir('folio-faults-');
    site.content = await writeCorpus(join(site.work, 'content'), { posts: 3, bodyBytes: 20_000 });
    site.sample = join(site.work, 'sample');
    const built = await site.build(site.sample);
    expect(built.code, built.stderr).toBe(0);
  });
  afterAll(async () => {
    if (site.work) await rm(site.work, { recursive: true, force: true });
  });
  return site;
}

export async function stagingLeftovers(parent: string): Promise<string[]> {
  return (await readdir(parent)).filter((n) => n.includes('.folio-tmp-'));
}

/** The figures of a test that kills builds: how many it started, and how many it interrupted before they finished. */
export function recordKills(name: string, target: string, builds: number, interrupted: number, seed: number): void {
  recordFigures({
    name,
    target,
    inputs: builds,
    requests: 0,
    failures: 0,
    seed,
    ms: 0,
    note: `${interrupted} of ${builds} interrupted before they finished`,
  });
}

/**
 * The output a killed build left, as the next build starts from it: a kill
 * between the swap's two renames leaves no output and the previous one under
 * `<staging>-old`, which the next build puts back first (recoverOutput; its
 * own test in killed-build.test.ts kills a build there on purpose).
 */
export async function afterKill(out: string): Promise<Record<string, string>> {
  await recoverOutput(out);
  return treeHash(out);
}
