// Documents → the site model (pure). Validates each file, then the rules that
// span files: unique slugs and ids, and internal links that resolve (D2).
// The model comes with what is derived from it (core/site-model.ts): the link
// set is recorded here, the indexes are built as respond() reads them.
import type { Post, Profile, Project, Service, Site, VersionState } from './core/model.js';
import { SiteModel } from './core/site-model.js';
import { brokenLinks, knownPaths } from './site-links.js';
import { parseYamlFile, type Source } from './content/frontmatter.js';
import { readDocument, type DocumentKind, type DocumentRecord, type FileLink, type Read } from './content/kinds.js';
import { baseName } from './content/litter.js';
import { readSiteConfig, type ApiVersionConfig } from './content/site-config.js';
import type { ContentSources } from './content/load.js';
import type { ServiceRef } from './content/availability.js';
import { recordChanges, type History } from './history.js';
import { closest, ContentError, formatProblem, type Problem } from './content/problems.js';
import { redirectsOf, type AliasOwner } from './content/aliases.js';
import { checkStatic, type StaticSource } from './content/static.js';
import { contentWarnings } from './content/warnings.js';
import { routeTable } from './core/api/index.js';
import { pagePath } from './core/urls.js';
import { postWithImages, profileWithImages, projectWithImages, serviceWithImages, type ImageTable } from './site-images.js';
import type { Derived } from './derived.js';
import { withAbsoluteLinks } from './site-absolute.js';
import { missingAltText, updatedAfter } from './content/published-checks.js';

export interface SiteOptions {
  /** The build clock (D1, D19): drafts in the future are left out, versions age by it. */
  now: Date;
  siteUrl?: string;
  /** The images the build resolved (build/emit/images.ts); without it, images keep the paths as written. */
  images?: ImageTable;
  /** The first bytes of the file at a path relative to the content folder, null when there is none (content/load.ts contentFileStart). */
  fileStart?: (contentPath: string) => Uint8Array | null;
  /** The previous build's record of what it published (D61); without it removals are unknown. */
  history?: History | null;
  /** Where warnings go (a large static file); by default stderr, as `folio: warning: …`. */
  warn?: (message: string) => void;
  /** Values derived from records in an earlier assembly (folio dev); by default, none. */
  derived?: Derived;
}

/** Where a warning goes unless a caller says otherwise: stderr, as `folio: warning: …`. */
export const printWarning = (message: string): void => void process.stderr.write(`folio: warning: ${message}\n`);

/** Every content file read on its own (the per-file half of the build, see readDocument). */
export interface ReadContent {
  dir: string;
  site: Source | null;
  profile: DocumentRecord<Profile> | null;
  services: DocumentRecord<Service>[];
  posts: DocumentRecord<Post>[];
  projects: DocumentRecord<Project>[];
  /** content/theme.css and content/static/, passed through as read (D43, D46). */
  theme?: Source | null;
  static?: StaticSource[];
  /** Markdown files folio does not read (content/strays.ts): each is a warning. */
  strays?: Problem[];
}

/** Reads every file in this thread; the build may instead use workers or its cache (build/emit/documents.ts). */
export function readContent(
  sources: ContentSources,
  read: (kind: DocumentKind, source: Source) => DocumentRecord = readDocument,
): ReadContent {
  return {
    dir: sources.dir,
    site: sources.site,
    profile: sources.profile && (read('profile', sources.profile) as DocumentRecord<Profile>),
    services: sources.services.map((s) => read('service', s) as DocumentRecord<Service>),
    posts: sources.posts.map((s) => read('post', s) as DocumentRecord<Post>),
    projects: sources.projects.map((s) => read('project', s) as DocumentRecord<Project>),
    theme: sources.theme,
    static: sources.static,
    strays: sources.strays,
  };
}

type Item<T> = { read: Read<T>; source: { file: string } };

function items<T>(records: DocumentRecord<T>[], problems: Problem[]): Item<T>[] {
  const out: Item<T>[] = [];
  for (const r of records) {
    problems.push(...r.problems);
    if (r.read) out.push({ read: r.read, source: { file: r.file } });
  }
  return out;
}

