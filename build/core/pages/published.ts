// Which list pages have something on them (D59). A list with nothing
// published keeps its page, which says so, but no navigation, button or
// related link leads to it.
import type { Site } from '../model.js';
import type { Section } from './page.js';

export function hasItems(site: Site, section: Section): boolean {
  if (section === 'services') return site.services.length > 0;
  if (section === 'blog') return site.posts.length > 0;
  if (section === 'projects') return site.projects.length > 0;
  return true;
}

/** The plain empty state of a list page and its twin. */
export function nothingYet(what: 'posts' | 'services' | 'projects'): string {
  return `No ${what} are published yet.`;
}
