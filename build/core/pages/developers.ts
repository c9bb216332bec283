// "/developers" (D22), generated from the same declarations the API, OpenAPI
// and MCP read: the operations and their parameters, the error codes, the
// MCP tools and the version states. Nothing here is copied by hand, so the
// page cannot fall behind the service it documents.
import { operations, type Operation } from '../api/operations.js';
import { deprecationNotice } from '../documents/deprecation.js';
import { ERROR_STATUS, errorBody, type ErrorCode } from '../errors.js';
import { jsonText } from '../http.js';
import { MCP_PATH, MCP_PROTOCOL_VERSIONS } from '../mcp/info.js';
import { tools } from '../mcp/tools.js';
import type { Site, VersionState } from '../model.js';
import type { ParamSpec } from '../params.js';
import { absolute, apiBase, pagePath, twinPath } from '../urls.js';
import { html, humanDate, inlineCode, type Html } from './html.js';
import type { Page } from './page.js';
import { bullets, facts, section, twin } from './twin.js';

/** When each code is answered (Part 1 §7, D13, D16, D17, D19). A new code without a line here fails the type check. */
const ERROR_CONDITIONS: Record<ErrorCode, string> = {
  invalid_request: 'A query parameter is missing, blank, not an integer, out of range, not one of its allowed values, or given twice. The hint states the valid values.',
  not_found: 'No post has that slug, no project has that id, or the path is not an endpoint. The hint says where the valid identifiers are listed.',
  method_not_allowed: 'Any method other than GET, HEAD or OPTIONS on a read-only address (only /mcp takes POST). The Allow header lists what is allowed.',
  gone: "The API version is past its sunset date. The hint names the same resource in the successor version.",
  payload_too_large: 'A request body over 1 MiB. Only POST /mcp reads a body.',
  unsupported_media_type: 'A POST to /mcp whose Content-Type is not application/json.',
  internal_error: 'An unexpected failure on the server. The body never carries a stack trace; retry later.',
};

/** The envelope's fields (Part 1 §7). */
const ENVELOPE_FIELDS: [field: string, type: string, meaning: string][] = [
  ['error.code', 'string', 'Machine-readable code; branch on this.'],
  ['error.status', 'integer', 'The HTTP status, equal to the response status.'],
  ['error.message', 'string', 'What went wrong, for people.'],
  ['error.hint', 'string', 'How to recover, for instance where valid identifiers are listed.'],
  ['error.documentation_url', 'string (URL)', 'This page.'],
  ['error.openapi_url', 'string (URL)', 'The OpenAPI description.'],
];

/** Oldest first, as people read a list of revisions. */
const MCP_REVISIONS = [...MCP_PROTOCOL_VERSIONS].sort();

function anchor(op: Operation): string {
  return `op-${op.operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Real values from the site, so every example answers 200 on this site. */
function exampleValue(site: Site, spec: ParamSpec): string | number | undefined {
  const topTag = [...site.tags].sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1))[0]?.tag;
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

function curl(url: string, extra = ''): string {
  return `curl -s${extra} '${url.replace(/'/g, "'\\''")}'`;
}

/** "integer, 1–100, default 20"; `code` marks literal values (a pattern) in the caller's format. */
function schemaText(spec: ParamSpec, code: (literal: string) => string = (l) => l): string {
  const s = spec.schema;
  const parts: string[] = [s.type];
  if (s.type === 'integer') parts.push(s.maximum === undefined ? `≥ ${s.minimum}` : `${s.minimum}–${s.maximum}`);
  else {
    if (s.enum) parts.push(`one of ${s.enum.join(', ')}`);
    if (s.minLength !== undefined || s.maxLength !== undefined) parts.push(`${s.minLength ?? 0}–${s.maxLength} characters`);
    if (s.format) parts.push(`format ${s.format}`);
    if (s.pattern) parts.push(`pattern ${code(s.pattern)}`);
  }
  if (s.default !== undefined) parts.push(`default ${s.default}`);
  return parts.join(', ');
}

const backticks = (literal: string) => `\`${literal}\``;

/** "tag?: string" for each argument of a tool's input schema. */
function argumentList(schema: Record<string, unknown>): string[] {
  const props = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.keys(props).map((n) => `${n}${required.has(n) ? '' : '?'}: ${props[n]!.type ?? 'any'}`);
}

function argumentText(schema: Record<string, unknown>): string {
  const list = argumentList(schema);
  return list.length ? `{ ${list.join(', ')} }` : '{}';
}

