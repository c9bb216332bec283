// Where everything lives. One place, so pages, twins, the API and the
// catalogs never build a URL by hand (D5).
import type { Site } from './model.js';

/**
 * Paths neither a static file nor an alias may take: folio's own files (the
 * functions' data, the image copies, MCP, the API) and every host's
 * configuration. An alias there would answer 301 where the functions read
 * their files (D48); a static file would overwrite them (D43).
 */
const RESERVED =
  /^\/(_folio\/|_headers$|_redirects$|_routes\.json$|netlify\.toml$|vercel\.json$|404\.html$|functions\/|api(\/|$)|mcp(\/|$)|media(\/|$))/;

export const isReservedPath = (path: string): boolean => RESERVED.test(path);

export const API_PREFIX = '/api';

export function apiBase(site: Site, version = 'v1'): string {
  return `${site.config.site_url}${API_PREFIX}/${version}`;
}

/** Site-relative page paths (no trailing slash; "/" for home). */
export const pagePath = {
  home: () => '/',
  about: () => '/about',
  services: () => '/services',
  service: (id: string) => `/services/${id}`,
  blog: () => '/blog',
  tag: (tag: string) => `/blog/tags/${tag}`,
  post: (slug: string) => `/blog/${slug}`,
  projects: () => '/projects',
  project: (id: string) => `/projects/${id}`,
  developers: () => '/developers',
};

/** The Markdown twin of a page path (D21): "/" → "/index.md". */
export function twinPath(path: string): string {
  return path === '/' ? '/index.md' : `${path}.md`;
}

/** The page path whose twin `path` is ("/blog.md" → "/blog", "/index.md" → "/"), or null. */
export function pageOfTwin(path: string): string | null {
  if (!path.endsWith('.md')) return null;
  const page = path === twinPath('/') ? '/' : path.slice(0, -'.md'.length);
  return page && twinPath(page) === path ? page : null;
}

export function absolute(site: Site, path: string): string {
  return path === '/' ? `${site.config.site_url}/` : `${site.config.site_url}${path}`;
}

/** url, markdown_url and api_url of a resource (D5). */
export function links(site: Site, page: string, api: string): { url: string; markdown_url: string; api_url: string } {
  return { url: absolute(site, page), markdown_url: absolute(site, twinPath(page)), api_url: `${apiBase(site)}${api}` };
}
