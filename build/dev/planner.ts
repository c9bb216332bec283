// The rebuild planner of folio dev: what a batch of changed paths did to the
// content, and which way the rebuild goes: nothing to do, a post's own
// responses first (an edit that keeps every address), the incremental
// rebuild, or the whole build.
import type { Source } from '../content/frontmatter.js';
import { isImagePath } from '../core/media-types.js';
import { loadContent, reloadFile, type ContentSources } from '../content/load.js';
import { isStrayFolder, isStrayPath } from '../content/strays.js';
import { ownerOf } from '../emit/incremental.js';
import type { OutputRecord } from '../emit/build-state.js';
import { isPublished, type ReadContent } from '../site.js';
import type { DevState, HeldPost, RebuildReport } from './state.js';
import { FOLDER_NAMES, FOLDERS } from './watcher.js';

export type RebuildPath = 'none' | 'post-edit' | 'incremental' | 'full';

/**
 * The content after these paths changed (as the watcher reports them, a
 * folder with a slash): each file read again, or every file when a folder of
 * posts, projects or services, the directory itself, or a Markdown file
 * folio does not read came or went.
 */
export async function readChanges(dir: string, sources: ContentSources, paths: string[]): Promise<ContentSources> {
  let next = sources;
  let reloadAll = false;
  for (const path of paths) {
    // A Markdown file folio does not read (posts/2024/x.md), or a folder of them, came or went: its warning with it.
    const whole = path === '' || FOLDERS.has(path.replace(/\/$/, '')) || isStrayPath(path) || isStrayFolder(dir, next.strays ?? [], path);
    const read = whole ? null : await reloadFile(next, path).catch(() => null);
    if (read) next = read;
    else if (whole) reloadAll = true;
  }
  return reloadAll ? loadContent(dir) : next;
}

/**
 * Those of these paths that may change the images the content shows (D44), which
 * no content file's text says: an image file, or a folder that came or went
 * (posts/img/ renamed, restored with a branch) or the content directory
 * itself (''), whose files move without events of their own.
 */
export function imagesMayMove(paths: readonly string[]): string[] {
  return paths.filter((path) => path === '' || path.endsWith('/') || isImagePath(path));
}

/**
 * The way a rebuild goes from `before` to the state's sources. Editors and
 * fs.watch often report one save twice: the second finds nothing new, unless
 * a skipped rebuild left its artifacts to this one.
 */
export function choosePath(state: DevState, before: ContentSources): RebuildPath {
  if (!state.build) return 'full';
  const diff = diffSources(before, state.sources);
  if (
    state.problems.length === 0 &&
    !state.artifactsBehind &&
    !state.imagesChanged &&
    diff.added.length + diff.changed.length + diff.removed.length === 0
  )
    return 'none';
  if (state.model && state.problems.length === 0 && !state.imagesChanged && changedPosts(before, state.sources)?.length) return 'post-edit';
  return 'incremental';
}

/**
 * Content files added, changed (other text) and removed between two loads.
 * A file not read again keeps its Source, so only the lists that changed
 * are compared file by file.
 */
export function diffSources(a: ContentSources, b: ContentSources): RebuildReport['sources'] {
  const diff: RebuildReport['sources'] = { added: [], changed: [], removed: [] };
  const pair = (x: Source | null, y: Source | null) => {
    if (x === y) return;
    if (x && y && x.file === y.file) {
      if (x.text !== y.text) diff.changed.push(y.file);
      return;
    }
    if (x) diff.removed.push(x.file);
    if (y) diff.added.push(y.file);
  };
  pair(a.site, b.site);
  pair(a.profile, b.profile);
  pair(a.theme ?? null, b.theme ?? null);
  if (a.static !== b.static) {
    const before = new Map((a.static ?? []).map((f) => [f.path, f]));
    const after = new Map((b.static ?? []).map((f) => [f.path, f]));
    for (const [path, f] of after) {
      const old = before.get(path);
      if (!old) diff.added.push(f.file);
      else if (old.size !== f.size || !old.body || !f.body || Buffer.compare(old.body, f.body) !== 0) diff.changed.push(f.file);
    }
    for (const [path, f] of before) if (!after.has(path)) diff.removed.push(f.file);
  }
  for (const folder of FOLDER_NAMES) {
    const xs = a[folder];
    const ys = b[folder];
    if (xs === ys) continue;
    if (xs.length === ys.length && xs.every((x, i) => x.file === ys[i]!.file)) {
      xs.forEach((x, i) => pair(x, ys[i]!));
      continue;
    }
    const old = new Map(xs.map((x) => [x.file, x]));
    const now = new Set(ys.map((y) => y.file));
    for (const y of ys) {
      const x = old.get(y.file);
      if (!x) diff.added.push(y.file);
      else pair(x, y);
    }
    for (const x of xs) if (!now.has(x.file)) diff.removed.push(x.file);
  }
  return diff;
}

/** The posts whose sources changed, by index, when nothing else did and no file came or went; else null. */
export function changedPosts(a: ContentSources, b: ContentSources): { index: number; source: Source }[] | null {
  if (
    a.site !== b.site ||
    a.profile !== b.profile ||
    a.theme !== b.theme ||
    a.static !== b.static ||
    a.services !== b.services ||
    a.projects !== b.projects ||
    a.posts.length !== b.posts.length
  )
    return null;
  const changed: { index: number; source: Source }[] = [];
  for (let i = 0; i < b.posts.length; i++) {
    if (a.posts[i] === b.posts[i]) continue;
    if (a.posts[i]!.file !== b.posts[i]!.file) return null;
    changed.push({ index: i, source: b.posts[i]! });
  }
  return changed;
}

/** Each post's own targets (its page, twin and API record) among these routes. */
export function ownersOf(routes: Map<string, OutputRecord>): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  for (const target of routes.keys()) {
    const slug = ownerOf(target);
    if (slug === null) continue;
    const list = owners.get(slug);
    if (list) list.push(target);
    else owners.set(slug, [target]);
  }
  return owners;
}

/**
 * The posts among `files` that a build at `now` does not publish: a draft,
 * or a post dated after the clock's day, which the session's fixed clock
 * keeps out even once that day has come.
 */
export function heldPosts(content: ReadContent, files: readonly string[], now: Date): HeldPost[] {
  const day = now.toISOString().slice(0, 10);
  const named = new Set(files);
  return content.posts
    .filter((r) => named.has(r.file) && r.read && !isPublished(r.read, day))
    .map((r) => ({ file: r.file, date: r.read!.draft ? null : r.read!.value.date }));
}
