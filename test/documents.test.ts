// The machine-readable addresses (D26, D27, D29–D35) over a real `folio serve`:
// media types and CORS, llms.txt structure with every link resolving, the
// sitemap, robots.txt, the RFC 9727 linkset, the MCP server card and
// server.json (checked against the draft's rules and against what /mcp says),
// the AI Catalog and the agent instructions.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBuilt } from './helpers/site.js';

const SITE = 'https://hannabrink.example';
const BASE = `${SITE}/api/v1`;

let s: Awaited<ReturnType<typeof serveBuilt>>;
let posts: any[];
let projects: any[];
let services: any[];
let tags: string[];

beforeAll(async () => {
  s = await serveBuilt();
  posts = ((await (await fetch(s.at('/api/v1/posts?limit=100'))).json()) as any).data;
  projects = ((await (await fetch(s.at('/api/v1/projects'))).json()) as any).data;
  services = ((await (await fetch(s.at('/api/v1/services'))).json()) as any).data;
  tags = [...new Set(posts.flatMap((p) => p.tags as string[]))].sort();
});
afterAll(() => s?.close());

const get = (path: string, init?: RequestInit) => fetch(s.at(path), init);
const text = async (path: string) => (await get(path)).text();
const json = async (path: string) => (await get(path)).json() as Promise<any>;

/** A site URL on the test server: only same-origin links are followed. */
function local(url: string): string {
  expect(url.startsWith(`${SITE}/`), `${url} is not on ${SITE}`).toBe(true);
  return url.slice(SITE.length);
}

const TYPES: Record<string, string> = {
  '/openapi.json': 'application/json; charset=utf-8',
  '/openapi.yaml': 'application/yaml; charset=utf-8',
  '/llms.txt': 'text/plain; charset=utf-8',
  '/llms-full.txt': 'text/plain; charset=utf-8',
  '/sitemap.xml': 'application/xml; charset=utf-8',
  '/feed.xml': 'application/atom+xml; charset=utf-8',
  '/feed.json': 'application/feed+json; charset=utf-8',
  '/robots.txt': 'text/plain; charset=utf-8',
  '/.well-known/api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  '/.well-known/mcp/server-card.json': 'application/mcp-server-card+json',
  '/mcp/server-card': 'application/mcp-server-card+json',
  '/server.json': 'application/json; charset=utf-8',
  '/.well-known/ai-catalog.json': 'application/ai-catalog+json',
  '/.well-known/agent-instructions': 'text/markdown; charset=utf-8',
};

