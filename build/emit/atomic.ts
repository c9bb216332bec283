// Writes a whole output directory atomically (D40): everything goes into a
// fresh sibling directory, which replaces the old one only when complete.
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { MANIFEST_PATH } from '../core/files.js';

export interface OutputFile {
  path: string;
  body: Uint8Array | string;
}

const CONCURRENCY = 64;

function stagingPrefix(out: string): string {
  return `.${basename(out)}.folio-tmp-`;
}

/**
 * A build killed between its two renames leaves the previous output only
 * under "<staging>-old", and no output: put it back. The build calls this
 * first, so even a build that then fails on its content restores it.
 */
export async function recoverOutput(outDir: string): Promise<void> {
  const out = resolve(outDir);
  const prefix = stagingPrefix(out);
  const names = await readdir(dirname(out)).catch(() => [] as string[]);
  const old = names.filter((n) => n.startsWith(prefix) && n.endsWith('-old')).sort().pop();
  if (old && !(await stat(out).catch(() => null))) await rename(join(dirname(out), old), out);
}

/** Removes staging directories left by a build that was killed. */
async function sweep(out: string): Promise<void> {
  await recoverOutput(out);
  const parent = dirname(out);
  const prefix = stagingPrefix(out);
  const names = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => rm(join(parent, n), { recursive: true, force: true })));
}

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

export async function writeAtomically(outDir: string, files: Iterable<OutputFile>): Promise<{ files: number; bytes: number }> {
  const out = resolve(outDir);
  try {
    await checkReplaceable(out);
    return await swapIn(out, files);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code) ? OutputError.from(out, e) : error;
  }
}

/**
 * The output is replaced whole, so folio only ever replaces a previous build
 * (it has _folio/manifest.json) or an empty directory: never a file, the
 * content, or a folder of someone's work given by mistake as --out.
 */
async function checkReplaceable(out: string): Promise<void> {
  // ENOTDIR: a parent is a file, which swapIn reports in its own words.
  const info = await stat(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw error;
  });
  if (!info) return;
  if (!info.isDirectory()) throw new OutputError(out, 'it is a file, not a directory', 'folio replaces its output directory whole and never overwrites a file: pass another --out.', 'Nothing was written.');
  const names = (await readdir(out)).sort();
  if (names.length === 0) return;
  const manifest = await stat(join(out, MANIFEST_PATH)).catch(() => null);
  if (!manifest?.isFile()) {
    throw new OutputError(
      out,
      `it holds ${names.length} entr${names.length === 1 ? 'y' : 'ies'} (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}) but is not a folio build (no ${MANIFEST_PATH})`,
      'folio replaces its output directory whole, so it only replaces a previous build or an empty directory: pass another --out, or move those files away first.',
      'Nothing was written.',
    );
  }
}

async function swapIn(out: string, files: Iterable<OutputFile>): Promise<{ files: number; bytes: number }> {
  const parent = dirname(out);
  await mkdir(parent, { recursive: true });
  await sweep(out);
  const staging = join(parent, `${stagingPrefix(out)}${process.pid}-${Date.now().toString(36)}`);
  const old = `${staging}-old`;
  // Not recursive: a recursive mkdir reports ENOENT where the cause is EROFS or EACCES.
  await mkdir(staging);
  try {
    const list = [...files];
    const dirs = new Set(list.map((f) => dirname(join(staging, f.path))));
    // Creating parents first keeps the write loop to one syscall per file.
    for (const dir of [...dirs].sort()) await mkdir(dir, { recursive: true });
    let bytes = 0;
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const file = list[next++]!;
        bytes += typeof file.body === 'string' ? Buffer.byteLength(file.body) : file.body.byteLength;
        await writeFile(join(staging, file.path), file.body);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // Swap: the old dist stays whole until the new one is complete.
    let hadOld = true;
    await rename(out, old).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      hadOld = false;
    });
    try {
      await rename(staging, out);
    } catch (error) {
      if (hadOld) await rename(old, out);
      throw error;
    }
    if (hadOld) await rm(old, { recursive: true, force: true });
    return { files: list.length, bytes };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
