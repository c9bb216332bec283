// /sitemap.xml (D27, sitemaps.org 0.9): every HTML page, absolute loc,
// lastmod as a W3C date.
import type { Site } from '../model.js';
import type { SiteModel } from '../site-model.js';
import { pagePaths } from '../pages/index.js';
import { absolute, pagePath } from '../urls.js';
import { buildDate, sitePages } from './site-pages.js';
import { escapeXml } from './xml.js';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export function sitemapXml(model: SiteModel): string {
  const { site } = model;
  // The pages family's own list decides which pages exist; a page this module
  // has no date for gets the build date.
  const lastmod = new Map(sitePages(model).map((p) => [p.path, p.lastmod]));
  for (const [path, day] of recordedDays(site)) if (lastmod.has(path)) lastmod.set(path, day);
  const urls = pagePaths(model).map(
    (path) =>
      `  <url>\n    <loc>${escapeXml(absolute(site, path))}</loc>\n    <lastmod>${lastmod.get(path) ?? buildDate(site)}</lastmod>\n  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * The day each project and service page, and their two lists, last changed
 * by the record of what earlier builds published (D61): its newest entry
 * (an addition, an update, or for a list a removal), else the day the record
 * began, since which it has not changed. A page dated by the build day would
 * move in every daily build, and search engines stop trusting a sitemap's
 * lastmod that moves without the page. Never after the build day.
 */
function recordedDays(site: Site): Map<string, string> {
  const days = new Map<string, string>();
  const log = site.changes;
  if (!log) return days;
  const today = buildDate(site);
  const set = (path: string, day: string) => void (days.has(path) || days.set(path, day < today ? day : today));
  // Newest first: an id's first entry is its last change.
  for (const e of log.entries) {
    if (e.type === 'post') continue;
    set(e.type === 'project' ? pagePath.projects() : pagePath.services(), e.date);
    set(e.type === 'project' ? pagePath.project(e.id) : pagePath.service(e.id), e.date);
  }
  for (const path of [
    pagePath.projects(),
    pagePath.services(),
    ...site.projects.map((p) => pagePath.project(p.id)),
    ...site.services.map((v) => pagePath.service(v.id)),
  ])
    set(path, log.tracked_since);
  return days;
}
