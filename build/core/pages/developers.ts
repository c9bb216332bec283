// "/developers" (D22): one list of sections, rendered to the HTML page and
// to its Markdown twin, so the two cannot drift apart. Every fact comes from
// the declarations the API, OpenAPI and MCP read (developers-reference.ts)
// or, for what the site says about itself, from site.yaml (D59).
import { operations } from '../api/operations.js';
import { errorBody, ERROR_STATUS, type ErrorCode } from '../errors.js';
import { jsonText } from '../http.js';
import { mdLink, mdText } from '../markdown-text.js';
import { tools } from '../mcp/tools.js';
import type { Site } from '../model.js';
import { fairRate } from '../statements.js';
import { absolute, pagePath, twinPath } from '../urls.js';
import {
  addressesOf,
  anchor,
  argumentList,
  backticks,
  curl,
  ENVELOPE_FIELDS,
  ERROR_CONDITIONS,
  errorsOf,
  exampleUrl,
  local,
  MACHINE_ADDRESSES,
  mcpCall,
  MCP_REVISIONS,
  schemaText,
  versionLine,
} from './developers-reference.js';
import { inlineHtml, sectionsHtml, sectionsMarkdown, tocHtml, type Block, type DocSection } from './doc-blocks.js';
import { html, humanDate } from './html.js';
import type { Page } from './page.js';
import { hasItems } from './published.js';
import { bullets, facts, section, twin } from './twin.js';

const LEAD =
  'Everything on this site can be read by scripts and agents: a read-only JSON API, a Model Context Protocol endpoint, and a Markdown twin of every page. No key, no sign-up, no credentials.';

const link = (url: string, text = url) => `[\`${text}\`](${url})`;

