// /llms.txt (D26, llmstxt.org): an H1, a summary in a blockquote, then H2
// sections of links to the Markdown twins, and /llms-full.txt with the full
// Markdown of every page and post.
import { discovery } from '../api/operations.js';
import { page as listPage } from '../api/lists.js';
import { LIMIT } from '../api/parameters.js';
import { availabilityResource } from '../availability.js';
import { jsonText, type Frame, type Sections } from '../http.js';
import { toolList } from '../mcp/methods.js';
import { success } from '../mcp/rpc.js';
import { mdLink, mdText } from '../markdown-text.js';
import type { Site } from '../model.js';
import type { SiteModel } from '../site-model.js';
import { pagePaths, twinBytes, twinMarkdown } from '../pages/index.js';
import { estimateTokens, tokensForBytes, tokensLabel, utf8Length } from '../tokens.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { agentInstructions } from './agent-instructions.js';
import { deprecationNotices } from './deprecation.js';
import { blocks, blocksAround, linkItem } from './markdown.js';
import { documentedVersion, openApiDocument } from './openapi.js';
import { sitePages } from './site-pages.js';
import { fairRate, whatItIsNot, writingAndDisclaimer } from '../statements.js';

/** The token estimate of what a link answers (D53). */
function cost(text: string): string {
  return tokensLabel(estimateTokens(text));
}

/** A link's token estimate: its twin's bytes / 4 (D53). */
function twinCost(model: SiteModel, path: string): string {
  return tokensLabel(tokensForBytes(twinBytes(model, path)));
}

/** The line of llms.txt that lists the post at this index of site.posts, with the newline before it. */
export function llmsTxtPostLine(model: SiteModel, index: number): string {
  const p = model.site.posts[index]!;
  const path = pagePath.post(p.slug);
  return `\n${linkItem(p.title, absolute(model.site, twinPath(path)), p.summary ? `${p.date}. ${p.summary}` : p.date, twinCost(model, path))}`;
}

/**
 * llms.txt as sections: the posts' lines keyed by slug, between the text
 * before them and after them, so that a body edit renders again the edited
 * post's line and the frame (which shows llms-full.txt's estimate) (D56).
 */
export function llmsTxtSections(model: SiteModel): Sections {
  const { head, tail } = llmsTxtFrame(model);
  const { posts } = model.site;
  return {
    texts: [head, ...posts.map((_, i) => llmsTxtPostLine(model, i)), tail],
    keys: [null, ...posts.map((p) => p.slug), null],
  };
}

/** The text of llms.txt around its posts' lines, which follow the blog's own line: the whole file when there are no posts. */
export function llmsTxtFrame(model: SiteModel): Frame {
  const { site } = model;
  const url = site.config.site_url;
  const twin = (path: string) => absolute(site, twinPath(path));
  const pages = new Map(sitePages(model).map((p) => [p.path, p]));
  const page = (path: string) => {
    const p = pages.get(path)!;
    return linkItem(p.title, twin(p.path), p.note, twinCost(model, p.path));
  };
  const license = site.config.license;
  const { version, status } = documentedVersion(site);
  // A retired version's addresses answer 410: no items for them, and no estimates of bodies never served.
  const retired = status === 'sunset';
  const section = (heading: string, items: string[]) => (items.length ? `## ${heading}\n\n${items.join('\n')}` : null);
  const before = [
    `# ${mdText(site.config.title)}`,
    `> ${mdText(site.config.description)}`,
    ...deprecationNotices(site).map((notice) => `**Deprecation notice:** ${mdText(notice)}`),
    `Every page of ${url} is also Markdown: append \`.md\` to its path (\`/index.md\` for the home page) or send \`Accept: text/markdown\`. ` +
      'The links below point at those Markdown versions. The JSON API and the MCP endpoint are read-only and need no authentication; ' +
      `please keep to ${fairRate(site)}.${writingAndDisclaimer(site) ? ` ${mdText(writingAndDisclaimer(site))}` : ''}`,
    license ? `The writing is licensed under ${mdLink(license.name, license.url)}.` : null,
    'Each item ends in an estimate of the tokens its answer costs to read (its UTF-8 bytes / 4).',
    section('Profile', [page(pagePath.about())]),
    // A kind with nothing published has no section: its page would only say so.
    section('Services', site.services.length ? [page(pagePath.services()), ...site.services.map((s) => page(pagePath.service(s.id)))] : []),
  ];
  const after = [
    section('Projects', site.projects.length ? [page(pagePath.projects()), ...site.projects.map((p) => page(pagePath.project(p.id)))] : []),
    section('API and MCP', [
      page(pagePath.developers()),
      linkItem(
        'OpenAPI description',
        `${url}/openapi.json`,
        'OpenAPI 3.1 document of the read-only JSON API (also as /openapi.yaml).',
        cost(jsonText(openApiDocument(site))),
      ),
      ...(retired
        ? []
        : [
            linkItem(
              `API discovery document (${version})`,
              apiBase(site, version),
              'Every endpoint with its parameters and URL, as JSON.',
              cost(jsonText(discovery(site, version))),
            ),
            linkItem(
              'Availability and engagement terms',
              `${apiBase(site, version)}/availability`,
              'Earliest start, days a week, notice, engagements per service and booking, as JSON; add ?service=…&month=YYYY-MM for a yes or no.',
              cost(jsonText(availabilityResource(site, null))),
            ),
            linkItem(
              'What changed',
              `${apiBase(site, version)}/changes`,
              'Posts, projects and services added, updated or removed, newest first, as JSON; add ?since=YYYY-MM-DD. The estimate is for the first page.',
              cost(jsonText(latestChanges(site, version))),
            ),
          ]),
      linkItem(
        'MCP endpoint',
        `${url}/mcp`,
        'Streamable HTTP: POST JSON-RPC 2.0 messages (initialize, tools/list, tools/call); stateless, no session, no authentication. A GET answers 405. The estimate is for the tools/list answer.',
        cost(jsonText(success(1, { tools: toolList }))),
      ),
    ]),
    section('Optional', [
      page(pagePath.home()),
      ...site.tags.map(({ tag }) => page(pagePath.tag(tag))),
      linkItem(
        'Everything in one file',
        `${url}/llms-full.txt`,
        'The full Markdown of every page and post.',
        tokensLabel(llmsFullTokens(model)),
      ),
      linkItem(
        'Instructions for agents',
        `${url}/.well-known/agent-instructions`,
        whatItIsNot(site).length ? 'Where to start, fair use and what this site is not.' : 'Where to start and fair use.',
        cost(agentInstructions(site)),
      ),
    ]),
  ];
  // The posts' lines go after the blog's line; each ends in its token estimate, never in a space a block would lose.
  const writing = section('Writing', site.posts.length ? [page(pagePath.blog())] : []);
  return writing ? blocksAround(before, writing, after) : { head: blocks(...before, ...after), tail: '' };
}

