// Where a precomputed response lives in dist/, and the host-neutral manifest
// that maps request targets to those files with their headers (D39).
import { CONTENT_TYPES } from './headers.js';
import type { Headers } from './http.js';

const EXTENSIONS: [string, string][] = [
  [CONTENT_TYPES.html, 'html'],
  [CONTENT_TYPES.markdown, 'md'],
  [CONTENT_TYPES.text, 'txt'],
  [CONTENT_TYPES.css, 'css'],
  [CONTENT_TYPES.yaml, 'yaml'],
  [CONTENT_TYPES.atom, 'xml'],
  [CONTENT_TYPES.xml, 'xml'],
];

function extensionOf(contentType: string): string {
  for (const [type, ext] of EXTENSIONS) if (contentType === type) return ext;
  return 'json';
}

/**
 * The file (relative to dist/) that holds the response to a GET target.
 * Paths that carry an extension keep it; an extension-less path becomes a
 * file beside its parent's others, `<path>.<ext>` ("/" is `index.<ext>`), and
 * a canonical query is folded into the name as `<path>@<query>.<ext>` (slugs
 * cannot contain "@", so no page collides). No folder per address: on the
 * file systems we measured, a folder cost several files' worth of time, and
 * a page per post made one per post.
 */
export function fileFor(target: string, contentType: string): string {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (!query && /\.[a-z0-9]+$/i.test(last)) return path.slice(1);
  const base = path === '/' ? 'index' : path.slice(1);
  return `${base}${query ? `@${query}` : ''}.${extensionOf(contentType)}`;
}

export interface Manifest {
  version: 1;
  site_url: string;
  /** Names this build's content: every file the functions read carries it (core/edge.ts, D55). */
  build: string;
  /** Every distinct header set, once; routes point at them by index. */
  header_sets: Headers[];
  /** Request target (path, or path?canonical-query) → [file, header set]. */
  routes: Record<string, [string, number]>;
  /** Files written outside the route table, e.g. 404.html, with their status. */
  fallbacks: Record<string, { file: string; status: number; header_set: number }>;
  /** Site path → path it answers 301 to (D48); every host's files carry the same rules. */
  redirects?: Record<string, string>;
}

export const MANIFEST_PATH = '_folio/manifest.json';
export const SITE_PATH = '_folio/site.json';
export const SEARCH_INDEX_PATH = '_folio/search-index.json';
export const CHANGES_PATH = '_folio/changes.json';
