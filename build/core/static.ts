// Which precomputed file answers a GET request: the same rule in `folio serve`
// and in every host's functions, so query strings and Accept map to files
// the build wrote (D38, D39).
import { isApiPath, matchOperation, routeTable } from './api/index.js';
import type { Headers, Req } from './http.js';
import type { Site } from './model.js';
import { prefersMarkdown } from './negotiate.js';
import { canonicalQuery, parseQuery } from './params.js';
import { twinPath } from './urls.js';

/** A precomputed response: its file (relative to dist/) and its headers. */
export interface Route {
  file: string;
  headers: Headers;
}

/** A route table: the manifest at build time (emit/hosts/plan.ts), its shards in the functions (D55). */
export type RouteLookup = (target: string) => Route | undefined;

/**
 * The route table key of a request path: its percent-escapes decoded, as a
 * CDN decodes a path before it looks for the file (`/files/my%20cv.pdf` is
 * the file `files/my cv.pdf`), except where decoding would change the
 * path's segments (an encoded slash, a dot segment) or give a control
 * character; a malformed escape leaves its segment as sent.
 */
export function routeKey(path: string): string {
  return path.includes('%') ? path.split('/').map(decodeSegment).join('/') : path;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    const decoded = decodeURIComponent(segment);
    return decoded === '.' || decoded === '..' || /[/\u0000-\u001f\u007f]/.test(decoded) ? segment : decoded;
  } catch {
    return segment;
  }
}

/** The route table key for a request, or null when only respond() can answer it. */
export function staticTarget(req: Req, site: Pick<Site, 'versions'>, lookup: RouteLookup): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const path = routeKey(req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path);
  const api = isApiPath(path);
  const match = api ? operationAt(path, site) : null;
  // An operation the build never answers ahead of time (search) has no file under any query: no lookup,
  // which in the functions would read a route shard for nothing.
  if (match && !match.operation.enumerate) return null;
  const route = lookup(path);
  if (route && isNegotiable(route.headers) && prefersMarkdown(req.headers.accept)) {
    const twin = twinPath(path);
    return lookup(twin) ? twin : null;
  }
  if (!req.search || !api) return route ? path : null;
  if (!match) return null;
  const parsed = parseQuery(req.search, match.operation.parameters);
  if ('problem' in parsed) return null;
  const canonical = canonicalQuery(parsed.values, match.operation.parameters);
  const target = canonical ? `${path}?${canonical}` : path;
  return lookup(target) ? target : null;
}

/** The operation an API path names, under a version that has one and is not past its sunset (D19); else null. */
function operationAt(path: string, site: Pick<Site, 'versions'>): ReturnType<typeof matchOperation> {
  const version = path.split('/')[2] ?? '';
  const ops = Object.hasOwn(routeTable, version) ? routeTable[version] : undefined;
  return ops && site.versions[version]?.status !== 'sunset' ? matchOperation(ops, path.slice(`/api/${version}`.length)) : null;
}

/** Pages vary on Accept; their twins are the other variant. */
function isNegotiable(headers: Headers): boolean {
  return (headers['content-type'] ?? '').startsWith('text/html') && /\baccept\b/i.test(headers.vary ?? '');
}
