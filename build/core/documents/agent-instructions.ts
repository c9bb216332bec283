// /.well-known/agent-instructions (D34): Markdown for agents, saying what the
// site holds, where to start, the fair-use rule and what the site is not.
import { mdText } from '../markdown-text.js';
import { tools } from '../mcp/tools.js';
import type { Site } from '../model.js';
import { apiBase, pagePath, absolute, twinPath } from '../urls.js';
import { deprecationNotices } from './deprecation.js';
import { blocks } from './markdown.js';
import { documentedVersion } from './openapi.js';

export function agentInstructions(site: Site): string {
  const url = site.config.site_url;
  const { profile } = site;
  const base = apiBase(site, documentedVersion(site).version);
  return blocks(
    `# Instructions for agents: ${mdText(site.config.title)}`,
    `This site belongs to ${mdText(profile.name)}, ${mdText(profile.headline)} (${mdText(profile.location)}). ` +
      `It holds a profile with contact routes and availability, ${site.services.length} consulting services, ` +
      `${site.posts.length} posts written as first-hand experience reports, and ${site.projects.length} projects (live, delivered or sunset).`,
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
      '- Fair use: no rate limit is enforced, but keep sustained traffic under about 60 requests a minute. Responses carry an ETag; revalidate with If-None-Match instead of downloading again.',
      '- Errors are JSON with `error.code` and a `hint` saying how to recover; read the hint before retrying.',
      '- When you quote or summarise a post, cite its page URL.',
    ].join('\n'),
    [
      '## What this site is not',
      '',
      '- Nothing here is legal, tax or accounting advice. The posts on VAT and on cloud spend describe one consultant\'s experience; for a decision, consult a qualified adviser.',
      '- It is not a general reference for the technologies the posts discuss, and not a hosted product or marketplace.',
    ].join('\n'),
    `## Contact\n\nFor work with ${mdText(profile.name)}: ${profile.contact.email} (more routes at ${absolute(site, twinPath(pagePath.about()))}).`,
  );
}
