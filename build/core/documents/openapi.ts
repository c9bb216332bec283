// The OpenAPI 3.1 description (D25), generated from the route table, the
// parameter declarations and the response schemas the core answers with:
// nothing here restates a schema. Named schemas go into components once and
// are referenced wherever core/schemas.ts reuses the same object.
import { routeTable } from '../api/index.js';
import type { Operation } from '../api/operation.js';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import type { Site, VersionState } from '../model.js';
import type { ParamSpec } from '../params.js';
import { PostItem, ProjectItem, SearchHit, Service, schemas } from '../schemas.js';
import { mdText } from '../markdown-text.js';
import { fairRate } from '../statements.js';
import { apiBase } from '../urls.js';
import { deprecationNotice } from './deprecation.js';

type Schema = Record<string, unknown>;

/** Every schema that gets a name in components, by the object core/schemas.ts exports. */
const named: Record<string, Schema> = { ...schemas, PostItem, ProjectItem, Service, SearchHit };
const names = new Map<unknown, string>(Object.entries(named).map(([name, schema]) => [schema, name]));

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A deep copy in which every nested named schema becomes a $ref. */
function withRefs(value: unknown, root = true): unknown {
  if (Array.isArray(value)) return value.map((v) => withRefs(v, false));
  if (value === null || typeof value !== 'object') return value;
  const name = names.get(value);
  if (name && !root) return schemaRef(name);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withRefs(v, false)]));
}

/** Every operation can also answer these, whatever its own errors (D15, D16, D19). */
const ALWAYS: readonly ErrorCode[] = ['method_not_allowed', 'gone', 'internal_error'];

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, _sep: string, c: string) => c.toUpperCase());

const ERROR_MEANING: Record<ErrorCode, string> = {
  invalid_request: 'A query parameter is missing, repeated or out of range; the hint states the valid values.',
  not_found: 'Nothing is published under this identifier; the hint points at the list of valid ones.',
  method_not_allowed: 'Only GET, HEAD and OPTIONS are allowed; the Allow header lists them.',
  gone: 'This API version is past its sunset date; the hint names the successor address.',
  payload_too_large: 'The request body is over 1 MiB.',
  unsupported_media_type: 'The request body is not application/json.',
  internal_error: 'An unexpected failure on the server; no stack trace is ever sent.',
};

const VERSION_HEADERS = ['X-Api-Version', 'X-Api-Deprecated', 'Link', 'Deprecation', 'Sunset'];
const headerRefs = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

function headers(site: Site) {
  return {
    Location: {
      description:
        'The address the item moved to, site-relative (the same path with its current slug or id), so a preview deployment redirects to itself.',
      schema: { type: 'string', format: 'uri-reference' },
    },
    'X-Api-Version': { description: 'The API version that answered, e.g. `v1`.', schema: { type: 'string', pattern: '^v[0-9]+$' } },
    'X-Api-Deprecated': {
      description: '`true` once this version is deprecated, `false` while it is current.',
      schema: { type: 'string', enum: ['true', 'false'] },
    },
    Link: {
      description: `Points at the versioning policy: \`<${site.config.site_url}/developers#versioning>; rel="deprecation"; type="text/html"\`.`,
      schema: { type: 'string' },
    },
    Deprecation: {
      description: 'Only on a deprecated version (RFC 9745): when the deprecation took effect, as `@` and Unix seconds.',
      schema: { type: 'string', pattern: '^@[0-9]+$' },
    },
    Sunset: {
      description: 'Only on a deprecated version with a sunset date (RFC 8594): the HTTP-date after which it answers 410.',
      schema: { type: 'string' },
    },
    ETag: {
      description: 'A strong validator derived from the body; send it back in If-None-Match to get 304.',
      schema: { type: 'string' },
    },
    Allow: { description: 'The methods this address answers: GET, HEAD, OPTIONS.', schema: { type: 'string' } },
  };
}

function errorResponse(code: ErrorCode) {
  const status = ERROR_STATUS[code];
  return {
    description: `\`${code}\`: ${ERROR_MEANING[code]}`,
    headers: headerRefs(code === 'method_not_allowed' ? [...VERSION_HEADERS, 'Allow'] : VERSION_HEADERS),
    content: {
      'application/json': {
        schema: {
          allOf: [
            schemaRef('ErrorEnvelope'),
            { type: 'object', properties: { error: { type: 'object', properties: { code: { const: code }, status: { const: status } } } } },
          ],
        },
      },
    },
  };
}

function parameter(spec: ParamSpec) {
  return {
    name: spec.name,
    in: spec.in,
    required: spec.required,
    description: spec.description,
    schema: withRefs(spec.schema),
    ...(spec.example === undefined ? {} : { example: spec.example }),
  };
}

/** An operation's tag: the first segment of its path, so a new endpoint is grouped without a table to update. */
const tagOf = (op: Operation) => op.path.split('/')[1] || 'discovery';

/** One tag per group, described by its operations (D54: linters want tags declared). */
function tags(ops: readonly Operation[]) {
  const groups = new Map<string, string[]>();
  for (const op of ops) groups.set(tagOf(op), [...(groups.get(tagOf(op)) ?? []), `\`${op.operationId}\`: ${op.summary}.`]);
  return [...groups].map(([name, lines]) => ({ name, description: lines.join(' ') }));
}

