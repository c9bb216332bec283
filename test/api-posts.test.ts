// The JSON API's post list and posts over a real `folio serve` on 127.0.0.1:
// order, paging and its errors, the tag filter, unknown parameters, one post
// and its 404 (D2, D6, D8, D9, D11, D13, D17, D25, D53).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { apiServer, BASE, expectError, expectSchema, SITE } from './helpers/api.js';

const { get, json } = apiServer();

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
