// The post feeds (D28) over a real `folio serve`: Atom 1.0 (RFC 4287) parsed
// with an independent XML parser, and the same items as JSON Feed 1.1.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../build/content/load.js';
import { atomPostSection, atomSections, jsonFeed, jsonFeedPostSection, jsonFeedSections } from '../build/core/documents/feeds.js';
import { jsonText } from '../build/core/http.js';
import { buildSite } from '../build/site.js';
import { NOW, serveBuilt } from './helpers/site.js';

const SITE = 'https://hannabrink.example';
const ATOM = 'http://www.w3.org/2005/Atom';
/** RFC 3339 date-time (§5.6), with Z or a numeric offset. */
const RFC3339 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

let s: Awaited<ReturnType<typeof serveBuilt>>;
let posts: any[];
let title: string;

beforeAll(async () => {
  s = await serveBuilt();
  posts = ((await (await fetch(s.at('/api/v1/posts?limit=100'))).json()) as any).data;
  title = ((await (await fetch(s.at('/api/v1'))).json()) as any).name.replace(/ API$/, '');
});
afterAll(() => s?.close());

const rfc3339 = (value: string) => {
  expect(value).toMatch(RFC3339);
  expect(Number.isNaN(Date.parse(value))).toBe(false);
  return Date.parse(value);
};

describe('feed.xml (Atom 1.0, RFC 4287)', () => {
  let feed: any;
  let xml: string;
  const asArray = new Set(['feed.entry', 'feed.link', 'feed.entry.link', 'feed.entry.category', 'feed.author']);
  beforeAll(async () => {
    const res = await fetch(s.at('/feed.xml'));
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    xml = await res.text();
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      textNodeName: '#text',
      isArray: (_name, path) => asArray.has(String(path)),
      parseTagValue: false,
      processEntities: true,
      htmlEntities: false,
    });
    feed = parser.parse(xml).feed;
  });

  it('is well-formed XML in the Atom namespace', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed ')).toBe(true);
    expect(feed['@xmlns']).toBe(ATOM);
  });

  it('has the required feed elements: id, title, updated, author, self and alternate links', () => {
    expect(feed.id).toBe(`${SITE}/`);
    // The site title holds "&": it survives escaping.
    expect(title).toContain('&');
    expect(feed.title).toBe(title);
    rfc3339(feed.updated);
    expect(feed.author[0].name).toBe('Hanna Brink');
    const links = feed.link.map((l: any) => [l['@rel'], l['@href']]);
    expect(links).toContainEqual(['self', `${SITE}/feed.xml`]);
    expect(links).toContainEqual(['alternate', `${SITE}/blog`]);
    const newest = Math.max(...feed.entry.map((e: any) => Date.parse(e.updated)));
    expect(Date.parse(feed.updated)).toBe(newest);
  });

  it('has every post, newest first, each with id, title, dates, link, summary, categories and full HTML content', async () => {
    expect(feed.entry.map((e: any) => e.link.find((l: any) => l['@type'] === 'text/html')['@href'])).toEqual(posts.map((p) => p.url));
    expect(new Set(feed.entry.map((e: any) => e.id)).size).toBe(posts.length);
    for (const [i, entry] of feed.entry.entries()) {
      const post = posts[i];
      expect(entry.id).toBe(post.url);
      expect(entry.title).toBe(post.title);
      expect(rfc3339(entry.published)).toBe(Date.parse(`${post.date}T00:00:00Z`));
      expect(rfc3339(entry.updated)).toBeGreaterThanOrEqual(rfc3339(entry.published));
      expect(entry.summary).toBe(post.summary);
      expect(entry.category.map((c: any) => c['@term'])).toEqual(post.tags);
      expect(entry.link).toContainEqual({ '@rel': 'alternate', '@type': 'text/markdown', '@href': post.markdown_url });
      expect(entry.content['@type']).toBe('html');
      // Escaped HTML reads back as markup text, not as child elements.
      expect(typeof entry.content['#text']).toBe('string');
      expect(entry.content['#text']).toMatch(/^<(p|h[1-6]|ul|ol|pre|blockquote|table)[\s>]/);
    }
  });

  it('carries the full post, not an excerpt: the HTML page holds the same content', async () => {
    const entry = feed.entry.find((e: any) => e.id.endsWith('/blog/email-deliverability-b2b-saas'));
    const page = await (await fetch(s.at('/blog/email-deliverability-b2b-saas'))).text();
    // The feed's footnote links point into the page (the test below); on the page itself they are fragments.
    const html = entry.content['#text'].trim().replaceAll(`${entry.id}#`, '#');
    expect(html.length).toBeGreaterThan(2000);
    // Both ends of the rendered body are on the page: nothing was cut off.
    expect(page).toContain(html.slice(0, 200));
    expect(page).toContain(html.slice(-200));
  });

  it('links only to absolute addresses, a footnote to its place on the post page (a feed has no page to resolve against)', () => {
    let footnotes = 0;
    for (const entry of feed.entry) {
      const html: string = entry.content['#text'];
      for (const [, attribute, value] of html.matchAll(/\b(href|src)="([^"]*)"/g)) {
        expect(value, `${entry.id}: ${attribute}="${value}"`).toMatch(/^(https:\/\/|mailto:)/);
        if (value.startsWith(`${entry.id}#user-content-fn`)) footnotes++;
      }
    }
    // The sample's posts have footnotes (D3), so the rule above met some.
    expect(footnotes).toBeGreaterThan(0);
  });
});

