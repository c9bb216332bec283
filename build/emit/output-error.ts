// The failure to write an output directory, in words and with the fix: the
// errno codes a build meets on a full, read-only or locked-down disk, each
// with what to do about it. Every module that writes or guards the output
// (atomic.ts, output-lock.ts, places.ts) reports through it.

const REASONS: Record<string, [reason: string, fix: string]> = {
  ENOSPC: ['the disk is full', 'Free space on that disk, or pass --out on another one.'],
  EDQUOT: ['the disk quota is used up', 'Free space within the quota, or pass --out on another disk.'],
  EFBIG: ['a file is larger than the file size limit', 'Raise the limit (ulimit -f unlimited) and build again.'],
  EROFS: ['it is on a read-only file system', 'Pass --out on a writable file system.'],
  EACCES: ['permission is denied', 'Make its parent directory writable for this user, or pass another --out.'],
  EPERM: ['permission is denied', 'Make its parent directory writable for this user, or pass another --out.'],
  ENOTDIR: ['part of its path is a file, not a directory', 'Move that file away, or pass another --out.'],
  EEXIST: ['part of its path is a file, not a directory', 'Move that file away, or pass another --out.'],
  EMFILE: ['too many files are open', 'Raise the open-file limit (ulimit -n) and build again.'],
};

/** A failure to write the output, in words and with the fix; the previous output is untouched. */
export class OutputError extends Error {
  constructor(
    readonly out: string,
    reason: string,
    fix: string,
    outcome = 'The previous output was left as it was.',
  ) {
    super(`cannot write the output directory ${out}: ${reason}.\n  hint: ${fix} ${outcome}`);
    this.name = 'OutputError';
  }

  static from(out: string, cause: NodeJS.ErrnoException): OutputError {
    const [reason, fix] = REASONS[cause.code ?? ''] ?? [cause.message, 'Check the output directory and build again.'];
    const where = cause.path && cause.path !== out ? ` at ${cause.path}` : '';
    return new OutputError(out, `${reason} (${cause.code}${where})`, fix);
  }
}

/** Rethrows a file system failure (an errno code) as the OutputError for `out`; anything else as it is. */
export const outputErrors = (out: string) => (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  throw typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code) ? OutputError.from(out, e) : error;
};
