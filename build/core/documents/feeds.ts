// The post feed (D28): Atom 1.0 (RFC 4287) at /feed.xml and the same items as
// JSON Feed 1.1 at /feed.json, newest first, with the full content.
import { clockTime } from '../clock.js';
import { absoluteHtml } from '../absolute.js';
import { jsonText, type Frame, type Sections } from '../http.js';
import { absoluteImages } from '../media.js';
import type { License, Post, Site } from '../model.js';
import { absolute, pagePath, twinPath } from '../urls.js';
import { newestChange, postChanged } from './site-pages.js';
import { escapeXml } from './xml.js';

export const ATOM_NS = 'http://www.w3.org/2005/Atom';

/** Atom's rights (RFC 4287 §4.2.10) are text: the license's name and where to read it. */
export function licenseText(license: License): string {
  return `${license.name}: ${license.url}`;
}

/** RFC 3339 for a YYYY-MM-DD date: midnight UTC. */
function rfc3339(date: string): string {
  return `${date}T00:00:00Z`;
}

/** The feed's own updated time: the newest post change, else the build clock. */
function feedUpdated(site: Site): string {
  return site.posts.length ? rfc3339(newestChange(site)) : clockTime(site).replace(/\.\d+Z$/, 'Z');
}

interface FeedItem {
  post: Post;
  url: string;
  markdownUrl: string;
}

function itemOf(site: Site, post: Post): FeedItem {
  return { post, url: absolute(site, pagePath.post(post.slug)), markdownUrl: absolute(site, twinPath(pagePath.post(post.slug))) };
}

function items(site: Site): FeedItem[] {
  // site.posts is already newest first (D6).
  return site.posts.map((post) => itemOf(site, post));
}

function atomEntry(site: Site, { post, url, markdownUrl }: FeedItem): string {
  const x = escapeXml;
  // The rendered HTML is in the build's model; the runtime copy has none, so
  // a feed rendered there (only if the precomputed file is missing) carries the Markdown.
  // absoluteHtml makes src and href absolute, absoluteImages the srcset candidates.
  const content =
    post.html === undefined
      ? `<content type="text">${x(post.content_markdown)}</content>`
      : `<content type="html">${x(absoluteImages(absoluteHtml(post.html, site.config.site_url, url), site.config.site_url))}</content>`;
  return [
    '  <entry>',
    `    <id>${x(url)}</id>`,
    `    <title>${x(post.title)}</title>`,
    `    <link rel="alternate" type="text/html" href="${x(url)}"/>`,
    `    <link rel="alternate" type="text/markdown" href="${x(markdownUrl)}"/>`,
    `    <published>${rfc3339(post.date)}</published>`,
    `    <updated>${rfc3339(postChanged(post))}</updated>`,
    `    <summary>${x(post.summary)}</summary>`,
    ...post.tags.map((tag) => `    <category term="${x(tag)}" scheme="${x(`${site.config.site_url}/blog/tags/`)}"/>`),
    `    ${content}`,
    '  </entry>',
    '',
  ].join('\n');
}

/** The Atom feed as sections: the head, one entry per post, the closing tag. */
export function atomSections(site: Site): Sections {
  const { head, tail } = atomFrame(site);
  return {
    texts: [head, ...items(site).map((item) => atomEntry(site, item)), tail],
    keys: [null, ...site.posts.map((p) => p.slug), null],
  };
}

/** The text of the Atom feed around its entries: the head shows the newest date a post changed. */
export function atomFrame(site: Site): Frame {
  const x = escapeXml;
  const home = site.config.site_url;
  const head = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="${ATOM_NS}" xml:lang="${x(site.config.language)}">`,
    `  <id>${x(`${home}/`)}</id>`,
    `  <title>${x(site.config.title)}</title>`,
    `  <subtitle>${x(site.config.description)}</subtitle>`,
    `  <updated>${feedUpdated(site)}</updated>`,
    `  <author>\n    <name>${x(site.profile.name)}</name>\n    <uri>${x(absolute(site, pagePath.about()))}</uri>\n  </author>`,
    `  <link rel="self" type="application/atom+xml" href="${x(`${home}/feed.xml`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${x(absolute(site, pagePath.blog()))}"/>`,
    ...(site.config.license ? [`  <rights>${x(licenseText(site.config.license))}</rights>`] : []),
    '  <generator>folio</generator>',
    '',
  ].join('\n');
  return { head, tail: '</feed>\n' };
}

/** The entry of the post at this index of site.posts, as atomSections gives it. */
export function atomPostSection(site: Site, index: number): string {
  return atomEntry(site, itemOf(site, site.posts[index]!));
}

function jsonFeedItem(site: Site, { post, url, markdownUrl }: FeedItem) {
  return {
    id: url,
    url,
    title: post.title,
    summary: post.summary,
    ...(post.html === undefined
      ? {}
      : { content_html: absoluteImages(absoluteHtml(post.html, site.config.site_url, url), site.config.site_url) }),
    // The Markdown body, which is also plain text for a reader without HTML.
    content_text: post.content_markdown,
    ...(post.image ? { image: post.image.url } : {}),
    date_published: rfc3339(post.date),
    date_modified: rfc3339(postChanged(post)),
    tags: post.tags,
    // A JSON Feed extension (underscore key): the post's Markdown twin.
    _folio: { markdown_url: markdownUrl },
  };
}

function jsonFeedHead(site: Site) {
  const home = site.config.site_url;
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: site.config.title,
    description: site.config.description,
    home_page_url: absolute(site, pagePath.blog()),
    feed_url: `${home}/feed.json`,
    language: site.config.language,
    authors: [{ name: site.profile.name, url: absolute(site, pagePath.about()) }],
    // A JSON Feed extension (underscore key): the license of the writing (D51).
    ...(site.config.license ? { _license: { name: site.config.license.name, url: site.config.license.url } } : {}),
  };
}

export function jsonFeed(site: Site) {
  return { ...jsonFeedHead(site), items: items(site).map((item) => jsonFeedItem(site, item)) };
}

// Stands for the items array in the feed's text, which is then cut around it.
const ITEMS = '\u0000items\u0000';

/** An item of the JSON Feed as jsonText() writes it inside the items array (two levels deep), with what separates it from the one before. */
function jsonFeedItemText(site: Site, item: FeedItem, index: number): string {
  return `${index ? ',' : ''}\n    ${JSON.stringify(jsonFeedItem(site, item), null, 2).replaceAll('\n', '\n    ')}`;
}

/**
 * The JSON Feed as sections: exactly jsonText(jsonFeed(site)), cut before
 * and after each item (JSON strings hold no raw line breaks, so indenting
 * an item's lines indents only its structure).
 */
export function jsonFeedSections(site: Site): Sections {
  const { head, tail } = jsonFeedFrame(site);
  return {
    texts: [head, ...items(site).map((item, i) => jsonFeedItemText(site, item, i)), tail],
    keys: [null, ...site.posts.map((p) => p.slug), null],
  };
}

/** The text of the JSON Feed around its items. */
export function jsonFeedFrame(site: Site): Frame {
  const text = jsonText({ ...jsonFeedHead(site), items: ITEMS });
  const at = text.indexOf(JSON.stringify(ITEMS));
  const head = `${text.slice(0, at)}[`;
  const tail = `${site.posts.length ? '\n  ' : ''}]${text.slice(at + JSON.stringify(ITEMS).length)}`;
  return { head, tail };
}

/** The item of the post at this index of site.posts, as jsonFeedSections gives it. */
export function jsonFeedPostSection(site: Site, index: number): string {
  return jsonFeedItemText(site, itemOf(site, site.posts[index]!), index);
}
