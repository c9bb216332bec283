// Which precomputed file answers a GET request: the same rule in `folio serve`
// and in every host's functions, so query strings and Accept map to files
// the build wrote (D38, D39).
import { isApiPath, matchOperation, routeTable } from './api/index.js';
import type { Manifest } from './files.js';
import type { Req } from './http.js';
import type { Site } from './model.js';
import { prefersMarkdown } from './negotiate.js';
import { canonicalQuery, parseQuery } from './params.js';
import { twinPath } from './urls.js';

/** The manifest key for a request, or null when only respond() can answer it. */
export function staticTarget(req: Req, site: Site, manifest: Manifest): string | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
  const route = manifest.routes[path];
  if (route && isNegotiable(manifest, route[1]) && prefersMarkdown(req.headers.accept)) {
    const twin = twinPath(path);
    return manifest.routes[twin] ? twin : null;
  }
  if (!req.search || !isApiPath(path)) return route ? path : null;
  const version = path.split('/')[2] ?? '';
  const ops = routeTable[version];
  const match = ops && site.versions[version]?.status !== 'sunset' ? matchOperation(ops, path.slice(`/api/${version}`.length)) : null;
  if (!match) return null;
  const parsed = parseQuery(req.search, match.operation.parameters);
  if ('problem' in parsed) return null;
  const canonical = canonicalQuery(parsed.values, match.operation.parameters);
  const target = canonical ? `${path}?${canonical}` : path;
  return manifest.routes[target] ? target : null;
}

/** Pages vary on Accept; their twins are the other variant. */
function isNegotiable(manifest: Manifest, set: number): boolean {
  const headers = manifest.header_sets[set]!;
  return (headers['content-type'] ?? '').startsWith('text/html') && /\baccept\b/i.test(headers.vary ?? '');
}
