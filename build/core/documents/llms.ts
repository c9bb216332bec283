// /llms.txt (D26, llmstxt.org): an H1, a summary in a blockquote, then H2
// sections of links to the Markdown twins, and /llms-full.txt with the full
// Markdown of every page and post.
import type { Site } from '../model.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { deprecationNotices } from './deprecation.js';
import { blocks, linkItem, mdText } from './markdown.js';
import { documentedVersion } from './openapi.js';
import { sitePages } from './site-pages.js';

export function llmsTxt(site: Site): string {
  const url = site.config.site_url;
  const twin = (path: string) => absolute(site, twinPath(path));
  const pages = new Map(sitePages(site).map((p) => [p.path, p]));
  const page = (path: string) => {
    const p = pages.get(path)!;
    return linkItem(p.title, twin(p.path), p.note);
  };
  const version = documentedVersion(site).version;
  const section = (heading: string, items: string[]) => (items.length ? `## ${heading}\n\n${items.join('\n')}` : null);
  return blocks(
    `# ${mdText(site.config.title)}`,
    `> ${mdText(site.config.description)}`,
    ...deprecationNotices(site).map((notice) => `**Deprecation notice:** ${mdText(notice)}`),
    `Every page of ${url} is also Markdown: append \`.md\` to its path (\`/index.md\` for the home page) or send \`Accept: text/markdown\`. ` +
      'The links below point at those Markdown versions. The JSON API and the MCP endpoint are read-only and need no authentication; ' +
      'please keep to about 60 requests a minute. The posts are first-hand experience reports: nothing here is legal, tax or accounting advice.',
    section('Profile', [page(pagePath.about())]),
    section('Services', [page(pagePath.services()), ...site.services.map((s) => linkItem(s.title, twin(pagePath.services()), s.summary))]),
    section('Writing', [page(pagePath.blog()), ...site.posts.map((p) => linkItem(p.title, twin(pagePath.post(p.slug)), `${p.date}. ${p.summary}`))]),
    section('Projects', [page(pagePath.projects()), ...site.projects.map((p) => page(pagePath.project(p.id)))]),
    section('API and MCP', [
      page(pagePath.developers()),
      linkItem('OpenAPI description', `${url}/openapi.json`, 'OpenAPI 3.1 document of the read-only JSON API (also as /openapi.yaml).'),
      linkItem(`API discovery document (${version})`, apiBase(site, version), 'Every endpoint with its parameters and URL, as JSON.'),
      linkItem('MCP endpoint', `${url}/mcp`, 'Streamable HTTP: POST JSON-RPC 2.0 messages (initialize, tools/list, tools/call); stateless, no session, no authentication. A GET answers 405.'),
    ]),
    section('Optional', [
      page(pagePath.home()),
      ...site.tags.map(({ tag }) => page(pagePath.tag(tag))),
      linkItem('Everything in one file', `${url}/llms-full.txt`, 'The full Markdown of every page and post.'),
      linkItem('Instructions for agents', `${url}/.well-known/agent-instructions`, 'Where to start, fair use and what this site is not.'),
    ]),
  );
}

/** The full Markdown of every page and post, each part headed by its canonical URL. */
export function llmsFullTxt(site: Site): string {
  const url = site.config.site_url;
  const { profile } = site;
  const source = (path: string) => `Source: ${absolute(site, path)} (Markdown: ${absolute(site, twinPath(path))})`;
  const list = (items: readonly string[]) => items.map((i) => `- ${i}`).join('\n');
  const parts = [
    blocks(
      `# ${mdText(site.config.title)}`,
      `> ${mdText(site.config.description)}`,
      ...deprecationNotices(site).map((notice) => `**Deprecation notice:** ${mdText(notice)}`),
      `The full Markdown of every page and post of ${url}, one after another, separated by horizontal rules. The index of the site is ${url}/llms.txt.`,
    ),
    blocks(
      `# About ${mdText(profile.name)}`,
      source(pagePath.about()),
      list([
        `Headline: ${mdText(profile.headline)}`,
        `Location: ${mdText(profile.location)}`,
        `Expertise: ${profile.expertise.map(mdText).join(', ')}`,
        `Availability: ${mdText(profile.availability.status)}: ${mdText(profile.availability.note)}`,
        ...Object.entries(profile.contact).map(([route, value]) => `Contact (${route}): ${value}`),
      ]),
      profile.bio_markdown,
    ),
    blocks(
      '# Consulting services',
      source(pagePath.services()),
      ...site.services.map((s) => blocks(`## ${mdText(s.title)}`, mdText(s.summary), `Best fit:\n\n${list(s.best_fit.map(mdText))}`, s.body_markdown)),
    ),
    blocks(
      '# Projects',
      source(pagePath.projects()),
      ...site.projects.map((p) =>
        blocks(
          `## ${mdText(p.title)}`,
          source(pagePath.project(p.id)),
          list([`Status: ${p.status}`, mdText(p.summary), ...(p.url ? [`Website: ${p.url}`] : []), ...(p.started ? [`Started: ${p.started}`] : []), ...(p.ended ? [`Ended: ${p.ended}`] : []), ...(p.tags.length ? [`Tags: ${p.tags.join(', ')}`] : [])]),
          p.body_markdown,
        ),
      ),
    ),
    ...site.posts.map((p) =>
      blocks(
        `# ${mdText(p.title)}`,
        source(pagePath.post(p.slug)),
        list([`Published: ${p.date}`, ...(p.updated ? [`Updated: ${p.updated}`] : []), `Tags: ${p.tags.join(', ')}`, `Summary: ${mdText(p.summary)}`]),
        p.content_markdown,
      ),
    ),
  ];
  return parts.join('\n---\n\n');
}