function unique<T>(items: Item<T>[], key: (v: T) => string, what: string, field: string, problems: Problem[]): void {
  const seen = new Map<string, string>();
  for (const { read, source } of items) {
    const k = key(read.value);
    const first = seen.get(k);
    if (first)
      problems.push({
        file: source.file,
        line: 1,
        column: 1,
        message: `The ${what} ${field} "${k}" is already used by ${first}.`,
        hint: `Give one of them another file name, or set \`${field}:\` in its front-matter.`,
      });
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

/** Whether the build clock's day (UTC, YYYY-MM-DD) publishes a post: not a draft, and dated that day or before. */
export function isPublished(read: Read<Post>, day: string): boolean {
  return !read.draft && read.value.date <= day;
}

/** The site alone, for callers that want no index (the tests). */
export function buildSite(sources: ContentSources, options: SiteOptions): Site {
  return assembleSite(readContent(sources), options).site;
}

/** The cross-file half: unique slugs and ids, order, tags, the clock, and the link check (D2); the model with its link set. */
export function assembleSite(content: ReadContent, options: SiteOptions): SiteModel {
  const problems: Problem[] = [];
  const need = <T>(present: T | null, name: string, example: string) => {
    if (!present)
      problems.push({
        file: `${content.dir}/${name}`,
        line: 1,
        column: 1,
        message: `${name} is missing.`,
        hint: `Create ${content.dir}/${name}, e.g. ${example}`,
      });
    return present;
  };
  const siteSource = need(content.site, 'site.yaml', 'title, description, site_url and language fields');
  const profileRecord = need(
    content.profile,
    'profile.md',
    'front-matter with name, headline, location, expertise, availability and contact',
  );
  const siteDoc = siteSource && parseYamlFile(siteSource, problems);
  const siteConfig = siteDoc && readSiteConfig(siteDoc, problems, options.siteUrl, options.fileStart, content.theme?.text ?? null);
  if (profileRecord) problems.push(...profileRecord.problems);
  const profile = profileRecord?.read ?? null;
  const services = items(content.services, problems);
  const posts = items(content.posts, problems);
  const projects = items(content.projects, problems);
  unique(posts, (p) => p.slug, 'post', 'slug', problems);
  unique(projects, (p) => p.id, 'project', 'id', problems);
  unique(services, (s) => s.id, 'service', 'id', problems);
  // A service file with problems of its own still counts: its problems are reported, not a missing service.
  const serviceIds = [
    ...services.map(({ read }) => read.value.id),
    ...content.services.filter((r) => !r.read).map((r) => baseName(r.file)),
  ];
  if (profile) problems.push(...unknownServices(profile.services ?? [], serviceIds));
  // What is published is checked for alt text with the files' own problems, so that all are reported at once.
  const today = options.now.toISOString().slice(0, 10);
  const live = posts.filter(({ read }) => isPublished(read, today));
  for (const { read } of [...services, ...projects, ...live]) problems.push(...missingAltText(read.images));
  if (profile) problems.push(...missingAltText(profile.images));
  if (problems.length || !siteConfig || !profile)
    throw new ContentError(problems, 'Internal links, static files and aliases are checked once these are fixed.');
  const warn = options.warn ?? printWarning;
  for (const warning of siteConfig.warnings) warn(formatProblem(warning));
  for (const warning of contentWarnings([profileRecord, ...content.services, ...content.posts, ...content.projects])) warn(warning);
  for (const stray of content.strays ?? []) warn(formatProblem(stray));

  const url = siteConfig.config.site_url;
  for (const { read, source } of live) {
    const late = updatedAfter(read, source.file, today);
    if (late) warn(formatProblem(late));
  }
  // A body with local images takes their addresses and its absolute links in one pass (site-images.ts).
  const { images, derived } = options;
  const published = live.map(({ read }) =>
    read.images.length ? postWithImages(read, images, url) : withAbsoluteLinks(read, 'content_markdown', url, derived),
  );
  published.sort((a, b) => (a.date === b.date ? (a.slug < b.slug ? -1 : 1) : a.date < b.date ? 1 : -1));
  const serviceList: Service[] = services
    .map(({ read }) => (read.images.length ? serviceWithImages(read, images, url) : withAbsoluteLinks(read, 'body_markdown', url, derived)))
    .sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : 1));
  const projectList: Project[] = projects
    .map(({ read }) => (read.images.length ? projectWithImages(read, images, url) : withAbsoluteLinks(read, 'body_markdown', url, derived)))
    .sort(
      (a, b) =>
        STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (b.started ?? '').localeCompare(a.started ?? '') || (a.id < b.id ? -1 : 1),
    );
  const counts = new Map<string, number>();
  for (const p of published) for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1);

  const site: Site = {
    config: siteConfig.config,
    versions: versionStates(siteConfig.versions, options.now),
    profile: profile.images.length ? profileWithImages(profile, images, url) : withAbsoluteLinks(profile, 'bio_markdown', url, derived),
    services: serviceList,
    posts: published,
    projects: projectList,
    tags: [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => (a.tag < b.tag ? -1 : 1)),
    static: [],
    redirects: {},
    built_at: options.now.toISOString(),
    changes: { entries: [], tracked_since: '' },
  };
  site.changes = recordChanges(site, options.history ?? null).log;

  // Links are checked against what the site publishes, so a link to a draft is broken too.
  const links: FileLink[] = [
    ...profile.links,
    ...services.flatMap(({ read }) => read.links),
    ...projects.flatMap(({ read }) => read.links),
    ...live.flatMap(({ read }) => read.links),
  ];
  const model = new SiteModel(site);
  const known = knownPaths(model);
  // Static files and aliases may take no address the build generates (D43, D48).
  site.static = checkStatic(content.static ?? [], known, problems, warn);
  for (const f of site.static) known.add(f.path);
  site.redirects = redirectsOf(aliasOwners(site, live, projects, services), (path) => known.has(path) || path === '/mcp', problems);
  if (problems.length) throw new ContentError(problems, 'Internal links are checked once these are fixed.');
  for (const path of Object.keys(site.redirects)) known.add(path);
  const broken = brokenLinks(site, links, known, content);
  if (broken.length) throw new ContentError(broken);
  return model.checkedAgainst(known);
}

