// /sitemap.xml (D27, sitemaps.org 0.9): every HTML page, absolute loc,
// lastmod as a W3C date.
import type { SiteModel } from '../site-model.js';
import { pagePaths } from '../pages/index.js';
import { absolute } from '../urls.js';
import { buildDate, sitePages } from './site-pages.js';
import { escapeXml } from './xml.js';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export function sitemapXml(model: SiteModel): string {
  const { site } = model;
  // The pages family's own list decides which pages exist; a page this module
  // has no date for gets the build date.
  const lastmod = new Map(sitePages(model).map((p) => [p.path, p.lastmod]));
  const urls = pagePaths(model).map(
    (path) =>
      `  <url>\n    <loc>${escapeXml(absolute(site, path))}</loc>\n    <lastmod>${lastmod.get(path) ?? buildDate(site)}</lastmod>\n  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${urls.join('\n')}\n</urlset>\n`;
}
