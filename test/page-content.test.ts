// D20, D47, D59: what the sample's pages show, over a real `folio serve` and
// from respond(): rendered Markdown, the services and their links, contact
// routes, the projects' lead and related posts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SITE_PATH } from '../build/core/files.js';
import { request } from '../build/core/http.js';
import type { Site } from '../build/core/model.js';
import { respond } from '../build/core/respond.js';
import { pagePath } from '../build/core/urls.js';
import { memoryRuntime } from '../build/emit/memory-runtime.js';
import { attr, byTag, elements, parseHtml, textOf } from './helpers/html.js';
import { servedSample } from './helpers/pages.js';

const s = servedSample();
const { get } = s;

describe('pages and twins (D20, D21)', () => {
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
