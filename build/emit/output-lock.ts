// One writer per output directory. folio build swaps a new output in whole,
// and folio dev rewrites files of it in place for as long as it runs: a
// build swapped in under a running folio dev, or two folio dev on one
// output, left it a mix of the two, which neither would write and which
// the dev server then answered with errors. A lock file beside the output
// names the process that writes it; another one is refused until it stops.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { OutputError } from './output-error.js';
import { onInterrupt } from './interrupt.js';
import { makeDirs } from './make-dirs.js';

interface Holder {
  pid: number;
  command: string;
}

/** Where the lock of an output directory is: beside it, as its staging directories are (atomic.ts). */
export function outputLockPath(out: string): string {
  return join(dirname(out), `.${basename(out)}.folio-lock`);
}

/** Locks of this process, by path: a build that folio dev runs takes the lock its session holds. */
const held = new Map<string, number>();

/**
 * Takes the lock of `out` (absolute) for `command`, and returns its release.
 * A lock whose process has ended (killed, or a machine restarted) is taken
 * over. Without `create`, an output whose parent folder does not exist yet
 * is not locked: there is nothing to protect, and nothing is made for it.
 */
export function lockOutput(out: string, command: string, { create = false } = {}): () => void {
  const path = outputLockPath(out);
  const mine = held.get(path);
  if (mine !== undefined) {
    held.set(path, mine + 1);
    return once(() => release(path));
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      if (create) makeDirs(dirname(out));
      writeFileSync(path, JSON.stringify({ pid: process.pid, command } satisfies Holder), { flag: 'wx' });
      if (!exitHooked) {
        exitHooked = true;
        process.once('exit', releaseAtExit);
      }
      held.set(path, 1);
      const unhook = onInterrupt(() => removeIfMine(path));
      return once(() => {
        unhook();
        release(path);
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !create) return () => undefined;
      // The folder cannot be written (read-only, a file in its path): the build would fail the same way, so it says why now.
      if (code !== 'EEXIST') throw OutputError.from(out, error as NodeJS.ErrnoException);
    }
    const holder = readHolder(path);
    if (holder && holder.pid !== process.pid && alive(holder.pid))
      throw new OutputError(
        out,
        `${holder.command} (process ${holder.pid}) is writing it`,
        `Stop that process first (Ctrl-C in its terminal), or pass another --out. If no such process runs, delete ${path}.`,
        'Nothing was written.',
      );
    // Its process is gone: the lock is stale.
    try {
      unlinkSync(path);
    } catch {
      // Another process took it over first; the next attempt says whose it is.
    }
  }
  const holder = readHolder(path);
  throw new OutputError(
    out,
    `another folio process${holder ? ` (process ${holder.pid})` : ''} took it`,
    'Try again once it has stopped.',
    'Nothing was written.',
  );
}

function release(path: string): void {
  const n = held.get(path) ?? 0;
  if (n > 1) return void held.set(path, n - 1);
  held.delete(path);
  removeIfMine(path);
}

function removeIfMine(path: string): void {
  if (readHolder(path)?.pid !== process.pid) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** A process stopped by process.exit (folio dev asked twice to stop) leaves no lock behind. */
let exitHooked = false;
const releaseAtExit = () => {
  for (const path of held.keys()) removeIfMine(path);
};

function once(f: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    f();
  };
}

function readHolder(path: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.command === 'string' ? (holder as Holder) : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
