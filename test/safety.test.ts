// D24: content cannot inject script. The sample content plus hostile posts,
// projects, services and profile fields (test/fixtures/unsafe) is built and
// served; every page is parsed as a browser would and searched for anything
// that could run.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../build/core/pages/index.js';
import { attr, byTag, elements, parseHtml, textOf, type Element } from './helpers/html.js';
import { copyContent, serveBuilt } from './helpers/site.js';

let s: Awaited<ReturnType<typeof serveBuilt>>;

beforeAll(async () => {
  const content = await copyContent();
  await cp('test/fixtures/unsafe', content, { recursive: true });
  // A contact route is free text in the profile: make one hostile.
  const profile = join(content, 'profile.md');
  const text = await readFile(profile, 'utf8');
  await writeFile(
    profile,
    text.replace(
      /^contact:\n/m,
      `contact:\n  evil: "javascript:alert('contact')"\n  sneaky: " JavaScript:alert('contact2')"\n  offsite: "/\\\\evil.example/x"\n  tabbed: "/\\t/evil.example/y"\n`,
    ),
  );
  s = await serveBuilt(content);
});
afterAll(() => s?.close());

/** Attributes that take a URL and could carry script. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'srcset', 'background', 'ping']);

/** What the browser sees as the scheme: control characters and whitespace are stripped before it is read. */
function scheme(url: string): string {
  const cleaned = url.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  return /^([a-z][a-z0-9+.-]*):/.exec(cleaned)?.[1] ?? '';
}

/** A JSON-LD data block (D49): a script element a browser never runs. */
function isDataBlock(el: Element): boolean {
  return el.tagName === 'script' && el.attrs.length === 1 && attr(el, 'type') === 'application/ld+json';
}

function problems(el: Element): string[] {
  const out: string[] = [];
  if (isDataBlock(el)) return out;
  if (['script', 'iframe', 'object', 'embed', 'form', 'base', 'frame', 'frameset', 'applet'].includes(el.tagName))
    out.push(`<${el.tagName}>`);
  if (el.tagName === 'meta' && attr(el, 'http-equiv')?.toLowerCase() === 'refresh') out.push('<meta http-equiv=refresh>');
  for (const a of el.attrs) {
    const name = a.prefix ? `${a.prefix}:${a.name}` : a.name;
    if (/^on/i.test(a.name)) out.push(`${el.tagName}[${name}]`);
    if (a.name === 'style') out.push(`${el.tagName}[style]`);
    if (URL_ATTRIBUTES.has(name) || URL_ATTRIBUTES.has(a.name)) {
      const sch = scheme(a.value);
      const allowed =
        sch === '' ||
        sch === 'http' ||
        sch === 'https' ||
        sch === 'mailto' ||
        sch === 'tel' ||
        (sch === 'data' && el.tagName === 'link' && /^data:image\/svg\+xml,/.test(a.value)) ||
        (sch === 'data' && el.tagName === 'img' && a.name === 'src' && /^data:image\//.test(a.value));
      if (!allowed) out.push(`${el.tagName}[${name}=${a.value}]`);
    }
  }
  return out;
}

async function pagePaths(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(s.out, '_folio/manifest.json'), 'utf8')) as {
    routes: Record<string, [string, number]>;
    header_sets: Record<string, string>[];
  };
  return Object.entries(manifest.routes)
    .filter(([, [, set]]) => manifest.header_sets[set]!['content-type']!.startsWith('text/html'))
    .map(([target]) => target);
}

describe('unsafe content cannot reach a page as script (D24)', () => {
  it('builds the hostile fixture into real pages', async () => {
    const res = await fetch(`${s.url}/blog/unsafe-content`);
    expect(res.status).toBe(200);
    expect(s.site.projects.some((p) => p.id === 'unsafe-project')).toBe(true);
    expect(s.site.services.some((p) => p.id === 'unsafe-service')).toBe(true);
  });

  it('leaves no script, event handler, javascript: URL or framing element on any page', async () => {
    const paths = await pagePaths();
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/blog',
        '/blog/unsafe-content',
        '/projects/unsafe-project',
        '/services',
        '/about',
        '/blog/tags/security',
      ]),
    );
    for (const path of [...paths, '/nope']) {
      const res = await fetch(s.url + path);
      const doc = parseHtml(await res.text());
      const found = elements(doc).flatMap(problems);
      expect(found, path).toEqual([]);
      // The one data block holds the whole JSON: hostile titles never end it early (D49).
      const blocks = elements(doc).filter(isDataBlock);
      if (path !== '/nope') expect(blocks.length, path).toBe(1);
      for (const block of blocks) expect(() => JSON.parse(textOf(block)), path).not.toThrow();
      expect(res.headers.get('content-security-policy'), path).toMatch(/default-src 'none'/);
    }
  });

  it('shows hostile titles and summaries as text, not drops them', async () => {
    const doc = parseHtml(await (await fetch(`${s.url}/blog/unsafe-content`)).text());
    expect(textOf(byTag(doc, 'h1')[0]!)).toBe(`<script>alert('title')</script> Unsafe & "quoted" title`);
    expect(textOf(byTag(doc, 'title')[0]!)).toContain(`<script>alert('title')</script>`);
    const description = byTag(doc, 'meta').find((m) => attr(m, 'name') === 'description')!;
    expect(attr(description, 'content')).toContain(`"><img src=x onerror=alert('summary')>`);
    // Code keeps its text; a javascript: link keeps its words but loses its target.
    expect(textOf(doc)).toContain(`const x = '<script>alert("code")</script>';`);
    const plain = byTag(doc, 'a').find((a) => textOf(a) === 'plain')!;
    expect(plain.attrs).toEqual([]);
    // An image keeps a data: image as written (D44); one with a javascript: or non-image address keeps its alt text, and
    // no <img> is left without a src (D54).
    const images = byTag(doc, 'img');
    expect(images.filter((i) => attr(i, 'src') === undefined)).toEqual([]);
    expect(images.map((i) => attr(i, 'src'))).toContain('data:image/png;base64,iVBORw0KGgo=');
    expect(textOf(doc)).toMatch(/\bimage\b/);
    expect(textOf(doc)).toContain(' and page');
  });

  it('keeps hostile contact routes and project URLs out of href', async () => {
    const about = parseHtml(await (await fetch(`${s.url}/about`)).text());
    const hrefs = byTag(about, 'a').map((a) => attr(a, 'href') ?? '');
    expect(hrefs.filter((h) => /javascript/i.test(h))).toEqual([]);
    expect(textOf(about)).toContain("javascript:alert('contact')");
    // Site-relative in looks only: a browser reads /\host, and /<tab>/host with the tab dropped, as another host.
    expect(hrefs.filter((h) => /evil\.example/.test(h))).toEqual([]);
    expect(textOf(about)).toContain('evil.example/x');
    const project = parseHtml(await (await fetch(`${s.url}/projects/unsafe-project`)).text());
    const website = byTag(project, 'a').find((a) => (attr(a, 'href') ?? '').startsWith('https://example.com/'))!;
    expect(attr(website, 'href')).toBe(`https://example.com/?q="><script>alert(1)</script>`);
  });

  it('serves twins as Markdown that a browser will not sniff into HTML', async () => {
    const res = await fetch(`${s.url}/blog/unsafe-content.md`);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml('plain text')).toBe('plain text');
  });
});
