// The sitemap (D27) and robots.txt (D29) over a real `folio serve`: sitemaps.org
// XML parsed with an independent XML parser, every loc resolving to an HTML page,
// and robots.txt read by the rules of RFC 9309.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { SITE, servedDocuments } from './helpers/documents.js';

const { get, text, local, posts, projects, services, tags } = servedDocuments();

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
