// The watcher of folio dev: file events under content/ become batches of
// changed paths, each batch handed on after a short quiet time.
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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
 * and reports changed paths relative to the directory: 'posts/x.md', a
 * folder that came, went or was replaced with a slash ('posts/img/'), and
 * '' for the directory itself. A recursive fs.watch would do the same, but
 * on Linux Node 20 emulates it with a watcher per entry, and at 10,000 posts
 * an event then arrived 40 to 90 ms after the write instead of under 1 ms.
 * What editors leave beside a file (an Emacs lock, a vim swap file:
 * content/litter.ts) is not reported.
 */
export function watchContent(dir: string, changed: (path: string) => void, failed: (error: Error) => void): { close(): void } {
  /** The watched folders by path ('' for the directory itself). */
  const folders = new Map<string, FSWatcher>();
  const attach = (folder: string) => {
    try {
      const w = watch(join(dir, folder), (_event, name) => {
        if (name) seen(folder ? `${folder}/${String(name)}` : String(name));
        else changed(folder && `${folder}/`);
      });
      // A folder that went away: its parent's watcher reports it, and attaches it again if it comes back.
      w.on('error', folder ? () => w.close() : failed);
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
    // The content folders even when they are links to folders elsewhere, which subfolders() does not list.
    const below = folder ? subfolders(folder) : new Set([...FOLDERS, ...subfolders('')]);
    for (const sub of below) attachTree(sub);
  };
  /**
   * A folder that came, went or was renamed is watched anew with what it
   * holds: a watcher follows its folder, not its name, so one left on a
   * folder renamed away would report that folder's files under the old name,
   * and one on a folder removed would miss it when it comes back. What it
   * holds came or went without events of their own: the slash says so.
   */
  const seen = (path: string) => {
    if (path && (isLitter(basename(path)) || SKIPPED.has(basename(path)))) return;
    const isNow = isFolder(join(dir, path));
    if (!isNow && !folders.has(path)) return changed(path);
    for (const [folder, w] of folders)
      if (!path || folder === path || folder.startsWith(`${path}/`)) {
        w.close();
        folders.delete(folder);
      }
    if (isNow) attachTree(path);
    changed(path && `${path}/`);
  };
  attachTree('');
  if (!folders.has('')) throw new Error(`${dir} is not a folder that can be watched`);
  // The directory itself may go and come back (deleted and checked out again, renamed, a link pointed
  // elsewhere), which only its parent sees; its metadata changing (a touch) is no change.
  let identity = folderIdentity(dir);
  let parent: FSWatcher | null = null;
  try {
    parent = watch(dirname(resolve(dir)), (_event, name) => {
      if (name !== basename(resolve(dir)) || folderIdentity(dir) === identity) return;
      identity = folderIdentity(dir);
      seen('');
    });
    parent.on('error', () => parent?.close());
  } catch {
    // A parent that cannot be watched: the directory is watched as long as it stays.
  }
  return {
    close() {
      parent?.close();
      for (const w of folders.values()) w.close();
      folders.clear();
    },
  };
}

/** A folder's device and inode, which stay while it is the same folder; null when it is none. */
function folderIdentity(path: string): string | null {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : null;
  } catch {
    return null;
  }
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
