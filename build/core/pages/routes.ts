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

/** What a page path names: positions into the model, so the table outlives an edit that keeps them (folio dev). */
type Entry =
  | { kind: 'home' | 'about' | 'services' | 'blog' | 'projects' | 'developers' }
  | { kind: 'tag'; tag: string }
  | { kind: 'post' | 'project'; index: number };

function table(site: Site): Map<string, Entry> {
  const entries: [string, Entry][] = [
    [pagePath.home(), { kind: 'home' }],
    [pagePath.about(), { kind: 'about' }],
    [pagePath.services(), { kind: 'services' }],
    [pagePath.blog(), { kind: 'blog' }],
    [pagePath.projects(), { kind: 'projects' }],
    [pagePath.developers(), { kind: 'developers' }],
    ...site.tags.map((t): [string, Entry] => [pagePath.tag(t.tag), { kind: 'tag', tag: t.tag }]),
    ...site.posts.map((p, index): [string, Entry] => [pagePath.post(p.slug), { kind: 'post', index }]),
    ...site.projects.map((p, index): [string, Entry] => [pagePath.project(p.id), { kind: 'project', index }]),
  ];
  return new Map(entries);
}

function build(site: Site, entry: Entry): Page {
  switch (entry.kind) {
    case 'home':
      return homePage(site);
    case 'about':
      return aboutPage(site);
    case 'services':
      return servicesPage(site);
    case 'blog':
      return blogPage(site);
    case 'projects':
      return projectsPage(site);
    case 'developers':
      return developersPage(site);
    case 'tag':
      return tagPage(site, entry.tag);
    case 'post':
      return postPage(site, site.posts[entry.index]!);
    case 'project':
      return projectPage(site, site.projects[entry.index]!);
  }
}

// One table per model object, and each page built once per model: the build asks for a page and then its twin.
const tables = new WeakMap<Site, Map<string, Entry>>();
const built = new WeakMap<Site, Map<string, Page>>();

function tableOf(site: Site): Map<string, Entry> {
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

/** The page at a canonical path, or null. */
export function findPage(site: Site, path: string): Page | null {
  const entry = tableOf(site).get(path);
  if (!entry) return null;
  let pages = built.get(site);
  if (!pages) built.set(site, (pages = new Map()));
  let page = pages.get(path);
  if (!page) pages.set(path, (page = build(site, entry)));
  return page;
}
