// D20, D21: every page of the sample site over a real `folio serve`: its
// headings, markup and headers, HEAD and a trailing slash, the stylesheet, and
// the same bytes as respond() and the runtime model give (D38).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SITE_PATH } from '../build/core/files.js';
import { request } from '../build/core/http.js';
import type { Site } from '../build/core/model.js';
import { pagesFamily } from '../build/core/pages/index.js';
import { respond } from '../build/core/respond.js';
import { absolute } from '../build/core/urls.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { SiteModel } from '../build/core/site-model.js';
import { attr, byTag, elements, parseHtml, textOf } from './helpers/html.js';
import { servedSample, splitHeader } from './helpers/pages.js';
import { expectedPages } from './helpers/site.js';

const s = servedSample();
const { get } = s;

describe('pages and twins (D20, D21)', () => {
  it('enumerates every page, every twin and the stylesheet for the build', () => {
    const targets = pagesFamily.enumerate(new SiteModel(s.site));
    const pages = expectedPages(s.site);
    expect(pages.length).toBeGreaterThan(30);
    for (const p of pages) {
      expect(targets, p).toContain(p);
      expect(targets, p).toContain(p === '/' ? '/index.md' : `${p}.md`);
      expect(s.manifest.routes[p], p).toBeDefined();
    }
    expect(targets).toContain('/assets/site.css');
  });

  it('never skips a heading level: one h1, and each heading at most one below the one before', async () => {
    for (const path of expectedPages(s.site)) {
      const doc = parseHtml(await (await get(path)).text());
      const levels = elements(doc)
        .filter((e) => /^h[1-6]$/.test(e.tagName))
        .map((e) => Number(e.tagName[1]));
      expect(
        levels.filter((l) => l === 1),
        path,
      ).toHaveLength(1);
      const skips = levels.flatMap((l, i) => (i > 0 && l > levels[i - 1]! + 1 ? [`h${levels[i - 1]} → h${l}`] : []));
      expect(skips, path).toEqual([]);
    }
  });

  it('serves every page as accessible, linked HTML with its headers', async () => {
    for (const path of expectedPages(s.site)) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(splitHeader(res.headers.get('vary')), path).toEqual(expect.arrayContaining(['accept', 'accept-encoding']));
      const twin = path === '/' ? '/index.md' : `${path}.md`;
      expect(res.headers.get('link'), path).toBe(`<${twin}>; rel="alternate"; type="text/markdown"`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'none'");
      expect(csp, path).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');

      const doc = parseHtml(await res.text());
      const html = byTag(doc, 'html')[0]!;
      expect(attr(html, 'lang'), path).toBe(s.site.config.language);
      expect(textOf(byTag(doc, 'title')[0]!).trim().length, path).toBeGreaterThan(3);
      expect(byTag(doc, 'h1'), path).toHaveLength(1);
      expect(byTag(doc, 'main'), path).toHaveLength(1);
      expect(byTag(doc, 'header').length, path).toBeGreaterThan(0);
      expect(byTag(doc, 'footer').length, path).toBeGreaterThan(0);
      // No script runs: the one script element is the JSON-LD data block (D49).
      expect(
        byTag(doc, 'script').map((el) => el.attrs.map((a) => `${a.name}=${a.value}`)),
        path,
      ).toEqual([['type=application/ld+json']]);
      const links = byTag(doc, 'link');
      const alternate = links.filter((l) => attr(l, 'rel') === 'alternate' && attr(l, 'type') === 'text/markdown');
      expect(
        alternate.map((l) => attr(l, 'href')),
        path,
      ).toEqual([twin]);
      expect(
        links.find((l) => attr(l, 'rel') === 'canonical') &&
          attr(
            links.find((l) => attr(l, 'rel') === 'canonical')!,
            'href',
          ),
        path,
      ).toBe(absolute(s.site, path));
      const description = byTag(doc, 'meta').find((m) => attr(m, 'name') === 'description');
      expect(attr(description!, 'content')!.length, path).toBeGreaterThan(10);
      // Navigation on every page, reaching every section.
      const nav = byTag(doc, 'nav').find((n) => attr(n, 'aria-label') === 'Main')!;
      const navTargets = byTag(nav, 'a').map((a) => attr(a, 'href'));
      expect(navTargets, path).toEqual(['/about', '/services', '/blog', '/projects', '/developers']);
    }
  });

  it('answers HEAD like GET without a body, and a trailing slash like the page', async () => {
    const head = await fetch(`${s.url}/blog`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
    const slash = await get('/blog/');
    expect(slash.status).toBe(200);
    expect(await slash.text()).toBe(await (await get('/blog')).text());
  });

  it('serves the stylesheet with dark mode and no external resources', async () => {
    const res = await get('/assets/site.css');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const css = await res.text();
    expect(css).toContain('prefers-color-scheme: dark');
    expect(css).toContain(':focus-visible');
    expect(css).not.toMatch(/@import|url\(/);
  });

  it('precomputes pages whose bytes equal respond() for the same request (D38)', async () => {
    const rt = memoryRuntime(s.site);
    for (const path of ['/', '/blog', `/blog/${s.site.posts[0]!.slug}`, '/developers']) {
      const live = await respond(request('GET', path), rt);
      const served = Buffer.from(await (await get(path)).arrayBuffer());
      expect(Buffer.from(live.body!).equals(served), path).toBe(true);
    }
  });

  it('still answers from the runtime model, which carries no rendered HTML', async () => {
    const lean = JSON.parse(await readFile(join(s.out, SITE_PATH), 'utf8')) as Site;
    expect(lean.posts[0]!.html).toBeUndefined();
    const post = lean.posts[0]!;
    const reply = await respond(request('GET', `/blog/${post.slug}`), memoryRuntime(lean));
    expect(reply.status).toBe(200);
    const doc = parseHtml(Buffer.from(reply.body!).toString('utf8'));
    expect(textOf(byTag(doc, 'h1')[0]!)).toBe(post.title);
    // The body falls back to its Markdown, escaped.
    expect(elements(doc).some((e) => e.tagName === 'pre' && attr(e, 'class') === 'source')).toBe(true);
    const twin = await respond(request('GET', `/blog/${post.slug}.md`), memoryRuntime(lean));
    expect(Buffer.from(twin.body!).toString('utf8')).toBe(await (await get(`/blog/${post.slug}.md`)).text());
  });
});
