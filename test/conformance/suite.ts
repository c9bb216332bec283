// The one conformance suite (D38, D39): what any deployment of a folio dist
// must answer, run unchanged against `folio serve` and against Cloudflare's
// runtime. It speaks HTTP only, and every family must answer: nothing is
// skipped, so a feature broken on one runtime fails here.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_PATH, routeHeaders, type Manifest } from '../../build/core/files.js';
import { ESCAPED_STATIC, type Target } from './targets.js';

type Json = any;

interface Ctx {
  url: string;
  dist: string;
  manifest: Manifest;
  site: string;
  api: string;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Runs `tasks` with at most `limit` in flight; bounded by the list. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

export function conformance(label: string, target: () => Target): void {
  const c = {} as Ctx;
  const get = (path: string, init: RequestInit = {}) => fetch(c.url + path, { redirect: 'manual', ...init });
  const json = async (path: string, init?: RequestInit) => {
    const res = await get(path, init);
    return { res, body: (await res.json()) as Json };
  };
  const mcp = (body: unknown, headers: Record<string, string> = MCP_HEADERS) =>
    get('/mcp', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

  /** The envelope of D17 with its URLs and D18's headers. */
  async function expectError(res: Response, status: number, code: string) {
    expect(res.status, `${res.url}`).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-api-version')).toBe('v1');
    const body = (await res.json()) as Json;
    expect(body.error).toMatchObject({ code, status, documentation_url: `${c.site}/developers`, openapi_url: `${c.site}/openapi.json` });
    expect(body.error.hint.length).toBeGreaterThan(10);
    return body.error as { message: string; hint: string };
  }

  describe(`conformance: ${label}`, () => {
    beforeAll(async () => {
      const t = target();
      c.url = t.url;
      c.dist = t.dist;
      c.manifest = JSON.parse(await readFile(join(t.dist, MANIFEST_PATH), 'utf8')) as Manifest;
      c.site = c.manifest.site_url;
      c.api = `${c.site}/api/v1`;
    });

    describe('every precomputed file (D38, D39)', () => {
      it('answers each manifest route with the file bytes and every header of its set', async () => {
        const problems: string[] = [];
        await pool(Object.entries(c.manifest.routes), 8, async ([target, route]) => {
          const file = route[0];
          const res = await get(target);
          const body = Buffer.from(await res.arrayBuffer());
          if (res.status !== 200) return void problems.push(`${target}: status ${res.status}`);
          if (!body.equals(await readFile(join(c.dist, file)))) problems.push(`${target}: body differs from ${file}`);
          for (const [name, value] of Object.entries(routeHeaders(c.manifest.header_sets, route))) {
            if (res.headers.get(name) !== value)
              problems.push(`${target}: ${name} is ${JSON.stringify(res.headers.get(name))}, not ${JSON.stringify(value)}`);
          }
          if (!res.headers.get('etag')?.match(/^"[^"]+"$/)) problems.push(`${target}: no strong ETag`);
        });
        expect(problems).toEqual([]);
        expect(Object.keys(c.manifest.routes).length).toBeGreaterThan(40);
      });

      it('answers HEAD with the GET headers and no body (D15)', async () => {
        for (const target of ['/api/v1/posts', '/api/v1/posts?tag=ci', '/llms.txt', '/', '/blog.md'].filter(
          (t) => t in c.manifest.routes,
        )) {
          const [g, h] = [await get(target), await get(target, { method: 'HEAD' })];
          expect(h.status, target).toBe(200);
          expect(await h.text(), target).toBe('');
          for (const name of ['content-type', 'cache-control', 'access-control-allow-origin', 'vary', 'etag'])
            expect(h.headers.get(name), `${target} ${name}`).toBe(g.headers.get(name));
        }
      });

      it('revalidates with If-None-Match: 304, no body (D18)', async () => {
        for (const target of ['/api/v1', '/api/v1/posts?tag=ci', '/api/v1/posts?limit=3', '/llms.txt', '/']) {
          const first = await get(target);
          const tag = first.headers.get('etag');
          expect(tag, target).toBeTruthy();
          const again = await get(target, { headers: { 'if-none-match': tag! } });
          expect(again.status, target).toBe(304);
          expect(await again.text()).toBe('');
        }
      });
    });

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
          expect(Object.keys(hit)).toEqual(
            expect.arrayContaining(['type', 'id', 'title', 'summary', 'url', 'api_url', 'snippet', 'score']),
          );
        const scores = body.data.map((h: Json) => h.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        expect((await json('/api/v1/search?q=ssh&limit=2')).body.data.length).toBeLessThanOrEqual(2);
      });
    });

    describe('pages and twins (D20-D23)', () => {
      const pages = () => [
        '/',
        '/blog',
        '/about',
        '/developers',
        ...Object.keys(c.manifest.routes)
          .filter((t) => /^\/(blog|projects)\/[^/.]+$/.test(t))
          .slice(0, 3),
      ];

      it('negotiates each page against its twin on Accept, with Vary (D21)', async () => {
        for (const page of pages()) {
          const twin = page === '/' ? '/index.md' : `${page}.md`;
          const [html, md, asked] = [await get(page), await get(twin), await get(page, { headers: { accept: 'text/markdown' } })];
          expect(html.headers.get('content-type'), page).toBe('text/html; charset=utf-8');
          expect(html.headers.get('vary'), page).toMatch(/\bAccept\b/);
          expect(html.headers.get('link'), page).toContain(`<${twin}>`);
          expect(asked.status, page).toBe(200);
          expect(asked.headers.get('content-type'), page).toBe('text/markdown; charset=utf-8');
          expect(asked.headers.get('vary'), page).toMatch(/\bAccept\b/);
          expect(await asked.text(), page).toBe(await md.text());
        }
      });

      it('sends the AI usage preferences on pages, twins and the API, and each twin its token estimate (D52, D53)', async () => {
        const usage = 'search=y, ai-use=y, train-ai=n';
        for (const page of pages()) {
          const twin = page === '/' ? '/index.md' : `${page}.md`;
          const [html, md, asked] = [await get(page), await get(twin), await get(page, { headers: { accept: 'text/markdown' } })];
          for (const [what, res] of [
            ['page', html],
            ['twin', md],
            ['negotiated twin', asked],
          ] as const)
            expect(res.headers.get('content-usage'), `${page} ${what}`).toBe(usage);
          for (const res of [md, asked]) {
            const bytes = new Uint8Array(await res.arrayBuffer()).byteLength;
            expect(res.headers.get('x-markdown-tokens'), page).toBe(String(Math.ceil(bytes / 4)));
          }
          await html.arrayBuffer();
        }
        for (const path of ['/api/v1/posts', '/api/v1/posts?limit=3&offset=2', '/api/v1/nope'])
          expect((await get(path)).headers.get('content-usage'), path).toBe(usage);
      });

      it('weighs Accept by q-value; Markdown wins only when it weighs more (D21)', async () => {
        const type = async (accept: string) => (await get('/blog', { headers: { accept } })).headers.get('content-type');
        expect(await type('text/html;q=0.5, text/markdown')).toBe('text/markdown; charset=utf-8');
        expect(await type('text/markdown;q=0.5, text/html')).toBe('text/html; charset=utf-8');
        expect(await type('text/markdown, text/html')).toBe('text/html; charset=utf-8');
        expect(await type('*/*')).toBe('text/html; charset=utf-8');
        expect(await type('text/*;q=0.8, text/markdown;q=0.9')).toBe('text/markdown; charset=utf-8');
      });

      it('answers unknown pages with 404, never another page; Markdown when asked (D23)', async () => {
        const home = await (await get('/')).text();
        for (const path of ['/no-such-page', '/blog/no-such-post', '/projects/no-such/deeper', '/_folio/site.json']) {
          const res = await get(path);
          expect(res.status, path).toBe(404);
          expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
          expect(await res.text(), path).not.toBe(home);
        }
        const md = await get('/no-such-page', { headers: { accept: 'text/markdown' } });
        expect(md.status).toBe(404);
        expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      });
    });

    describe('machine-readable addresses (D25-D35)', () => {
      it('announces the API catalog on HEAD (D30)', async () => {
        const res = await get('/.well-known/api-catalog', { method: 'HEAD' });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
        expect(res.headers.get('link')).toBe(`<${c.site}/.well-known/api-catalog>; rel="api-catalog"`);
      });

      it('sends CORS and a media type on every document (D35)', async () => {
        for (const path of [
          '/openapi.json',
          '/openapi.yaml',
          '/llms.txt',
          '/llms-full.txt',
          '/sitemap.xml',
          '/feed.xml',
          '/feed.json',
          '/robots.txt',
          '/server.json',
          '/.well-known/mcp/server-card.json',
          '/mcp/server-card',
          '/.well-known/ai-catalog.json',
          '/.well-known/agent-instructions',
        ]) {
          const res = await get(path);
          expect(res.status, path).toBe(200);
          expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
          expect(res.headers.get('content-type'), path).toMatch(/^[a-z]+\/[a-z0-9.+-]+/);
        }
      });
    });

    describe('moved addresses and static files (D43, D48)', () => {
      it('answers 301 for every alias, its .md form and a former API address, to the address that answers 200', async () => {
        const moved = Object.entries(c.manifest.redirects ?? {});
        expect(moved.length).toBeGreaterThan(0);
        expect(moved.some(([from]) => from.startsWith('/api/v1/'))).toBe(true);
        expect(moved.some(([from]) => from.endsWith('.md'))).toBe(true);
        for (const [from, to] of moved) {
          const res = await get(from);
          expect(res.status, from).toBe(301);
          expect(new URL(res.headers.get('location')!, c.url + from).pathname, from).toBe(to);
          await res.arrayBuffer();
          const there = await get(to);
          expect(there.status, to).toBe(200);
          await there.arrayBuffer();
        }
      });

      it('serves the sample static files with their own type (every route above checked their bytes and headers)', async () => {
        const res = await get('/.well-known/security.txt');
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(await res.text()).toMatch(/^Contact: mailto:/m);
      });

      it('serves a static file whose name must be escaped, however the path is escaped', async () => {
        const browser = encodeURI(ESCAPED_STATIC.path);
        const strict = ESCAPED_STATIC.path.split('/').map(encodeURIComponent).join('/');
        expect(browser).not.toBe(strict);
        // Escapes are case-insensitive: %E2 and %e2 are one byte.
        for (const path of [browser, strict, strict.toLowerCase()]) {
          const res = await get(path);
          expect(res.status, path).toBe(200);
          expect(res.headers.get('content-type'), path).toBe('text/plain; charset=utf-8');
          expect(await res.text(), path).toBe(ESCAPED_STATIC.text);
        }
        // An escaped slash is not decoded into another path.
        const slash = await get(`/files%2F${strict.slice('/files/'.length)}`);
        expect(slash.status).toBe(404);
        await slash.arrayBuffer();
      });
    });

    describe('the MCP endpoint (D36, D41)', () => {
      it('lists the six tools on a bare tools/list, with no session (D36, D37)', async () => {
        const res = await mcp({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.headers.get('mcp-session-id')).toBeNull();
        const body = (await res.json()) as Json;
        expect(body.id).toBe(7);
        expect(body.result.tools.map((t: Json) => t.name).sort()).toEqual([
          'site_check_availability',
          'site_get_post',
          'site_get_profile',
          'site_list_posts',
          'site_list_projects',
          'site_search_writing',
        ]);
      });

      it('answers at /mcp/ as at /mcp (a client configured with a trailing slash)', async () => {
        const res = await get('/mcp/', { method: 'POST', headers: MCP_HEADERS, body: '{"jsonrpc":"2.0","id":3,"method":"tools/list"}' });
        expect(res.status).toBe(200);
        expect(((await res.json()) as Json).result.tools).toHaveLength(6);
      });

      it('calls a tool and returns structured content (D37)', async () => {
        const slug = (await json('/api/v1/posts?limit=1')).body.data[0].slug;
        const body = (await (
          await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'site_get_post', arguments: { slug } } })
        ).json()) as Json;
        expect(body.result.isError ?? false).toBe(false);
        expect(body.result.structuredContent.slug).toBe(slug);
      });

      it('answers GET, HEAD and DELETE with 405 and Allow: POST, OPTIONS (D36)', async () => {
        for (const method of ['GET', 'HEAD', 'DELETE']) {
          const res = await get('/mcp', { method });
          expect(res.status, method).toBe(405);
          expect(res.headers.get('allow'), method).toBe('POST, OPTIONS');
        }
      });

      it('refuses another media type (415), malformed JSON (-32700), unknown methods (-32601) and notifications get 202 (D36)', async () => {
        expect((await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'content-type': 'text/plain' })).status).toBe(415);
        expect(((await (await mcp('{"jsonrpc":')).json()) as Json).error.code).toBe(-32700);
        expect(((await (await mcp({ jsonrpc: '2.0', id: 3, method: 'no/such' })).json()) as Json).error.code).toBe(-32601);
        const note = await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' });
        expect(note.status).toBe(202);
        expect(await note.text()).toBe('');
      });

      it('answers a preflight that allows the MCP headers (D36)', async () => {
        const res = await get('/mcp', {
          method: 'OPTIONS',
          headers: {
            origin: 'https://agent.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type, mcp-protocol-version',
          },
        });
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-methods')).toContain('POST');
        expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-protocol-version');
      });

      it('refuses a body over 1 MiB with 413 (D16, D41)', async () => {
        const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(1024 * 1024 + 10) } });
        const res = await mcp(big);
        expect(res.status).toBe(413);
        expect(((await res.json()) as Json).error.code).toBe('payload_too_large');
      });
    });
  });
}
