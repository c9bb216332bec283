// What a build undoes when Ctrl-C or SIGTERM stops it: its staging folder
// and the lock of its output (atomic.ts, output-lock.ts) go with it, and the
// output is as it was. Without this the signal's default action ended the
// process on the spot and left both beside the output.

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };
const cleanups = new Set<() => void>();
/** Sections under way that a signal must not cut (uninterrupted), and the signal that waits for them. */
let holding = 0;
let pending: NodeJS.Signals | null = null;

function interrupted(signal: NodeJS.Signals): void {
  // A process that handles the signal itself decides (folio dev lets its rebuild finish first).
  if (process.listenerCount(signal) > 1) return;
  if (holding) {
    pending ??= signal;
    return;
  }
  stop(signal);
}

function stop(signal: NodeJS.Signals): void {
  for (const cleanup of [...cleanups].reverse()) {
    try {
      cleanup();
    } catch {
      // What it leaves, the next build sweeps.
    }
  }
  process.exit(EXIT_CODES[signal]);
}

/** Runs `cleanup` (synchronous) if a signal stops the process; returns its removal, for once it is not needed. */
export function onInterrupt(cleanup: () => void): () => void {
  if (!cleanups.size) for (const signal of Object.keys(EXIT_CODES)) process.on(signal, interrupted);
  cleanups.add(cleanup);
  return () => {
    if (!cleanups.delete(cleanup) || cleanups.size) return;
    for (const signal of Object.keys(EXIT_CODES)) process.off(signal, interrupted);
  };
}

/**
 * Runs `work` to its end even if a signal comes meanwhile, and stops the
 * process after it if one did. For a few steps that must happen together:
 * cut between the two renames of a swap, the output would be missing.
 */
export async function uninterrupted<T>(work: () => Promise<T>): Promise<T> {
  // Keeps the listeners in place, so that the signal waits rather than ends the process.
  const unhook = onInterrupt(() => undefined);
  holding++;
  try {
    return await work();
  } finally {
    holding--;
    unhook();
    if (pending && !holding) stop(pending);
  }
}