function operation(op: Operation, state: VersionState) {
  const errors = [...new Set([...op.errors, ...ALWAYS])].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]);
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [tagOf(op)],
    // Public: no authentication, stated per operation as linters and code generators expect (D54).
    security: [],
    ...(op.parameters.length ? { parameters: op.parameters.map(parameter) } : {}),
    responses: {
      '200': {
        description: op.summary,
        headers: headerRefs(['ETag', ...VERSION_HEADERS]),
        content: { 'application/json': { schema: schemaRef(op.schema) } },
      },
      // A former id (an alias, D48) answers 301 to the item's address, as its page does.
      ...(op.moves
        ? {
            '301': {
              description: 'Moved: this is a former id of the item (an alias); `Location` names its address now. No body.',
              headers: headerRefs(['Location', ...VERSION_HEADERS]),
            },
          }
        : {}),
      '304': {
        description: 'Not modified: If-None-Match matched the current ETag. No body.',
        headers: headerRefs(['ETag', ...VERSION_HEADERS]),
      },
      ...Object.fromEntries(errors.map((code) => [String(ERROR_STATUS[code]), { $ref: `#/components/responses/${pascal(code)}` }])),
    },
    ...(state.status === 'current' ? {} : { deprecated: true }),
  };
}

/** The version the document describes: the current one, else the newest routed one. */
export function documentedVersion(site: Site): VersionState {
  const routed = Object.keys(routeTable)
    .map((v) => site.versions[v])
    .filter((s): s is VersionState => s !== undefined);
  const state = routed.find((s) => s.status === 'current') ?? routed[routed.length - 1];
  if (!state) throw new Error(`No API version of site.yaml is in the route table (${Object.keys(routeTable).join(', ')}).`);
  return state;
}

function description(site: Site, state: VersionState): string {
  const developers = `${site.config.site_url}/developers`;
  const notice = deprecationNotice(site, state);
  return [
    ...(notice ? [`**Deprecation notice.** ${notice}`, ''] : []),
    `The read-only JSON API of ${site.config.site_url}: ${site.profile.name}'s profile, consulting services, posts, projects and search. The same content is served as HTML pages, Markdown twins and an MCP endpoint at ${site.config.site_url}/mcp.`,
    '',
    '- **No authentication.** No key, no signup, no credentials. Every endpoint is GET; HEAD and OPTIONS answer too, any other method answers 405.',
    `- **Fair use.** No rate limit is enforced; please keep sustained traffic under ${fairRate(site, 'per minute')}, and revalidate with ETag / If-None-Match.`,
    '- **Errors.** Every failure is the JSON envelope `{"error": {"code", "status", "message", "hint", "documentation_url", "openapi_url"}}`; `error.status` equals the HTTP status and clients branch on `error.code`.',
    `- **Versioning.** The path carries the major version (\`/api/${state.version}\`). Additive changes (new fields, new endpoints) ship inside a version; a change that removes or renames a field ships as a new version at a new path while the old one keeps serving. Every response carries \`X-Api-Version\`, \`X-Api-Deprecated\` and a \`Link\` (rel="deprecation") to the policy at ${developers}#versioning. A deprecated version adds \`Deprecation\` (RFC 9745) and \`Sunset\` (RFC 8594) headers and serves unchanged until its sunset date, at least 180 days later; after it, every address of that version answers 410 \`gone\` with a hint naming the successor.`,
    ...(site.config.statements.disclaimer ? [`- ${mdText(site.config.statements.disclaimer)}`] : []),
  ].join('\n');
}

export function openApiDocument(site: Site) {
  const state = documentedVersion(site);
  const ops = routeTable[state.version]!;
  const codes = [...new Set(ops.flatMap((op) => [...op.errors, ...ALWAYS]))].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]);
  const license = site.config.license;
  return {
    openapi: '3.1.0',
    info: {
      title: `${site.config.title} API`,
      summary: `Read-only JSON API of ${site.config.site_url}.`,
      description: description(site, state),
      version: state.version,
      contact: { name: site.profile.name, url: `${site.config.site_url}/about`, email: site.profile.contact.email },
      // Only what the author states (D51): no license is invented for a site that names none.
      ...(license ? { license: { name: license.name, url: license.url } } : {}),
    },
    externalDocs: {
      description: 'Developer page: endpoints, errors, examples and the versioning policy.',
      url: `${site.config.site_url}/developers`,
    },
    tags: tags(ops),
    servers: [
      { url: apiBase(site, state.version), description: `API ${state.version}${state.status === 'current' ? '' : ` (${state.status})`}` },
    ],
    paths: Object.fromEntries(ops.map((op) => [op.path === '' ? '/' : op.path, { get: operation(op, state) }])),
    components: {
      schemas: Object.fromEntries(Object.entries(named).map(([name, schema]) => [name, withRefs(schema)])),
      responses: Object.fromEntries(codes.map((code) => [pascal(code), errorResponse(code)])),
      headers: headers(site),
    },
  };
}
