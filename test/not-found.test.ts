// D23: unknown pages of the sample site over a real `folio serve`: 404 in
// HTML or Markdown, for HEAD too, and the dist/404.html static hosts serve.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attr, byTag, parseHtml, textOf } from './helpers/html.js';
import { servedSample } from './helpers/pages.js';

const s = servedSample();
const { get } = s;

describe('not found (D23)', () => {
  const missing = [
    '/nope',
    '/blog/no-such-post',
    '/projects/no-such-project',
    '/blog/tags/no-such-tag',
    '/404',
    '/blog/tags',
    '/index',
    '/about/extra',
  ];

  it('answers unknown pages 404 with an HTML page, never 200', async () => {
    for (const path of missing) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy'), path).toContain("default-src 'none'");
      const doc = parseHtml(await res.text());
      expect(textOf(byTag(doc, 'h1')[0]!)).toBe('Page not found');
      expect(byTag(doc, 'a').map((a) => attr(a, 'href'))).toEqual(expect.arrayContaining(['/blog', '/projects', '/']));
    }
  });

  it('answers in Markdown when asked, or when a twin is missing', async () => {
    for (const [path, accept] of [
      ['/nope', 'text/markdown'],
      ['/blog/no-such-post', 'text/markdown, text/html;q=0.5'],
      ['/blog/no-such-post.md', ''],
      ['/nope.md', 'text/html'],
    ] as const) {
      const res = await get(path, accept ? { accept } : {});
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('text/markdown; charset=utf-8');
      expect(await res.text()).toMatch(/^# Page not found\n/);
    }
  });

  it('writes dist/404.html for static hosts, the same page the server answers', async () => {
    const file = await readFile(join(s.out, '404.html'), 'utf8');
    expect(file).toBe(await (await get('/nope')).text());
    expect(s.manifest.fallbacks['/*']).toMatchObject({ file: '404.html', status: 404 });
    expect(s.manifest.routes['/404']).toBeUndefined();
  });

  it('answers HEAD on an unknown page with 404', async () => {
    const res = await fetch(`${s.url}/nope`, { method: 'HEAD' });
    expect(res.status).toBe(404);
  });
});
