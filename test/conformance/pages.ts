// The conformance checks of the pages and their Markdown twins (D20-D23, D52,
// D53): Accept negotiation weighed by q-value, the AI usage and token headers,
// and 404 for unknown pages.
import { describe, expect, it } from 'vitest';
import type { Client } from './client.js';

export function pagesAndTwins({ c, get }: Client): void {
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
}
