// HTML pages and their Markdown twins (D20–D24). A page path answers HTML,
// or its twin's exact bytes when Accept prefers Markdown; P.md always answers
// the twin; /assets/site.css the stylesheet. Anything else is left to the
// next family, and in the end to respond()'s not-found page.
import type { Family, Listings } from '../family.js';
import { utf8, type Reply, type Req } from '../http.js';
import type { Site } from '../model.js';
import type { SiteModel } from '../site-model.js';
import { prefersMarkdown } from '../negotiate.js';
import { pageOfTwin, pagePath, twinPath } from '../urls.js';
import { pageHeaders, stylesheetHeaders, twinHeaders } from './headers.js';
import { renderPage, STYLESHEET_PATH } from './layout.js';
import type { Page } from './page.js';
import { findPage, pagePaths, twinMarkdown } from './routes.js';
import { STYLESHEET } from './style.js';
import { hasTheme, themeCss, THEME_PATH } from '../theme.js';

export { escapeHtml } from './html.js';
export { findPage, pagePaths, twinBytes, twinMarkdown } from './routes.js';
export { CSP, VARY } from './headers.js';
export type { Page } from './page.js';

function twinReply(site: Site, page: string, markdown: string): Reply {
  // The size of the bytes the twin is sent as: measuring the text apart cost as much as encoding it.
  const body = utf8(markdown);
  return { status: 200, headers: twinHeaders(site, page, body.byteLength), body };
}

function htmlReply(site: Site, page: Page): Reply {
  return { status: 200, headers: pageHeaders(site, page.path), body: utf8(renderPage(site, page)) };
}

export function respondPage(req: Req, model: SiteModel): Reply | null {
  const { site } = model;
  if (req.path === STYLESHEET_PATH) return { status: 200, headers: stylesheetHeaders(), body: utf8(STYLESHEET) };
  if (req.path === THEME_PATH) {
    const css = themeCss(site.config);
    return css === null ? null : { status: 200, headers: stylesheetHeaders(), body: utf8(css) };
  }
  const twinFor = pageOfTwin(req.path);
  if (twinFor !== null) {
    const markdown = twinMarkdown(model, twinFor);
    return markdown === null ? null : twinReply(site, twinFor, markdown);
  }
  // "/blog/" answers as "/blog", as the static files do (core/static.ts).
  const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
  if (prefersMarkdown(req.headers.accept)) {
    const markdown = twinMarkdown(model, path);
    return markdown === null ? null : twinReply(site, path, markdown);
  }
  const page = findPage(model, path);
  return page ? htmlReply(site, page) : null;
}

export const pagesFamily: Family = {
  name: 'pages',
  respond: (req, rt) => respondPage(req, rt.model),
  enumerate: (model) => [
    STYLESHEET_PATH,
    ...(hasTheme(model.site.config) ? [THEME_PATH] : []),
    ...pagePaths(model).flatMap((p) => [p, twinPath(p)]),
  ],
  listings: tagListings,
};

/** The pages' Family.listings: a tag's page and twin list its posts alone. */
function tagListings(model: SiteModel, posts: readonly number[]): Listings {
  const shown = new Set(posts.flatMap((at) => model.site.posts[at]!.tags));
  const pages = (tags: string[]) => tags.flatMap((tag) => [pagePath.tag(tag), twinPath(pagePath.tag(tag))]);
  return { targets: pages(model.site.tags.map((t) => t.tag)), showing: pages([...shown]) };
}
