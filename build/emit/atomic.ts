// Writes a whole output directory atomically (D40): everything goes into a
// fresh sibling directory, which replaces the old one only when complete.
// The files themselves are written by staging-writers.ts.
import { spawn } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { MANIFEST_PATH } from '../core/files.js';
import type { Edit } from './splice-file.js';
import { OutputError, outputErrors } from './output-error.js';
import { unlinkAll } from './prelink.js';
import { fsWriter, threadWriter } from './staging-writers.js';
import { onInterrupt, uninterrupted } from './interrupt.js';
import { makeDirs } from './make-dirs.js';

/** A file with its bytes. */
export interface FileBytes {
  path: string;
  body: Uint8Array | string;
  /** What the build state knows the file by, when its maker has it already (a tagged file's, emit/edge.ts); else the SHA-1 of its bytes. */
  hash?: string;
  /** The previous output's file at this path is not the bytes the state records (edited since): write it, never link it. */
  rewrite?: boolean;
}

/** A file an artifact adds: its bytes, or (`kept`) the hash the previous build wrote it with, when its maker found it the same without passing its bytes on. */
export type OutputFile = FileBytes | { path: string; kept: string };

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
  const old = names
    .filter((n) => n.startsWith(prefix) && n.endsWith('-old'))
    .sort()
    .pop();
  if (old && !(await stat(out).catch(() => null))) await rename(join(dirname(out), old), out);
}

function trashPrefix(out: string): string {
  return `.${basename(out)}.folio-old-`;
}

/**
 * Removes a directory in a process of its own that outlives this one.
 * Unlinking tens of thousands of files can take longer than the whole build
 * on a slow disk, and nothing waits for it: the new output is already in place.
 */
function removeInBackground(dir: string): void {
  try {
    const child = spawn(process.execPath, ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })', dir], {
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // It stays until the next build sweeps it.
  }
}

/**
 * If a signal stops the build: the staging folder is removed by a process of
 * its own, which starts after this one has exited. Not renamed away first: a
 * writing thread still at work would make the folder again under its name
 * (its writes make their folders), and that copy would stay.
 */
function discardOnSignal(staging: string): () => void {
  return onInterrupt(() => removeInBackground(staging));
}

/** The replaced output: out of the way at once (a rename), removed in the background. */
async function discard(out: string, old: string): Promise<void> {
  const trash = join(dirname(out), `${trashPrefix(out)}${process.pid}-${Date.now().toString(36)}`);
  try {
    await rename(old, trash);
  } catch {
    await rm(old, { recursive: true, force: true });
    return;
  }
  removeInBackground(trash);
}

/** Removes staging directories left by a build that was killed, and replaced outputs still on disk. */
async function sweep(out: string): Promise<void> {
  await recoverOutput(out);
  const parent = dirname(out);
  const prefix = stagingPrefix(out);
  const names = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => rm(join(parent, n), { recursive: true, force: true })));
  // A remover may still be at work on these; another one in the background does no harm.
  for (const n of names.filter((n) => n.startsWith(trashPrefix(out)))) removeInBackground(join(parent, n));
}

/**
 * A fresh directory beside the output that files stream into as the build
 * makes them (bounded concurrency, so memory holds a few files, not the
 * site), and that replaces the output whole on commit (D40).
 */
export interface Staging {
  readonly dir: string;
  /** Queues a write; resolves when there is room for the next one. The body is the staging's from then on (Writer). */
  write(path: string, body: Uint8Array | string): Promise<void>;
  /** The same file as the output's at `path` (the previous build's): a hard link, or a copy across devices. A promise only when the caller must wait (Writer.link). */
  reuse(path: string): Promise<void> | void;
  /**
   * Links the output's files at `paths` (the previous build's) now, on
   * a writing thread, and returns at once (prelink.ts). Reusing one of them
   * later costs nothing, a write or splice of one replaces its link, and
   * those `commit` is told the build no longer has are removed.
   */
  prelink(paths: Iterable<string>): void;
  /** The output's file at `path` (the previous build's) with `edits` applied; false, and nothing written, when that file is not `size` bytes. */
  splice(path: string, size: number, edits: readonly Edit[]): Promise<boolean>;
  /**
   * Waits for every write, removes the prelinked files among `gone` (the
   * previous build's files this build does not have), then swaps the
   * staging directory in for the output. `bytes` counts written files only.
   */
  commit(gone?: readonly string[]): Promise<{ files: number; bytes: number }>;
  /** Removes the staging directory; the output stays as it was. */
  abort(): Promise<void>;
}

