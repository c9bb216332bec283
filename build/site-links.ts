// Internal links (D2): every address a link may point at is one the build
// precomputes, and a link to anything else is a content error at its line,
// with a hint that names what does exist.
import { dirname, join } from 'node:path';
import type { FileLink } from './content/kinds.js';
import type { Problem } from './content/problems.js';
import type { Site } from './core/model.js';
import { isImagePath } from './core/media-types.js';
import { enumerate } from './core/families.js';
import { pagePath } from './core/urls.js';
import type { ReadContent } from './site.js';
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

/** A URL with a scheme (https:, mailto:, tel:), which no check of ours applies to. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The links of the bodies that point nowhere: a site-root link (or one to
 * site_url) to an address the build does not publish, and any relative
 * link. A relative link resolves against the address of what shows it, and
 * a body is shown at several (the page /blog/x, its twin, the API record,
 * the feeds, llms-full.txt), so it cannot be right everywhere; the hint
 * names the site-root address it most likely means, from the files of
 * `content`.
 */
export function brokenLinks(site: Site, links: FileLink[], known: ReadonlySet<string>, content: ReadContent): Problem[] {
  const problems: Problem[] = [];
  let addresses: Map<string, string> | undefined;
  for (const link of links) {
    let url = link.url;
    if (url.startsWith(site.config.site_url)) url = url.slice(site.config.site_url.length) || '/';
    if (url.startsWith('#') || url.startsWith('//')) continue;
    if (!url.startsWith('/')) {
      // A URL parser drops tabs and newlines anywhere, so `jav\tascript:` has a scheme too (the pages' sanitizer removes it).
      if (SCHEME.test(url.replace(/[\t\n\r]/g, '').trimStart())) continue;
      // An image's address written as a definition is resolved and checked as an image (D44).
      if (link.image) continue;
      problems.push(relativeLink(link, known, (addresses ??= sourceAddresses(content))));
      continue;
    }
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

/** Where each content file is published, by its name as links carry it: a post, project or service at its page, profile.md at /about, a static file at its own path. */
function sourceAddresses(content: ReadContent): Map<string, string> {
  const addresses = new Map<string, string>();
  if (content.profile) addresses.set(content.profile.file, pagePath.about());
  for (const r of content.posts) if (r.read) addresses.set(r.file, pagePath.post(r.read.value.slug));
  for (const r of content.projects) if (r.read) addresses.set(r.file, pagePath.project(r.read.value.id));
  for (const r of content.services) if (r.read) addresses.set(r.file, pagePath.service(r.read.value.id));
  for (const f of content.static ?? []) addresses.set(f.file, f.path);
  return addresses;
}

function relativeLink(link: FileLink, known: ReadonlySet<string>, addresses: ReadonlyMap<string, string>): Problem {
  const at = { file: link.file, line: link.line, column: link.column };
  if (link.url === '')
    return { ...at, message: 'This link has no address.', hint: 'Give it one, e.g. [text](/blog/<slug>), or remove the brackets.' };
  const message = `The link to ${link.url} is relative, and the page, its Markdown twin, the API, the feeds and llms-full.txt would each resolve it against another address.`;
  const cut = link.url.search(/[?#]/);
  const path = cut === -1 ? link.url : link.url.slice(0, cut);
  const rest = cut === -1 ? '' : link.url.slice(cut);
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // kept as written
  }
  // As GitHub and editors read it: a path from the Markdown file's own folder.
  const file = addresses.get(join(dirname(link.file), decoded));
  // As a browser on the page would read it.
  const page = addresses.get(link.file);
  const onPage = page === undefined ? undefined : new URL(path, `https://site.invalid${page}`).pathname;
  const meant = [file, onPage].find((address) => address !== undefined && known.has(address));
  return {
    ...at,
    message,
    hint: meant
      ? `Write it from the site root: ${meant}${rest}.`
      : /\{\{|\{%/.test(decoded)
        ? templateLinkHint(decoded)
        : isImagePath(decoded)
          ? 'An image shown with ![alt](path) is published at an address of its own and needs no link; to link the file itself, put it under content/static/ and link it from the site root (content/static/img/a.png is /img/a.png).'
          : 'Write internal links from the site root, e.g. /blog/<slug>, /projects/<id>, /services/<id>, or /files/cv.pdf for content/static/files/cv.pdf.',
  };
}

/** A link through a template of Hugo or Jekyll ({{ site.baseurl }}/x, {% post_url %}), which folio does not run. */
function templateLinkHint(path: string): string {
  // {{ site.baseurl }} and the like stand for the site's root, which a site-root path already starts from.
  const rest = path.replace(/\{\{[^{}]*\}\}/g, '');
  const given = rest.startsWith('/') && !/[{}%]/.test(rest) ? ` Here: ${rest}.` : '';
  return `The address holds a template tag, and folio runs no templates: write the address it stands for, from the site root (/blog/<slug> for a post).${given}`;
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
