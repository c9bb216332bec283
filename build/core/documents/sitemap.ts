// /sitemap.xml (D27, sitemaps.org 0.9): every HTML page, absolute loc,
// lastmod as a W3C date.
import type { Site } from '../model.js';
import { pagePaths } from '../pages/index.js';
import { absolute } from '../urls.js';
import { buildDate, sitePages } from './site-pages.js';
import { escapeXml } from './xml.js';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export function sitemapXml(site: Site): string {
  // The pages family's own list decides which pages exist; a page this module
  // has no date for gets the build date.
  const lastmod = new Map(sitePages(site).map((p) => [p.path, p.lastmod]));
  const urls = pagePaths(site).map((path) => `  <url>\n    <loc>${escapeXml(absolute(site, path))}</loc>\n    <lastmod>${lastmod.get(path) ?? buildDate(site)}</lastmod>\n  </url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${urls.join('\n')}\n</urlset>\n`;
}
