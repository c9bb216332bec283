// D21: the Markdown twin of every page of the sample site, over a real
// `folio serve`: at P.md and at P for Accept: text/markdown, and what it says.
import { describe, expect, it } from 'vitest';
import { absolute, pagePath, twinPath } from '../build/core/urls.js';
import { servedSample, splitHeader } from './helpers/pages.js';
import { expectedPages } from './helpers/site.js';

const s = servedSample();
const { get } = s;

describe('pages and twins (D20, D21)', () => {
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
});
