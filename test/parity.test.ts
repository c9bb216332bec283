// Parity (D38, D39): `folio serve` and Cloudflare's runtime, serving the same
// dist/, answer a corpus of requests with the same status, the same bytes and
// the same key headers. The conformance suite says each target is right; this
// says they agree on everything in between, errors included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSample, serveTarget, wranglerTarget, type Target } from './conformance/targets.js';
import { initializeMessage } from './helpers/mcp.js';

let serve: Target;
let cloudflare: Target;
let sample: Awaited<ReturnType<typeof buildSample>>;

beforeAll(async () => {
  sample = await buildSample();
  [serve, cloudflare] = await Promise.all([serveTarget(sample.dist), wranglerTarget(sample.dist)]);
}, 180_000);
afterAll(async () => {
  await Promise.all([serve?.close(), cloudflare?.close()]);
  await sample?.remove();
});

interface Case {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Headers a client acts on. Left out: Date, Server, transfer framing, and
 * Referrer-Policy, which Pages adds to every file it serves itself. ETag is
 * compared where both answers come from folio's code (see below).
 */
const KEY_HEADERS = [
  'content-type',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'allow',
  'vary',
  'cache-control',
  'x-api-version',
  'x-api-deprecated',
  'deprecation',
  'sunset',
  'link',
  'content-security-policy',
  'x-content-type-options',
  'location',
  'mcp-session-id',
];

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rpc = (body: unknown): Case => ({ method: 'POST', path: '/mcp', headers: json, body: JSON.stringify(body) });
const md = { accept: 'text/markdown' };

const CORPUS: Case[] = [
  // The API, its filters and any paging (D7-D11, D14).
  ...['', '/profile', '/services', '/posts', '/projects', '/posts/short-lived-ssh-certificates', '/projects/pidwatch'].map((p) => ({
    path: `/api/v1${p}`,
  })),
  ...[
    'tag=ci',
    'tag=CI',
    'tag=no-such-tag',
    'limit=3&offset=2',
    'offset=5',
    'offset=999',
    'limit=100',
    'tag=ci&limit=1&offset=1',
    'tag=ci&utm_source=feed',
    'offset=0&limit=20',
  ].map((q) => ({ path: `/api/v1/posts?${q}` })),
  ...['status=live', 'status=sunset', 'status=delivered', 'status=paused'].map((q) => ({ path: `/api/v1/projects?${q}` })),
  { path: '/api/v1/posts/' },
  { method: 'HEAD', path: '/api/v1/posts?limit=2' },
  { method: 'HEAD', path: '/api/v1/posts?tag=ci' },
  // Errors in the envelope (D8, D10, D13, D15, D16).
  ...['limit=0', 'limit=abc', 'limit=5&limit=6', 'offset=-1'].map((q) => ({ path: `/api/v1/posts?${q}` })),
  ...['/api/v1/posts/no-such-post', '/api/v1/projects/no-such-project', '/api/v1/no-such-thing', '/api/v9', '/api/v1/posts/a/b'].map(
    (path) => ({ path }),
  ),
  { method: 'POST', path: '/api/v1/posts', headers: { 'content-type': 'application/json' }, body: '{}' },
  { method: 'DELETE', path: '/api/v1/profile' },
  {
    method: 'OPTIONS',
    path: '/api/v1/posts?tag=ci',
    headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
  },
  // Search (D12).
  ...['q=ssh', 'q=deliverabilty', 'q=ssh&limit=2', 'q=', 'q=%20', '', `q=${'x'.repeat(201)}`].map((q) => ({
    path: `/api/v1/search${q ? `?${q}` : ''}`,
  })),
  // Pages, twins and negotiation (D20-D23).
  ...[
    '/',
    '/blog',
    '/about',
    '/services',
    '/projects',
    '/developers',
    '/blog/tags/ci',
    '/blog/short-lived-ssh-certificates',
    '/projects/pidwatch',
  ].flatMap((path) => [{ path }, { path, headers: md }]),
  { path: '/blog', headers: { accept: 'text/markdown;q=0.5, text/html' } },
  { path: '/blog', headers: { accept: 'text/html;q=0.5, text/markdown' } },
  ...['/index.md', '/blog.md', '/blog/short-lived-ssh-certificates.md', '/assets/site.css'].map((path) => ({ path })),
  ...['/no-such-page', '/blog/no-such-post', '/no-such-page.md', '/_folio/site.json'].flatMap((path) => [{ path }, { path, headers: md }]),
  // Machine-readable addresses (D25-D35).
  ...[
    '/openapi.json',
    '/openapi.yaml',
    '/llms.txt',
    '/sitemap.xml',
    '/feed.xml',
    '/feed.json',
    '/robots.txt',
    '/server.json',
    '/.well-known/api-catalog',
    '/mcp/server-card',
    '/.well-known/agent-instructions',
  ].map((path) => ({ path })),
  { method: 'HEAD', path: '/.well-known/api-catalog' },
  // MCP (D36, D37).
  rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  rpc(initializeMessage('2025-06-18', 2)),
  rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'site_search_writing', arguments: { query: 'ssh', limit: 2 } } }),
  rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'site_get_post', arguments: { slug: 'no-such-post' } } }),
  // A former slug (D48): the tool follows the API's 301.
  rpc({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'site_get_post', arguments: { slug: 'goodbye-pidwatch' } } }),
  rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  { method: 'POST', path: '/mcp', headers: json, body: '{"jsonrpc":' },
  { method: 'POST', path: '/mcp', headers: { 'content-type': 'text/plain' }, body: '{}' },
  { method: 'GET', path: '/mcp' },
  { method: 'DELETE', path: '/mcp' },
  {
    method: 'OPTIONS',
    path: '/mcp',
    headers: {
      origin: 'https://agent.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, mcp-protocol-version',
    },
  },
];

/** folio's own ETags (not the ones Pages computes for the files it serves itself). */
const FOLIO_ETAG = /^"[0-9a-z]+-[0-9a-z]+"$/;

async function ask(target: Target, c: Case) {
  const res = await fetch(target.url + c.path, { method: c.method ?? 'GET', headers: c.headers, body: c.body, redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
}

describe('folio serve and Cloudflare Pages agree (D38, D39)', () => {
  it('on status, bytes and key headers for every request of the corpus', async () => {
    const differences: string[] = [];
    let etags = 0;
    for (const c of CORPUS) {
      const label = `${c.method ?? 'GET'} ${c.path}${c.headers?.accept ? ` (Accept: ${c.headers.accept})` : ''}`;
      const [a, b] = await Promise.all([ask(serve, c), ask(cloudflare, c)]);
      if (a.status !== b.status) differences.push(`${label}: status ${a.status} (serve) vs ${b.status} (Cloudflare)`);
      if (!a.body.equals(b.body)) differences.push(`${label}: bodies differ (${a.body.length} vs ${b.body.length} bytes)`);
      for (const name of KEY_HEADERS) {
        const [x, y] = [a.headers.get(name), b.headers.get(name)];
        if (x !== y) differences.push(`${label}: ${name} ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
      }
      const [x, y] = [a.headers.get('etag'), b.headers.get('etag')];
      if (a.status === 200 && (!x || !y)) differences.push(`${label}: an ETag is missing`);
      if (x && y && FOLIO_ETAG.test(y)) {
        etags++;
        if (x !== y) differences.push(`${label}: etag ${x} vs ${y}`);
      }
    }
    expect(differences).toEqual([]);
    expect(CORPUS.length).toBeGreaterThan(80);
    // Most answers come from folio's code on Cloudflare too, ETag included.
    expect(etags).toBeGreaterThan(30);
  });
});