describe('media types and CORS (D35)', () => {
  it.each(Object.entries(TYPES))('%s answers %s with CORS, nosniff, caching and an ETag; HEAD matches', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const tag = res.headers.get('etag');
    expect(tag).toMatch(/^"[^"]+"$/);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const head = await get(path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(type);
    expect(head.headers.get('etag')).toBe(tag);
    expect(await head.text()).toBe('');

    expect((await get(path, { headers: { 'if-none-match': tag! } })).status).toBe(304);
    const preflight = await get(path, {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect((await get(path, { method: 'DELETE' })).status).toBe(405);
  });

  it('every JSON document parses as JSON', async () => {
    const paths = Object.keys(TYPES).filter((p) => /json/.test(TYPES[p]!));
    expect(paths).toHaveLength(7);
    for (const path of paths) expect(typeof JSON.parse(await text(path)), path).toBe('object');
  });
});

describe('llms.txt (D26)', () => {
  let body: string;
  beforeAll(async () => {
    body = await text('/llms.txt');
  });

  it('has an H1 with the site title, a blockquote summary, then H2 sections in order', async () => {
    const lines = body.split('\n');
    const site = await json('/api/v1');
    expect(lines[0]).toBe(`# ${site.name.replace(/ API$/, '')}`);
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> \S/);
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('## '))).toEqual([
      '## Profile',
      '## Services',
      '## Writing',
      '## Projects',
      '## API and MCP',
      '## Optional',
    ]);
    // Nothing but prose between the blockquote and the first section: no other headings.
    expect(lines.slice(3, lines.indexOf('## Profile')).some((l) => /^#/.test(l))).toBe(false);
  });

  it('lists items as `- [Name](url): note` linking the Markdown twins, outside API and MCP', () => {
    const sections = body.split('\n## ').slice(1);
    for (const section of sections) {
      const [heading, ...rest] = section.split('\n');
      const items = rest.filter((l) => l.trim() !== '');
      expect(items.length, heading).toBeGreaterThan(0);
      for (const item of items) {
        const m = /^- \[(.+?)\]\((\S+)\)(?:: (.+))?$/.exec(item);
        expect(m, `${heading}: ${item}`).not.toBeNull();
        expect(m![3], `${heading}: ${item} has no note`).toBeTruthy();
        if (heading !== 'API and MCP' && heading !== 'Optional') expect(m![2], item).toMatch(/\.md$/);
      }
    }
  });

  it('links every page and post twin, and the OpenAPI, discovery and MCP addresses', () => {
    const links = new Set([...body.matchAll(/\]\((\S+)\)/g)].map((m) => m[1]));
    for (const path of [
      '/index.md',
      '/about.md',
      '/services.md',
      '/blog.md',
      '/projects.md',
      '/developers.md',
      '/openapi.json',
      '/api/v1',
      '/mcp',
    ])
      expect(links, path).toContain(`${SITE}${path}`);
    for (const post of posts) expect(links).toContain(post.markdown_url);
    for (const project of projects) expect(links).toContain(project.markdown_url);
    // One item per service, linking its own twin (D47).
    for (const service of services) expect(body).toContain(`- [${service.title}](${service.markdown_url}): ${service.summary}`);
    for (const tag of tags) expect(links).toContain(`${SITE}/blog/tags/${tag}.md`);
  });

  it('every link resolves on the served site (/mcp answers GET with 405)', async () => {
    const all = [...new Set([...body.matchAll(/\]\((\S+)\)/g)].map((m) => m[1]!))];
    // The one link off the site is the license of the writing (D51).
    expect(all.filter((url) => !url.startsWith(`${SITE}/`))).toEqual(['https://creativecommons.org/licenses/by/4.0/']);
    const links = all.filter((url) => url.startsWith(`${SITE}/`));
    expect(links.length).toBeGreaterThan(40);
    for (const url of links) {
      const res = await get(local(url));
      expect(res.status, url).toBe(url === `${SITE}/mcp` ? 405 : 200);
      if (url.endsWith('.md')) expect(res.headers.get('content-type'), url).toBe('text/markdown; charset=utf-8');
      await res.arrayBuffer();
    }
  });

  it('llms-full.txt holds the full Markdown of every page and post: each served twin, verbatim', async () => {
    const full = await text('/llms-full.txt');
    expect(full).toMatch(/^# /);
    const pages = [
      `${SITE}/`,
      ...['/about', '/services', '/blog', '/projects', '/developers'].map((p) => SITE + p),
      ...tags.map((t) => `${SITE}/blog/tags/${t}`),
      ...posts.map((p) => p.url),
      ...projects.map((p) => p.url),
    ];
    for (const page of pages) {
      const twin = await text(local(page === `${SITE}/` ? `${SITE}/index.md` : `${page}.md`));
      expect(full.includes(twin), page).toBe(true);
    }
    for (const post of posts) expect(full).toContain(((await json(local(post.api_url))) as any).content_markdown.trim());
  });
});

