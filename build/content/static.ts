// content/static/ (D43): every file is copied to the same path under the site
// root. Reading is the only I/O here; the checks are pure and run with the
// other cross-file rules (site.ts), because a collision needs every address.
import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isLitter } from './litter.js';
import { below, within } from './paths.js';
import { mediaTypeOf } from '../core/media-types.js';
import { isReservedPath } from '../core/urls.js';
import { hasExtension } from '../core/files.js';
import type { StaticFile } from '../core/model.js';
import type { Problem } from './problems.js';

/** Cloudflare Pages' per-file limit: larger files are an error. */
export const STATIC_MAX_BYTES = 25 * 1024 * 1024;
/** Larger files are served, with a warning: they slow the page that links them. */
export const STATIC_WARN_BYTES = 1024 * 1024;

export interface StaticSource {
  /** The site path it is served at, e.g. "/favicon.ico". */
  path: string;
  /** As shown in messages. */
  file: string;
  size: number;
  /** Null when the file is over STATIC_MAX_BYTES, or a link refused below (it is reported, never read). */
  body: Uint8Array | null;
  /** A symbolic link that is not published: where it leads outside the content folder, to a folder that holds it, or why nowhere. */
  link?: { outside: string } | { around: string } | { broken: string };
}

/** Every file under `dir`, sorted by site path; none when the folder does not exist. */
export async function readStatic(dir: string, shown: (path: string) => string): Promise<StaticSource[]> {
  const out: StaticSource[] = [];
  // Links are followed, but only to what the content folder holds: a link to /etc/passwd or a CI secret would be published.
  const content = await realpath(dirname(dir)).catch(() => dirname(dir));
  const walk = async (sub: string) => {
    let entries;
    try {
      entries = await readdir(join(dir, sub), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && sub === '') return;
      throw error;
    }
    for (const entry of entries) {
      if (isLitter(entry.name)) continue;
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      const full = join(dir, rel);
      if (entry.isSymbolicLink()) {
        const link = await linkTarget(full, content);
        if (link) {
          out.push({ path: `/${rel}`, file: shown(full), size: 0, body: null, link });
          continue;
        }
      }
      // A link inside the content folder is followed: the file it leads to is published like any other.
      const info = entry.isSymbolicLink() ? await stat(full) : entry;
      if (info.isDirectory()) await walk(rel);
      else if (info.isFile()) {
        const size = (await stat(full)).size;
        out.push({ path: `/${rel}`, file: shown(full), size, body: size > STATIC_MAX_BYTES ? null : await readFile(full) });
      }
    }
  };
  await walk('');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Why a link is not followed: it leads outside `content` (its real path), to
 * a folder that holds the link (walking it would publish it inside itself
 * without end), or nowhere; null when it may be.
 */
async function linkTarget(full: string, content: string): Promise<StaticSource['link'] | null> {
  let real: string;
  try {
    real = await realpath(full);
  } catch (error) {
    return { broken: (error as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
  if (!below(content, real)) return { outside: real };
  return within(real, await realpath(dirname(full))) ? { around: real } : null;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The extensions folio writes an extension-less address's file under (core/files.ts). */
const GENERATED_FILE = /^(.*)\.(html|md|txt|css|yaml|xml|json)$/;

/** The generated address a static path takes: the address itself, or the one whose file it would overwrite (/blog.html is the file of /blog). */
function takenAddress(path: string, generated: ReadonlySet<string>): string | null {
  if (generated.has(path)) return path;
  const base = GENERATED_FILE.exec(path)?.[1];
  if (base === undefined) return null;
  const address = base === '' || base === '/index' ? '/' : base;
  return generated.has(address) ? address : null;
}

/** The folders the generated addresses' files are written in: /blog/tags/email gives /blog and /blog/tags. */
function generatedFolders(generated: ReadonlySet<string>): Set<string> {
  const folders = new Set<string>();
  for (const address of generated)
    for (let at = address.indexOf('/', 1); at !== -1; at = address.indexOf('/', at + 1)) folders.add(address.slice(0, at));
  return folders;
}

/**
 * The generated address a static file's path clashes with on disk: one it
 * takes (or whose file it overwrites), a folder the build writes files in
 * (a file named /assets), or one whose file stands where the static file
 * needs a folder (/blog.html/notes.txt).
 */
function clash(path: string, generated: ReadonlySet<string>, folders: () => ReadonlySet<string>): { address: string; folder?: true } | null {
  const taken = takenAddress(path, generated);
  if (taken !== null) return { address: taken };
  if (folders().has(path)) return { address: `${path}/`, folder: true };
  for (let at = path.indexOf('/', 1); at !== -1; at = path.indexOf('/', at + 1)) {
    const folder = path.slice(0, at);
    const above = takenAddress(folder, generated);
    // An address without an extension is written as its name plus one (blog.html), which leaves the name free for a folder.
    if (above !== null && !(above === folder && !hasExtension(folder))) return { address: above };
  }
  return null;
}

/**
 * The model's list of static files, with a problem for each that is too
 * large or takes an address (or the file of an address) the build
 * generates; `generated` holds those addresses. Warnings go to `warn`.
 */
export function checkStatic(sources: readonly StaticSource[], generated: ReadonlySet<string>, problems: Problem[], warn: (message: string) => void): StaticFile[] {
  const files: StaticFile[] = [];
  let folders: Set<string> | undefined;
  for (const s of sources) {
    const at = { file: s.file, line: 1, column: 1 };
    if (s.link) {
      problems.push(
        'outside' in s.link
          ? { ...at, message: `This static file is a link to ${s.link.outside}, outside the content folder, and a build would publish what it leads to.`, hint: 'Copy the file into content/static/ if it is meant to be published, or remove the link.' }
          : 'around' in s.link
            ? { ...at, message: `This static file is a link to ${s.link.around}, a folder that holds the link, which would publish it inside itself without end.`, hint: 'Remove the link, or point it at a folder beside it.' }
            : { ...at, message: `This static file is a link that leads nowhere (${s.link.broken}).`, hint: 'Point it at a file inside the content folder, or remove it.' },
      );
      continue;
    }
    if (s.size > STATIC_MAX_BYTES || !s.body) {
      problems.push({ ...at, message: `This static file is ${mib(s.size)}, over the 25 MiB a file may have on Cloudflare Pages.`, hint: 'Host it elsewhere (object storage, a video service) and link to it, or make it smaller.' });
      continue;
    }
    const taken = clash(s.path, generated, () => (folders ??= generatedFolders(generated)));
    if (taken !== null || isReservedPath(s.path)) {
      problems.push({
        ...at,
        message:
          taken === null || taken.address === s.path
            ? `This static file would be served at ${s.path}, an address folio generates itself.`
            : taken.folder
              ? `This static file would be written where the build writes the folder ${taken.address} of its own files.`
              : `This static file would be written where the build writes the page at ${taken.address}.`,
        hint: `Rename or move it under content/static/ (e.g. content/static/files${s.path}); folio's own addresses are listed in its manifest, _folio/manifest.json.`,
      });
      continue;
    }
    if (s.size > STATIC_WARN_BYTES) warn(`${s.file} is ${mib(s.size)}; files over 1 MiB slow down every page that loads them. Consider compressing it.`);
    files.push({ path: s.path, content_type: mediaTypeOf(s.path), size: s.size, sha256: createHash('sha256').update(s.body).digest('hex') });
  }
  return files;
}
