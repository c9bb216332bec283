// Addresses that moved (D48): an alias of a page, its .md form and a former
// API address answer 301 to where the content lives now. The same map is
// printed into every host's redirect rules (emit/hosts/).
import { CACHE, CORS, versionHeaders } from './headers.js';
import type { Reply, Req } from './http.js';
import type { Site } from './model.js';
import { isApiPath, versionAt } from './api/index.js';

export const REDIRECT_STATUS = 301;

/** Where a moved path now lives, or null. A trailing slash is ignored, as for pages (D14). */
export function movedTo(site: Site, path: string): string | null {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return Object.hasOwn(site.redirects, bare) ? site.redirects[bare]! : null;
}

/** The 301 for a GET or HEAD of a moved path; API addresses keep the API's headers (D18). */
export function redirectReply(req: Req, site: Site): Reply | null {
  const to = movedTo(site, req.path);
  if (to === null) return null;
  const headers = { location: to, ...CORS, 'cache-control': CACHE.content };
  if (!isApiPath(req.path)) return { status: REDIRECT_STATUS, headers, body: null };
  return {
    status: REDIRECT_STATUS,
    headers: { ...headers, ...versionHeaders(site, versionAt(site, req.path)), 'x-content-type-options': 'nosniff' },
    body: null,
  };
}
