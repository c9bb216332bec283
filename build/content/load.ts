// Reads the content folder from disk: its documents, site.yaml, theme.css and
// static files (its images are read as the output is written, emit/images.ts).
// Everything after it is pure.
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, type BigIntStats } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { Source } from './frontmatter.js';
import { GitIndex, stampHolds } from './git-index.js';
import { isContentFile } from './litter.js';
import type { Problem } from './problems.js';
import { readStatic, type StaticSource } from './static.js';
import { straysOf } from './strays.js';

export interface ContentSources {
  site: Source | null;
  profile: Source | null;
  services: Source[];
  posts: Source[];
  projects: Source[];
  /** content/theme.css (D46). */
  theme?: Source | null;
  /** Every file under content/static/ (D43). */
  static?: StaticSource[];
  /** Markdown files in posts/, projects/ and services/ that are not read: a subfolder's, or another extension's. */
  strays?: Problem[];
  /** The directory as given, for messages. */
  dir: string;
}

async function readOptional(path: string): Promise<Source | null> {
  try {
    return { file: shown(path), text: await readFile(path, 'utf8') };
  } catch (error) {
    // A folder where a file is read (posts/drafts.md/) holds no content file either.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
    throw error;
  }
}

/** The path shown in messages: relative to the working directory. */
function shown(path: string): string {
  return relative(process.cwd(), path) || path;
}

/** How a build stamps the files it lists: when it began, and the git index of the work tree the content is in, if any. */
interface Stamping {
  started: number;
  git: GitIndex | null;
}

async function readFolder(dir: string, strays: Problem[], stamping: Stamping | null): Promise<Source[]> {
  let names: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    strays.push(...straysOf(dir, basename(dir), entries));
    // A folder named like a post (posts/drafts.md/) holds no post.
    names = entries
      .filter((e) => isContentFile(e.name) && (e.isFile() || e.isSymbolicLink()))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  // Synchronous reads: nothing else runs while the content loads, and each
  // asynchronous read of a small file is four trips through the event loop
  // (10,000 posts: 0.6 s against 2.7-4.0 s on a loaded machine). Each path
  // is the folder's, made once, and the name: path.relative and path.join of
  // each file made 30 MB of garbage.
  const folder = relative(process.cwd(), dir);
  const absolute = resolve(dir);
  return names.map((n) => {
    const file = folder ? `${folder}${sep}${n}` : n;
    const path = `${dir}${sep}${n}`;
    if (stamping === null) return { file, text: readFileSync(path, 'utf8') };
    const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
    // The cache keeps stamps one per line.
    const stamp =
      stat && settled(stat, stamping.started) && !file.includes('\n')
        ? (stamping.git?.stampOf(`${absolute}${sep}${n}`, stat) ?? stampOf(stat))
        : undefined;
    return stamp ? new StampedSource(file, path, stamp) : { file, text: readFileSync(path, 'utf8') };
  });
}

/**
 * How long before the build a file must have last changed for its stamp to
 * vouch for its bytes. A file written again within the same tick of the file
 * system's clock as the stat keeps its stamp (git calls these "racy"); one
 * whose change is older than this cannot be written in that tick any more.
 * Three seconds covers FAT's two-second times and a coarse kernel clock.
 */
const SETTLE_MS = 3000;

function settled(stat: BigIntStats, started: number): boolean {
  // ctime moves on every write and cannot be set back; mtime can (touch -d, tar, rsync -t).
  return stat.isFile() && Number(stat.ctimeMs > stat.mtimeMs ? stat.ctimeMs : stat.mtimeMs) < started - SETTLE_MS;
}

/**
 * What names a file's bytes without reading them, as git's index does:
 * device, inode, size and both times. A file git's index vouches for is
 * named by its blob instead (git-index.ts), the same in every checkout.
 */