describe('feed.json (JSON Feed 1.1)', () => {
  it('holds the same items as the Atom feed', async () => {
    const res = await fetch(s.at('/feed.json'));
    expect(res.headers.get('content-type')).toBe('application/feed+json; charset=utf-8');
    const feed = (await res.json()) as any;
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.title).toBe(title);
    expect(feed.feed_url).toBe(`${SITE}/feed.json`);
    expect(feed.home_page_url).toBe(`${SITE}/blog`);
    expect(feed.authors).toEqual([{ name: 'Hanna Brink', url: `${SITE}/about` }]);
    expect(feed.items.map((i: any) => i.id)).toEqual(posts.map((p) => p.url));
    for (const [i, item] of feed.items.entries()) {
      const post = posts[i];
      expect(item.url).toBe(post.url);
      expect(item.title).toBe(post.title);
      expect(item.tags).toEqual(post.tags);
      expect(rfc3339(item.date_published)).toBe(Date.parse(`${post.date}T00:00:00Z`));
      rfc3339(item.date_modified);
      expect(item.content_html).toMatch(/^</);
      for (const [, value] of (item.content_html as string).matchAll(/\b(?:href|src)="([^"]*)"/g))
        expect(value).toMatch(/^(https:\/\/|mailto:)/);
      const full = ((await (await fetch(s.at(new URL(post.api_url).pathname))).json()) as any).content_markdown;
      expect(item.content_text).toBe(full);
    }
    expect((await fetch(s.at(new URL(feed.feed_url).pathname))).status).toBe(200);
  });
});

describe('the feeds as sections (D56: an incremental build splices them)', () => {
  // The sections are cut by hand around each item; JSON.stringify is the independent reference.
  it('the JSON Feed sections join to exactly jsonText(jsonFeed(site)), with posts and with none', async () => {
    const site = buildSite(await loadContent('content'), { now: NOW });
    for (const s of [site, { ...site, posts: [] }, { ...site, posts: site.posts.slice(0, 1) }]) {
      const sections = jsonFeedSections(s);
      expect(sections.texts.join('')).toBe(jsonText(jsonFeed(s)));
      expect(sections.keys.filter((p) => p !== null)).toEqual(s.posts.map((p) => p.slug));
      s.posts.forEach((_, i) => expect(jsonFeedPostSection(s, i)).toBe(sections.texts[i + 1]));
      s.posts.forEach((_, i) => expect(atomPostSection(s, i)).toBe(atomSections(s).texts[i + 1]));
    }
  });
});
