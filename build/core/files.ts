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

/** Whether the last segment of a path has an extension: such a path is its own file (fileFor). */
export function hasExtension(path: string): boolean {
  return /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/') + 1));
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
  if (!query && hasExtension(path)) return path.slice(1);
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
  /** Request target (path, or path?canonical-query) → [file, header set, and the file's own headers when it has any (splitHeaders)]. */
  routes: Record<string, FileRoute>;
  /** Files written outside the route table, e.g. 404.html, with their status. */
  fallbacks: Record<string, { file: string; status: number; header_set: number }>;
  /** Site path → path it answers 301 to (D48); every host's files carry the same rules. */
  redirects?: Record<string, string>;
}

/** A file and the headers it is answered with: a shared header set by index, then its own. */
export type FileRoute = [file: string, set: number] | [file: string, set: number, own: Headers];

/**
 * Headers whose value belongs to one file rather than to its kind: a page's
 * link to its own Markdown twin, and a twin's link to its page and its token
 * estimate (D53). They are kept with the route, not in a header set, so
 * that the pages of a site share a few header sets instead of having one
 * each (which, at 10,000 posts, would be 10,044 of 10,432 sets and 60 % of
 * the manifest's bytes, and most of every route shard the functions read).
 * The ETag belongs to the file too, and is made from its bytes wherever it
 * is served.
 */
const OWN_HEADERS: Readonly<Record<string, readonly string[]>> = {
  [CONTENT_TYPES.html]: ['link'],
  [CONTENT_TYPES.markdown]: ['link', 'x-markdown-tokens'],
};

/** A file's headers split into the part its kind shares (without the ETag) and its own, when it has any. */
export function splitHeaders(headers: Headers): { shared: Headers; own?: Headers } {
  const { etag: _etag, ...shared } = headers;
  let own: Headers | undefined;
  for (const name of OWN_HEADERS[shared['content-type'] ?? ''] ?? []) {
    if (!Object.hasOwn(shared, name)) continue;
    (own ??= {})[name] = shared[name]!;
    delete shared[name];
  }
  return own ? { shared, own } : { shared };
}

/** The headers of a file: its set's, then its own. */
export function withOwnHeaders(set: Headers, own: Headers | undefined): Headers {
  return own ? { ...set, ...own } : set;
}

/** The headers a route answers with. */
export function routeHeaders(sets: readonly Headers[], route: FileRoute): Headers {
  return withOwnHeaders(sets[route[1]]!, route[2]);
}

export const MANIFEST_PATH = '_folio/manifest.json';
export const SITE_PATH = '_folio/site.json';
export const SEARCH_INDEX_PATH = '_folio/search-index.json';
export const CHANGES_PATH = '_folio/changes.json';
