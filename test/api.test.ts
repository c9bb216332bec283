// The JSON API over a real `folio serve` on 127.0.0.1 (D4–D18).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas, type SchemaName } from '../build/core/schemas.js';
import { ajv } from './helpers/ajv.js';
import { serveBuilt } from './helpers/site.js';

let s: Awaited<ReturnType<typeof serveBuilt>>;
const SITE = 'https://hannabrink.example';
const BASE = `${SITE}/api/v1`;

beforeAll(async () => {
  s = await serveBuilt();
});
afterAll(() => s?.close());

const get = (path: string, init?: RequestInit) => fetch(s.at(path), init);
async function json(path: string, init?: RequestInit) {
  const res = await get(path, init);
  return { res, body: (await res.json()) as any };
}

function expectSchema(name: SchemaName, body: unknown) {
  const validate = ajv.getSchema(name) ?? (ajv.addSchema(schemas[name]!, name), ajv.getSchema(name)!);
  const ok = validate(body);
  expect(validate.errors ?? [], `${name}: ${JSON.stringify(validate.errors)}`).toEqual([]);
  expect(ok).toBe(true);
}

/** The envelope of D17, with the status repeated inside. */
async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = (await res.json()) as any;
  expect(body.error).toMatchObject({ code, status, documentation_url: `${SITE}/developers`, openapi_url: `${SITE}/openapi.json` });
  expect(typeof body.error.message).toBe('string');
  expect(body.error.hint.length).toBeGreaterThan(10);
  expectSchema('ErrorEnvelope', body);
  expectApiHeaders(res);
  return body.error as { message: string; hint: string };
}

/** D18 on every API response, errors included. */
function expectApiHeaders(res: Response) {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-expose-headers')).toMatch(/ETag/);
  expect(res.headers.get('x-api-version')).toBe('v1');
  expect(res.headers.get('x-api-deprecated')).toBe('false');
  expect(res.headers.get('link')).toBe(`<${SITE}/developers#versioning>; rel="deprecation"; type="text/html"`);
  expect(res.headers.get('cache-control')).toBeTruthy();
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('deprecation')).toBeNull();
  expect(res.headers.get('sunset')).toBeNull();
}

describe('discovery (D7)', () => {
  it('lists every operation (D7) with absolute URLs and parameters', async () => {
    const { res, body } = await json('/api/v1');
    expect(res.status).toBe(200);
    expectApiHeaders(res);
    expectSchema('Discovery', body);
    expect(body).toMatchObject({
      version: 'v1',
      status: 'current',
      documentation_url: `${SITE}/developers`,
      openapi_url: `${SITE}/openapi.json`,
      mcp_url: `${SITE}/mcp`,
    });
    const ids = body.endpoints.map((e: any) => e.operationId);
    expect(ids).toEqual([
      'getApiIndex',
      'getProfile',
      'listServices',
      'getService',
      'listPosts',
      'getPost',
      'listProjects',
      'getProject',
      'getAvailability',
      'listChanges',
      'searchContent',
    ]);
    const posts = body.endpoints.find((e: any) => e.operationId === 'listPosts');
    expect(posts).toMatchObject({ method: 'GET', path: '/api/v1/posts', url: `${BASE}/posts` });
    expect(posts.parameters.map((p: any) => p.name)).toEqual(['tag', 'limit', 'offset']);
    const search = body.endpoints.find((e: any) => e.operationId === 'searchContent');
    expect(search.parameters.find((p: any) => p.name === 'q').required).toBe(true);
  });
});

