// The real CLI, as a user runs it: bin/folio.js in a child process, without
// colour, with its exit code and both streams whatever the outcome.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** The tests run from the repository's root. */
const CLI = join(process.cwd(), 'bin/folio.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function folio(...args: string[]): Promise<CliResult> {
  return folioIn(args, process.cwd());
}

/** The CLI run from another folder, as an author runs it from their own project; `env` adds to the environment. */
export async function folioIn(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  try {
    // A build that reports thousands of problems writes megabytes to stderr (execFile's default keeps 1 MiB).
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