describe('sitemap.xml (D27) and robots.txt (D29)', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'url' });

  it('is well-formed sitemaps.org XML listing every HTML page with an absolute loc and a W3C lastmod', async () => {
    const xml = await text('/sitemap.xml');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parser.parse(xml);
    expect(doc.urlset['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const urls = doc.urlset.url as { loc: string; lastmod: string }[];
    const expected = [
      `${SITE}/`,
      ...['/about', '/services', '/blog', '/projects', '/developers'].map((p) => SITE + p),
      ...tags.map((t) => `${SITE}/blog/tags/${t}`),
      ...posts.map((p) => p.url),
      ...projects.map((p) => p.url),
      ...services.map((p) => p.url),
    ];
    expect(urls.map((u) => u.loc).sort()).toEqual(expected.sort());
    for (const { lastmod } of urls) expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const byLoc = new Map(urls.map((u) => [u.loc, u.lastmod]));
    for (const post of posts) expect(byLoc.get(post.url)).toBe(post.updated ?? post.date);
    expect(byLoc.get(`${SITE}/blog`)).toBe(
      posts
        .map((p) => p.updated ?? p.date)
        .sort()
        .at(-1),
    );
  });

  it('every loc resolves to an HTML page on the served site', async () => {
    const doc = parser.parse(await text('/sitemap.xml'));
    for (const { loc } of doc.urlset.url) {
      const res = await get(local(loc));
      expect(res.status, loc).toBe(200);
      expect(res.headers.get('content-type'), loc).toMatch(/^text\/html/);
      await res.arrayBuffer();
    }
  });

  it('robots.txt allows everything and names the sitemap by absolute URL (RFC 9309)', async () => {
    const lines = (await text('/robots.txt'))
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean);
    const rules = lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
    expect(rules).toContainEqual(['user-agent', '*']);
    expect(rules.filter(([k]) => k === 'disallow').every(([, v]) => v === '')).toBe(true);
    const sitemaps = lines.filter((x) => /^sitemap:/i.test(x)).map((x) => x.slice('sitemap:'.length).trim());
    expect(sitemaps).toEqual([`${SITE}/sitemap.xml`]);
    expect((await get(local(sitemaps[0]!))).status).toBe(200);
  });
});

