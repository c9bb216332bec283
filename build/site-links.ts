// Internal links (D2): every address a link may point at is one the build
// precomputes, and a link to anything else is a content error at its line,
// with a hint that names what does exist.
import type { FileLink } from './content/kinds.js';
import type { Problem } from './content/problems.js';
import type { Site } from './core/model.js';
import { enumerate } from './core/respond.js';
import type { SiteModel } from './core/site-model.js';

/** Every site path a link may point at: every address the build precomputes (the pages and their twins as the pages family enumerates them, the API, the documents). */
export function knownPaths(model: SiteModel): Set<string> {
  const known = new Set<string>();
  for (const target of enumerate(model)) {
    const query = target.indexOf('?');
    known.add(query === -1 ? target : target.slice(0, query));
  }
  return known;
}

export function brokenLinks(site: Site, links: FileLink[], known: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  for (const link of links) {
    let url = link.url;
    if (url.startsWith(site.config.site_url)) url = url.slice(site.config.site_url.length) || '/';
    if (!url.startsWith('/') || url.startsWith('//')) continue;
    const path = url.replace(/[?#].*$/, '');
    const normal = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    let decoded = normal;
    try {
      decoded = decodeURI(normal);
    } catch {
      // keep it as written; it will not match and is reported below
    }
    if (known.has(decoded) || known.has(normal)) continue;
    problems.push({
      file: link.file,
      line: link.line,
      column: link.column,
      message: `The link to ${link.url} points at a page that does not exist.`,
      hint: hintFor(site, decoded),
    });
  }
  return problems;
}

function hintFor(site: Site, path: string): string {
  // A twin (/blog/x.md) and an API record (/api/v1/posts/x) name the same item as its page.
  const item = /^(?:\/api\/[^/]+\/(posts|projects|services)|\/(blog|projects|services))\/([^/]+?)(\.md)?$/.exec(path);
  const kind = item && (item[1] ?? item[2]);
  const id = item?.[3];
  if (kind === 'blog' || kind === 'posts')
    return `No published post has the slug "${id}". Published slugs are listed at /api/v1/posts; a draft or a post dated after the build clock is not published yet.`;
  if (kind === 'projects') return `No project has the id "${id}". Project ids: ${site.projects.map((p) => p.id).join(', ')}.`;
  if (kind === 'services') return `No service has the id "${id}". Service ids: ${site.services.map((s) => s.id).join(', ')}.`;
  if (path.startsWith('/api/'))
    return 'The API publishes /api/v1 (its discovery document), posts, projects, services and their records; /api/v1 lists them.';
  // A name with an extension other than .md is most likely a file meant for content/static/.
  if (/\.(?!md$)[a-z0-9]+$/i.test(path))
    return `No file is published at ${path}. Files under content/static/ are published at their own path: put it at content/static${path}.`;
  return 'Site pages are /, /about, /services, /services/<id>, /blog, /blog/tags/<tag>, /blog/<slug>, /projects, /projects/<id> and /developers (each also as .md).';
}
