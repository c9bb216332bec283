// D20–D23: every page of the sample site and its Markdown twin, over a real
// `folio serve`; the developer page against the declarations it documents;
// the 404s in both variants.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../build/core/api/operations.js';
import { ERROR_STATUS } from '../build/core/errors.js';
import { MANIFEST_PATH, SITE_PATH, type Manifest } from '../build/core/files.js';
import { request } from '../build/core/http.js';
import { tools } from '../build/core/mcp/tools.js';
import type { Site } from '../build/core/model.js';
import { pagesFamily } from '../build/core/pages/index.js';
import { respond } from '../build/core/respond.js';
import { absolute, pagePath, twinPath } from '../build/core/urls.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { SiteModel } from '../build/core/site-model.js';
import { attr, byTag, elements, parseHtml, textOf } from './helpers/html.js';
import { expectedPages, serveBuilt } from './helpers/site.js';

const run = promisify(execFile);

let s: Awaited<ReturnType<typeof serveBuilt>>;
let manifest: Manifest;

beforeAll(async () => {
  s = await serveBuilt();
  manifest = JSON.parse(await readFile(join(s.out, MANIFEST_PATH), 'utf8'));
});
afterAll(() => s?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(s.url + path, { headers });

function splitHeader(value: string | null): string[] {
  return (value ?? '').split(',').map((v) => v.trim().toLowerCase());
}

describe('pages and twins (D20, D21)', () => {
  it('enumerates every page, every twin and the stylesheet for the build', () => {
    const targets = pagesFamily.enumerate(new SiteModel(s.site));
    const pages = expectedPages(s.site);
    expect(pages.length).toBeGreaterThan(30);
    for (const p of pages) {
      expect(targets, p).toContain(p);
      expect(targets, p).toContain(p === '/' ? '/index.md' : `${p}.md`);
      expect(manifest.routes[p], p).toBeDefined();
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

  it('serves every twin at P.md, and exactly those bytes at P for Accept: text/markdown', async () => {
    for (const path of expectedPages(s.site)) {
      const twin = path === '/' ? '/index.md' : `${path}.md`;
      const direct = await get(twin);
      expect(direct.status, twin).toBe(200);
      expect(direct.headers.get('content-type'), twin).toBe('text/markdown; charset=utf-8');
      expect(splitHeader(direct.headers.get('vary')), twin).toEqual(expect.arrayContaining(['accept', 'accept-encoding']));
      const bytes = Buffer.from(await direct.arrayBuffer());
      expect(bytes.toString('utf8'), twin).toMatch(/^# \S/);

      const negotiated = await get(path, { accept: 'text/markdown' });
      expect(negotiated.status, path).toBe(200);
      expect(negotiated.headers.get('content-type'), path).toBe('text/markdown; charset=utf-8');
      expect(splitHeader(negotiated.headers.get('vary')), path).toEqual(expect.arrayContaining(['accept', 'accept-encoding']));
      expect(Buffer.from(await negotiated.arrayBuffer()).equals(bytes), path).toBe(true);
      expect(negotiated.headers.get('etag')).toBe(direct.headers.get('etag'));
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

  it('writes twins for agents: title, facts, body and links to related twins', async () => {
    const site = s.site;
    const md = (path: string) => absolute(site, twinPath(path));
    const blog = await (await get('/blog.md')).text();
    expect(blog.startsWith('# Writing\n')).toBe(true);
    for (const p of site.posts) expect(blog, p.slug).toContain(`](${md(pagePath.post(p.slug))})`);
    for (const t of site.tags) expect(blog, t.tag).toContain(`](${md(pagePath.tag(t.tag))})`);

    const post = site.posts.find((p) => p.updated && p.tags.length > 1)!;
    const text = await (await get(`/blog/${post.slug}.md`)).text();
    // The title line, once Markdown's backslash escapes are read, is the title.
    expect(text.split('\n')[0]!.replace(/\\(.)/g, '$1')).toBe(`# ${post.title}`);
    expect(text).toContain(`- Published: ${post.date}`);
    expect(text).toContain(`- Updated: ${post.updated}`);
    expect(text).toContain(`- JSON: ${site.config.site_url}/api/v1/posts/${post.slug}`);
    expect(text).toContain(post.content_markdown.trim());
    for (const t of post.tags) expect(text).toContain(`](${md(pagePath.tag(t))})`);
    expect(text).toContain(`](${md(pagePath.blog())})`);

    const project = site.projects[0]!;
    const ptext = await (await get(`/projects/${project.id}.md`)).text();
    expect(ptext).toContain(`- Status: ${project.status}`);
    expect(ptext).toContain(project.body_markdown.trim());

    const about = await (await get('/about.md')).text();
    for (const value of Object.values(site.profile.contact)) expect(about).toContain(value);

    const services = await (await get('/services.md')).text();
    for (const svc of site.services) expect(services).toContain(`${site.config.site_url}/services/${svc.id}.md`);
    const service = site.services[0]!;
    const stext = await (await get(`/services/${service.id}.md`)).text();
    expect(stext).toContain(`# ${service.title}`);
    expect(stext).toContain(service.body_markdown.trim());
    expect(stext).toContain(`- JSON: ${site.config.site_url}/api/v1/services/${service.id}`);

    const home = await (await get('/index.md')).text();
    for (const p of ['/about', '/services', '/blog', '/projects', '/developers']) expect(home).toContain(`](${md(p)})`);
  });

  it('renders GFM tables, highlighted code and footnotes from the content', async () => {
    // Find posts in the model that use each feature, so the check follows the content.
    const withTable = s.site.posts.find((p) => /^\|.*\|\s*$/m.test(p.content_markdown))!;
    const withCode = s.site.posts.find((p) => /^```(bash|ts|yaml|json|ini|python|sql)\b/m.test(p.content_markdown))!;
    const withNote = s.site.posts.find((p) => /\[\^[^\]]+\]:/.test(p.content_markdown))!;
    const table = parseHtml(await (await get(`/blog/${withTable.slug}`)).text());
    const wrapper = elements(table).find((e) => attr(e, 'class') === 'table-scroll')!;
    expect(byTag(wrapper, 'table')).toHaveLength(1);
    expect(attr(wrapper, 'tabindex')).toBe('0');
    expect(attr(wrapper, 'aria-label')).toMatch(/^Table/);
    const code = parseHtml(await (await get(`/blog/${withCode.slug}`)).text());
    expect(elements(code).some((e) => (attr(e, 'class') ?? '').startsWith('hljs-'))).toBe(true);
    const note = parseHtml(await (await get(`/blog/${withNote.slug}`)).text());
    const section = elements(note).find((e) => attr(e, 'data-footnotes') !== undefined)!;
    expect(byTag(section, 'li').length).toBeGreaterThan(0);
    const ref = elements(note).find((e) => attr(e, 'data-footnote-ref') !== undefined)!;
    const target = attr(ref, 'href')!.slice(1);
    expect(elements(note).some((e) => attr(e, 'id') === target)).toBe(true);
  });

  it('lists every service under its own anchor, linking its own page, which the API url names (D47)', async () => {
    const doc = parseHtml(await (await get('/services')).text());
    const ids = new Set(elements(doc).map((e) => attr(e, 'id')));
    const hrefs = new Set(byTag(doc, 'a').map((a) => attr(a, 'href')));
    const api = (await (await get('/api/v1/services')).json()) as { data: { id: string; title: string; url: string }[] };
    for (const svc of api.data) {
      expect(ids.has(svc.id), svc.id).toBe(true);
      expect(hrefs.has(`/services/${svc.id}`), svc.id).toBe(true);
      expect(svc.url).toBe(`${s.site.config.site_url}/services/${svc.id}`);
      const page = parseHtml(await (await get(`/services/${svc.id}`)).text());
      expect(byTag(page, 'h1').map((h) => textOf(h))).toEqual([svc.title]);
    }
  });

  it('links each service on the home and about pages to its own page, and in their twins to its own twin (D47)', async () => {
    const { site } = s;
    const url = site.config.site_url;
    const engaged = site.profile.availability.engagements.map((e) => e.service);
    expect(site.services.length).toBeGreaterThan(1);
    expect(engaged.length).toBeGreaterThan(0);
    const hrefs = async (path: string) => byTag(parseHtml(await (await get(path)).text()), 'a').map((a) => attr(a, 'href') ?? '');

    const home = await hrefs('/');
    for (const svc of site.services) expect(home, svc.id).toContain(`/services/${svc.id}`);
    const about = await hrefs('/about');
    for (const id of engaged) expect(about, id).toContain(`/services/${id}`);
    for (const [path, list] of [
      ['/', home],
      ['/about', about],
    ] as const)
      expect(
        list.filter((h) => h.startsWith('/services#')),
        path,
      ).toEqual([]);

    const homeTwin = await (await get('/index.md')).text();
    for (const svc of site.services) expect(homeTwin, svc.id).toContain(`- [${svc.title}](${url}/services/${svc.id}.md): `);
    // The list twin is linked once, from "Pages"; no service points at it.
    expect(homeTwin.split(`(${url}/services.md)`)).toHaveLength(2);
    const aboutTwin = await (await get('/about.md')).text();
    for (const id of engaged) expect(aboutTwin, id).toContain(`](${url}/services/${id}.md): `);
    for (const text of [homeTwin, aboutTwin]) expect(text).not.toContain(`${url}/services.md#`);
  });

  it('puts every contact route of the profile on /about', async () => {
    const doc = parseHtml(await (await get('/about')).text());
    const hrefs = byTag(doc, 'a').map((a) => attr(a, 'href'));
    expect(hrefs).toContain(`mailto:${s.site.profile.contact.email}`);
    for (const [key, value] of Object.entries(s.site.profile.contact)) if (key !== 'email') expect(hrefs, key).toContain(value);
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

  it('says on /projects what kinds of project it lists, as the statuses it has (D59)', async () => {
    const site = s.site;
    const name = site.profile.name;
    const cases: [string[], string][] = [
      [['live', 'delivered', 'sunset'], `Products ${name} runs or ran and client work delivered, grouped by status.`],
      [['delivered'], `Client work ${name} delivered.`],
      [['live'], `Products ${name} runs.`],
      [['sunset'], `Products ${name} ran.`],
      [['live', 'delivered'], `Products ${name} runs and client work delivered, grouped by status.`],
    ];
    for (const [statuses, lead] of cases) {
      const only = { ...site, projects: site.projects.filter((p) => statuses.includes(p.status)) };
      expect(new Set(only.projects.map((p) => p.status)).size).toBe(statuses.length);
      const reply = await respond(request('GET', '/projects'), memoryRuntime(only));
      const doc = parseHtml(Buffer.from(reply.body!).toString('utf8'));
      const found = elements(doc).find((e) => e.tagName === 'p' && attr(e, 'class') === 'lead');
      expect(textOf(found!), statuses.join()).toBe(lead);
    }
  });

  it('shows as related posts the three others sharing the most tags, newest first among equals', async () => {
    const sample = JSON.parse(await readFile(join(s.out, SITE_PATH), 'utf8')) as Site;
    // The sample, and 400 posts with 1-4 of 12 tags each (seeded): many ties, and posts with fewer than three that share two tags.
    let seed = 11;
    const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    const made = Array.from({ length: 400 }, (_, i) => {
      const tags = [...new Set(Array.from({ length: 1 + random(4) }, () => `t${random(12)}`))];
      return { ...sample.posts[0]!, slug: `made-${String(i).padStart(3, '0')}`, title: `Made ${i}`, tags };
    });
    const counts = new Map<string, number>();
    for (const p of made) for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
    const generated: Site = {
      ...sample,
      posts: made,
      tags: [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([tag, count]) => ({ tag, count })),
    };
    // One model asked for every page (past its first lists, it finds them by pair of tags), and a model
    // per page (its first list, found from two tags' lists, as a one-post edit does).
    for (const [site, fresh] of [sample, generated].flatMap(
      (site) =>
        [
          [site, false],
          [site, true],
        ] as const,
    )) {
      const shared = memoryRuntime(site);
      for (const [n, post] of site.posts.entries()) {
        const rt = fresh ? memoryRuntime(site) : shared;
        // Written from the rule, not the code: every other post by shared tags, then by its place in the list.
        const expected = site.posts
          .map((other, i) => ({ other, i, shared: other.tags.filter((t) => post.tags.includes(t)).length }))
          .filter((c) => c.i !== n && c.shared > 0)
          .sort((a, b) => b.shared - a.shared || a.i - b.i)
          .slice(0, 3)
          .map((c) => pagePath.post(c.other.slug));
        const reply = await respond(request('GET', pagePath.post(post.slug)), rt);
        const aside = elements(parseHtml(Buffer.from(reply.body!).toString('utf8'))).find(
          (e) => e.tagName === 'aside' && attr(e, 'class') === 'related',
        );
        expect(aside ? byTag(aside, 'a').map((a) => attr(a, 'href')) : [], post.slug).toEqual(expected);
      }
    }
  });
});

describe('developer page (D22)', () => {
  let doc: ReturnType<typeof parseHtml>;
  let text: string;
  beforeAll(async () => {
    const res = await get('/developers');
    text = await res.text();
    doc = parseHtml(text);
  });

  it('documents every endpoint and parameter, from the operations table', () => {
    const body = textOf(doc);
    for (const op of operations) {
      expect(body, op.operationId).toContain(op.operationId);
      expect(body, op.operationId).toContain(`GET /api/v1${op.path}`);
      expect(body, op.operationId).toContain(op.description.replace(/`/g, ''));
      for (const p of op.parameters) expect(body, `${op.operationId} ${p.name}`).toContain(p.description.replace(/`/g, ''));
    }
  });

  it('documents the error envelope and every code with its status', () => {
    const rows = byTag(doc, 'tr').map((tr) => byTag(tr, 'td').map((td) => textOf(td).trim()));
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(
        rows.some((r) => r[0] === code && r[1] === String(status)),
        code,
      ).toBe(true);
    }
    for (const field of ['error.code', 'error.status', 'error.message', 'error.hint', 'error.documentation_url', 'error.openapi_url']) {
      expect(
        rows.some((r) => r[0] === field),
        field,
      ).toBe(true);
    }
  });

  it('documents the MCP endpoint and every tool, fair use and versioning', () => {
    const body = textOf(doc);
    expect(body).toContain(`${s.site.config.site_url}/mcp`);
    for (const t of tools) expect(body, t.name).toContain(t.name);
    expect(body).toMatch(/60 requests a minute/);
    const versioning = elements(doc).find((e) => attr(e, 'id') === 'versioning')!;
    expect(versioning).toBeDefined();
    const policy = textOf(versioning);
    for (const word of ['X-Api-Version', 'X-Api-Deprecated', 'Deprecation', 'Sunset', '410', '180 days']) expect(policy).toContain(word);
    expect(policy).toContain('v1 is current and not deprecated');
  });

  it('gives curl examples that run against the site', async () => {
    const commands = byTag(doc, 'code')
      .flatMap((c) => textOf(c).split('\n'))
      .filter((c) => c.startsWith('curl ') && !c.includes('-X POST'));
    expect(commands.length).toBeGreaterThanOrEqual(operations.length);
    for (const command of commands) {
      // The real curl, pointed at the test server in place of the site's host.
      const local = command.split(s.site.config.site_url).join(s.url);
      const args = [...local.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
      const { stdout } = await run('curl', [...args, '-w', '\n%{http_code}'], { timeout: 10_000 });
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
      if (command.includes('no-such-post')) {
        expect(status, command).toBe(404);
        expect(stdout).toContain('"code": "not_found"');
      } else expect(status, command).toBe(200);
    }
  });

  it('gives MCP curl examples that run against the site', async () => {
    const commands = byTag(doc, 'code')
      .map((c) => textOf(c))
      .filter((c) => c.startsWith('curl ') && c.includes('-X POST'));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    const results: {
      result?: { tools?: { name: string }[]; isError?: boolean; content?: { type: string; text: string }[] };
      error?: unknown;
    }[] = [];
    for (const command of commands) {
      const local = command
        .replace(/\\\n\s*/g, ' ')
        .split(s.site.config.site_url)
        .join(s.url);
      const args = [...local.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replace(/'\\''/g, "'")).slice(1);
      const { stdout } = await run('curl', args, { timeout: 10_000 });
      results.push(JSON.parse(stdout));
    }
    const listed = results.find((r) => r.result?.tools)!;
    expect(listed.result!.tools!.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    const called = results.find((r) => r.result?.content)!;
    expect(called.result!.isError ?? false).toBe(false);
    expect(called.result!.content![0]!.text).toContain(s.site.posts[0]!.content_markdown.trim().slice(0, 200));
  });

  it('shows a deprecated version with its dates and successor (D19)', async () => {
    const deprecated: Site = {
      ...s.site,
      versions: { v1: { version: 'v1', status: 'deprecated', deprecated: '2026-10-01', sunset: '2027-04-01', successor: 'v2' } },
    };
    const reply = await respond(request('GET', '/developers'), memoryRuntime(deprecated));
    const page = parseHtml(Buffer.from(reply.body!).toString('utf8'));
    const notice = elements(page).find((e) => attr(e, 'class') === 'notice')!;
    expect(textOf(notice)).toContain('deprecated since 2026-10-01');
    expect(textOf(notice)).toContain('2027-04-01');
    expect(textOf(notice)).toContain(`${s.site.config.site_url}/api/v2`);
    const versioning = elements(page).find((e) => attr(e, 'id') === 'versioning')!;
    expect(textOf(versioning)).toContain('v1 is deprecated since 2026-10-01');
    const twin = await respond(request('GET', '/developers.md'), memoryRuntime(deprecated));
    expect(Buffer.from(twin.body!).toString('utf8')).toContain('Deprecation notice');
  });
});

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
    expect(manifest.fallbacks['/*']).toMatchObject({ file: '404.html', status: 404 });
    expect(manifest.routes['/404']).toBeUndefined();
  });

  it('answers HEAD on an unknown page with 404', async () => {
    const res = await fetch(`${s.url}/nope`, { method: 'HEAD' });
    expect(res.status).toBe(404);
  });
});