/**
 * All llms.txt shows of the posts' bodies: the token estimates of the twins
 * it can link and of llms-full.txt, one a line. The rest of it comes from
 * fields lists show and from the site.
 */
export function llmsTokenLabels(model: SiteModel): string {
  // Every page's twin: the pages llms.txt lists (sitePages) are the pages the model has, posts' among them.
  const labels = pagePaths(model).map((path) => tokensLabel(tokensForBytes(twinBytes(model, path))));
  return [...labels, tokensLabel(llmsFullTokens(model))].join('\n');
}

function llmsFullHeader(model: SiteModel): string {
  const { site } = model;
  const url = site.config.site_url;
  return blocks(
    `# ${mdText(site.config.title)}`,
    `> ${mdText(site.config.description)}`,
    ...deprecationNotices(site).map((notice) => `**Deprecation notice:** ${mdText(notice)}`),
    `The Markdown twin of every page of ${url}, one after another and separated by horizontal rules, exactly as each is served at its \`.md\` address. The index of the site is ${url}/llms.txt.`,
  );
}

const SEPARATOR = '\n---\n\n';

/**
 * llms-full.txt as sections: the full Markdown of every page and post, the
 * twins themselves one after another (D21, D26): the header, then each twin
 * after its rule, keyed by its post's slug or its page's path, so that an
 * incremental build renders again only the sections that changed (D56).
 */
export function llmsFullSections(model: SiteModel): Sections {
  const paths = pagePaths(model);
  const postAt = new Map(model.site.posts.map((p) => [pagePath.post(p.slug), p.slug]));
  return {
    texts: [llmsFullHeader(model), ...paths.map((path) => llmsFullPageSection(model, path))],
    keys: [null, ...paths.map((path) => postAt.get(path) ?? path)],
  };
}

/** The section of llms-full.txt that shows the post at this index of site.posts. */
export function llmsFullPostSection(model: SiteModel, index: number): string {
  return llmsFullPageSection(model, pagePath.post(model.site.posts[index]!.slug));
}

/** The section of llms-full.txt that shows the page at `path`: its twin after a rule. */
export function llmsFullPageSection(model: SiteModel, path: string): string {
  return `${SEPARATOR}${twinMarkdown(model, path)!}`;
}

/** The text of llms-full.txt around its pages' sections: the header. */
export function llmsFullFrame(model: SiteModel): Frame {
  return { head: llmsFullHeader(model), tail: '' };
}

/** The tokens of llms-full.txt, counted without joining it (it is every twin at once), from the twins' sizes. */
function llmsFullTokens(model: SiteModel): number {
  const paths = pagePaths(model);
  const bytes = paths.reduce((n, path) => n + twinBytes(model, path), utf8Length(llmsFullHeader(model)));
  return tokensForBytes(bytes + paths.length * utf8Length(SEPARATOR));
}

/** The first page of the changes, as GET /changes answers it (operations.ts listChanges): what its estimate counts. */
function latestChanges(site: Site, version: string) {
  const { entries, tracked_since } = site.changes;
  const limit = LIMIT.schema.default as number;
  const self = `${apiBase(site, version)}/changes`;
  const at = { canonical: '', self: (query: string) => (query ? `${self}?${query}` : self) };
  return listPage(at, entries.slice(0, limit), entries.length, limit, 0, { since: null, tracked_since });
}
