// D49 and D50 through a real server: every page carries one JSON-LD block and
// the social-card tags. The JSON-LD is read the way a search engine reads it
// (parse5 finds the script element, JSON.parse reads it) and expanded by a
// real JSON-LD processor (jsonld), through a local loader that answers
// schema.org's context, since tests cannot fetch it. Then the properties
// Google's rich-result documentation asks for are checked on the expanded graph.
import jsonld from 'jsonld';
import { parse } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBuilt } from './helpers/site.js';

const S = 'https://schema.org/';

/** Answers schema.org's context locally; any other remote document is an error. */
const documentLoader = async (url: string) => {
  if (/^https?:\/\/schema\.org\/?$/.test(url))
    return { contextUrl: undefined, documentUrl: url, document: { '@context': { '@vocab': S } } };
  throw new Error(`The test loader does not fetch ${url}.`);
};

interface Element {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Element[];
  value?: string;
}

function elements(node: Element, name: string, out: Element[] = []): Element[] {
  if (node.nodeName === name) out.push(node);
  for (const child of node.childNodes ?? []) elements(child, name, out);
  // <template> content is not a child in parse5's tree; pages have none.
  return out;
}

const attr = (el: Element, name: string) => el.attrs?.find((a) => a.name === name)?.value;

/** The page's JSON-LD blocks, parsed, and its meta tags by property or name. */
export function readHead(html: string): { blocks: unknown[]; meta: Map<string, string> } {
  const doc = parse(html) as unknown as Element;
  const blocks = elements(doc, 'script')
    .filter((s) => attr(s, 'type') === 'application/ld+json')
    .map((s) => JSON.parse((s.childNodes ?? []).map((t) => t.value ?? '').join('')));
  const meta = new Map<string, string>();
  for (const m of elements(doc, 'meta')) {
    const key = attr(m, 'property') ?? attr(m, 'name');
    if (key) meta.set(key, attr(m, 'content') ?? '');
  }
  return { blocks, meta };
}

type Node = Record<string, { '@value'?: string; '@id'?: string }[] | string[] | undefined> & { '@type'?: string[]; '@id'?: string };

async function expand(block: unknown): Promise<Node[]> {
  const expanded = (await jsonld.expand(block as jsonld.JsonLdDocument, { documentLoader: documentLoader as never })) as Node[];
  // A graph expands to one node per member, nested nodes inside their parents.
  return expanded.flatMap((n) => (n as { '@graph'?: Node[] })['@graph'] ?? [n]);
}

const value = (node: Node, prop: string) =>
  ((node[`${S}${prop}`] as { '@value'?: string; '@id'?: string }[] | undefined)?.[0] ?? {}) as { '@value'?: string; '@id'?: string } & Node;
/** A property's text: a string value, or an IRI for properties schema.org types as URL. */
const text = (node: Node, prop: string) => value(node, prop)['@value'] ?? value(node, prop)['@id'];
const ofType = (nodes: Node[], type: string) => nodes.filter((n) => n['@type']?.includes(`${S}${type}`));

let s: Awaited<ReturnType<typeof serveBuilt>>;
beforeAll(async () => {
  s = await serveBuilt();
});
afterAll(() => s?.close());

async function page(path: string) {
  const res = await fetch(s.at(path), { headers: { accept: 'text/html' } });
  expect(res.status, path).toBe(200);
  return readHead(await res.text());
}

