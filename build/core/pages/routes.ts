// Which page answers a path, and every page path there is (D20). The table
// is built from pagePath in urls.ts, so a page's address is written once.
import type { Site } from '../model.js';
import { pagePath } from '../urls.js';
import { aboutPage } from './about.js';
import { blogPage, postPage, tagPage } from './blog.js';
import { developersPage } from './developers.js';
import { homePage } from './home.js';
import type { Page } from './page.js';
import { projectPage, projectsPage } from './projects.js';
import { servicesPage } from './services.js';

/** Builds the page at a path from the model it is asked for; entries name posts and projects by position, so a table outlives an edit that keeps them (folio dev). */
type Build = (site: Site) => Page;

function table(site: Site): Map<string, Build> {
  return new Map<string, Build>([
    [pagePath.home(), homePage],
    [pagePath.about(), aboutPage],
    [pagePath.services(), servicesPage],
    [pagePath.blog(), blogPage],
    [pagePath.projects(), projectsPage],
    [pagePath.developers(), developersPage],
    ...site.tags.map(({ tag }): [string, Build] => [pagePath.tag(tag), (s) => tagPage(s, tag)]),
    ...site.posts.map((p, i): [string, Build] => [pagePath.post(p.slug), (s) => postPage(s, s.posts[i]!)]),
    ...site.projects.map((p, i): [string, Build] => [pagePath.project(p.id), (s) => projectPage(s, s.projects[i]!)]),
  ]);
}

// One table per model object. Of each page built, only its twin is kept: the
// build asks for a page and then its twin, and llms-full.txt for every twin.
// The pages themselves are not kept: at 10,000 posts their HTML was the
// largest part of the heap.
const tables = new WeakMap<Site, Map<string, Build>>();
const twins = new WeakMap<Site, Map<string, string>>();

function tableOf(site: Site): Map<string, Build> {
  let t = tables.get(site);
  if (!t) tables.set(site, (t = table(site)));
  return t;
}

/**
 * `next` is `previous` with some posts replaced by new records of the same
 * slug, date and tags, in the same order (folio dev's one-post edit): the
 * same paths name the same positions. Its pages are built anew.
 */
export function carryPages(previous: Site, next: Site): void {
  const t = tables.get(previous);
  if (t && !tables.has(next)) tables.set(next, t);
}

/** Every HTML page of the site: the fixed pages, then tags, posts and projects. */
export function pagePaths(site: Site): string[] {
  return [...tableOf(site).keys()];
}

/** The page at a canonical path, built anew, or null. */
export function findPage(site: Site, path: string): Page | null {
  const build = tableOf(site).get(path);
  if (!build) return null;
  const page = build(site);
  let kept = twins.get(site);
  if (!kept) twins.set(site, (kept = new Map()));
  kept.set(path, page.markdown);
  return page;
}

/** The twin of the page at a canonical path (its whole Markdown, for the twin, llms-full.txt and MCP), or null. */
export function twinMarkdown(site: Site, path: string): string | null {
  return twins.get(site)?.get(path) ?? findPage(site, path)?.markdown ?? null;
}
