// What the developer page (D22) is made of: the API's operations and
// parameters, the error codes, the MCP tools and the version states, read
// from the same declarations the API, OpenAPI and MCP read, so the page
// cannot fall behind the service it documents.
import type { Operation } from '../api/operation.js';
import { SERVICE_ID } from '../api/parameters.js';
import { deprecationNotice } from '../documents/deprecation.js';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { MCP_PATH, MCP_PROTOCOL_VERSIONS } from '../mcp/info.js';
import type { Site, VersionState } from '../model.js';
import type { ParamSpec } from '../params.js';
import { apiBase } from '../urls.js';

/** When each code is answered (D13, D16, D17, D19). A new code without a line here fails the type check. */
export const ERROR_CONDITIONS: Record<ErrorCode, string> = {
  invalid_request:
    'A query parameter is missing, blank, not an integer, out of range, not one of its allowed values, or given twice. The hint states the valid values.',
  not_found:
    'No post has that slug, no project has that id, or the path is not an endpoint. The hint says where the valid identifiers are listed.',
  method_not_allowed:
    'Any method other than GET, HEAD or OPTIONS on a read-only address (only /mcp takes POST). The Allow header lists what is allowed.',
  gone: 'The API version is past its sunset date. The hint names the same resource in the successor version.',
  payload_too_large: 'A request body over 1 MiB. Only POST /mcp reads a body.',
  unsupported_media_type: 'A POST to /mcp whose Content-Type is not application/json.',
  internal_error: 'An unexpected failure on the server. The body never carries a stack trace; retry later.',
};

/** The envelope's fields (D17). */
export const ENVELOPE_FIELDS: [field: string, type: string, meaning: string][] = [
  ['error.code', 'string', 'Machine-readable code; branch on this.'],
  ['error.status', 'integer', 'The HTTP status, equal to the response status.'],
  ['error.message', 'string', 'What went wrong, for people.'],
  ['error.hint', 'string', 'How to recover, for instance where valid identifiers are listed.'],
  ['error.documentation_url', 'string (URL)', 'This page.'],
  ['error.openapi_url', 'string (URL)', 'The OpenAPI description.'],
];

/** Oldest first, as people read a list of revisions. */
export const MCP_REVISIONS = [...MCP_PROTOCOL_VERSIONS].sort();

export function anchor(op: Operation): string {
  return `op-${op.operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Real values from the site, so every example answers 200 on this site. */
function exampleValue(site: Site, spec: ParamSpec): string | number | undefined {
  const topTag = [...site.tags].sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1))[0]?.tag;
  if (spec === SERVICE_ID) return site.services[0]?.id ?? spec.example;
  switch (spec.name) {
    case 'slug':
      return site.posts[0]?.slug ?? spec.example;
    case 'id':
      return site.projects[0]?.id ?? spec.example;
    case 'tag':
      return topTag ?? spec.example;
    case 'status':
      return site.projects[0]?.status ?? spec.example;
    case 'q':
      return topTag?.replace(/-/g, ' ') ?? spec.example;
    default:
      return undefined;
  }
}

/** The example URL of an operation: path parameters filled in, the filters and a small page shown. */
export function exampleUrl(site: Site, op: Operation, version = 'v1'): string {
  let path = op.path;
  const query = new URLSearchParams();
  for (const spec of op.parameters) {
    const value = exampleValue(site, spec);
    if (spec.in === 'path') path = path.replace(`{${spec.name}}`, encodeURIComponent(String(value ?? spec.example ?? spec.name)));
    else if (value !== undefined) query.set(spec.name, String(value));
  }
  if (op.parameters.some((p) => p.name === 'offset')) query.set('limit', '5');
  const q = query.toString();
  return `${apiBase(site, version)}${path}${q ? `?${q}` : ''}`;
}

export function curl(url: string, extra = ''): string {
  return `curl -s${extra} '${url.replace(/'/g, "'\\''")}'`;
}