function argumentsHtml(schema: Record<string, unknown>): Html {
  const list = argumentList(schema);
  return list.length ? html`${list.map((a, i) => html`${i ? html`<br>` : ''}<code>${a}</code>`)}` : html`<span class="muted">none</span>`;
}

/** The codes particular to an operation; 405 and 500 can come from any of them and are said once. */
function errorsOf(op: Operation): ErrorCode[] {
  return [...new Set<ErrorCode>(op.errors)].filter((c) => c !== 'internal_error').sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]);
}

/** The same words as OpenAPI and llms.txt while a version is not current (Part 1 §9.8). */
function versionLine(site: Site, v: VersionState): string {
  return deprecationNotice(site, v) ?? `${v.version} is current and not deprecated${v.sunset ? `; sunset is set for ${v.sunset}` : '; no sunset date is set'}.`;
}

function mcpCall(site: Site, method: string, params?: unknown): string {
  const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) });
  return `curl -s -X POST '${site.config.site_url}${MCP_PATH}' \\\n  -H 'Content-Type: application/json' \\\n  -H 'Accept: application/json, text/event-stream' \\\n  -d '${message.replace(/'/g, "'\\''")}'`;
}

function pre(code: string, language = 'bash'): Html {
  return html`<pre tabindex="0"><code class="language-${language}">${code}</code></pre>`;
}

function fence(code: string, language = 'bash'): string {
  return `\`\`\`${language}\n${code}\n\`\`\``;
}

interface Addresses {
  base: string;
  openapi: string;
  openapiYaml: string;
  mcp: string;
  llms: string;
  catalog: string;
}

