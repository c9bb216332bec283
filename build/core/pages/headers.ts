// The header sets of the pages, their twins, the stylesheet and the not-found
// page, in one place so the HTML and Markdown variants cannot drift (D21, D24).
import { CACHE, CONTENT_TYPES, CORS, usageHeaders } from '../headers.js';
import type { Headers } from '../http.js';
import type { Site } from '../model.js';
import { tokensForBytes } from '../tokens.js';
import { absolute, twinPath } from '../urls.js';

/** Both variants of a page differ by Accept, and caches must keep them apart (D21). */
export const VARY = 'Accept, Accept-Encoding';

/**
 * No page needs script, so none may run (D24). Styles come only from our own
 * stylesheet; images may be remote (content can link them) but never script.
 * connect-src 'self' lets tools that audit a page from inside it (Lighthouse
 * reads robots.txt by fetch) reach the same origin; with no script allowed it
 * opens nothing else (D54).
 */
const POLICY = {
  'default-src': "'none'",
  'style-src': "'self'",
  'img-src': "'self' https: data:",
  'connect-src': "'self'",
  'base-uri': "'none'",
  'form-action': "'none'",
  'frame-ancestors': "'none'",
};

export const CSP = Object.entries(POLICY)
  .map(([k, v]) => `${k} ${v}`)
  .join('; ');

/** The policy for a <meta> element, which cannot carry frame-ancestors (browsers ignore it there and warn). */
export const META_CSP = Object.entries(POLICY)
  .filter(([k]) => k !== 'frame-ancestors')
  .map(([k, v]) => `${k} ${v}`)
  .join('; ');

const COMMON: Headers = {
  ...CORS,
  'x-content-type-options': 'nosniff',
};

/** An HTML page: CSP, Vary, the twin announced in a Link header, and the AI usage preferences (D52). */
export function pageHeaders(site: Site, path: string): Headers {
  return {
    'content-type': CONTENT_TYPES.html,
    ...COMMON,
    vary: VARY,
    link: `<${twinPath(path)}>; rel="alternate"; type="text/markdown"`,
    'content-security-policy': CSP,
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cache-control': CACHE.content,
    ...usageHeaders(site),
  };
}

/**
 * The twin of page `page`, whether asked for at P.md or negotiated at P: one
 * header set for both (D21), with its token estimate as Cloudflare's Markdown
 * for Agents sends it (D53); `bytes` is its UTF-8 size. The page is named
 * canonical, as the page names itself, so that search engines count the
 * twin as the page and do not list it beside it.
 */
export function twinHeaders(site: Site, page: string, bytes: number): Headers {
  return {
    'content-type': CONTENT_TYPES.markdown,
    ...COMMON,
    vary: VARY,
    link: `<${absolute(site, page)}>; rel="canonical"`,
    'cache-control': CACHE.content,
    ...usageHeaders(site),
    'x-markdown-tokens': String(tokensForBytes(bytes)),
  };
}

export function stylesheetHeaders(): Headers {
  return { 'content-type': CONTENT_TYPES.css, ...COMMON, 'cache-control': CACHE.content };
}

/** The 404 page in either variant (D23). Not cached: the address may become a page on the next build. */
export function notFoundHeaders(markdown: boolean): Headers {
  return markdown
    ? { 'content-type': CONTENT_TYPES.markdown, ...COMMON, vary: VARY, 'cache-control': CACHE.none }
    : {
        'content-type': CONTENT_TYPES.html,
        ...COMMON,
        vary: VARY,
        'content-security-policy': CSP,
        'referrer-policy': 'strict-origin-when-cross-origin',
        'cache-control': CACHE.none,
      };
}
