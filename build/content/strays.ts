// Markdown files in posts/, projects/ and services/ that folio does not read:
// another extension (`.markdown`, as Jekyll allows) or a subfolder (Hugo reads
// posts/2024/x.md and page bundles posts/x/index.md). A blog moved from
// another generator has many of them, and each would be missing from the site
// without a word, so each is a warning that says where to put it. Not an
// error: a subfolder may hold notes kept out of the site on purpose.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isContentFile, isLitter } from './litter.js';
import type { Problem } from './problems.js';
import { slugify } from '../core/params.js';

/** Extensions of Markdown that other generators read and folio does not. */
const OTHER_MARKDOWN = /\.(markdown|mdown|mkdn|mkd|mdwn|mdx)$/i;

const NOUN: Record<string, string> = { posts: 'post', projects: 'project', services: 'service' };

function isMarkdownName(name: string): boolean {
  return !name.startsWith('.') && !isLitter(name) && (/\.md$/i.test(name) || OTHER_MARKDOWN.test(name));
}

/** The problem for one file folio will not read; `rel` is its path under the kind's folder, with `/`. */
function strayProblem(folder: string, shownFolder: string, rel: string): Problem {
  const noun = NOUN[folder] ?? 'file';
  const parts = rel.split('/');
  const name = parts[parts.length - 1]!;
  const base = slugify(name.replace(/\.[^.]+$/, '')) || 'my-post';
  const file = `${shownFolder}${sep}${parts.join(sep)}`;
  const at = { file, line: 1, column: 1 };
  if (name === '_index.md')
    return {
      ...at,
      message: `This is Hugo's list page of ${parts.length === 1 ? shownFolder : 'a folder'}, not a ${noun}, so it is not published: folio makes its own list page of ${folder}.`,
      hint: `Delete it, or move it out of content/ to keep its text.`,
    };
  if (parts.length === 1)
    return {
      ...at,
      message: `folio reads a ${noun} only from a file ending in .md, so ${name} is not published.`,
      hint: `To publish it, rename it to ${base}.md (the name without .md is its address); to keep it out of the site, move it out of content/.`,
    };
  // A Hugo page bundle: the folder names the page, its images sit beside index.md.
  const bundle = parts.length === 2 && /^index$/i.test(base);
  const target = bundle ? `${shownFolder}${sep}${slugify(parts[0]!) || base}.md` : `${shownFolder}${sep}${base}.md`;
  return {
    ...at,
    message: `This ${noun} is in a subfolder of ${shownFolder}, and folio reads ${folder} only from ${shownFolder} itself (subfolders hold images), so it is not published.`,
    hint: bundle
      ? `To publish it, move it to ${target}, and write its relative image paths from there (./photo.png becomes ./${parts[0]}/photo.png); list its old address under aliases if it had one.`
      : `To publish it, move it to ${target} and list its old address under aliases if it had one; to keep it out of the site, move it out of content/.`,
  };
}

/**
 * The Markdown files of `dir` (content/posts and the like) folio does not
 * read: those directly in it with another extension, and every one in a
 * subfolder. `entries` are the folder's own, already listed by the caller.
 */
export function straysOf(dir: string, folder: string, entries: { name: string; isDirectory(): boolean; isFile(): boolean }[]): Problem[] {
  const shownFolder = relative(process.cwd(), dir) || dir;
  const out: Problem[] = [];
  const walk = (sub: string) => {
    // Symbolic links to folders are not followed: a link to a parent would never end.
    for (const e of readdirSync(join(dir, sub), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = `${sub}/${e.name}`;
      if (e.isDirectory() && !e.name.startsWith('.')) walk(rel);
      else if (e.isFile() && isMarkdownName(e.name)) out.push(strayProblem(folder, shownFolder, rel.slice(1)));
    }
  };
  for (const e of entries) {
    if (e.isFile() && isMarkdownName(e.name) && !isContentFile(e.name)) out.push(strayProblem(folder, shownFolder, e.name));
    else if (e.isDirectory() && !e.name.startsWith('.')) walk(`/${e.name}`);
  }
  return out;
}

/**
 * Whether a path relative to the content folder (as folio dev's watcher
 * reports it) is one `straysOf` would report, or was: a change to it moves
 * the warnings, which only a whole reading of the folders finds again.
 */
export function isStrayPath(path: string): boolean {
  const parts = path.split(/[\\/]/);
  const name = parts[parts.length - 1]!;
  if (!Object.hasOwn(NOUN, parts[0]!) || parts.length < 2 || !isMarkdownName(name)) return false;
  return parts.length > 2 || !isContentFile(name);
}

/** Whether a folder (absolute) holds a Markdown file at any depth; false when it is gone. */
function holdsMarkdown(full: string): boolean {
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch {
    return false;
  }
  return entries.some((e) => (e.isFile() && isMarkdownName(e.name)) || (e.isDirectory() && !e.name.startsWith('.') && holdsMarkdown(join(full, e.name))));
}

/**
 * Whether a subfolder of posts/, projects/ or services/ that came or went
 * (folio dev's watcher reports posts/2024/ so) moves warnings: it held a
 * Markdown file folio does not read (`known`, the content's strays), or
 * holds one now. A folder of images holds none, and costs one listing.
 */
export function isStrayFolder(dir: string, known: readonly Problem[], path: string): boolean {
  if (!/[\\/]$/.test(path)) return false;
  const parts = path.slice(0, -1).split(/[\\/]/);
  if (parts.length < 2 || !Object.hasOwn(NOUN, parts[0]!)) return false;
  const full = join(dir, ...parts);
  const shown = `${relative(process.cwd(), full) || full}${sep}`;
  return known.some((p) => p.file.startsWith(shown)) || holdsMarkdown(full);
}