describe('profile and services', () => {
  it('returns the profile object at the top level with its links (D4, D5)', async () => {
    const { res, body } = await json('/api/v1/profile');
    expect(res.status).toBe(200);
    expectSchema('Profile', body);
    expect(body.name).toBe('Hanna Brink');
    expect(body.contact.email).toBe('hello@hannabrink.example');
    expect(body).toMatchObject({ url: `${SITE}/about`, markdown_url: `${SITE}/about.md`, api_url: `${BASE}/profile` });
    // A front-matter field the contract does not name passes through (D2).
    expect(body.languages).toBeDefined();
  });

  it('lists the services in data, in their order, each with url, markdown_url and api_url', async () => {
    const { body } = await json('/api/v1/services');
    expectSchema('ServiceList', body);
    expect(body.data.length).toBeGreaterThanOrEqual(4);
    expect(body.meta.total).toBe(body.data.length);
    const orders = body.data.map((x: any) => x.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    for (const svc of body.data) {
      expect(svc.url).toBe(`${SITE}/services/${svc.id}`);
      expect(svc.markdown_url).toBe(`${SITE}/services/${svc.id}.md`);
      expect(svc.api_url).toBe(`${BASE}/services/${svc.id}`);
    }
  });

  it('answers each service at its api_url (getService, D47), and an unknown id with 404 and a hint to the list', async () => {
    const { body: list } = await json('/api/v1/services');
    for (const item of list.data) {
      const { res, body } = await json(item.api_url.slice(SITE.length));
      expect(res.status).toBe(200);
      expectApiHeaders(res);
      expectSchema('Service', body);
      expect(body).toEqual(item);
      // Its page and twin exist where the links say.
      expect((await get(item.url.slice(SITE.length))).status).toBe(200);
      const twin = await get(item.markdown_url.slice(SITE.length));
      expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await twin.text()).toContain(`# ${item.title}`);
    }
    const error = await expectError(await get('/api/v1/services/nope'), 404, 'not_found');
    expect(error.hint).toContain(`${BASE}/services`);
  });
});