/** D60: every service an engagement names exists. */
function unknownServices(refs: ServiceRef[], ids: string[]): Problem[] {
  return refs
    .filter((ref) => !ids.includes(ref.service))
    .map((ref) => {
      const near = closest(ref.service, ids);
      const listed = ids.length
        ? `Service ids: ${[...new Set(ids)].join(', ')}.`
        : 'There are no services yet: add one under services/ first.';
      return {
        file: ref.file,
        line: ref.line,
        column: ref.column,
        message: `The engagement names the service "${ref.service}", which does not exist.`,
        hint: near ? `Did you mean "${near}"? ${listed}` : listed,
      };
    });
}

/** Who may own aliases, with the former API addresses each kind implies (D48). */
function aliasOwners(site: Site, posts: Item<Post>[], projects: Item<Project>[], services: Item<Service>[]): AliasOwner[] {
  const versions = Object.keys(routeTable).filter((v) => site.versions[v] && site.versions[v]!.status !== 'sunset');
  const former = (pattern: RegExp, collection: string, id: string) => (alias: string) => {
    const old = pattern.exec(alias)?.[1];
    return old === undefined
      ? []
      : versions.map((v): [string, string] => [`/api/${v}/${collection}/${old}`, `/api/${v}/${collection}/${id}`]);
  };
  const owner = <T>({ read, source }: Item<T>, page: string, api: AliasOwner['api']): AliasOwner => ({
    file: source.file,
    aliases: read.aliases ?? [],
    page,
    api,
  });
  return [
    ...posts.map((p) => owner(p, pagePath.post(p.read.value.slug), former(/^\/blog\/([a-z0-9][a-z0-9-]*)$/, 'posts', p.read.value.slug))),
    ...projects.map((p) =>
      owner(p, pagePath.project(p.read.value.id), former(/^\/projects\/([a-z0-9][a-z0-9-]*)$/, 'projects', p.read.value.id)),
    ),
    ...services.map((s) =>
      owner(s, pagePath.service(s.read.value.id), former(/^\/services\/([a-z0-9][a-z0-9-]*)$/, 'services', s.read.value.id)),
    ),
  ];
}