/** Refuses an output folio must not replace (checkReplaceable) before a build writes anything, its cache beside the output included. */
export async function checkOutput(outDir: string): Promise<void> {
  const out = resolve(outDir);
  await checkReplaceable(out).catch(outputErrors(out));
}

export async function openStaging(outDir: string): Promise<Staging> {
  const out = resolve(outDir);
  const fail = outputErrors(out);
  const parent = dirname(out);
  const staging = join(parent, `${stagingPrefix(out)}${process.pid}-${Date.now().toString(36)}`);
  // Before the folder is made: a signal that comes as it is made finds it too.
  const unhook = discardOnSignal(staging);
  try {
    await checkReplaceable(out);
    makeDirs(parent);
    await sweep(out);
    // Not recursive: a recursive mkdir reports ENOENT where the cause is EROFS or EACCES.
    await mkdir(staging);
  } catch (error) {
    unhook();
    fail(error);
  }
  const writer = threadWriter(staging) ?? fsWriter(staging);
  let closed = false;
  const prelinked = new Set<string>();
  // Settled once every prelinked file is there; no write, splice or reuse starts before, so none races its link.
  let linked: Promise<void> | null = null;
  let linkedAll = false;
  const abort = async () => {
    unhook();
    await writer.close();
    if (!closed || (await stat(staging).catch(() => null))) await rm(staging, { recursive: true, force: true });
  };
  const reuse = (path: string): Promise<void> | void => {
    if (linked && !linkedAll) return linked.then(() => reuse(path));
    if (prelinked.has(path)) return;
    try {
      return writer.link(path, out)?.catch(fail);
    } catch (error) {
      return fail(error);
    }
  };
  return {
    dir: staging,
    abort,
    write(path, body) {
      const written = linked && !linkedAll ? linked.then(() => writer.write(path, body)) : writer.write(path, body);
      return written.catch(fail);
    },
    prelink(paths) {
      // Each once: a second link to the same path would fail, and nothing may be copied over a link.
      for (const path of paths) prelinked.add(path);
      linked = writer.prelink([...prelinked], out).then((missing) => {
        // Not in the output (removed by hand): reused, it fails as an unlinked file would; written, it is made.
        for (const path of missing) prelinked.delete(path);
        linkedAll = true;
      }, fail);
      // Failed, it fails the next write or the commit; not an unhandled rejection before then.
      linked.catch(() => {});
    },
    reuse,
    async splice(path, size, edits) {
      const info = await stat(join(out, path)).catch(() => null);
      if (info?.size !== size) return false;
      if (linked) await linked;
      const next = edits.reduce((n, e) => n + e.bytes.byteLength - (e.end - e.start), size);
      await writer.splice(path, out, edits, next).catch(fail);
      return true;
    },
    async commit(gone = []) {
      try {
        if (linked) await linked;
        const { files, bytes } = await writer.flush();
        await writer.close();
        closed = true;
        unlinkAll(
          staging,
          gone.filter((path) => prelinked.has(path)),
        );
        // Swap: the old dist stays whole until the new one is complete. A
        // signal waits for the swap; only SIGKILL can cut it, which recoverOutput undoes.
        await uninterrupted(async () => {
          const old = `${staging}-old`;
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
          // Swapped in: a signal from here on leaves it be.
          unhook();
          if (hadOld) await discard(out, old);
        });
        return { files, bytes };
      } catch (error) {
        await abort();
        return fail(error) as never;
      }
    },
  };
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
  if (!info.isDirectory())
    throw new OutputError(
      out,
      'it is a file, not a directory',
      'folio replaces its output directory whole and never overwrites a file: pass another --out.',
      'Nothing was written.',
    );
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