describe('posts (D6, D8, D9, D11)', () => {
  it('lists published posts newest first, ties by slug, each with the D6 fields', async () => {
    const { res, body } = await json('/api/v1/posts');
    expect(res.status).toBe(200);
    expectSchema('PostList', body);
    expect(body.meta).toEqual({ total: 17, limit: 20, offset: 0, tag: null });
    expect(body.links).toEqual({ self: `${BASE}/posts`, next: null, prev: null });
    const keys = body.data.map((p: any) => [p.date, p.slug]);
    const sorted = [...keys].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? 1 : -1));
    expect(keys).toEqual(sorted);
    for (const p of body.data) {
      expect(p.url).toBe(`${SITE}/blog/${p.slug}`);
      expect(p.markdown_url).toBe(`${SITE}/blog/${p.slug}.md`);
      expect(p.api_url).toBe(`${BASE}/posts/${p.slug}`);
      expect(p.content_markdown).toBeUndefined();
    }
  });

  it('leaves drafts and posts dated after the build clock out (D2)', async () => {
    const { body } = await json('/api/v1/posts?limit=100');
    const slugs = body.data.map((p: any) => p.slug);
    expect(slugs).not.toContain('socket-activation-zero-downtime');
    expect(slugs).not.toContain('selling-a-small-saas-across-the-eu-vat');
    expect((await get('/api/v1/posts/socket-activation-zero-downtime')).status).toBe(404);
    expect((await get('/api/v1/posts/selling-a-small-saas-across-the-eu-vat')).status).toBe(404);
  });

  it('pages with limit and offset; following next visits every post once', async () => {
    const { body: all } = await json('/api/v1/posts?limit=100');
    const seen: string[] = [];
    let url: string | null = `${BASE}/posts?limit=5`;
    for (let i = 0; url && i < 10; i++) {
      const { body } = await json(url);
      expectSchema('PostList', body);
      expect(body.meta.limit).toBe(5);
      expect(body.data.length).toBeLessThanOrEqual(5);
      seen.push(...body.data.map((p: any) => p.slug));
      if (body.links.prev) expect(body.links.prev).toMatch(/^https:\/\/hannabrink\.example\/api\/v1\/posts\?limit=5/);
      url = body.links.next;
    }
    expect(seen).toEqual(all.data.map((p: any) => p.slug));
  });

  it('answers an offset past the end with 200 and empty data (D8)', async () => {
    const { res, body } = await json('/api/v1/posts?offset=500');
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ total: 17, offset: 500 });
    expect(body.links.next).toBeNull();
    expect(body.links.prev).toBe(`${BASE}/posts?offset=480`);
  });

  it.each([
    ['limit=0', 'limit', 'from 1 to 100'],
    ['limit=101', 'limit', 'from 1 to 100'],
    ['limit=-1', 'limit', 'from 1 to 100'],
    ['limit=1.5', 'limit', 'from 1 to 100'],
    ['limit=ten', 'limit', 'from 1 to 100'],
    ['limit=', 'limit', 'from 1 to 100'],
    ['limit=5&limit=6', 'limit', 'from 1 to 100'],
    ['offset=-5', 'offset', 'from 0 to 9007199254740991'],
    ['offset=abc', 'offset', 'from 0 to 9007199254740991'],
    ['offset=99999999999999999999', 'offset', 'from 0 to 9007199254740991'],
    ['offset=1&offset=1', 'offset', 'from 0 to 9007199254740991'],
  ])('rejects %s with 400 invalid_request and the valid range in the hint (D8)', async (query, name, range) => {
    const error = await expectError(await get(`/api/v1/posts?${query}`), 400, 'invalid_request');
    expect(error.message).toContain(name);
    expect(error.hint).toContain(range);
  });

  it.each([
    ['offset=-1', 'The query parameter `offset` is -1; it must be between 0 and 9007199254740991.'],
    ['offset=99999999999999999999', 'The query parameter `offset` is 99999999999999999999; it must be between 0 and 9007199254740991.'],
    ['offset=9007199254740992', 'The query parameter `offset` is 9007199254740992; it must be between 0 and 9007199254740991.'],
    ['limit=101', 'The query parameter `limit` is 101; it must be between 1 and 100.'],
    ['limit=0', 'The query parameter `limit` is 0; it must be between 1 and 100.'],
    ['limit=-3', 'The query parameter `limit` is -3; it must be between 1 and 100.'],
    // Not integers at all: the message says so.
    ['offset=abc', 'The query parameter `offset` is not an integer: "abc".'],
    ['offset=1.5', 'The query parameter `offset` is not an integer: "1.5".'],
    ['limit=', 'The query parameter `limit` is not an integer: "".'],
  ])('says what is wrong with %s: out of range or not an integer (D8, D17)', async (query, message) => {
    const error = await expectError(await get(`/api/v1/posts?${query}`), 400, 'invalid_request');
    expect(error.message).toBe(message);
  });

  it('pages to the largest offset it declares, past the end (D8, D25)', async () => {
    const { res, body } = await json('/api/v1/posts?offset=9007199254740991');
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.meta.offset).toBe(9007199254740991);
    expect(body.links.self).toBe(`${BASE}/posts?offset=9007199254740991`);
  });

  it('filters by tag after normalising it, and combines tag with paging (D9)', async () => {
    const { body } = await json('/api/v1/posts?tag=email');
    expect(body.meta.total).toBe(3);
    for (const p of body.data) expect(p.tags).toContain('email');
    const upper = await (await get('/api/v1/posts?tag=%20EMAIL%20')).text();
    expect(upper).toBe(JSON.stringify(body, null, 2) + '\n');
    const { body: paged } = await json('/api/v1/posts?tag=email&limit=2&offset=1');
    expect(paged.data.map((p: any) => p.slug)).toEqual(body.data.slice(1, 3).map((p: any) => p.slug));
    expect(paged.links.self).toBe(`${BASE}/posts?tag=email&limit=2&offset=1`);
    expect(paged.links.prev).toBe(`${BASE}/posts?tag=email&limit=2`);
  });

  it('answers an unknown tag with 200, empty data and total 0 (D9)', async () => {
    const { res, body } = await json('/api/v1/posts?tag=no-such-tag');
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.meta.total).toBe(0);
  });

  it('ignores unknown query parameters byte for byte, links.self included (D11)', async () => {
    for (const [plain, noisy] of [
      ['/api/v1/posts', '/api/v1/posts?utm_source=x&__proto__=1'],
      ['/api/v1/posts?tag=ssh&limit=2', '/api/v1/posts?foo=bar&tag=ssh&limit=2&constructor=1'],
      ['/api/v1/projects?status=live', '/api/v1/projects?status=live&page=2'],
      ['/api/v1/profile', '/api/v1/profile?x=1'],
    ]) {
      const a = await get(plain!);
      const b = await get(noisy!);
      expect(b.status).toBe(a.status);
      expect(await b.text()).toBe(await a.text());
    }
  });

  it('treats default values as absent: ?limit=20&offset=0 is the default page', async () => {
    expect(await (await get('/api/v1/posts?limit=20&offset=0')).text()).toBe(await (await get('/api/v1/posts')).text());
  });

  it('returns one post with content_markdown equal to the file body, its site-root links absolute (D6, D53)', async () => {
    const { res, body } = await json('/api/v1/posts/capitalising-vs-expensing-cloud-spend');
    expect(res.status).toBe(200);
    expectSchema('Post', body);
    expect(body.title).toBe('Capitalising versus expensing cloud spend: what my accountant and I settled on');
    const file = (await readFile('content/posts/capitalising-vs-expensing-cloud-spend.md', 'utf8')).replaceAll(
      '](/',
      '](https://hannabrink.example/',
    );
    expect(file).toContain('[Bouncedesk](https://hannabrink.example/projects/bouncedesk)');
    expect(file.endsWith(body.content_markdown) || file.trimEnd().endsWith(body.content_markdown.trimEnd())).toBe(true);
    expect(body.content_markdown).not.toContain('](/');
    expect(body.content_markdown).toContain('|');
  });

  it('answers an unknown slug with 404 not_found whose hint points at the post list (D13)', async () => {
    const error = await expectError(await get('/api/v1/posts/no-such-post'), 404, 'not_found');
    expect(error.hint).toContain(`${BASE}/posts`);
  });
});

