// What the linter tests (D54) share: the sample served by `folio serve` on
// 127.0.0.1 for the file's tests, with a scratch folder beside it, and a
// runner for the linters' CLIs as their users run them (configs in test/linters/).
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { serveBuilt, tempDir } from './site.js';

const run = promisify(execFile);
export const bin = (name: string) => join('node_modules', '.bin', name);
export const CONFIG = 'test/linters';
export const SLOW = { timeout: 180_000 };

type Served = Awaited<ReturnType<typeof serveBuilt>>;

export interface LintedSample {
  /** The test server's base URL. */
  readonly url: string;
  /** A URL of the test server for a site path. */
  at(path: string): string;
  readonly site: Served['site'];
  /** The build's output folder. */
  readonly out: string;
  /** A scratch folder for the documents, reports and home folders the tests write. */
  readonly dir: string;
}

/** The sample, served before the file's tests and closed after them, its scratch folder removed. */
export function servedSample(): LintedSample {
  let s: Served;
  let dir: string;
  beforeAll(async () => {
    s = await serveBuilt();
    dir = await tempDir('folio-lint-');
  });
  afterAll(async () => {
    await s?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    get url() {
      return s.url;
    },
    at: (path) => s.at(path),
    get site() {
      return s.site;
    },
    get out() {
      return s.out;
    },
    get dir() {
      return dir;
    },
  };
}

/** Runs a CLI and returns its output whatever its exit code: the findings decide, not the code. */
export async function cli(
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(file, args, {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number };
    if (typeof e.code !== 'number') throw error;
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: e.code };
  }
}
