// Which page answers a path, and every page path there is (D20). The page
// table is the model's (SiteModel.pages, built from pagePath in urls.ts, so
// a page's address is written once); this maps each entry to its page.
import { replayClock, watchClock } from '../clock.js';
import type { SiteModel, PageRef } from '../site-model.js';
import { utf8Length } from '../tokens.js';
import { aboutPage } from './about.js';
import { blogPage, postPage, tagPage } from './blog.js';
import { developersPage } from './developers.js';
import { homePage } from './home.js';
import type { Page } from './page.js';
import { projectPage, projectsPage } from './projects.js';
import { servicePage, servicesPage } from './services.js';

function build(model: SiteModel, ref: PageRef): Page {
  const { site } = model;
  switch (ref.kind) {
    case 'home':
      return homePage(model);
    case 'about':
      return aboutPage(site);
    case 'services':
      return servicesPage(site);
    case 'blog':
      return blogPage(model);
    case 'projects':
      return projectsPage(model);
    case 'developers':
      return developersPage(site);
    case 'service':
      return servicePage(site, site.services[ref.at]!);
    case 'tag':
      return tagPage(model, ref.tag, model.tagged(ref.tag));
    case 'post': {
      const post = site.posts[ref.at]!;
      return postPage(model, post, model.related(post));
    }
    case 'project':
      return projectPage(model, site.projects[ref.at]!);
  }
}

/** Every HTML page of the site: the fixed pages, then tags, posts and projects. */
export function pagePaths(model: SiteModel): string[] {
  return [...model.pages.keys()];
}

/** The page at a canonical path, built anew, or null. Its twin is kept in the model. */
export function findPage(model: SiteModel, path: string): Page | null {
  const ref = model.pages.get(path);
  if (!ref) return null;
  const { value: page, read } = watchClock(() => build(model, ref));
  model.twins.set(path, page.markdown);
  if (read) model.pageClock.set(path, read);
  else model.pageClock.delete(path);
  return page;
}

/** The twin of the page at a canonical path (its whole Markdown, for the twin, llms-full.txt and MCP), or null. */
export function twinMarkdown(model: SiteModel, path: string): string | null {
  const twin = model.twins.get(path);
  if (twin === undefined) return findPage(model, path)?.markdown ?? null;
  replayClock(model.pageClock.get(path));
  return twin;
}

/** The UTF-8 size of the twin of the page at `path` (0 for none), built only when no build recorded it, and measured once. */
export function twinBytes(model: SiteModel, path: string): number {
  let size = model.twinSizes.get(path);
  if (size === undefined) model.twinSizes.set(path, (size = utf8Length(twinMarkdown(model, path) ?? '')));
  else replayClock(model.pageClock.get(path));
  return size;
}
