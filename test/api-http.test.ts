// The JSON API's addresses, methods and caching over a real `folio serve` on
// 127.0.0.1: unknown paths, trailing slashes, HEAD, OPTIONS, the 405s, ETags
// and the headers of every response (D13–D18).
import { describe, expect, it } from 'vitest';
import { apiServer, BASE, expectApiHeaders, expectError } from './helpers/api.js';

const { get } = apiServer();

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
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
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