function endpoint(site: Site, op: (typeof operations)[number]): Block {
  const errors = errorsOf(op);
  return {
    sub: {
      id: anchor(op),
      code: `GET /api/v1${op.path}`,
      tag: op.operationId,
      className: 'endpoint',
      blocks: [
        // The declarations' descriptions are written as inline Markdown (backticked names).
        { p: op.description },
        ...(op.parameters.length
          ? [
              {
                params: op.parameters.map((p) => ({
                  name: p.name,
                  where: `${p.in}, ${p.required ? 'required' : 'optional'}`,
                  description: p.description,
                  schema: schemaText(p, backticks),
                })),
              },
            ]
          : []),
        ...(errors.length ? [{ p: `Errors: ${errors.map((c) => `[\`${c}\`](#errors) (${ERROR_STATUS[c]})`).join(', ')}.` }] : []),
        { code: curl(exampleUrl(site, op)) },
      ],
    },
  };
}

export function developerSections(site: Site): DocSection[] {
  const a = addressesOf(site);
  const states = Object.values(site.versions);
  const post = site.posts[0];
  const missing = `${a.base}/posts/no-such-post`;
  const errorExample = jsonText(
    errorBody(
      site,
      'not_found',
      'There is no published post with the slug "no-such-post".',
      `The post list at ${a.base}/posts gives every valid slug in data[].slug.`,
    ),
  ).trim();
  const pageUrl = post ? absolute(site, pagePath.post(post.slug)) : absolute(site, pagePath.home());
  const { disclaimer } = site.config.statements;
  return [
    {
      id: 'quick-start',
      title: 'Quick start',
      blocks: [
        {
          facts: [
            ['API base', link(a.base)],
            ['OpenAPI', `${link(a.openapi)} (also ${link(a.openapiYaml)})`],
            ['MCP', `\`${a.mcp}\` (POST, Streamable HTTP, stateless)`],
            ['llms.txt', link(a.llms)],
            ['API catalog', link(a.catalog)],
            ['Authentication', 'None'],
            ['Fair use', `${fairRate(site)}, not enforced`],
          ],
        },
        { p: 'Every endpoint answers `GET` (and `HEAD`) with JSON. The discovery document lists them all:' },
        { code: curl(a.base) },
      ],
    },
    {
      id: 'endpoints',
      title: 'Endpoints',
      blocks: [
        {
          p: `All paths are relative to \`${a.base}\`. Unknown query parameters are ignored. Any endpoint may also answer \`method_not_allowed\` (405) to a method other than GET, HEAD or OPTIONS, and \`internal_error\` (500); see [errors](#errors).`,
        },
        ...operations.map((op) => endpoint(site, op)),
      ],
    },
    {
      id: 'responses',
      title: 'Responses and headers',
      blocks: [
        {
          list: [
            'Single resources (discovery, profile, post, project) are the object itself. Lists and search answer `{"data": [...], "meta": {...}, "links": {...}}`.',
            'The post list pages with `limit` (1–100, default 20) and `offset` (default 0); `meta` holds `total`, `limit` and `offset`, and `links.next` and `links.prev` are absolute URLs or `null`. An offset past the end gives an empty `data`.',
            'Every post, project and service carries `url` (its page), `markdown_url` (its twin) and `api_url` (its JSON), all absolute: never build a URL by hand.',
            'Every response sends `Access-Control-Allow-Origin: *`, `X-Api-Version`, `X-Api-Deprecated`, a `Link` to [the versioning policy](#versioning) with `rel="deprecation"`, a `Cache-Control` and a strong `ETag`: send it back in `If-None-Match` to get `304 Not Modified`.',
            '`OPTIONS` answers a CORS preflight with `204` and, on the API and `/mcp`, the same version, `Link` and `nosniff` headers, with `Cache-Control: no-store`.',
          ],
        },
        { code: curl(`${a.base}/posts?limit=2`, 'i') },
      ],
    },
    {
      id: 'errors',
      title: 'Errors',
      blocks: [
        { p: 'Every failure is JSON, never an HTML page, in one envelope. `error.status` always equals the HTTP status.' },
        {
          table: {
            label: 'Error envelope fields',
            head: ['Field', 'Type', 'Meaning'],
            rows: ENVELOPE_FIELDS.map(([f, t, m]) => [`\`${f}\``, t, m]),
          },
        },
        {
          table: {
            label: 'Error codes',
            head: ['Code', 'Status', 'When'],
            rows: (Object.keys(ERROR_STATUS) as ErrorCode[]).map((c) => [`\`${c}\``, String(ERROR_STATUS[c]), ERROR_CONDITIONS[c]]),
          },
        },
        { code: curl(missing) },
        { code: errorExample, language: 'json' },
      ],
    },
    {
      id: 'markdown',
      title: 'Markdown twins',
      blocks: [
        {
          p: 'Every page has a Markdown twin written for agents: add `.md` to its path (`/index.md` for the home page), or ask for the page itself with `Accept: text/markdown`. Markdown is chosen only when it weighs more than `text/html` in the Accept header (q-values count; a tie gives HTML). Both variants carry `Vary: Accept, Accept-Encoding`, each page links its twin with `<link rel="alternate" type="text/markdown">` and a `Link` header, and each twin names its page canonical in a `Link` header, so search engines list the page and not its twin.',
        },
        { code: `${curl(pageUrl, '')} -H 'Accept: text/markdown'\n${curl(`${pageUrl.replace(/\/$/, '/index')}.md`)}` },
      ],
    },
    {
      id: 'mcp',
      title: 'MCP endpoint',
      blocks: [
        {
          p: `\`${a.mcp}\` speaks the Model Context Protocol over Streamable HTTP: POST one JSON-RPC 2.0 message with \`Content-Type: application/json\` and get one JSON reply. It is stateless and read-only, needs no authentication and issues no session. Protocol revisions: ${MCP_REVISIONS.map((r) => `\`${r}\``).join(', ')}. GET on \`/mcp\` answers 405. The posts are also MCP resources, addressed by their twins' URLs.`,
        },
        {
          table: {
            label: 'MCP tools',
            head: ['Tool', 'Arguments', 'Returns'],
            rows: tools.map((t) => [
              { lines: [`\`${t.name}\``], muted: t.title },
              { lines: argumentList(t.inputSchema).map((arg) => `\`${arg}\``) },
              t.description,
            ]),
            nowrap: 1,
          },
        },
        { code: mcpCall(site, 'tools/list') },
        ...(post ? [{ code: mcpCall(site, 'tools/call', { name: 'site_get_post', arguments: { slug: post.slug } }) }] : []),
      ],
    },
    {
      id: 'fair-use',
      title: 'Fair use',
      blocks: [
        {
          p: `There is no rate limit and no key. Please keep sustained traffic under ${fairRate(site)}, cache with the ETag, and prefer the precomputed lists to crawling. Request bodies over 1 MiB are refused.`,
        },
        ...(disclaimer ? [{ p: mdText(disclaimer) }] : []),
      ],
    },
    {
      id: 'versioning',
      title: 'Versioning',
      idOnSection: true,
      blocks: [
        {
          ordered: true,
          list: [
            `The path carries the major version: the current one is at \`${a.base}\`.`,
            'Additive changes (new fields, new endpoints) ship inside the current version.',
            'A change that removes or renames a field ships as a new major version at a new path, and the old one keeps serving.',
            'Every response carries `X-Api-Version` and a `Link` to this section with `rel="deprecation"`. While a version is current, `X-Api-Deprecated` is `false`.',
            'When a version is deprecated, `X-Api-Deprecated` becomes `true`, a `Deprecation` header (RFC 9745) gives the date it took effect, and a `Sunset` header (RFC 8594) the date it stops responding, at least 180 days later. The notice is repeated in the OpenAPI description, in llms.txt and on this page.',
            'A deprecated version keeps serving unchanged until its sunset date. No breaking change lands inside a live version.',
            'After the sunset date its paths answer `410 Gone` with the error envelope, and the hint names the successor endpoint.',
          ],
        },
        { heading: 'Current status', id: 'versions' },
        {
          table: {
            label: 'API versions',
            head: ['Version', 'Status', 'Deprecated', 'Sunset', 'Successor'],
            rows: states.map((v) => [
              `\`${v.version}\``,
              v.status,
              v.deprecated ? humanDate(v.deprecated) : '—',
              v.sunset ? humanDate(v.sunset) : '—',
              v.successor ?? '—',
            ]),
          },
        },
        { p: states.map((v) => versionLine(site, v)).join(' ') },
      ],
    },
    {
      id: 'addresses',
      title: 'Machine-readable addresses',
      blocks: [{ list: MACHINE_ADDRESSES.map(([path, what]) => `${link(`${site.config.site_url}${path}`, path)}: ${what}`) }],
    },
  ];
}

export function developersPage(site: Site): Page {
  const notices = Object.values(site.versions).filter((v) => v.status !== 'current');
  const notice = notices.length ? `**Deprecation notice.** ${notices.map((v) => versionLine(site, v)).join(' ')}` : null;
  const sections = developerSections(site);
  const href = (url: string) => local(site, url);

  const main = html`<h1>Developers</h1>
<p class="lead">${LEAD}</p>
${notice ? html`<div class="notice" role="note"><p>${inlineHtml(notice, href)} See <a href="#versioning">versioning</a>.</p></div>` : ''}
${tocHtml(sections)}

${sectionsHtml(sections, href)}`;

  const md = (path: string) => absolute(site, twinPath(path));
  const markdown = twin(
    'Developers',
    LEAD,
    notice && `> ${notice}`,
    facts([['HTML', absolute(site, pagePath.developers())]]),
    // In the twin, in-page anchors point at the HTML page's sections.
    sectionsMarkdown(sections).replace(/\]\(#/g, `](${absolute(site, pagePath.developers())}#`),
    section(
      'Related',
      bullets([mdLink('Home', md(pagePath.home())), ...(hasItems(site, 'blog') ? [mdLink('Writing', md(pagePath.blog()))] : [])]),
    ),
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