/** "integer, 1–100, default 20"; `code` marks literal values (a pattern) in the caller's format. */
export function schemaText(spec: ParamSpec, code: (literal: string) => string = (l) => l): string {
  const s = spec.schema;
  const parts: string[] = [s.type];
  if (s.type === 'integer') parts.push(`${s.minimum}–${s.maximum}`);
  else {
    if (s.enum) parts.push(`one of ${s.enum.join(', ')}`);
    if (s.minLength !== undefined || s.maxLength !== undefined) parts.push(`${s.minLength ?? 0}–${s.maxLength} characters`);
    if (s.format) parts.push(`format ${s.format}`);
    if (s.pattern) parts.push(`pattern ${code(s.pattern)}`);
  }
  if (s.default !== undefined) parts.push(`default ${s.default}`);
  return parts.join(', ');
}

export const backticks = (literal: string) => `\`${literal}\``;

/** "tag?: string" for each argument of a tool's input schema. */
export function argumentList(schema: Record<string, unknown>): string[] {
  const props = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.keys(props).map((n) => `${n}${required.has(n) ? '' : '?'}: ${props[n]!.type ?? 'any'}`);
}

/** The codes particular to an operation; 405 and 500 can come from any of them and are said once. */
export function errorsOf(op: Operation): ErrorCode[] {
  return [...new Set<ErrorCode>(op.errors)].filter((c) => c !== 'internal_error').sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]);
}

/** The same words as OpenAPI and llms.txt while a version is not current (D19). */
export function versionLine(site: Site, v: VersionState): string {
  return (
    deprecationNotice(site, v) ??
    `${v.version} is current and not deprecated${v.sunset ? `; sunset is set for ${v.sunset}` : '; no sunset date is set'}.`
  );
}

export function mcpCall(site: Site, method: string, params?: unknown): string {
  const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) });
  return `curl -s -X POST '${site.config.site_url}${MCP_PATH}' \\\n  -H 'Content-Type: application/json' \\\n  -H 'Accept: application/json, text/event-stream' \\\n  -d '${message.replace(/'/g, "'\\''")}'`;
}

export interface Addresses {
  base: string;
  openapi: string;
  openapiYaml: string;
  mcp: string;
  llms: string;
  catalog: string;
}

export function addressesOf(site: Site): Addresses {
  const root = site.config.site_url;
  return {
    base: apiBase(site),
    openapi: `${root}/openapi.json`,
    openapiYaml: `${root}/openapi.yaml`,
    mcp: `${root}${MCP_PATH}`,
    llms: `${root}/llms.txt`,
    catalog: `${root}/.well-known/api-catalog`,
  };
}

/** Root-relative form of an address on this site, so links work on any host the build is served from. */
export function local(site: Site, url: string): string {
  return url.startsWith(site.config.site_url) ? url.slice(site.config.site_url.length) || '/' : url;
}

export const MACHINE_ADDRESSES: [path: string, what: string][] = [
  ['/openapi.json', 'OpenAPI 3.1 description (JSON)'],
  ['/openapi.yaml', 'The same description in YAML'],
  ['/llms.txt', 'Index of the site for language models, linking every Markdown twin'],
  ['/llms-full.txt', 'The full Markdown of every page and post'],
  ['/.well-known/api-catalog', 'RFC 9727 API catalog'],
  ['/.well-known/mcp/server-card.json', 'MCP server card'],
  ['/server.json', 'MCP Registry server.json'],
  ['/.well-known/ai-catalog.json', 'AI catalog of the MCP server and the API'],
  ['/.well-known/agent-instructions', 'Instructions for agents, in Markdown'],
  ['/sitemap.xml', 'Sitemap of every HTML page'],
  ['/feed.xml', 'Atom feed of every post'],
  ['/feed.json', 'JSON Feed of every post'],
  ['/robots.txt', 'Robots rules'],
];