describe('structured data (D49)', () => {
  it('every HTML page carries exactly one JSON-LD block that expands as schema.org', async () => {
    const sitemap = await (await fetch(s.at('/sitemap.xml'))).text();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      const { blocks } = await page(path);
      expect(blocks.length, path).toBe(1);
      expect((blocks[0] as { '@context': string })['@context'], path).toBe('https://schema.org');
      const nodes = await expand(blocks[0]);
      expect(nodes.length, path).toBeGreaterThan(0);
      for (const n of nodes) expect(n['@type']?.[0], path).toMatch(/^https:\/\/schema\.org\/[A-Z]/);
    }
  });

  it('home: WebSite, Person and ProfessionalService with every service in an OfferCatalog', async () => {
    const nodes = await expand((await page('/')).blocks[0]);
    const services = (await (await fetch(s.at('/api/v1/services'))).json()).data as { title: string; summary: string }[];
    expect(ofType(nodes, 'WebSite')).toHaveLength(1);
    const person = ofType(nodes, 'Person')[0]!;
    expect(text(person, 'name')).toBe('Hanna Brink');
    expect(text(person, 'url')).toBe('https://hannabrink.example/about');
    const business = ofType(nodes, 'ProfessionalService')[0]!;
    const catalog = value(business, 'hasOfferCatalog');
    expect(catalog['@type']).toEqual([`${S}OfferCatalog`]);
    const offered = (catalog[`${S}itemListElement`] as unknown as Node[]).map((offer) => value(offer, 'itemOffered'));
    expect(offered.map((o) => text(o, 'name'))).toEqual(services.map((x) => x.title));
    for (const o of offered) {
      expect(o['@type']).toEqual([`${S}Service`]);
      expect(text(value(o, 'provider'), 'name')).toBe('Hanna Brink');
    }
    // D60: an engagement on offer carries its start, terms and booking address; one left out carries no start.
    const availability = (await (await fetch(s.at('/api/v1/availability'))).json()) as {
      earliest_start: string;
      booking_url: string;
      engagements: { title: string; formats: string[]; rate_band: string }[];
    };
    const offers = catalog[`${S}itemListElement`] as unknown as Node[];
    for (const [i, o] of offers.entries()) {
      const engagement = availability.engagements.find((e) => e.title === text(offered[i]!, 'name'));
      if (engagement) {
        expect(text(o, 'availabilityStarts')).toBe(availability.earliest_start);
        expect(text(o, 'description')).toBe(`${engagement.formats.join(', ')}; ${engagement.rate_band}`);
        expect(text(o, 'url')).toBe(availability.booking_url);
      } else expect(o[`${S}availabilityStarts`]).toBeUndefined();
    }
    expect(offers.filter((o) => o[`${S}availabilityStarts`])).toHaveLength(availability.engagements.length);
  });

  it('about: a ProfilePage whose mainEntity is the Person (Google: mainEntity with a name)', async () => {
    const nodes = await expand((await page('/about')).blocks[0]);
    const profile = ofType(nodes, 'ProfilePage')[0]!;
    const entity = value(profile, 'mainEntity');
    expect(entity['@type']).toEqual([`${S}Person`]);
    expect(text(entity, 'name')).toBe('Hanna Brink');
    expect(text(entity, 'jobTitle')).toMatch(/\w/);
  });

  it('a post: a BlogPosting with the properties Google asks for, equal to the API record', async () => {
    const post = await (await fetch(s.at('/api/v1/posts/email-deliverability-b2b-saas'))).json();
    const nodes = await expand((await page('/blog/email-deliverability-b2b-saas')).blocks[0]);
    const article = ofType(nodes, 'BlogPosting')[0]!;
    expect(text(article, 'headline')).toBe(post.title);
    expect(text(article, 'datePublished')).toBe(post.date);
    expect(text(article, 'dateModified')).toBe(post.updated);
    expect(text(article, 'url')).toBe(post.url);
    expect(text(article, 'inLanguage')).toBe('en');
    const author = value(article, 'author');
    expect(text(author, 'name')).toBe('Hanna Brink');
    expect(text(author, 'url')).toBe('https://hannabrink.example/about');
    expect((article[`${S}keywords`] as { '@value': string }[]).map((k) => k['@value'])).toEqual(post.tags);
    expect(text(article, 'license')).toBe('https://creativecommons.org/licenses/by/4.0/');
    // The sample's posts have no image yet: no image property rather than an empty one.
    expect(article[`${S}image`]).toBeUndefined();
    const crumbs = ofType(nodes, 'BreadcrumbList')[0]!;
    expect((crumbs[`${S}itemListElement`] as unknown as Node[]).map((i) => text(i, 'item'))).toEqual([
      'https://hannabrink.example/',
      'https://hannabrink.example/blog',
      post.url,
    ]);
  });

  it('a project: a CreativeWork; the lists: a BreadcrumbList; services: a Service each with its provider', async () => {
    const project = ofType(await expand((await page('/projects/bouncedesk')).blocks[0]), 'CreativeWork')[0]!;
    expect(text(project, 'name')).toBe('Bouncedesk');
    expect(text(project, 'creativeWorkStatus')).toBe('live');
    // The project itself (here a product with a site of its own), which the writing's license does not cover (D51).
    expect(text(project, 'sameAs')).toBe('https://bouncedesk.example');
    expect(text(project, 'license')).toBeUndefined();
    for (const path of ['/blog', '/projects', '/blog/tags/email', '/services', '/developers']) {
      const crumbs = ofType(await expand((await page(path)).blocks[0]), 'BreadcrumbList');
      expect(crumbs, path).toHaveLength(1);
    }
    const services = ofType(await expand((await page('/services')).blocks[0]), 'Service');
    expect(services.length).toBe(5);
    for (const service of services) expect(text(value(service, 'provider'), 'name')).toBe('Hanna Brink');
  });
});

describe('social cards (D50)', () => {
  it('every page has og:title, og:description, og:type, og:url and twitter:card; no image without one', async () => {
    for (const path of [
      '/',
      '/about',
      '/services',
      '/blog',
      '/blog/bounce-handling',
      '/projects',
      '/projects/bouncedesk',
      '/developers',
      '/blog/tags/email',
    ]) {
      const { meta } = await page(path);
      for (const key of ['og:title', 'og:description', 'og:type', 'og:url']) expect(meta.get(key), `${path} ${key}`).toMatch(/\S/);
      expect(meta.get('og:url')).toBe(`https://hannabrink.example${path === '/' ? '/' : path}`);
      // The sample names no social_image and no photo yet: a summary card, and no image tag pointing nowhere.
      if (!meta.has('og:image')) expect(meta.get('twitter:card'), path).toBe('summary');
      else {
        expect(meta.get('og:image'), path).toMatch(/^https:\/\//);
        expect(meta.get('og:image:alt'), path).toMatch(/\S/);
        expect(meta.get('twitter:card'), path).toBe('summary_large_image');
      }
    }
  });
});