describe('projects (D10)', () => {
  it('filters by each status', async () => {
    const { body: all } = await json('/api/v1/projects');
    expectSchema('ProjectList', all);
    let sum = 0;
    for (const status of ['live', 'sunset', 'delivered']) {
      const { body } = await json(`/api/v1/projects?status=${status}`);
      expectSchema('ProjectList', body);
      expect(body.data.length).toBeGreaterThanOrEqual(2);
      for (const p of body.data) expect(p.status).toBe(status);
      expect(body.meta).toEqual({ total: body.data.length, status });
      expect(body.links.self).toBe(`${BASE}/projects?status=${status}`);
      sum += body.data.length;
    }
    expect(sum).toBe(all.data.length);
  });

  it.each(['archived', 'LIVE', '', 'live&status=sunset'])('rejects status=%s with 400 listing the three values', async (value) => {
    const error = await expectError(await get(`/api/v1/projects?status=${value}`), 400, 'invalid_request');
    expect(error.hint).toContain('live, sunset, delivered');
  });

  it('returns one project, and 404 with a hint at the list for an unknown id (D13)', async () => {
    const { body } = await json('/api/v1/projects/bouncedesk');
    expectSchema('Project', body);
    expect(body).toMatchObject({
      id: 'bouncedesk',
      status: 'live',
      url: `${SITE}/projects/bouncedesk`,
      api_url: `${BASE}/projects/bouncedesk`,
    });
    const error = await expectError(await get('/api/v1/projects/nope'), 404, 'not_found');
    expect(error.hint).toContain(`${BASE}/projects`);
  });
});

