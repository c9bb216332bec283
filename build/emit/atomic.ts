// Writes a whole output directory atomically (D40): everything goes into a
// fresh sibling directory, which replaces the old one only when complete.
// The files themselves are written by staging-writers.ts.
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { MANIFEST_PATH } from '../core/files.js';
import type { Edit } from './splice-file.js';
import { OutputError, outputErrors } from './output-error.js';
import { removeEmptyFolders, unlinkAll } from './prelink.js';
import { fsWriter, threadWriter } from './staging-writers.js';
import { uninterrupted } from './interrupt.js';
import { makeDirs } from './make-dirs.js';
import { adopt, discard, discardOnSignal, keepAside, stagingPrefix, sweep } from './staging-dirs.js';

export { recoverOutput } from './staging-dirs.js';

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
   * those `commit` is told the build no longer has are removed. Given a
   * spare output (spare.ts), that directory becomes the staging directory
   * and only the files where it differs from the output are linked again;
   * true when it did.
   */
  prelink(paths: Iterable<string>, spare?: Spare | null): boolean;
  /** The output's file at `path` (the previous build's) with `edits` applied; false, and nothing written, when that file is not `size` bytes. */
  splice(path: string, size: number, edits: readonly Edit[]): Promise<boolean>;
  /**
   * Waits for every write, removes the prelinked files among `gone` (the
   * previous build's files this build does not have), then swaps the
   * staging directory in for the output. `bytes` counts written files only.
   * The replaced output is moved to `keep` (a spare output) when given and
   * possible, else removed in the background.
   */
  commit(gone?: readonly string[], keep?: string): Promise<{ files: number; bytes: number }>;
  /** Removes the staging directory; the output stays as it was. */
  abort(): Promise<void>;
}

/** An earlier output kept for the next build to stage in (spare.ts), and the files where it differs from the current output. */
export interface Spare {
  dir: string;
  changed: readonly string[];
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
    prelink(paths, spare) {
      // Each once: a second link to the same path would fail, and nothing may be copied over a link.
      for (const path of paths) prelinked.add(path);
      const relink = spare && adopt(spare.dir, staging) ? spare.changed : null;
      linked = writer.prelink(relink ?? [...prelinked], out, relink !== null).then((missing) => {
        // The spare's files the output no longer has are gone now; so must the folders they leave empty be.
        if (relink) removeEmptyFolders(staging, missing);
        // Not in the output (removed by hand): reused, it fails as an unlinked file would; written, it is made.
        for (const path of missing) prelinked.delete(path);
        linkedAll = true;
      }, fail);
      // Failed, it fails the next write or the commit; not an unhandled rejection before then.
      linked.catch(() => {});
      return relink !== null;
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
    async commit(gone = [], keep) {
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
          if (hadOld) await (keep ? keepAside(out, old, keep) : discard(out, old));
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
