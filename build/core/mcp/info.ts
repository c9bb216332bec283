// What the MCP endpoint says about itself: the initialize answer, the
// server/discover answer, the server card and server.json all read these.
import type { Site } from '../model.js';

/** The initialize-era revisions (D36), newest first. */
export const INITIALIZE_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** The stateless revision (D36): server/discover and per-request _meta, no initialize. */
export const STATELESS_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** Every revision /mcp speaks, newest first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = [...STATELESS_PROTOCOL_VERSIONS, ...INITIALIZE_PROTOCOL_VERSIONS];

/** Assumed when a request carries no MCP-Protocol-Version header (Streamable HTTP, 2025-06-18). */
export const DEFAULT_PROTOCOL_VERSION = '2025-03-26';

/** The version of this server's tool surface; bump when the tools change. */
export const MCP_SERVER_VERSION = '1.0.0';

export const MCP_PATH = '/mcp';

export interface ServerInfo {
  /** Reverse-DNS of the site's host and "/site", e.g. "example.ada/site" (the server card's domain/name form). */
  name: string;
  title: string;
  version: string;
  /** At most 100 characters (D31, D32). */
  description: string;
  websiteUrl: string;
  /** Absolute URL of the endpoint. */
  url: string;
}

export function serverInfo(site: Site): ServerInfo {
  const host = new URL(site.config.site_url).hostname;
  const description = `Read-only access to ${site.profile.name}'s profile, writing, projects and site search.`;
  return {
    name: `${host.split('.').reverse().join('.')}/site`,
    title: site.config.title,
    version: MCP_SERVER_VERSION,
    description: description.length <= 100 ? description : `${description.slice(0, 99)}…`,
    websiteUrl: site.config.site_url,
    url: `${site.config.site_url}${MCP_PATH}`,
  };
}

/** What the server tells a client on initialize and server/discover. */
export function instructions(site: Site): string {
  return [
    `The published profile, posts, projects and consulting services of ${site.profile.name} (${site.config.site_url}).`,
    'Start with site_search_writing for a topic, or site_list_posts and then site_get_post for the full Markdown of a post.',
    'Everything is read-only and needs no authentication.',
    site.config.statements.disclaimer,
  ]
    .filter(Boolean)
    .join(' ');
}
