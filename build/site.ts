// Documents → the site model (pure). Validates each file, then the rules that
// span files: unique slugs and ids, and internal links that resolve (D2).
import type { Post, Project, Service, Site, VersionState } from './core/model.js';
import { enumerate } from './core/respond.js';
import { pagePath, twinPath } from './core/urls.js';
import { parseFrontMatter, parseYamlFile, type Source } from './content/frontmatter.js';
import { readPost, readProfile, readProject, readService, readSiteConfig, type ApiVersionConfig, type FileLink, type Read } from './content/kinds.js';
import type { ContentSources } from './content/load.js';
import { ContentError, type Problem } from './content/problems.js';

export interface SiteOptions {
  /** The build clock (D1, D19): drafts in the future are left out, versions age by it. */
  now: Date;
  siteUrl?: string;
}

function baseName(file: string): string {
  return file.replace(/^.*[\\/]/, '').replace(/\.md$/, '');
}

function readAll<T>(sources: Source[], problems: Problem[], read: (doc: NonNullable<ReturnType<typeof parseFrontMatter>>, name: string, problems: Problem[]) => Read<T> | null) {
  const out: { read: Read<T>; source: Source }[] = [];
  for (const source of sources) {
    const doc = parseFrontMatter(source, problems);
    if (!doc) continue;
    const read_ = read(doc, baseName(source.file), problems);
    if (read_) out.push({ read: read_, source });
  }
  return out;
}

function unique<T>(items: { read: Read<T>; source: Source }[], key: (v: T) => string, what: string, field: string, problems: Problem[]): void {
  const seen = new Map<string, string>();
  for (const { read, source } of items) {
    const k = key(read.value);
    const first = seen.get(k);
    if (first) problems.push({ file: source.file, line: 1, column: 1, message: `The ${what} ${field} "${k}" is already used by ${first}.`, hint: `Give one of them another file name, or set \`${field}:\` in its front-matter.` });
    else seen.set(k, source.file);
  }
}

export function versionStates(versions: ApiVersionConfig[], now: Date): Record<string, VersionState> {
  const today = now.toISOString().slice(0, 10);
  return Object.fromEntries(
    versions.map((v) => {
      const status = v.sunset && today >= v.sunset ? 'sunset' : v.deprecated && today >= v.deprecated ? 'deprecated' : 'current';
      return [v.version, { version: v.version, status, deprecated: v.deprecated, sunset: v.sunset, successor: v.successor }];
    }),
  );
}

const STATUS_ORDER = { live: 0, delivered: 1, sunset: 2 } as const;

export function buildSite(sources: ContentSources, options: SiteOptions): Site {
  const problems: Problem[] = [];
  const need = (source: Source | null, name: string, example: string) => {
    if (!source) problems.push({ file: `${sources.dir}/${name}`, line: 1, column: 1, message: `${name} is missing.`, hint: `Create ${sources.dir}/${name}, e.g. ${example}` });
    return source;
  };
  const siteSource = need(sources.site, 'site.yaml', 'title, description, site_url and language fields');
  const profileSource = need(sources.profile, 'profile.md', 'front-matter with name, headline, location, expertise, availability and contact');
  const siteDoc = siteSource && parseYamlFile(siteSource, problems);
  const siteConfig = siteDoc && readSiteConfig(siteDoc, problems, options.siteUrl);
  const profileDoc = profileSource && parseFrontMatter(profileSource, problems);
  const profile = profileDoc && readProfile(profileDoc, problems);
  const services = readAll(sources.services, problems, readService);
  const posts = readAll(sources.posts, problems, readPost);
  const projects = readAll(sources.projects, problems, readProject);
  unique(posts, (p) => p.slug, 'post', 'slug', problems);
  unique(projects, (p) => p.id, 'project', 'id', problems);
  unique(services, (s) => s.id, 'service', 'id', problems);
  if (problems.length || !siteConfig || !profile) throw new ContentError(problems);

  const today = options.now.toISOString().slice(0, 10);
  const published = posts.filter(({ read }) => !read.draft && read.value.date <= today).map(({ read }) => read.value);
  published.sort((a, b) => (a.date === b.date ? (a.slug < b.slug ? -1 : 1) : a.date < b.date ? 1 : -1));
  const serviceList: Service[] = services.map(({ read }) => read.value).sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : 1));
  const projectList: Project[] = projects
    .map(({ read }) => read.value)
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (b.started ?? '').localeCompare(a.started ?? '') || (a.id < b.id ? -1 : 1));
  const counts = new Map<string, number>();
  for (const p of published) for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1);

  const site: Site = {
    config: siteConfig.config,
    versions: versionStates(siteConfig.versions, options.now),
    profile: profile.value,
    services: serviceList,
    posts: published,
    projects: projectList,
    tags: [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => (a.tag < b.tag ? -1 : 1)),
    built_at: options.now.toISOString(),
  };

  // Links are checked against what the site publishes, so a link to a draft is broken too.
  const publishedSlugs = new Set(published.map((p: Post) => p.slug));
  const links: FileLink[] = [
    ...profile.links,
    ...services.flatMap(({ read }) => read.links),
    ...projects.flatMap(({ read }) => read.links),
    ...posts.filter(({ read }) => publishedSlugs.has(read.value.slug)).flatMap(({ read }) => read.links),
  ];
  const broken = brokenLinks(site, links);
  if (broken.length) throw new ContentError(broken);
  return site;
}

/** Every site path a link may point at: the pages, their twins and every precomputed address. */
export function knownPaths(site: Site): Set<string> {
  const pages = [
    pagePath.home(),
    pagePath.about(),
    pagePath.services(),
    pagePath.blog(),
    pagePath.projects(),
    pagePath.developers(),
    ...site.tags.map((t) => pagePath.tag(t.tag)),
    ...site.posts.map((p) => pagePath.post(p.slug)),
    ...site.projects.map((p) => pagePath.project(p.id)),
  ];
  const known = new Set<string>([...pages, ...pages.map(twinPath)]);
  for (const target of enumerate(site)) known.add(target.split('?')[0]!);
  return known;
}

export function brokenLinks(site: Site, links: FileLink[]): Problem[] {
  const known = knownPaths(site);
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
    problems.push({ file: link.file, line: link.line, column: link.column, message: `The link to ${link.url} points at a page that does not exist.`, hint: hintFor(site, decoded) });
  }
  return problems;
}

function hintFor(site: Site, path: string): string {
  const blog = /^\/blog\/([^/]+)$/.exec(path);
  if (blog) return `No published post has the slug "${blog[1]}". Published slugs are listed at /api/v1/posts; a draft or a post dated after the build clock is not published yet.`;
  const project = /^\/projects\/([^/]+)$/.exec(path);
  if (project) return `No project has the id "${project[1]}". Project ids: ${site.projects.map((p) => p.id).join(', ')}.`;
  return 'Site pages are /, /about, /services, /blog, /blog/tags/<tag>, /blog/<slug>, /projects, /projects/<id> and /developers (each also as .md).';
}