function addressesOf(site: Site): Addresses {
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
function local(site: Site, url: string): string {
  return url.startsWith(site.config.site_url) ? url.slice(site.config.site_url.length) || '/' : url;
}

const MACHINE_ADDRESSES: [path: string, what: string][] = [
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

export function developersPage(site: Site): Page {
  const a = addressesOf(site);
  const states = Object.values(site.versions);
  const notices = states.filter((v) => v.status !== 'current');
  const post = site.posts[0];
  const missing = `${a.base}/posts/no-such-post`;
  const errorExample = jsonText(errorBody(site, 'not_found', 'There is no published post with the slug "no-such-post".', `The post list at ${a.base}/posts gives every valid slug in data[].slug.`)).trim();
  const pageUrl = post ? absolute(site, pagePath.post(post.slug)) : absolute(site, pagePath.blog());

  const notice = notices.length
    ? html`<div class="notice" role="note"><p><strong>Deprecation notice.</strong> ${notices.map((v) => versionLine(site, v)).join(' ')} See <a href="#versioning">versioning</a>.</p></div>`
    : '';

  const endpointsHtml = operations.map((op) => {
    const url = exampleUrl(site, op);
    return html`<section class="endpoint" aria-labelledby="${anchor(op)}">
<h3 id="${anchor(op)}"><code>GET /api/v1${op.path}</code> <span class="op-id">${op.operationId}</span></h3>
<p>${inlineCode(op.description)}</p>
${
  op.parameters.length
    ? html`<dl class="params">
${op.parameters.map((p) => html`<div><dt><code>${p.name}</code> <span class="muted">${p.in}, ${p.required ? 'required' : 'optional'}</span></dt><dd>${inlineCode(p.description)} <span class="schema">${inlineCode(schemaText(p, backticks))}</span></dd></div>
`)}</dl>`
    : ''
}
${errorsOf(op).length ? html`<p>Errors: ${errorsOf(op).map((c, i) => html`${i ? ', ' : ''}<a href="#errors"><code>${c}</code></a> (${ERROR_STATUS[c]})`)}.</p>` : ''}
${pre(curl(url))}
</section>
`;
  });

  const toolsHtml = html`<div class="table-scroll" role="region" tabindex="0" aria-label="MCP tools"><table>
<thead><tr><th scope="col">Tool</th><th scope="col">Arguments</th><th scope="col">Returns</th></tr></thead>
<tbody>
${tools.map((t) => html`<tr><td><code>${t.name}</code><br><span class="muted">${t.title}</span></td><td class="nowrap">${argumentsHtml(t.inputSchema)}</td><td>${inlineCode(t.description)}</td></tr>
`)}</tbody>
</table></div>`;

  const main = html`<h1>Developers</h1>
<p class="lead">Everything on this site can be read by scripts and agents: a read-only JSON API, a Model Context Protocol endpoint, and a Markdown twin of every page. No key, no sign-up, no credentials.</p>
${notice}
<nav class="toc" aria-label="On this page">
<ul>
<li><a href="#quick-start">Quick start</a></li>
<li><a href="#endpoints">Endpoints</a></li>
<li><a href="#responses">Responses and headers</a></li>
<li><a href="#errors">Errors</a></li>
<li><a href="#markdown">Markdown twins</a></li>
<li><a href="#mcp">MCP endpoint</a></li>
<li><a href="#fair-use">Fair use</a></li>
<li><a href="#versioning">Versioning</a></li>
<li><a href="#addresses">Machine-readable addresses</a></li>
</ul>
</nav>

<section aria-labelledby="quick-start">
<h2 id="quick-start">Quick start</h2>
<dl class="facts">
<div><dt>API base</dt><dd><a href="${local(site, a.base)}"><code>${a.base}</code></a></dd></div>
<div><dt>OpenAPI</dt><dd><a href="${local(site, a.openapi)}"><code>${a.openapi}</code></a></dd></div>
<div><dt>MCP</dt><dd><code>${a.mcp}</code> (POST, Streamable HTTP)</dd></div>
<div><dt>Authentication</dt><dd>None</dd></div>
</dl>
<p>Every endpoint answers <code>GET</code> (and <code>HEAD</code>) with JSON. The discovery document lists them all:</p>
${pre(curl(a.base))}
</section>

<section aria-labelledby="endpoints">
<h2 id="endpoints">Endpoints</h2>
<p>All paths are relative to <code>${a.base}</code>. Unknown query parameters are ignored. Any endpoint may also answer <code>method_not_allowed</code> (405) to a method other than GET, HEAD or OPTIONS, and <code>internal_error</code> (500); see <a href="#errors">errors</a>.</p>
${endpointsHtml}
</section>

<section aria-labelledby="responses">
<h2 id="responses">Responses and headers</h2>
<ul>
<li>Single resources (discovery, profile, post, project) are the object itself. Lists and search answer <code>{"data": [...], "meta": {...}, "links": {...}}</code>.</li>
<li>The post list pages with <code>limit</code> (1–100, default 20) and <code>offset</code> (default 0); <code>meta</code> holds <code>total</code>, <code>limit</code> and <code>offset</code>, and <code>links.next</code> and <code>links.prev</code> are absolute URLs or <code>null</code>. An offset past the end gives an empty <code>data</code>.</li>
<li>Every post, project and service carries <code>url</code> (its page), <code>markdown_url</code> (its twin) and <code>api_url</code> (its JSON), all absolute: never build a URL by hand.</li>
<li>Every response sends <code>Access-Control-Allow-Origin: *</code>, <code>X-Api-Version</code>, <code>X-Api-Deprecated</code>, a <code>Link</code> to <a href="#versioning">the versioning policy</a> with <code>rel="deprecation"</code>, a <code>Cache-Control</code> and a strong <code>ETag</code>: send it back in <code>If-None-Match</code> to get <code>304 Not Modified</code>.</li>
<li><code>OPTIONS</code> answers a CORS preflight with <code>204</code>.</li>
</ul>
${pre(curl(`${a.base}/posts?limit=2`, 'i'))}
</section>

<section aria-labelledby="errors">
<h2 id="errors">Errors</h2>
<p>Every failure is JSON, never an HTML page, in one envelope. <code>error.status</code> always equals the HTTP status.</p>
<div class="table-scroll" role="region" tabindex="0" aria-label="Error envelope fields"><table>
<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>
<tbody>
${ENVELOPE_FIELDS.map(([f, t, m]) => html`<tr><td><code>${f}</code></td><td>${t}</td><td>${m}</td></tr>
`)}</tbody>
</table></div>
<div class="table-scroll" role="region" tabindex="0" aria-label="Error codes"><table>
<thead><tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col">When</th></tr></thead>
<tbody>
${(Object.keys(ERROR_STATUS) as ErrorCode[]).map((c) => html`<tr><td><code>${c}</code></td><td>${ERROR_STATUS[c]}</td><td>${ERROR_CONDITIONS[c]}</td></tr>
`)}</tbody>
</table></div>
${pre(curl(missing))}
${pre(errorExample, 'json')}
</section>

<section aria-labelledby="markdown">
<h2 id="markdown">Markdown twins</h2>
<p>Every page has a Markdown twin written for agents: add <code>.md</code> to its path (<code>/index.md</code> for the home page), or ask for the page itself with <code>Accept: text/markdown</code>. Markdown is chosen only when it weighs more than <code>text/html</code> in the Accept header (q-values count; a tie gives HTML). Both variants carry <code>Vary: Accept, Accept-Encoding</code>, and each page links its twin with <code>&lt;link rel="alternate" type="text/markdown"&gt;</code> and a <code>Link</code> header.</p>
${pre(`${curl(pageUrl, '')} -H 'Accept: text/markdown'\n${curl(`${pageUrl}.md`)}`)}
</section>

<section aria-labelledby="mcp">
<h2 id="mcp">MCP endpoint</h2>
<p><code>${a.mcp}</code> speaks the Model Context Protocol over Streamable HTTP: POST one JSON-RPC 2.0 message with <code>Content-Type: application/json</code> and get one JSON reply. It is stateless and read-only, needs no authentication and issues no session. Protocol revisions: ${MCP_REVISIONS.map((r, i) => html`${i ? ', ' : ''}<code>${r}</code>`)}. GET on <code>/mcp</code> answers 405. The posts are also MCP resources, addressed by their twins' URLs.</p>
${toolsHtml}
${pre(mcpCall(site, 'tools/list'))}
${post ? pre(mcpCall(site, 'tools/call', { name: 'site_get_post', arguments: { slug: post.slug } })) : ''}
</section>

<section aria-labelledby="fair-use">
<h2 id="fair-use">Fair use</h2>
<p>There is no rate limit and no key. Please keep sustained traffic under about 60 requests a minute, cache with the ETag, and prefer the precomputed lists to crawling. Request bodies over 1 MiB are refused. Nothing on this site is legal, tax or accounting advice.</p>
</section>

<section id="versioning" aria-labelledby="versioning-title">
<h2 id="versioning-title">Versioning</h2>
<ol>
<li>The path carries the major version: the current one is at <code>${a.base}</code>.</li>
<li>Additive changes (new fields, new endpoints) ship inside the current version.</li>
<li>A change that removes or renames a field ships as a new major version at a new path, and the old one keeps serving.</li>
<li>Every response carries <code>X-Api-Version</code> and a <code>Link</code> to this section with <code>rel="deprecation"</code>. While a version is current, <code>X-Api-Deprecated</code> is <code>false</code>.</li>
<li>When a version is deprecated, <code>X-Api-Deprecated</code> becomes <code>true</code>, a <code>Deprecation</code> header (RFC 9745) gives the date it took effect, and a <code>Sunset</code> header (RFC 8594) the date it stops responding, at least 180 days later. The notice is repeated in the OpenAPI description, in llms.txt and on this page.</li>
<li>A deprecated version keeps serving unchanged until its sunset date. No breaking change lands inside a live version.</li>
<li>After the sunset date its paths answer <code>410 Gone</code> with the error envelope, and the hint names the successor endpoint.</li>
</ol>
<h3 id="versions">Current status</h3>
<div class="table-scroll" role="region" tabindex="0" aria-label="API versions"><table>
<thead><tr><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Deprecated</th><th scope="col">Sunset</th><th scope="col">Successor</th></tr></thead>
<tbody>
${states.map((v) => html`<tr><td><code>${v.version}</code></td><td>${v.status}</td><td>${v.deprecated ? humanDate(v.deprecated) : '—'}</td><td>${v.sunset ? humanDate(v.sunset) : '—'}</td><td>${v.successor ?? '—'}</td></tr>
`)}</tbody>
</table></div>
<p>${states.map((v) => versionLine(site, v)).join(' ')}</p>
</section>

<section aria-labelledby="addresses">
<h2 id="addresses">Machine-readable addresses</h2>
<ul>
${MACHINE_ADDRESSES.map(([path, what]) => html`<li><a href="${path}"><code>${path}</code></a>: ${what}</li>
`)}</ul>
</section>`;

  const markdown = twin(
    'Developers',
    'A read-only JSON API, a Model Context Protocol endpoint, and a Markdown twin of every page. No key, no sign-up, no credentials.',
    notices.length ? `> **Deprecation notice.** ${notices.map((v) => versionLine(site, v)).join(' ')}` : null,
    facts([
      ['API base', a.base],
      ['OpenAPI', `${a.openapi} (also ${a.openapiYaml})`],
      ['MCP', `${a.mcp} (POST, Streamable HTTP, stateless)`],
      ['llms.txt', a.llms],
      ['API catalog', a.catalog],
      ['Authentication', 'none'],
      ['Fair use', 'about 60 requests a minute, not enforced'],
      ['HTML', absolute(site, pagePath.developers())],
    ]),
    section(
      'Endpoints',
      'All endpoints answer GET (and HEAD) with JSON. Unknown query parameters are ignored. Any endpoint may also answer `method_not_allowed` (405) and `internal_error` (500).',
      ...operations.map((op) =>
        [
          `### GET /api/v1${op.path} (${op.operationId})`,
          // The declarations' descriptions are written as Markdown (backticked names).
          op.description,
          op.parameters.length
            ? bullets(op.parameters.map((p) => `\`${p.name}\` (${p.in}, ${p.required ? 'required' : 'optional'}; ${schemaText(p, backticks)}): ${p.description}`))
            : 'No parameters.',
          errorsOf(op).length ? `Errors: ${errorsOf(op).map((c) => `\`${c}\` (${ERROR_STATUS[c]})`).join(', ')}.` : '',
          fence(curl(exampleUrl(site, op))),
        ]
          .filter(Boolean)
          .join('\n\n'),
      ),
    ),
    section(
      'Responses and headers',
      bullets([
        'Single resources are the object itself; lists and search answer `{"data": [...], "meta": {...}, "links": {...}}`.',
        'The post list pages with `limit` (1–100, default 20) and `offset` (default 0); `links.next` and `links.prev` are absolute URLs or null.',
        'Every post, project and service carries absolute `url`, `markdown_url` and `api_url`.',
        'Every response sends `Access-Control-Allow-Origin: *`, `X-Api-Version`, `X-Api-Deprecated`, a `Link` with `rel="deprecation"`, a `Cache-Control` and a strong `ETag` (304 on `If-None-Match`).',
      ]),
    ),
    section(
      'Errors',
      'Every failure is JSON in one envelope; `error.status` equals the HTTP status.',
      bullets(ENVELOPE_FIELDS.map(([f, t, m]) => `\`${f}\` (${t}): ${m}`)),
      bullets((Object.keys(ERROR_STATUS) as ErrorCode[]).map((c) => `\`${c}\` (${ERROR_STATUS[c]}): ${ERROR_CONDITIONS[c]}`)),
      fence(curl(missing)),
      fence(errorExample, 'json'),
    ),
    section(
      'Markdown twins',
      'Add `.md` to any page path (`/index.md` for the home page), or send `Accept: text/markdown` to the page itself; Markdown wins only when it weighs more than `text/html`. Both variants carry `Vary: Accept, Accept-Encoding`.',
      fence(`${curl(pageUrl)} -H 'Accept: text/markdown'\n${curl(`${pageUrl}.md`)}`),
    ),
    section(
      'MCP endpoint',
      `POST one JSON-RPC 2.0 message to ${a.mcp} with \`Content-Type: application/json\`; the reply is JSON. Stateless, read-only, no authentication, no session. Protocol revisions: ${MCP_REVISIONS.join(', ')}.`,
      bullets(tools.map((t) => `\`${t.name}\` \`${argumentText(t.inputSchema)}\`: ${t.description}`)),
      fence(mcpCall(site, 'tools/list')),
    ),
    section('Fair use', 'No rate limit is enforced and no key is needed. Keep sustained traffic under about 60 requests a minute and cache with the ETag. Request bodies over 1 MiB are refused. Nothing here is legal, tax or accounting advice.'),
    section(
      'Versioning',
      bullets([
        `The path carries the major version; the current one is at ${a.base}.`,
        'Additive changes ship inside the current version; removing or renaming a field ships as a new major version at a new path while the old one keeps serving.',
        'Every response carries `X-Api-Version` and a `Link` to this section with `rel="deprecation"`; `X-Api-Deprecated: false` while current.',
        'When deprecated: `X-Api-Deprecated: true`, `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers, sunset at least 180 days after deprecation; the notice is repeated in OpenAPI, llms.txt and here.',
        'A deprecated version serves unchanged until its sunset date; after it, its paths answer 410 Gone and the hint names the successor.',
      ]),
      bullets(states.map((v) => `${v.version}: ${v.status}; deprecated ${v.deprecated ?? '—'}; sunset ${v.sunset ?? '—'}; successor ${v.successor ?? '—'}`)),
      states.map((v) => versionLine(site, v)).join(' '),
    ),
    section('Machine-readable addresses', bullets(MACHINE_ADDRESSES.map(([path, what]) => `${site.config.site_url}${path}: ${what}`))),
    section('Related', bullets([`[Home](${absolute(site, twinPath(pagePath.home()))})`, `[Writing](${absolute(site, twinPath(pagePath.blog()))})`])),
  );

  return {
    path: pagePath.developers(),
    title: 'Developers',
    description: `The read-only JSON API, MCP endpoint and Markdown twins of ${site.config.title}: every endpoint, error code and the versioning policy.`,
    section: 'developers',
    type: 'website',
    main,
    markdown,
  };
}
