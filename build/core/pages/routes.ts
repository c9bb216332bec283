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

type Build = () => Page;

function table(site: Site): Map<string, Build> {
  const entries: [string, Build][] = [
    [pagePath.home(), () => homePage(site)],
    [pagePath.about(), () => aboutPage(site)],
    [pagePath.services(), () => servicesPage(site)],
    [pagePath.blog(), () => blogPage(site)],
    [pagePath.projects(), () => projectsPage(site)],
    [pagePath.developers(), () => developersPage(site)],
    ...site.tags.map((t): [string, Build] => [pagePath.tag(t.tag), () => tagPage(site, t.tag)]),
    ...site.posts.map((p): [string, Build] => [pagePath.post(p.slug), () => postPage(site, p)]),
    ...site.projects.map((p): [string, Build] => [pagePath.project(p.id), () => projectPage(site, p)]),
  ];
  // Each page is built once per model: the build asks for a page and then its twin.
  return new Map(entries.map(([path, build]) => [path, once(build)]));
}

function once(build: Build): Build {
  let page: Page | undefined;
  return () => (page ??= build());
}

// One table per model object.
const tables = new WeakMap<Site, Map<string, Build>>();

function tableOf(site: Site): Map<string, Build> {
  let t = tables.get(site);
  if (!t) tables.set(site, (t = table(site)));
  return t;
}

/** Every HTML page of the site: the fixed pages, then tags, posts and projects. */
export function pagePaths(site: Site): string[] {
  return [...tableOf(site).keys()];
}

/** The page at a canonical path, or null. */
export function findPage(site: Site, path: string): Page | null {
  return tableOf(site).get(path)?.() ?? null;
}
