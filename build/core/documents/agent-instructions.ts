// /.well-known/agent-instructions (D34): Markdown for agents, saying what the
// site holds, where to start, the fair-use rule and what the site says it is
// not (D59: only what site.yaml states).
import { asSentence, mdText } from '../markdown-text.js';
import { tools } from '../mcp/tools.js';
import type { Site } from '../model.js';
import { apiBase, pagePath, absolute, twinPath } from '../urls.js';
import { deprecationNotices } from './deprecation.js';
import { blocks } from './markdown.js';
import { documentedVersion } from './openapi.js';
import { plural } from '../pages/html.js';
import { fairRate, listText, whatItIsNot } from '../statements.js';

/** What the site holds, leaving out a kind with nothing published. */
function holdings(site: Site): string {
  const { writing } = site.config.statements;
  const n = (count: number, one: string, rest: string) => (count ? `${plural(count, one)}${rest}` : null);
  const parts = [
    'a profile with contact routes and availability',
    n(site.services.length, 'consulting service', ''),
    n(site.posts.length, 'post', writing ? ` written as ${writing}` : ''),
    n(site.projects.length, 'project', ' (live, delivered or sunset)'),
  ].filter((p): p is string => p !== null);
  return listText(parts, true);
}

export function agentInstructions(site: Site): string {
  const url = site.config.site_url;
  const { profile } = site;
  const base = apiBase(site, documentedVersion(site).version);
  return blocks(
    `# Instructions for agents: ${mdText(site.config.title)}`,
    // Headline and location are free text (a headline may open with an
    // acronym): each follows a colon as written, so any wording reads.
    `This site belongs to ${mdText(profile.name)}: ${mdText(asSentence(profile.headline))} ` +
      `Location: ${mdText(asSentence(profile.location))} It holds ${holdings(site)}.`,
    ...deprecationNotices(site).map((notice) => `**Deprecation notice:** ${mdText(notice)}`),
    [
      '## Where to start',
      '',
      `1. ${url}/llms.txt lists every page as Markdown with a one-line note each; ${url}/llms-full.txt holds all of it in one file.`,
      `2. Any page is Markdown too: append \`.md\` to its path (${absolute(site, twinPath(pagePath.blog()))}) or send \`Accept: text/markdown\`.`,
      `3. The JSON API: the discovery document at ${base} lists every endpoint; the OpenAPI 3.1 description is ${url}/openapi.json. Lists answer \`{"data": [...], "meta": {...}, "links": {...}}\`; follow \`links.next\` to page.`,
      `4. The MCP endpoint: POST JSON-RPC 2.0 to ${url}/mcp (Streamable HTTP, \`Content-Type: application/json\`, stateless, no session). Tools: ${tools.map((t) => `\`${t.name}\``).join(', ')}. The server card is at ${url}/mcp/server-card.`,
    ].join('\n'),
    [
      '## Rules of use',
      '',
      '- Everything is public and read-only. There is no account, no key and nothing to sign up for; send no credentials.',
      `- Fair use: no rate limit is enforced, but keep sustained traffic under ${fairRate(site)}. Responses carry an ETag; revalidate with If-None-Match instead of downloading again.`,
      '- Errors are JSON with `error.code` and a `hint` saying how to recover; read the hint before retrying.',
      '- When you quote or summarise a post, cite its page URL.',
    ].join('\n'),
    whatItIsNot(site).length ? ['## What this site is not', '', ...whatItIsNot(site).map((s) => `- ${mdText(s)}`)].join('\n') : null,
    `## Contact\n\nFor work with ${mdText(profile.name)}: ${profile.contact.email} (more routes at ${absolute(site, twinPath(pagePath.about()))}).`,
  );
}