describe('addresses, methods and caching (D13–D18)', () => {
  it.each([
    '/api/v1/nope',
    '/api/v1/posts/a/b',
    '/api/v2',
    '/api/v2/posts',
    '/api',
    '/api/',
    '/api/v1/profile/x',
    // Names every object has: no version, not a 500.
    '/api/constructor/posts/x',
    '/api/__proto__',
    '/api/toString/profile',
  ])('answers unknown API path %s with the JSON 404 pointing at discovery', async (path) => {
    const error = await expectError(await get(path), 404, 'not_found');
    expect(error.hint).toContain(BASE);
  });

  it('answers a trailing slash exactly like the path without it (D14)', async () => {
    for (const path of ['/api/v1/posts', '/api/v1', '/api/v1/posts/bounce-handling', '/api/v1/projects']) {
      const a = await get(path);
      const b = await get(`${path}/`);
      expect(b.status).toBe(200);
      expect(await b.text()).toBe(await a.text());
    }
  });

  it('answers HEAD with the same status and headers and no body (D15)', async () => {
    for (const path of ['/api/v1/posts', '/api/v1/posts?limit=3', '/api/v1/posts/nope']) {
      const g = await get(path);
      const h = await get(path, { method: 'HEAD' });
      expect(h.status).toBe(g.status);
      for (const name of ['content-type', 'etag', 'x-api-version', 'cache-control', 'access-control-allow-origin', 'link'])
        expect(h.headers.get(name)).toBe(g.headers.get(name));
      expect(await h.text()).toBe('');
    }
  });

  it('answers OPTIONS with a 204 CORS preflight (D15)', async () => {
    const res = await get('/api/v1/posts', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    expect(res.headers.get('access-control-allow-headers')).toContain('if-none-match');
  });

  it('carries the D18 headers on every API preflight, as the MCP preflight does (D15, D18)', async () => {
    const preflight = (path: string) =>
      get(path, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' } });
    const mcp = await preflight('/mcp');
    for (const path of ['/api/v1', '/api/v1/posts', '/api/v1/posts?tag=ci', '/api/v1/posts/bounce-handling', '/api/v1/nope', '/api/v9']) {
      const res = await preflight(path);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
      expectApiHeaders(res);
      for (const name of ['x-api-version', 'x-api-deprecated', 'link', 'cache-control', 'x-content-type-options', 'content-usage'])
        expect(res.headers.get(name), `${path} ${name}`).toBe(mcp.headers.get(name));
      // No body, so no Content-Type.
      expect(res.headers.get('content-type'), path).toBeNull();
      expect(await res.text()).toBe('');
    }
    // Pages and documents have no API version: their preflight stays CORS alone.
    for (const path of ['/blog', '/openapi.json']) {
      const res = await preflight(path);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('x-api-version'), path).toBeNull();
    }
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
    'answers %s with 405 method_not_allowed and Allow, whatever the body (D15, D16)',
    async (method) => {
      for (const path of ['/api/v1/posts', '/api/v1/posts/bounce-handling', '/api/v1/nope']) {
        const res = await get(path, {
          method,
          body: method === 'DELETE' ? undefined : '{"title":"x"}',
          headers: { 'content-type': 'application/json' },
        });
        await expectError(res, 405, 'method_not_allowed');
        expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      }
    },
  );

  it('sends a strong ETag derived from the body and 304 on a match (D18)', async () => {
    for (const path of ['/api/v1/posts', '/api/v1/posts?limit=3', '/api/v1/profile']) {
      const res = await get(path);
      const tag = res.headers.get('etag')!;
      expect(tag).toMatch(/^"[^"]+"$/);
      const again = await get(path, { headers: { 'if-none-match': tag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(tag);
      expect(await again.text()).toBe('');
      const other = await get(path, { headers: { 'if-none-match': '"something-else"' } });
      expect(other.status).toBe(200);
    }
    const a = (await get('/api/v1/posts?limit=3')).headers.get('etag');
    const b = (await get('/api/v1/posts?limit=4')).headers.get('etag');
    expect(a).not.toBe(b);
  });

  it('answers every list and record with application/json; charset=utf-8 and the D18 headers', async () => {
    for (const path of [
      '/api/v1',
      '/api/v1/profile',
      '/api/v1/services',
      '/api/v1/posts',
      '/api/v1/posts?tag=ssh',
      '/api/v1/posts/bounce-handling',
      '/api/v1/projects',
      '/api/v1/projects?status=sunset',
      '/api/v1/projects/jumpcfg',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expectApiHeaders(res);
    }
  });
});
