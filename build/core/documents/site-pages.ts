// Every HTML page of the site (D20) with what the sitemap and llms.txt say
// about it. The pages family renders them; this list only names them.
import { clockDay } from '../clock.js';
import type { Post, Site } from '../model.js';
import type { SiteModel } from '../site-model.js';
import { plural } from '../pages/html.js';
import { nothingYet } from '../pages/published.js';
import { listText } from '../statements.js';
import { pagePath } from '../urls.js';

export interface SitePage {
  path: string;
  title: string;
  /**
   * One line for llms.txt. A post's page has none: llms.txt lists each post
   * by a line of its own (llmsTxtPostLine), and its summary stays in the
   * record cache until something reads it.
   */
  note?: string;
  /** W3C date (YYYY-MM-DD) the page last changed, as far as folio knows (D27): a post's dates, the record of earlier builds for projects and services, else the build day. */
  lastmod: string;
}

export function postChanged(post: Post): string {
  return post.updated && post.updated > post.date ? post.updated : post.date;
}

/** The newest change among posts, or the build date when there are none. */
export function newestChange(site: Site, posts: readonly Post[] = site.posts): string {
  return posts.reduce((newest, p) => (postChanged(p) > newest ? postChanged(p) : newest), '') || buildDate(site);
}

export function buildDate(site: Site): string {
  return clockDay(site);
}

/** The statuses the projects have, in the order of the projects page: "live, delivered and sunset". */
function projectStatuses(site: Site): string {
  return listText((['live', 'delivered', 'sunset'] as const).filter((s) => site.projects.some((p) => p.status === s)));
}

/**
 * Every page with its title, its line for llms.txt and its date for the
 * sitemap. The dates that scan every post or the change log are made when
 * first read: llms.txt reads only the titles and notes.
 */
export function sitePages(model: SiteModel): SitePage[] {
  const { site } = model;
  const built = buildDate(site);
  let days: Map<string, string> | undefined;
  const recorded = (path: string) => (days ??= recordedDays(site)).get(path) ?? built;
  const { profile } = site;
  return [
    {
      path: pagePath.home(),
      title: site.config.title,
      note: site.config.description,
      get lastmod() {
        return newestChange(site);
      },
    },
    {
      path: pagePath.about(),
      title: `About ${profile.name}`,
      note: `${profile.headline}; expertise, availability and contact.`,
      lastmod: built,
    },
    {
      path: pagePath.services(),
      title: 'Consulting services',
      note: site.services.length
        ? `${plural(site.services.length, 'consulting area')}, ${site.services.length === 1 ? 'with' : 'each with'} the engagements it fits best.`
        : nothingYet('services'),
      get lastmod() {
        return recorded(pagePath.services());
      },
    },
    ...site.services.map((s) => ({
      path: pagePath.service(s.id),
      title: s.title,
      note: s.summary,
      get lastmod() {
        return recorded(pagePath.service(s.id));
      },
    })),
    {
      path: pagePath.blog(),
      title: 'Writing',
      note: site.posts.length > 1 ? `All ${site.posts.length} posts, newest first.` : site.posts.length ? '1 post.' : nothingYet('posts'),
      get lastmod() {
        return newestChange(site);
      },
    },
    ...site.tags.map(({ tag, count }) => ({
      path: pagePath.tag(tag),
      title: `Posts tagged “${tag}”`,
      note: `${plural(count, 'post')}.`,
      get lastmod() {
        return newestChange(site, model.tagged(tag));
      },
    })),
    ...site.posts.map((p) => ({ path: pagePath.post(p.slug), title: p.title, lastmod: postChanged(p) })),
    {
      path: pagePath.projects(),
      title: 'Projects',
      note: site.projects.length ? `${plural(site.projects.length, 'project')}: ${projectStatuses(site)}.` : nothingYet('projects'),
      get lastmod() {
        return recorded(pagePath.projects());
      },
    },
    ...site.projects.map((p) => ({
      path: pagePath.project(p.id),
      title: p.title,
      note: `${p.status}: ${p.summary}`,
      get lastmod() {
        return recorded(pagePath.project(p.id));
      },
    })),
    {
      path: pagePath.developers(),
      title: 'Developers',
      note: 'The JSON API, the MCP endpoint, errors, fair use and the versioning policy.',
      lastmod: built,
    },
  ];
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
