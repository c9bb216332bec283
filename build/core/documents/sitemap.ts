// /sitemap.xml (D27, sitemaps.org 0.9): every HTML page, absolute loc,
// lastmod as a W3C date.
import type { Site } from '../model.js';
import { absolute } from '../urls.js';
import { sitePages } from './site-pages.js';
import { escapeXml } from './xml.js';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export function sitemapXml(site: Site): string {
  const urls = sitePages(site).map((p) => `  <url>\n    <loc>${escapeXml(absolute(site, p.path))}</loc>\n    <lastmod>${p.lastmod}</lastmod>\n  </url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${urls.join('\n')}\n</urlset>\n`;
}