describe('/.well-known/api-catalog (D30, RFC 9727)', () => {
  it('is a linkset with its media type and profile parameter, anchored at base_url', async () => {
    const res = await get('/.well-known/api-catalog');
    const [media, ...params] = res.headers
      .get('content-type')!
      .split(';')
      .map((p) => p.trim());
    expect(media).toBe('application/linkset+json');
    expect(params).toContain('profile="https://www.rfc-editor.org/info/rfc9727"');
    const body = (await res.json()) as any;
    expect(Object.keys(body)).toEqual(['linkset']);
    const entry = body.linkset.find((e: any) => e.anchor === BASE);
    expect(entry).toBeDefined();
    expect(entry['service-desc']).toEqual([
      { href: `${SITE}/openapi.json`, type: 'application/json' },
      { href: `${SITE}/openapi.yaml`, type: 'application/yaml' },
    ]);
    expect(entry['service-doc']).toEqual([{ href: `${SITE}/developers`, type: 'text/html' }]);
    expect(entry['service-meta'][0].href).toBe(BASE);
    // Every target resolves, served with the media type the link announces (RFC 8288 §3.4.1).
    for (const rel of ['service-desc', 'service-doc', 'service-meta']) {
      for (const link of entry[rel]) {
        const target = await get(local(link.href));
        expect(target.status, link.href).toBe(200);
        expect(target.headers.get('content-type')!.split(';')[0], link.href).toBe(link.type);
      }
    }
  });

  it('HEAD carries Link: rel="api-catalog" pointing at itself', async () => {
    const res = await get('/.well-known/api-catalog', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(`<${SITE}/.well-known/api-catalog>; rel="api-catalog"`);
  });
});

// The name rules of the Server Card draft (modelcontextprotocol/experimental-ext-server-card
// schema.json, ServerCard.name) and of the MCP Registry's server.json (2025-12-11): reverse-DNS,
// exactly one slash, 3–200 characters; description 1–100 characters.
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

describe('MCP server card (D31) and server.json (D32)', () => {
  it('serves the same card at both addresses, following the draft', async () => {
    const a = await text('/.well-known/mcp/server-card.json');
    expect(await text('/mcp/server-card')).toBe(a);
    const card = JSON.parse(a);
    expect(card.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    expect(card.name).toMatch(NAME);
    expect(card.name.length).toBeGreaterThanOrEqual(3);
    expect(card.name.length).toBeLessThanOrEqual(200);
    // Reverse-DNS of the site's host.
    expect(card.name.split('/')[0]).toBe('example.hannabrink');
    expect(card.description.length).toBeGreaterThan(0);
    expect(card.description.length).toBeLessThanOrEqual(100);
    expect(card.title.length).toBeLessThanOrEqual(100);
    expect(card.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(card.websiteUrl).toBe(SITE);
    expect(card.remotes).toHaveLength(1);
    expect(card.remotes[0]).toMatchObject({ type: 'streamable-http', url: `${SITE}/mcp` });
    expect(card.remotes[0].supportedProtocolVersions).toEqual(
      expect.arrayContaining(['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']),
    );
    const allowed = new Set([
      '$schema',
      '_meta',
      'description',
      'icons',
      'name',
      'remotes',
      'repository',
      'title',
      'version',
      'websiteUrl',
    ]);
    for (const key of Object.keys(card)) expect(allowed, key).toContain(key);
  });

  it('server.json follows the MCP Registry schema and agrees with the card', async () => {
    const server = await json('/server.json');
    const card = await json('/mcp/server-card');
    expect(server.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
    expect(server.name).toMatch(NAME);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.remotes).toEqual([{ type: 'streamable-http', url: `${SITE}/mcp` }]);
    expect({ name: server.name, version: server.version, description: server.description, title: server.title }).toEqual({
      name: card.name,
      version: card.version,
      description: card.description,
      title: card.title,
    });
  });

  it('agrees with what POST /mcp reports on initialize', async () => {
    const card = await json('/mcp/server-card');
    const initialize = (protocolVersion: string) =>
      get('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion, capabilities: {}, clientInfo: { name: 'folio-test', version: '0.0.0' } },
        }),
      });
    const initializeVersions = card.remotes[0].supportedProtocolVersions.filter((v: string) => v < '2026-01-01');
    expect(initializeVersions.length).toBeGreaterThan(0);
    for (const version of initializeVersions) {
      const res = await initialize(version);
      expect(res.status, version).toBe(200);
      const { result } = (await res.json()) as any;
      expect(result.serverInfo.name).toBe(card.name);
      expect(result.serverInfo.version).toBe(card.version);
      expect(result.protocolVersion).toBe(version);
    }
  });

  it('lists every revision server/discover reports (the stateless 2026-07-28 leg)', async () => {
    const card = await json('/mcp/server-card');
    const res = await get('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as any;
    expect(result.supportedVersions.length).toBeGreaterThan(0);
    for (const version of result.supportedVersions) expect(card.remotes[0].supportedProtocolVersions).toContain(version);
  });
});

describe('/.well-known/ai-catalog.json (D33)', () => {
  it('lists the MCP server card and the API, each with identifier, media type and a URL that resolves', async () => {
    const catalog = await json('/.well-known/ai-catalog.json');
    expect(catalog.specVersion).toMatch(/^\d+\.\d+$/);
    expect(catalog.entries.map((e: any) => e.type).sort()).toEqual(['application/mcp-server-card+json', 'application/openapi+json']);
    for (const entry of catalog.entries) {
      expect(typeof entry.identifier).toBe('string');
      expect(entry.identifier).toMatch(/^urn:air:hannabrink\.example:/);
      const res = await get(local(entry.url));
      expect(res.status, entry.url).toBe(200);
      await res.json();
    }
    const card = catalog.entries.find((e: any) => e.type === 'application/mcp-server-card+json');
    expect((await get(local(card.url))).headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(new Set(catalog.entries.map((e: any) => e.identifier)).size).toBe(catalog.entries.length);
  });
});

describe('/.well-known/agent-instructions (D34)', () => {
  it('tells an agent what the site holds, where to start, fair use, and that it is no advice', async () => {
    const md = await text('/.well-known/agent-instructions');
    expect(md).toMatch(/^# /);
    expect(md).toContain(`${SITE}/llms.txt`);
    expect(md).toContain(BASE);
    expect(md).toContain(`${SITE}/openapi.json`);
    expect(md).toContain(`${SITE}/mcp`);
    expect(md).toMatch(/60 requests a minute/);
    expect(md).toMatch(/nothing here is legal, tax or accounting advice/i);
    for (const tool of ['site_get_profile', 'site_list_posts', 'site_get_post', 'site_search_writing', 'site_list_projects'])
      expect(md).toContain(tool);
  });

  it('names the owner, then gives the headline and the location as written, never spliced mid-sentence', async () => {
    const md = await text('/.well-known/agent-instructions');
    const profile = await json('/api/v1/profile');
    expect(profile.headline).toMatch(/^\p{Lu}/u);
    expect(md).toContain(`\n\nThis site belongs to ${profile.name}: ${profile.headline}. Location: ${profile.location}. It holds `);
    expect(md).not.toContain(`${profile.name}, ${profile.headline}`);
  });
});
