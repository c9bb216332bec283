// The catalogs agents and tools read before anything else: the RFC 9727 API
// catalog (D30), the MCP server card (D31), the MCP Registry's server.json
// (D32) and the AI Catalog (D33). The MCP facts come from core/mcp/info.ts,
// the same place /mcp answers initialize from, so they cannot disagree.
import { routeTable } from '../api/index.js';
import { CONTENT_TYPES } from '../headers.js';
import { MCP_PROTOCOL_VERSIONS, serverInfo } from '../mcp/info.js';
import type { Site } from '../model.js';
import { apiBase } from '../urls.js';
import { documentedVersion } from './openapi.js';

/** The current Server Card schema (SEP-2127, modelcontextprotocol/experimental-ext-server-card). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The MCP Registry's newest released server.json schema. */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** A Content-Type without its parameters: the media type a link's `type` hint names. */
const mediaType = (contentType: string) => contentType.split(';')[0]!.trim();

export const MEDIA = {
  /** The AI Catalog's `type` names the kind of artifact, so the OpenAPI entry says OpenAPI. */
  openapiJson: 'application/openapi+json',
  serverCard: 'application/mcp-server-card+json',
  aiCatalog: 'application/ai-catalog+json',
} as const;

/** The draft's address for the card: the streamable-HTTP URL plus /server-card. */
export const SERVER_CARD_PATH = '/mcp/server-card';
/** The address D31 names first, for the same card. */
export const WELL_KNOWN_SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';
export const API_CATALOG_PATH = '/.well-known/api-catalog';

/** RFC 9727 §4 + RFC 9264: one linkset entry per API version that still serves. */
export function apiCatalog(site: Site) {
  const url = site.config.site_url;
  const documented = documentedVersion(site).version;
  const versions = Object.keys(routeTable).filter((v) => site.versions[v] && site.versions[v]!.status !== 'sunset');
  return {
    linkset: versions.map((version) => ({
      anchor: apiBase(site, version),
      // The OpenAPI document describes one version; others link the developer page only.
      // Each `type` is the target's media type as served (RFC 8288 §3.4.1: a hint of the Content-Type).
      ...(version === documented
        ? {
            'service-desc': [
              { href: `${url}/openapi.json`, type: mediaType(CONTENT_TYPES.json) },
              { href: `${url}/openapi.yaml`, type: mediaType(CONTENT_TYPES.yaml) },
            ],
          }
        : {}),
      'service-doc': [{ href: `${url}/developers`, type: mediaType(CONTENT_TYPES.html) }],
      'service-meta': [{ href: apiBase(site, version), type: mediaType(CONTENT_TYPES.json) }],
    })),
  };
}

/** The Link header every api-catalog reply carries (RFC 9727 §3). */
export function apiCatalogLink(site: Site): string {
  return `<${site.config.site_url}${API_CATALOG_PATH}>; rel="api-catalog"`;
}

export function serverCard(site: Site) {
  const info = serverInfo(site);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: info.name,
    version: info.version,
    title: clip(info.title, 100),
    description: info.description,
    websiteUrl: info.websiteUrl,
    remotes: [{ type: 'streamable-http', url: info.url, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] }],
  };
}

export function serverJson(site: Site) {
  const info = serverInfo(site);
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: info.name,
    title: clip(info.title, 100),
    description: info.description,
    version: info.version,
    websiteUrl: info.websiteUrl,
    remotes: [{ type: 'streamable-http', url: info.url }],
  };
}

/** The AI Catalog (Agent-Card/ai-catalog, spec 1.0): the MCP server card and the API. */
export function aiCatalog(site: Site) {
  const url = site.config.site_url;
  const host = new URL(url).hostname;
  const info = serverInfo(site);
  const { version, status } = documentedVersion(site);
  return {
    specVersion: '1.0',
    host: { displayName: site.config.title, identifier: host, documentationUrl: `${url}/developers` },
    entries: [
      // The card carries its own title, description and version, so the entry does not repeat them.
      {
        identifier: `urn:air:${host}:mcp:${info.name.slice(info.name.indexOf('/') + 1)}`,
        type: MEDIA.serverCard,
        url: `${url}${SERVER_CARD_PATH}`,
      },
      // A retired version is no API to catalog (its addresses answer 410), as the API catalog leaves it out.
      ...(status === 'sunset'
        ? []
        : [
            {
              identifier: `urn:air:${host}:api:${version}`,
              displayName: `${site.config.title} API`,
              type: MEDIA.openapiJson,
              url: `${url}/openapi.json`,
              description: `Read-only JSON API: profile, services, posts, projects and search (${version}).`,
              version,
            },
          ]),
    ],
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
