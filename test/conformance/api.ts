// The conformance checks of the JSON API (D4-D18, D60, D61): discovery, paging
// and filters computed at run time, search, and the error envelope for bad
// queries, unknown resources and other methods, with CORS and the API headers.
import { describe, expect, it } from 'vitest';
import type { Client, Json } from './client.js';

export function jsonApi({ c, get, json, expectError }: Client): void {
  describe('the JSON API (D4-D18)', () => {
    it('discovery lists every operation with the API headers (D7, D18)', async () => {
      const { res, body } = await json('/api/v1');
      expect(res.status).toBe(200);
      expect(body.version).toBe('v1');
      expect(body.endpoints.map((e: Json) => e.operationId).sort()).toEqual([
        'getApiIndex',
        'getAvailability',
        'getPost',
        'getProfile',
        'getProject',
        'getService',
        'listChanges',
        'listPosts',
        'listProjects',
        'listServices',
        'searchContent',
      ]);
      expect(res.headers.get('x-api-deprecated')).toBe('false');
      expect(res.headers.get('link')).toBe(`<${c.site}/developers#versioning>; rel="deprecation"; type="text/html"`);
      expect(res.headers.get('access-control-expose-headers')).toMatch(/ETag/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('pages the post list with any limit and offset, computed at run time (D8, D38)', async () => {
      const all = (await json('/api/v1/posts?limit=100')).body;
      const total: number = all.meta.total;
      expect(all.data).toHaveLength(total);
      const slugs: string[] = [];
      for (let offset = 0; offset < total; offset += 3) {
        const { res, body } = await json(`/api/v1/posts?limit=3&offset=${offset}`);
        expect(res.status).toBe(200);
        expect(body.meta).toMatchObject({ total, limit: 3, offset });
        expect(body.links.self).toBe(offset ? `${c.api}/posts?limit=3&offset=${offset}` : `${c.api}/posts?limit=3`);
        expect(body.links.next === null).toBe(offset + 3 >= total);
        expect(body.links.prev === null).toBe(offset === 0);
        slugs.push(...body.data.map((p: Json) => p.slug));
      }
      expect(slugs).toEqual(all.data.map((p: Json) => p.slug));
    });

    it('answers availability questions from precomputed files, and refuses unknown services and months (D60)', async () => {
      const { body } = await json('/api/v1/availability');
      const service = body.engagements[0].service as string;
      const month = body.horizon.to as string;
      const asked = await json(`/api/v1/availability?month=${month}&service=${service}`);
      expect(asked.res.status).toBe(200);
      expect(asked.body.check).toMatchObject({ service, month });
      expect((await expectError(await get('/api/v1/availability?service=no-such-service'), 400, 'invalid_request')).hint).toContain(
        service,
      );
      expect((await expectError(await get('/api/v1/availability?month=1999-01'), 400, 'invalid_request')).hint).toContain(
        body.horizon.from,
      );
    });

    it('filters the changes by any `since` at run time, and refuses a `since` that is not a date (D61)', async () => {
      const latest = (await json('/api/v1/changes?limit=100')).body;
      const since = latest.data[Math.floor(latest.data.length / 2)].date as string;
      const { res, body } = await json(`/api/v1/changes?since=${since}&limit=100`);
      expect(res.status).toBe(200);
      expect(body.data).toEqual(latest.data.filter((x: Json) => x.date >= since));
      expect(body.meta).toMatchObject({ since, total: body.data.length });
      expect((await expectError(await get('/api/v1/changes?since=last-week'), 400, 'invalid_request')).hint).toContain('YYYY-MM-DD');
    });

    it('answers an offset past the end with empty data (D8)', async () => {
      const { res, body } = await json('/api/v1/posts?offset=5000');
      expect(res.status).toBe(200);
      expect(body.data).toEqual([]);
      expect(body.meta.offset).toBe(5000);
    });

    it('refuses bad paging values with a hint that states the range (D8)', async () => {
      for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'limit=5&limit=6', 'offset=1.5']) {
        const error = await expectError(await get(`/api/v1/posts?${q}`), 400, 'invalid_request');
        expect(error.hint, q).toMatch(/\d/);
      }
      expect((await expectError(await get('/api/v1/posts?limit=500'), 400, 'invalid_request')).hint).toMatch(/1.*100/);
    });

    it('filters by tag after normalising it, and combines it with paging (D9)', async () => {
      const tag = 'ci';
      expect(c.manifest.routes[`/api/v1/posts?tag=${tag}`], 'the sample has a ci tag').toBeTruthy();
      const plain = await get(`/api/v1/posts?tag=${tag}`);
      const text = await plain.text();
      const body = JSON.parse(text) as Json;
      expect(body.data.length).toBeGreaterThan(0);
      for (const post of body.data) expect(post.tags).toContain(tag);
      expect(await (await get(`/api/v1/posts?tag=${tag.toUpperCase()}`)).text()).toBe(text);
      if (body.data.length > 1) {
        const second = (await json(`/api/v1/posts?tag=${tag}&limit=1&offset=1`)).body;
        expect(second.data.map((p: Json) => p.slug)).toEqual([body.data[1].slug]);
        expect(second.meta.total).toBe(body.meta.total);
      }
      const none = (await json('/api/v1/posts?tag=no-such-tag')).body;
      expect(none.data).toEqual([]);
      expect(none.meta.total).toBe(0);
    });

    it('filters projects by status and refuses any other status (D10)', async () => {
      for (const status of ['live', 'sunset', 'delivered']) {
        const { res, body } = await json(`/api/v1/projects?status=${status}`);
        expect(res.status).toBe(200);
        for (const p of body.data) expect(p.status).toBe(status);
      }
      const error = await expectError(await get('/api/v1/projects?status=paused'), 400, 'invalid_request');
      for (const status of ['live', 'sunset', 'delivered']) expect(error.hint).toContain(status);
    });

    it('ignores unknown query parameters byte for byte (D11)', async () => {
      for (const [plain, extra] of [
        ['/api/v1/posts', '/api/v1/posts?utm_source=x'],
        ['/api/v1/posts?tag=ci', '/api/v1/posts?tag=ci&ref=feed'],
        ['/api/v1/profile', '/api/v1/profile?x=1'],
      ]) {
        const [a, b] = [await get(plain!), await get(extra!)];
        expect(b.status, extra).toBe(a.status);
        expect(await b.text(), extra).toBe(await a.text());
      }
    });

    it('answers a trailing slash like the path without it, or redirects there (D14)', async () => {
      const [plain, slash] = [await get('/api/v1/posts'), await get('/api/v1/posts/')];
      if (slash.status === 308) expect(new URL(slash.headers.get('location')!, c.url).pathname).toBe('/api/v1/posts');
      else expect(await slash.text()).toBe(await plain.text());
    });

    it('answers unknown resources with 404 in the envelope, never HTML (D13)', async () => {
      expect((await expectError(await get('/api/v1/posts/no-such-post'), 404, 'not_found')).hint).toContain(`${c.api}/posts`);
      expect((await expectError(await get('/api/v1/projects/no-such-project'), 404, 'not_found')).hint).toContain(`${c.api}/projects`);
      expect((await expectError(await get('/api/v1/no-such-thing'), 404, 'not_found')).hint).toContain(c.api);
      await expectError(await get('/api/v9'), 404, 'not_found');
    });

    it('answers other methods with 405 and Allow, whatever the body (D15, D16)', async () => {
      for (const [method, path] of [
        ['POST', '/api/v1/posts'],
        ['PUT', '/api/v1/posts?tag=ci'],
        ['DELETE', '/api/v1/profile'],
        ['PATCH', '/api/v1'],
      ]) {
        const res = await get(path!, { method, headers: { 'content-type': 'text/plain' }, body: 'x' });
        await expectError(res, 405, 'method_not_allowed');
        expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      }
    });

    it('answers a CORS preflight with 204 (D15)', async () => {
      const res = await get('/api/v1/posts?tag=ci', {
        method: 'OPTIONS',
        headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('GET');
      // D18 on every API response, the preflight included.
      expect(res.headers.get('x-api-version')).toBe('v1');
      expect(res.headers.get('x-api-deprecated')).toBe('false');
      expect(res.headers.get('link')).toBe(`<${c.site}/developers#versioning>; rel="deprecation"; type="text/html"`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('validates the search query before searching (D12)', async () => {
      for (const q of ['', '?q=', '?q=%20%20', `?q=${'a'.repeat(201)}`]) {
        const error = await expectError(await get(`/api/v1/search${q}`), 400, 'invalid_request');
        expect(error.hint, q).toMatch(/q=/);
      }
    });

    it('searches posts, projects and services by relevance, one typo allowed (D12)', async () => {
      const { res, body } = await json('/api/v1/search?q=deliverabilty');
      expect(res.status).toBe(200);
      expect(body.meta.query).toBe('deliverabilty');
      expect(body.data.length).toBeGreaterThan(0);
      expect(body.data.some((hit: Json) => /deliverability/i.test(hit.title))).toBe(true);
      for (const hit of body.data)
        expect(Object.keys(hit)).toEqual(expect.arrayContaining(['type', 'id', 'title', 'summary', 'url', 'api_url', 'snippet', 'score']));
      const scores = body.data.map((h: Json) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect((await json('/api/v1/search?q=ssh&limit=2')).body.data.length).toBeLessThanOrEqual(2);
    });
  });
}
