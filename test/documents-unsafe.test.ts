// Hostile content (test/fixtures/unsafe: markup, quotes and ampersands in
// titles, tags and summaries) cannot break the XML or Markdown documents:
// each is escaped, and an independent parser reads the original text back.
import { cp } from 'node:fs/promises';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { robotsTxt } from '../build/core/documents/robots.js';
import { copyContent, serveBuilt } from './helpers/site.js';

let s: Awaited<ReturnType<typeof serveBuilt>>;
let post: any;

beforeAll(async () => {
  const content = await copyContent();
  await cp('test/fixtures/unsafe', content, { recursive: true });
  s = await serveBuilt(content);
  post = await (await fetch(s.at('/api/v1/posts/unsafe-content'))).json();
});
afterAll(() => s?.close());

describe('documents with hostile content (D27, D28, D26)', () => {
  it('keeps a title with line breaks one comment line of robots.txt, adding no directive', () => {
    const title = 'Hanna Brink\nUser-agent: *\r\nDisallow: /\u2028Sitemap: https://evil.example/sitemap.xml';
    const robots = robotsTxt({ ...s.site, config: { ...s.site.config, title } });
    expect(robots).not.toMatch(/^Disallow/m);
    expect(robots).not.toMatch(/^Sitemap: https:\/\/evil/m);
    expect(robots.split('\n')[0]).toBe(
      '# Hanna Brink User-agent: * Disallow: / Sitemap: https://evil.example/sitemap.xml: every page, its Markdown twin, the API and the feeds are public.',
    );
  });

  it('keeps feed.xml well-formed and reads the hostile title, summary and tags back verbatim', async () => {
    const xml = await (await fetch(s.at('/feed.xml'))).text();
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(post.title).toMatch(/<script>.*&.*"/);
    const feed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      textNodeName: '#text',
      parseTagValue: false,
      htmlEntities: false,
      isArray: (name) => ['entry', 'category', 'link'].includes(name),
    }).parse(xml).feed;
    const entry = feed.entry.find((e: any) => e.id.endsWith('/blog/unsafe-content'));
    expect(entry.title).toBe(post.title);
    expect(entry.summary).toBe(post.summary);
    expect(entry.category.map((c: any) => c['@term'])).toEqual(post.tags);
    // The sanitised HTML is text inside <content>, never elements of the feed.
    expect(Object.keys(entry.content)).toEqual(['#text', '@type']);
    expect(entry.content['#text']).not.toMatch(/<script/i);
  });

  it('keeps sitemap.xml well-formed', async () => {
    const xml = await (await fetch(s.at('/sitemap.xml'))).text();
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('/blog/unsafe-content</loc>');
  });

  it('keeps the llms.txt item format, with the hostile title escaped as text', async () => {
    const text = await (await fetch(s.at('/llms.txt'))).text();
    const line = text.split('\n').find((l) => l.includes('/blog/unsafe-content.md'))!;
    expect(line).toMatch(/^- \[(.+?)\]\((\S+)\): .+$/);
    expect(line).not.toMatch(/<script>/);
    expect(line).toContain('\\<script\\>');
  });

  it('keeps the JSON-LD of the hostile post one whole block that reads the title, summary and tags back (D49)', async () => {
    const html = await (await fetch(s.at('/blog/unsafe-content'))).text();
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).not.toMatch(/[<>]/);
    const article = JSON.parse(blocks[0]!)['@graph'][0];
    expect(article.headline).toBe(post.title);
    expect(article.description).toBe(post.summary);
    expect(article.keywords).toEqual(post.tags);
  });

  it('keeps feed.json parseable with the same title', async () => {
    const feed = (await (await fetch(s.at('/feed.json'))).json()) as any;
    expect(feed.items.find((i: any) => i.id.endsWith('/blog/unsafe-content')).title).toBe(post.title);
  });
});
