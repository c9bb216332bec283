// The watcher of folio dev: file events under content/ become batches of
// changed paths, each batch handed on after a short quiet time.
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { isLitter } from '../content/litter.js';

export const FOLDER_NAMES = ['services', 'posts', 'projects'] as const;
export const FOLDERS = new Set<string>(FOLDER_NAMES);

/**
 * Quiet time after a file event before the batch is handed on. An editor's
 * save (a write, or a write to a temporary file and a rename) reports its
 * events within a millisecond; a later event starts another batch. Every
 * millisecond here is one more before the edit is served (the target is
 * 100 ms at 10,000 posts).
 */
export const DEBOUNCE_MS = 10;

/**
 * Watches the content directory and each of its folders, each on its own,
 * and reports changed paths relative to the directory ('posts/x.md', or a
 * folder's name when it came or went). A recursive
 * fs.watch would do the same, but on Linux Node 20 emulates it with a
 * watcher per entry, and at 10,000 posts an event then arrived 40 to 90 ms
 * after the write instead of under 1 ms. What editors leave beside a file
 * (an Emacs lock, a vim swap file: content/litter.ts) is not reported.
 */
export function watchContent(dir: string, changed: (path: string) => void, failed: (error: Error) => void): { close(): void } {
  const folders = new Map<string, FSWatcher>();
  const attach = (folder: string) => {
    folders.get(folder)?.close();
    folders.delete(folder);
    try {
      const w = watch(join(dir, folder), (_event, name) => {
        if (name && isLitter(basename(String(name)))) return;
        const path = name ? `${folder}/${String(name)}` : folder;
        // A folder made in the session (content/static/docs/) is watched from now on, and what it holds reported.
        if (name && !folders.has(path) && isFolder(join(dir, path))) attachTree(path);
        changed(path);
      });
      // The folder went away: the directory's own watcher reports it, and attaches it again if it comes back.
      w.on('error', () => w.close());
      folders.set(folder, w);
    } catch {
      // Not there (yet).
    }
  };
  // The folders below one: image folders (D44: posts/img/), and content/static/ at any depth, .well-known/ included.
  const subfolders = (rel: string) => {
    try {
      return readdirSync(join(dir, rel), { withFileTypes: true })
        .filter((e) => e.isDirectory() && !SKIPPED.has(e.name))
        .map((e) => (rel ? `${rel}/${e.name}` : e.name));
    } catch {
      return [];
    }
  };
  const attachTree = (folder: string): void => {
    attach(folder);
    for (const sub of subfolders(folder)) attachTree(sub);
  };
  const top = watch(dir, (_event, name) => {
    const path = name ? String(name) : '';
    if (isLitter(path)) return;
    if (path && (FOLDERS.has(path) || (!folders.has(path) && isFolder(join(dir, path))))) attachTree(path);
    changed(path);
  });
  top.on('error', failed);
  for (const folder of FOLDERS) attach(folder);
  for (const first of subfolders('')) attachTree(first);
  return {
    close() {
      top.close();
      for (const w of folders.values()) w.close();
    },
  };
}

/** Folders no content lives in. */
const SKIPPED = new Set(['.git', 'node_modules']);

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export interface Batcher {
  /** Whether events wait for their batch (a rebuild would find more to do). */
  waiting(): boolean;
  close(): void;
}

/** Changed paths in batches: `batch` gets every path reported since the last one, once `debounceMs` passed with no event. */
export function watchBatches(dir: string, debounceMs: number, batch: (paths: string[]) => void, failed: (error: Error) => void): Batcher {
  let timer: NodeJS.Timeout | null = null;
  const pending = new Set<string>();
  const watcher = watchContent(
    dir,
    (path) => {
      pending.add(path);
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        const paths = [...pending];
        pending.clear();
        batch(paths);
      }, debounceMs);
    },
    failed,
  );
  return {
    waiting: () => timer !== null || pending.size > 0,
    close() {
      watcher.close();
      if (timer) clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