function stampOf(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/**
 * A content file read when its text is first asked for: a build whose cache
 * knows the file by its stamp takes its record without reading it (D56).
 * Structured clones (messages to threads) copy no getter: send
 * `{ file, text }`.
 */
class StampedSource implements Source {
  #text: string | undefined;
  #stamp: string | undefined;
  constructor(
    readonly file: string,
    private readonly path: string,
    stamp: string,
  ) {
    this.#stamp = stamp;
  }

  /**
   * Its stamp; undefined once its text is read and is not the blob a git
   * stamp names (written again between the stat and the read): the cache
   * must not learn that blob by another text, as a stat stamp of the old
   * times is never seen again but a blob is, in the next checkout.
   */
  get stamp(): string | undefined {
    return this.#stamp;
  }

  get text(): string {
    if (this.#text === undefined) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(this.path);
      } catch (error) {
        throw new Error(
          `folio: ${this.file} could not be read after the content folder was listed (${(error as Error).message}). Was it moved or removed during the build? Run the build again.`,
          { cause: error },
        );
      }
      if (this.#stamp !== undefined && !stampHolds(this.#stamp, bytes)) this.#stamp = undefined;
      this.#text = bytes.toString('utf8');
    }
    return this.#text;
  }
}

const FOLDERS = ['services', 'posts', 'projects'] as const;

/**
 * The sources after one file of `dir` changed (folio dev): `path` is relative
 * to `dir`, as fs.watch reports it. Unchanged sources keep their identity, so
 * their records can be reused, and a file saved unchanged gives `sources`
 * back. Returns null when the path is no content file (the caller may then
 * reload everything).
 */
export async function reloadFile(sources: ContentSources, path: string): Promise<ContentSources | null> {
  const parts = path.split(/[\\/]/);
  const full = join(sources.dir, path);
  if (parts.length === 1 && (path === 'site.yaml' || path === 'profile.md' || path === 'theme.css')) {
    const source = await readOptional(full);
    return path === 'site.yaml' ? { ...sources, site: source } : path === 'theme.css' ? { ...sources, theme: source } : { ...sources, profile: source };
  }
  if (parts[0] === 'static') return { ...sources, static: await readStatic(join(sources.dir, 'static'), shown) };
  const folder = FOLDERS.find((f) => f === parts[0]);
  if (!folder || parts.length !== 2 || !isContentFile(parts[1]!)) return null;
  const source = await readOptional(full);
  const file = shown(full);
  const at = sources[folder].findIndex((s) => s.file === file);
  if (source && at !== -1) {
    // A file written again keeps its place (no sort of every name), and, unchanged, its Source.
    if (sources[folder][at]!.text === source.text) return sources;
    const list = sources[folder].slice();
    list[at] = source;
    return { ...sources, [folder]: list };
  }
  const list = sources[folder].filter((s) => s.file !== file);
  if (source) {
    list.push(source);
    // The order of readFolder: by file name.
    list.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }
  return { ...sources, [folder]: list };
}

/**
 * Every content file of `dir`. With `stamped`, posts, projects and services
 * that have not changed for a few seconds carry a stamp and are read only when
 * their text is asked for (a build with a cache, whose records are found by
 * stamp).
 */
export async function loadContent(dir: string, options: { stamped?: boolean } = {}): Promise<ContentSources> {
  const strays: Problem[] = [];
  const stamping = options.stamped ? { started: Date.now(), git: GitIndex.of(dir) } : null;
  const [site, profile, services, posts, projects, theme, statics] = await Promise.all([
    readOptional(join(dir, 'site.yaml')),
    readOptional(join(dir, 'profile.md')),
    readFolder(join(dir, 'services'), strays, stamping),
    readFolder(join(dir, 'posts'), strays, stamping),
    readFolder(join(dir, 'projects'), strays, stamping),
    readOptional(join(dir, 'theme.css')),
    readStatic(join(dir, 'static'), shown),
  ]);
  // Named in messages as every file in it is: relative to the working directory.
  // By file: the three folders are read at once, and add theirs in whatever order they finish.
  strays.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { site, profile, services, posts, projects, theme, static: statics, strays, dir: shown(dir) };
}

/** The first bytes (up to 16) of the file at a path relative to the content folder `dir`, or null when there is no file there. */
export function contentFileStart(dir: string): (path: string) => Uint8Array | null {
  return (path) => {
    let fd: number;
    try {
      fd = openSync(join(dir, path), 'r');
    } catch {
      return null;
    }
    try {
      if (!fstatSync(fd).isFile()) return null;
      const start = new Uint8Array(16);
      return start.subarray(0, readSync(fd, start, 0, start.byteLength, 0));
    } finally {
      closeSync(fd);
    }
  };
}

/**
 * Why `dir` plainly cannot be the content folder, as the fix to print; null
 * when it may be (what is in it is then checked as content). Two easy
 * mistakes: a folder that is not there, and the site's folder instead of the
 * content folder inside it, which `folio init my-site` makes.
 */
export function contentFolderMistake(dir: string): string | null {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) return `the content folder ${dir} does not exist. Pass --content with the folder that holds site.yaml and profile.md, or start one with npx folio init.`;
  if (!stat.isDirectory()) return `--content ${dir} is a file. Pass the folder that holds site.yaml and profile.md.`;
  const inner = join(dir, 'content');
  if (!statSync(join(dir, 'site.yaml'), { throwIfNoEntry: false }) && statSync(join(inner, 'site.yaml'), { throwIfNoEntry: false }))
    return `${dir} holds no site.yaml, but ${inner} does: pass --content ${inner}.`;
  return null;
}
